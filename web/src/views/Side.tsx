// The scenario and preset pickers (in the header) and the config panel (the
// seed and the switches), read from the core's manifest (st.presets,
// st.switches).
import { useState } from 'react';
import { Panel } from './panels/Panel';
import { useSelect, useStore } from './hooks';
import { t } from '../i18n';
import { useT } from '../i18n/hooks';

/** The header's pickers: the scenario and the kernel preset. */
export function RunPickers() {
  useT();
  const st = useSelect(({ scenario, scenarios, traceName, config, presets, frame }) => ({
    scenario, scenarios, traceName, config, presets, framePreset: frame?.snapshot.config.preset,
  }));
  const store = useStore();
  return (
    <>
      <label>
        {t('side.scenario')}
        <select
          aria-label={t('side.scenarioAria')}
          data-testid="scenario-picker"
          value={st.scenario ?? ''}
          onChange={(e) => {
            if (e.target.value) void store.loadScenario(e.target.value);
          }}
        >
          {st.scenario === null && <option value="">{st.traceName ? t('side.imported', { name: st.traceName }) : t('side.custom')}</option>}
          {st.scenarios.map((s) => (
            <option key={s.id} value={s.id}>{s.id}</option>
          ))}
        </select>
      </label>
      <label>
        {t('side.preset')}
        <select aria-label={t('side.presetAria')} value={st.config.preset} onChange={(e) => void store.setConfig({ preset: e.target.value })}>
          <option value="">{t('side.tracesOwn', { preset: st.framePreset ?? '?' })}</option>
          {st.presets.map((p) => (
            <option key={p.name} value={p.name} title={p.description}>{p.name}</option>
          ))}
        </select>
      </label>
    </>
  );
}

export function ConfigPanel() {
  useT();
  // what the panel shows of the frame (the run's switches), not the frame:
  // the same on every step
  const st = useSelect(({ config, switches, meta, frame }) => {
    const snapSw = frame?.snapshot.config.switches ?? {};
    const bools = switches.filter((s) => s.kind === 'bool');
    return {
      config, switches, meta, era: frame?.snapshot.config.era,
      seedHint: String(snapSw.seed ?? ''),
      /** '1' / '0' per bool switch, in order: on in the config, else in the run */
      on: bools.map(({ name: k }) => ((config.switches[k] !== undefined ? config.switches[k] === '1' : snapSw[k] === true) ? '1' : '0')).join(''),
    };
  });
  const store = useStore();
  const [seed, setSeed] = useState(st.config.seed);
  const [custom, setCustom] = useState('');
  return (
    <Panel id="config" title={t('side.config')}>
      <div className="form">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void store.setConfig({ seed });
          }}
        >
          <label>
            {t('side.seed')}
            <input aria-label={t('side.seedAria')} size={8} value={seed} placeholder={st.seedHint} onChange={(e) => setSeed(e.target.value)} />
          </label>
          <button type="submit">{t('side.setSeed')}</button>
        </form>
        <fieldset>
          <legend>{t('side.switches', { era: st.era ?? '?' })}</legend>
          {st.switches.filter((s) => s.kind === 'bool').map(({ name: k, what }, i) => {
            const on = st.on[i] === '1';
            return (
              <label key={k} className="sw" title={what}>
                <input type="checkbox" checked={on} onChange={(e) => void store.setConfig({ switches: { [k]: e.target.checked ? '1' : '0' } })} /> {k}
              </label>
            );
          })}
          <label className="sw">
            {t('side.era')}
            <select
              aria-label={t('side.eraAria')}
              value={st.config.switches.era ?? ''}
              onChange={(e) => void store.setConfig({ switches: { era: e.target.value } })}
            >
              <option value="">{t('side.presets')}</option>
              {(st.switches.find((s) => s.name === 'era')?.choices ?? []).map((v) => (
                <option key={v} value={v}>{v}</option>
              ))}
            </select>
          </label>
        </fieldset>
        {st.meta?.description && (
          <details>
            <summary>{t('side.about')}</summary>
            <p className="desc">{st.meta.description}</p>
          </details>
        )}
        <details>
          <summary>{t('side.openCustom')}</summary>
          <textarea aria-label={t('side.customAria')} rows={8} cols={50} value={custom} onChange={(e) => setCustom(e.target.value)} />
          <button type="button" onClick={() => void store.openTrace(custom, { scenario: null })}>{t('side.openTrace')}</button>
        </details>
      </div>
    </Panel>
  );
}
