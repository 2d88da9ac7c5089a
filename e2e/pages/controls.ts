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
  /** why the jump box refused its text */
  readonly jumpError: Locator;
  /** where the last run to a breakpoint stopped, or that it found nothing */
  readonly breakpointHit: Locator;
  readonly timelineCounter: Locator;
  readonly timelineLegend: Locator;
  /** the timeline's columns (one per bucket of ops) */
  readonly buckets: Locator;
  /** the position line: op and step, with the run's step count
   * (data-seq-total, data-seq-total-final) */
  readonly position: Locator;

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
    this.jumpError = page.getByTestId('jump-error');
    this.breakpointHit = page.getByTestId('breakpoint-hit');
    this.timelineCounter = page.getByRole('combobox', { name: 'Timeline counter' });
    this.timelineLegend = page.getByTestId('timeline-legend');
    this.buckets = page.locator('.timeline svg.markers g.bk');
    this.position = page.getByTestId('position');
  }
}
