// The visualizer's panels (web/src/views/panels/, Side.tsx): the drawn
// model elements, the config panel (scenario, preset, switches), free play
// and the share link.
import type { Locator, Page } from '@playwright/test';

export class ViewsArea {
  readonly scenario: Locator;
  readonly preset: Locator;
  readonly allocate: Locator;
  readonly free: Locator;
  readonly share: Locator;
  readonly shareLink: Locator;
  /** the slab detail's call-site filter and owners table */
  readonly siteFilter: Locator;
  readonly owners: Locator;

  constructor(readonly page: Page) {
    this.scenario = page.getByRole('combobox', { name: 'Scenario' });
    this.preset = page.getByRole('combobox', { name: 'Preset' });
    this.allocate = page.getByRole('button', { name: 'Allocate', exact: true });
    this.free = page.getByRole('button', { name: 'Free', exact: true });
    this.share = page.getByRole('button', { name: 'Share link' });
    this.shareLink = page.getByTestId('share-link');
    this.siteFilter = page.getByLabel('Call site filter');
    this.owners = page.getByTestId('owners');
  }

  /** A panel by its data-panel id (web/src/views/panels/). */
  panel(id: string): Locator {
    return this.page.locator(`[data-panel="${id}"]`);
  }

  /** The presets the preset picker offers (without "trace's own"). */
  async presetOptions(): Promise<string[]> {
    return this.preset.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value).filter((v) => v !== ''));
  }

  /** A kernel switch's checkbox in the config panel. */
  switchBox(name: string): Locator {
    return this.page.getByRole('checkbox', { name, exact: true });
  }

  objectState(id: number): Locator {
    return this.page.locator(`[data-panel=slab] [data-object-id="${id}"]`);
  }

  /** Object cells of the slab detail (all, or one object's). */
  slabObjects(filter = ''): Locator {
    return this.page.locator(`[data-panel=slab] g.obj${filter}`);
  }

  mainSheaf(cpu: number): Locator {
    return this.page.locator(`[data-panel=sheaves] g.cpu-row[data-cpu="${cpu}"] g.sheaf[data-where=main]`);
  }
}
