// The header's language switch: each language named in its own words.
import { LANG_NAMES, LANGS, isLang, loadCatalog, setLang, t } from '.';
import { useLang } from './hooks';

export function LangSwitch() {
  const lang = useLang();
  // fetch the other catalogs as the switch is approached: the choice then switches at once
  const prefetch = () => LANGS.forEach((l) => void loadCatalog(l).catch(() => undefined));
  return (
    <label className="lang-switch" onPointerEnter={prefetch} onFocus={prefetch}>
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
