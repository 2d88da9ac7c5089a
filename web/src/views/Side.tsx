// The scenario and preset pickers (in the header) and the config panel (the
// seed and the switches), read from the core's manifest (st.presets,
// st.switches).
import { useState } from 'react';
import { Panel } from './panels/Panel';
import { useAppState, useStore } from './hooks';

/** The header's pickers: the scenario and the kernel preset. */
export function RunPickers() {
  const st = useAppState();
  const store = useStore();
  return (
    <>
      <label>
        scenario
        <select
          aria-label="Scenario"
          value={st.scenario ?? ''}
          onChange={(e) => {
            if (e.target.value) void store.loadScenario(e.target.value);
          }}
        >
          {st.scenario === null && <option value="">{st.traceName ? `(imported: ${st.traceName})` : '(custom trace)'}</option>}
          {st.scenarios.map((s) => (
            <option key={s.id} value={s.id}>{s.id}</option>
          ))}
        </select>
      </label>
      <label>
        preset
        <select aria-label="Preset" value={st.config.preset} onChange={(e) => void store.setConfig({ preset: e.target.value })}>
          <option value="">trace's own ({st.frame?.snapshot.config.preset ?? '?'})</option>
          {st.presets.map((p) => (
            <option key={p.name} value={p.name} title={p.description}>{p.name}</option>
          ))}
        </select>
      </label>
    </>
  );
}

export function ConfigPanel() {
  const st = useAppState();
  const store = useStore();
  const [seed, setSeed] = useState(st.config.seed);
  const [custom, setCustom] = useState('');
  const snapSw = st.frame?.snapshot.config.switches ?? {};
  return (
    <Panel id="config" title="Seed and switches">
      <div className="form">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void store.setConfig({ seed });
          }}
        >
          <label>
            seed
            <input aria-label="Seed" size={8} value={seed} placeholder={String(snapSw.seed ?? '')} onChange={(e) => setSeed(e.target.value)} />
          </label>
          <button type="submit">Set seed</button>
        </form>
        <fieldset>
          <legend>switches (era: {st.frame?.snapshot.config.era ?? '?'})</legend>
          {st.switches.filter((s) => s.kind === 'bool').map(({ name: k, what }) => {
            const on = st.config.switches[k] !== undefined ? st.config.switches[k] === '1' : snapSw[k] === true;
            return (
              <label key={k} className="sw" title={what}>
                <input type="checkbox" checked={on} onChange={(e) => void store.setConfig({ switches: { [k]: e.target.checked ? '1' : '0' } })} /> {k}
              </label>
            );
          })}
          <label className="sw">
            era
            <select
              aria-label="Era"
              value={st.config.switches.era ?? ''}
              onChange={(e) => void store.setConfig({ switches: { era: e.target.value } })}
            >
              <option value="">preset's</option>
              {(st.switches.find((s) => s.name === 'era')?.choices ?? []).map((v) => (
                <option key={v} value={v}>{v}</option>
              ))}
            </select>
          </label>
        </fieldset>
        {st.meta?.description && (
          <details>
            <summary>about this trace</summary>
            <p className="desc">{st.meta.description}</p>
          </details>
        )}
        <details>
          <summary>open a custom trace</summary>
          <textarea aria-label="Custom trace text" rows={8} cols={50} value={custom} onChange={(e) => setCustom(e.target.value)} />
          <button type="button" onClick={() => void store.openTrace(custom, { scenario: null })}>Open trace</button>
        </details>
      </div>
    </Panel>
  );
}
