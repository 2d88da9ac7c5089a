// The lock view: who holds each lock of the selected cache and who spins
// on it, from the snapshot (nodes[].list_lock, barn.lock, cpus[].lock: the
// owner CPU or -1; the spinners: cpus[].lock_wait, the lock a CPU's
// co_LOCK waits for). Other caches with a lock held or wanted are listed
// below. Strings: views/lanes/strings.ts.
import type { SnapCache, Snapshot } from '../engine/types';
import { useAppState, HoldOffscreen } from './hooks';
import { STRINGS } from './lanes/strings';
import { Panel } from './panels/Panel';

const T = STRINGS.locks;

export interface LockRow {
  /** the lock's name in events: list_lock, barn_lock, cpu_sheaves_lock (cpu_slab_lock) */
  lock: string;
  /** node of list_lock / barn_lock; -1 for the per-CPU lock */
  node: number;
  /** holders: one CPU or none for list/barn locks; every CPU holding its own per-CPU lock */
  holders: number[];
  /** CPUs spinning on it; owner -1 in a lock_wait: released since their poll */
  spinners: number[];
}

/** The lock rows of one cache at a snapshot. */
export function lockRows(snap: Snapshot, cache: SnapCache): LockRow[] {
  const waits = snap.cpus.filter((c) => c.lock_wait && c.lock_wait.cache === cache.id);
  const spin = (lock: string, node: number) =>
    waits.filter((c) => c.lock_wait!.lock === lock && c.lock_wait!.node === node).map((c) => c.cpu);
  const rows: LockRow[] = [];
  for (const n of cache.nodes ?? []) {
    rows.push({ lock: 'list_lock', node: n.node, holders: n.list_lock >= 0 ? [n.list_lock] : [], spinners: spin('list_lock', n.node) });
    if (n.barn) rows.push({ lock: 'barn_lock', node: n.node, holders: n.barn.lock >= 0 ? [n.barn.lock] : [], spinners: spin('barn_lock', n.node) });
  }
  // the per-CPU locks: the sheaves' (v7.0, and v6.18+ classic caches with
  // sheaves) and kmem_cache_cpu's (classic): two locks in a v6.19 cache with sheaves
  const cpus = cache.cpus ?? [];
  if (cpus.length && cache.has_sheaves)
    rows.push({ lock: 'cpu_sheaves_lock', node: -1, holders: cpus.filter((p) => p.lock >= 0).map((p) => p.cpu), spinners: spin('cpu_sheaves_lock', -1) });
  if (cpus.length && snap.config.era === 'classic')
    rows.push({ lock: 'cpu_slab_lock', node: -1, holders: cpus.filter((p) => (p.cpu_slab_lock ?? -1) >= 0).map((p) => p.cpu), spinners: spin('cpu_slab_lock', -1) });
  return rows;
}

/** Whether a cache has a lock held or a CPU spinning on one. */
function busy(snap: Snapshot, c: SnapCache): boolean {
  return lockRows(snap, c).some((r) => r.holders.length || r.spinners.length);
}

function lockName(r: LockRow): string {
  if (r.lock === 'list_lock') return T.listLock(r.node);
  if (r.lock === 'barn_lock') return T.barnLock(r.node);
  return T.pcsLock(r.lock === 'cpu_slab_lock');
}

function Rows({ snap, cache }: { snap: Snapshot; cache: SnapCache }) {
  return (
    <table className="locks" data-lock-cache={cache.id}>
      <caption>{T.cache(cache.name)}</caption>
      <thead>
        <tr>
          <th scope="col">{T.cols.lock}</th>
          <th scope="col">{T.cols.holder}</th>
          <th scope="col">{T.cols.spinners}</th>
        </tr>
      </thead>
      <tbody>
        {lockRows(snap, cache).map((r) => (
          <tr
            key={`${r.lock}:${r.node}`}
            data-lock={r.lock}
            data-lock-node={r.node}
            data-lock-holder={r.holders.join(',')}
            data-lock-spinners={r.spinners.join(',')}
            className={r.spinners.length ? 'contended' : r.holders.length ? 'held' : undefined}
          >
            <th scope="row">{lockName(r)}</th>
            <td>{r.node < 0 ? T.pcsHeld(r.holders) : r.holders.length ? T.heldBy(r.holders[0]) : T.free}</td>
            <td>{r.spinners.length ? r.spinners.map(T.spinner).join(', ') : T.spinnersNone}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Held while out of sight or veiled (HoldOffscreen). */
export function LockView() {
  return <HoldOffscreen view={LockViewBody} />;
}

function LockViewBody() {
  const st = useAppState();
  const snap = st.frame?.snapshot;
  const live = snap?.caches.filter((c) => c.alive) ?? [];
  const cache = live.find((c) => c.id === st.selectedCache) ?? live[0];
  const others = snap && cache ? live.filter((c) => c.id !== cache.id && busy(snap, c)) : [];
  return (
    <Panel id="locks" title={T.title}>
      {!snap || !cache ? (
        <p>{T.none}</p>
      ) : (
        <>
          <Rows snap={snap} cache={cache} />
          {others.length > 0 && (
            <>
              <p className="small">{T.otherCaches(others.length)}</p>
              {others.map((c) => (
                <Rows key={c.id} snap={snap} cache={c} />
              ))}
            </>
          )}
        </>
      )}
    </Panel>
  );
}
