// The traces panel (web/src/views/Traces.tsx): importing real traces (file,
// sample, paste, drop), the summary shown before the replay, the progress
// and the traces kept in IndexedDB.
import { expect, type Locator, type Page } from '@playwright/test';

export class ImportArea {
  readonly file: Locator;
  readonly samples: Locator;
  readonly importSample: Locator;
  readonly pasteToggle: Locator;
  readonly pasted: Locator;
  readonly importPasted: Locator;
  readonly dropzone: Locator;
  readonly progress: Locator;
  readonly stored: Locator;
  readonly summaryBox: Locator;

  constructor(readonly page: Page) {
    this.file = page.getByLabel('Trace file');
    this.samples = page.getByRole('combobox', { name: 'Sample trace' });
    this.importSample = page.getByRole('button', { name: 'Import sample' });
    this.pasteToggle = page.getByText('paste a trace');
    this.pasted = page.getByRole('textbox', { name: 'Pasted trace text' });
    this.importPasted = page.getByRole('button', { name: 'Import pasted text' });
    this.dropzone = page.getByTestId('dropzone');
    this.progress = page.getByTestId('import-progress');
    this.stored = page.getByTestId('stored-traces');
    this.summaryBox = page.getByTestId('import-summary');
  }

  /** The import summary, once shown. */
  async summary(): Promise<Locator> {
    await expect(this.summaryBox).toBeVisible();
    return this.summaryBox;
  }

  /** A stored trace's button ("Open NAME", "Delete NAME"). */
  storedButton(verb: 'Open' | 'Delete', name: string): Locator {
    return this.page.getByRole('button', { name: `${verb} ${name}` });
  }
}
