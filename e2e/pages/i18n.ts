// The UI language (web/src/i18n/): the header's switch, <html lang>, and
// the words the page shows in each language.
import { expect, type Locator, type Page } from '@playwright/test';

export class LanguageArea {
  readonly select: Locator;
  /** the header's subtitle, one fixed message */
  readonly sub: Locator;
  constructor(readonly page: Page) {
    this.select = page.getByTestId('lang-switch');
    this.sub = page.locator('header .sub');
  }

  async htmlLang(): Promise<string> {
    return this.page.evaluate(() => document.documentElement.lang);
  }

  /** The `lang=` of the address (null: none). */
  async urlLang(): Promise<string | null> {
    return this.page.evaluate(() => new URLSearchParams(location.search).get('lang'));
  }

  async pick(lang: 'en' | 'ko'): Promise<void> {
    await this.select.selectOption(lang);
    await this.expectLang(lang);
  }

  /** The page is in `lang`: the switch, <html lang> and the words agree. */
  async expectLang(lang: 'en' | 'ko'): Promise<void> {
    await expect(this.select).toHaveValue(lang);
    await expect.poll(() => this.htmlLang()).toBe(lang);
    await expect(this.sub).toHaveText(lang === 'ko' ? 'SLUB 할당자를 한 단계씩' : 'the SLUB allocator, step by step');
  }
}
