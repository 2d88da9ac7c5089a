// The legend (web/src/views/Legend.tsx): its items and their swatches.
import type { Locator, Page } from '@playwright/test';

export class LegendArea {
  readonly box: Locator;
  constructor(readonly page: Page) {
    this.box = page.getByTestId('legend');
  }

  async open(): Promise<void> {
    if ((await this.box.getAttribute('open')) === null) await this.box.locator('summary').click();
  }

  item(id: string): Locator {
    return this.box.locator(`[data-legend="${id}"]`);
  }

  /** The fill of the swatch's shape number `i` (0-based) of an item. */
  async fill(id: string, i = 0): Promise<string | null> {
    return this.item(id).locator('svg rect').nth(i).getAttribute('fill');
  }
}
