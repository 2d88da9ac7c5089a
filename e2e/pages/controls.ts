// The playback controls (web/src/views/Controls.tsx): the buttons of the
// store's actions, the timeline, the op box and the breakpoint.
import type { Locator, Page } from '@playwright/test';

export class ControlsArea {
  readonly step: Locator;
  readonly stepBack: Locator;
  readonly stepOp: Locator;
  readonly opBack: Locator;
  readonly play: Locator;
  readonly timeline: Locator;
  readonly jumpInput: Locator;
  readonly jumpButton: Locator;
  readonly breakpoint: Locator;
  readonly runToBreakpoint: Locator;

  constructor(readonly page: Page) {
    this.step = page.getByRole('button', { name: 'Step', exact: true });
    this.stepBack = page.getByRole('button', { name: 'Step back', exact: true });
    this.stepOp = page.getByRole('button', { name: 'Step op', exact: true });
    this.opBack = page.getByRole('button', { name: 'Op back', exact: true });
    this.play = page.getByRole('button', { name: /^(Play|Pause)$/ });
    this.timeline = page.getByRole('slider', { name: 'Timeline (op)' });
    this.jumpInput = page.getByRole('textbox', { name: 'Jump to op' });
    this.jumpButton = page.getByRole('button', { name: 'Jump', exact: true });
    this.breakpoint = page.getByRole('combobox', { name: 'Breakpoint' });
    this.runToBreakpoint = page.getByRole('button', { name: 'Run to breakpoint' });
  }
}
