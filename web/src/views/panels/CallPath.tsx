// The call path panel: the coroutine frames of each CPU's op in flight.
import { useAppState, HoldOffscreen } from '../hooks';
import { kernelTag, sourceLinks } from '../kernelSource';
import { Panel } from './Panel';
import { t } from '../../i18n';

/** A kernel function name, linked to its definition in the preset's kernel version. */
function Fn({ fn, tag }: { fn: string; tag: string | null }) {
  if (!tag) return <code>{fn}</code>;
  return (
    <a className="callpath-fn" href={sourceLinks(tag, fn).ident} target="_blank" rel="noreferrer noopener" title={t('panel.fnTitle', { fn, tag })} data-kernel-fn={fn}>
      <code>{fn}</code>
    </a>
  );
}

/** Held while out of sight or veiled (HoldOffscreen). */
export function CallPathView() {
  return <HoldOffscreen view={CallPathViewBody} />;
}

function CallPathViewBody() {
  const st = useAppState();
  const f = st.frame;
  const ev = f?.event ?? null;
  const cpu = ev ? f!.snapshot.cpus[ev.cpu] : null;
  const tag = kernelTag(st.presets.find((p) => p.name === f?.snapshot.config.preset));
  const locks: string[] = [];
  if (f) {
    for (const c of f.snapshot.caches) {
      for (const n of c.nodes ?? []) {
        if (n.list_lock >= 0) locks.push(`${c.name}: node ${n.node} list_lock (cpu ${n.list_lock})`);
        if (n.barn && n.barn.lock >= 0) locks.push(`${c.name}: node ${n.node} barn lock (cpu ${n.barn.lock})`);
      }
      for (const p of c.cpus ?? []) if (p.lock >= 0) locks.push(`${c.name}: cpu ${p.cpu} cpu_sheaves lock`);
    }
  }
  return (
    <Panel id="callpath" title={t('panel.callpath')}>
      {ev ? (
        <div data-testid="callpath" data-fn={ev.fn} data-kind={ev.kind} data-seq={ev.seq}>
          <p className="event-text">
            <code>{ev.text}</code>
          </p>
          <ol className="frames" aria-label={t('panel.callstack', { cpu: ev.cpu })}>
            {(cpu?.frames.length ? cpu.frames : [ev.fn]).map((fn, i, a) => (
              <li key={i} className={i === a.length - 1 ? 'cur' : ''}>
                <Fn fn={fn} tag={tag} />
              </li>
            ))}
            {cpu?.frames.length && cpu.frames[cpu.frames.length - 1] !== ev.fn ? (
              <li className="cur">
                <Fn fn={ev.fn} tag={tag} />{t('panel.thisStep')}
              </li>
            ) : null}
          </ol>
          <p>
            <b>{ev.kind}</b>
            {ev.lock ? ` ${ev.lock}` : ''}
            {ev.stat ? ` ${ev.stat}` : ''}
            {ev.check ? ` ${ev.check}` : ''}
            {ev.from ? t('panel.from', { where: ev.from }) : ''}
            {ev.to ? t('panel.to', { where: ev.to }) : ''} · cpu {ev.cpu} · op {ev.op}
          </p>
          {tag && (
            <p className="callpath-src small">
              {t('panel.source')} <a href={sourceLinks(tag, ev.fn).file} target="_blank" rel="noreferrer noopener" data-testid="kernel-source">{t('panel.sourceLink', { tag })}</a> {t('panel.sourceNote')}
            </p>
          )}
          <p>
            {t('panel.locksHeld')} <span data-testid="locks">{locks.length ? locks.join('; ') : t('panel.none')}</span>
          </p>
        </div>
      ) : (
        <p>{t('panel.beforeFirst')}</p>
      )}
      {f?.runError ? <pre className="error" role="alert">{f.runError}</pre> : null}
    </Panel>
  );
}
