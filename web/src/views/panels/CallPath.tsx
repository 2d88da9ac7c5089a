// The call path panel: the coroutine frames of each CPU's op in flight.
import { useAppState } from '../hooks';
import { kernelTag, sourceLinks } from '../kernelSource';
import { Panel } from './Panel';

/** A kernel function name, linked to its definition in the preset's kernel version. */
function Fn({ fn, tag }: { fn: string; tag: string | null }) {
  if (!tag) return <code>{fn}</code>;
  return (
    <a className="callpath-fn" href={sourceLinks(tag, fn).ident} target="_blank" rel="noreferrer noopener" title={`${fn} in Linux ${tag} (elixir.bootlin.com)`} data-kernel-fn={fn}>
      <code>{fn}</code>
    </a>
  );
}

export function CallPathView() {
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
    <Panel id="callpath" title="Call path">
      {ev ? (
        <div data-testid="callpath" data-fn={ev.fn} data-kind={ev.kind} data-seq={ev.seq}>
          <p className="event-text">
            <code>{ev.text}</code>
          </p>
          <ol className="frames" aria-label={`kernel call stack of cpu ${ev.cpu}, outermost first`}>
            {(cpu?.frames.length ? cpu.frames : [ev.fn]).map((fn, i, a) => (
              <li key={i} className={i === a.length - 1 ? 'cur' : ''}>
                <Fn fn={fn} tag={tag} />
              </li>
            ))}
            {cpu?.frames.length && cpu.frames[cpu.frames.length - 1] !== ev.fn ? (
              <li className="cur">
                <Fn fn={ev.fn} tag={tag} /> (this step)
              </li>
            ) : null}
          </ol>
          <p>
            <b>{ev.kind}</b>
            {ev.lock ? ` ${ev.lock}` : ''}
            {ev.stat ? ` ${ev.stat}` : ''}
            {ev.check ? ` ${ev.check}` : ''}
            {ev.from ? ` from ${ev.from}` : ''}
            {ev.to ? ` to ${ev.to}` : ''} · cpu {ev.cpu} · op {ev.op}
          </p>
          {tag && (
            <p className="callpath-src small">
              source: <a href={sourceLinks(tag, ev.fn).file} target="_blank" rel="noreferrer noopener" data-testid="kernel-source">mm/slub.c of Linux {tag}</a> (elixir.bootlin.com; the names link to their definitions)
            </p>
          )}
          <p>
            locks held: <span data-testid="locks">{locks.length ? locks.join('; ') : 'none'}</span>
          </p>
        </div>
      ) : (
        <p>Before the first step. Press Step (→).</p>
      )}
      {f?.runError ? <pre className="error" role="alert">{f.runError}</pre> : null}
    </Panel>
  );
}
