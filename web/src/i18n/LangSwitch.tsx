// The header's language switch: each language named in its own words.
import { LANG_NAMES, LANGS, isLang, setLang, t } from '.';
import { useLang } from './hooks';

export function LangSwitch() {
  const lang = useLang();
  return (
    <label className="lang-switch">
      <span className="sr-only">{t('lang.label')}</span>
      <select aria-label={t('lang.label')} data-testid="lang-switch" value={lang} onChange={(e) => isLang(e.target.value) && setLang(e.target.value)}>
        {LANGS.map((l) => (
          <option key={l} value={l} lang={l}>
            {LANG_NAMES[l]}
          </option>
        ))}
      </select>
    </label>
  );
}
