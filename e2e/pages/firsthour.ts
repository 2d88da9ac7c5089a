// The first hour and the A/B view (web/src/views/StartCard.tsx, Compare.tsx):
// the start card's three ways in, and the compare section's tables, read
// through data-* attributes.
import type { Locator, Page } from '@playwright/test';

export class StartCardArea {
  readonly card: Locator;
  readonly lesson1: Locator;
  readonly scenario: Locator;
  readonly ownTrace: Locator;
  readonly close: Locator;
  constructor(readonly page: Page) {
    this.card = page.getByTestId('start-card');
    this.lesson1 = this.card.getByRole('button', { name: /^Start lesson 1/ });
    this.scenario = this.card.getByRole('button', { name: /^Pick a scenario/ });
    this.ownTrace = this.card.getByRole('button', { name: /^Bring your own trace/ });
    this.close = this.card.getByRole('button', { name: 'Close the start card' });
  }
}

export class CompareArea {
  readonly toggle: Locator;
  readonly section: Locator;
  readonly kernelB: Locator;
  readonly switchesB: Locator;
  readonly diff: Locator;
  readonly top: Locator;
  constructor(readonly page: Page) {
    this.toggle = page.getByRole('button', { name: 'A/B compare' });
    this.section = page.getByTestId('compare');
    this.kernelB = page.getByRole('combobox', { name: 'Kernel of side B' });
    this.switchesB = page.getByRole('textbox', { name: 'Switches of side B' });
    this.diff = page.getByTestId('ab-diff');
    this.top = page.getByTestId('ab-top');
  }

  /** The diff table's row of a counter. */
  row(stat: string): Locator {
    return this.diff.locator(`tr[data-stat="${stat}"]`);
  }

  /** Both sides drawn at the same op. */
  synced(): Promise<string | null> {
    return this.section.getAttribute('data-synced');
  }
}
