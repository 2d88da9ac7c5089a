// The sandbox's goal drawn as a picture beside the student's current state
// (goal.ts), as Learn Git Branching shows the goal tree next to yours.
import type { Snapshot } from '../engine/types';
import { pictureDiff, statePicture, type StatePicture } from './goal';
import { t } from '../i18n';

const ROW = 18;
const BAR = 70;

function Bar({ x, y, label, size, cap }: { x: number; y: number; label: string; size: number | null; cap: number }) {
  const f = size === null || cap <= 0 ? 0 : Math.min(1, size / cap);
  return (
    <g data-bar={label} data-size={size ?? 'none'}>
      <text x={x} y={y + 11} className="gp-t">{label}</text>
      <rect x={x + 34} y={y + 2} width={BAR} height={11} className={size === null ? 'gp-none' : 'gp-sheaf'} />
      {size !== null && <rect x={x + 34} y={y + 2} width={BAR * f} height={11} className="gp-fill" />}
      <text x={x + 38 + BAR} y={y + 11} className="gp-t">{size === null ? t('goal.none') : `${size}/${cap}`}</text>
    </g>
  );
}

function Slots({ x, y, full, empty }: { x: number; y: number; full: number; empty: number }) {
  const shown = Math.min(6, full + empty); // the count says the rest: the column is 150 px
  return (
    <g>
      {Array.from({ length: shown }, (_, i) => (
        <rect key={i} x={x + i * 9} y={y + 3} width={7} height={9} className={i < Math.min(full, shown) ? 'gp-slot-full' : 'gp-slot-empty'} />
      ))}
      <text x={x + shown * 9 + 4} y={y + 11} className="gp-t">{t('goal.slots', { full, empty })}</text>
    </g>
  );
}

type CpuRow = StatePicture['cpus'][number];
type NodeRow = StatePicture['nodes'][number];
const COL = 150; // one state's column: a bar, its label and its count
const LABEL = 44;

/** Lines per CPU: the cpu slab (classic era), main and spare (a cache
 * with sheaves: every v7.0 cache, a v6.18+ classic one created with them). */
const cpuLines = (p: StatePicture) => (p.era === 'classic' ? 1 : 0) + (p.sheaves ? 2 : 0);
const nodeLines = (p: StatePicture) => 1 + (p.sheaves ? 1 : 0);

function CpuCells({ x, y, p, c }: { x: number; y: number; p: StatePicture; c: CpuRow | undefined }) {
  if (!c) return <text x={x} y={y + 11} className="gp-t">—</text>;
  const classic = p.era === 'classic';
  const y2 = classic ? y + ROW : y;
  return (
    <>
      {classic && (
        <text x={x} y={y + 11} className="gp-t">
          {c.cpuSlabFree === null ? t('goal.noCpuSlab') : t('goal.cpuSlab', { n: c.cpuSlabFree })} · {t('goal.partial', { n: c.cpuPartial })}
        </text>
      )}
      {p.sheaves && <Bar x={x} y={y2} label="main" size={c.main} cap={c.capacity} />}
      {p.sheaves && <Bar x={x} y={y2 + ROW} label="spare" size={c.spare} cap={c.capacity} />}
    </>
  );
}

function NodeCells({ x, y, p, n }: { x: number; y: number; p: StatePicture; n: NodeRow | undefined }) {
  if (!n) return <text x={x} y={y + 11} className="gp-t">—</text>;
  return (
    <>
      <text x={x} y={y + 11} className="gp-t">{t('goal.partial', { n: n.partial })} · {t(n.full === 1 ? 'goal.fullSlab.one' : 'goal.fullSlab.other', { n: n.full })}</text>
      {p.sheaves &&
        (n.barn ? <Slots x={x} y={y + ROW} full={n.barn.full} empty={n.barn.empty} /> : <text x={x} y={y + ROW + 11} className="gp-t">{t('goal.none')}</text>)}
    </>
  );
}

/** The goal and the current state in one picture, row by row (a CPU's
 * sheaves or cpu slab, a node's partial list and barn), so each row reads
 * across: goal on the left, now on the right. */
export function PairSvg({ goal, now }: { goal: StatePicture; now: StatePicture | null }) {
  const h = 22 + (goal.cpus.length * cpuLines(goal) + goal.nodes.length * nodeLines(goal)) * ROW;
  const w = LABEL + 2 * COL;
  let y = 18;
  const row = (lines: number) => {
    const at = y;
    y += lines * ROW;
    return at;
  };
  return (
    <svg className="goal-svg" width={w} height={h} viewBox={`0 0 ${w} ${h}`} role="img"
      aria-label={[goal, now].flatMap((p, i) => (p ? [t('goal.aria', { title: t(i ? 'goal.now' : 'goal.goal'), cache: p.cache, inuse: p.inuse, slabs: p.slabs })] : [])).join('. ')}>
      <text x={LABEL} y={12} className="gp-h">{t('goal.goal')}</text>
      <text x={LABEL + COL} y={12} className="gp-h">{t('goal.now')}</text>
      {goal.cpus.map((c) => {
        const yy = row(cpuLines(goal));
        return (
          <g key={`c${c.cpu}`} data-cpu-row={c.cpu}>
            <text x={4} y={yy + 11} className="gp-t">CPU {c.cpu}</text>
            <g data-side="goal"><CpuCells x={LABEL} y={yy} p={goal} c={c} /></g>
            {now && <g data-side="now"><CpuCells x={LABEL + COL} y={yy} p={now} c={now.cpus.find((d) => d.cpu === c.cpu)} /></g>}
          </g>
        );
      })}
      {goal.nodes.map((n) => {
        const yy = row(nodeLines(goal));
        return (
          <g key={`n${n.node}`} data-node-row={n.node}>
            <text x={4} y={yy + 11} className="gp-t">{t('panel.node', { id: n.node })}</text>
            <g data-side="goal"><NodeCells x={LABEL} y={yy} p={goal} n={n} /></g>
            {now && <g data-side="now"><NodeCells x={LABEL + COL} y={yy} p={now} n={now.nodes.find((d) => d.node === n.node)} /></g>}
          </g>
        );
      })}
    </svg>
  );
}

export function GoalPicture({ goal, snap, cpus }: { goal: StatePicture | null | 'loading' | undefined; snap: Snapshot | undefined; cpus?: number[] }) {
  if (goal === undefined || goal === null) return null;
  if (goal === 'loading') return <p className="small" data-testid="goal-picture" data-state="loading">{t('goal.drawing')}</p>;
  const now = snap ? statePicture(snap, goal.cache, cpus) : null;
  const diff = now ? pictureDiff(now, goal) : [];
  return (
    <figure className="goal-picture" data-testid="goal-picture" data-state="ready" data-differences={diff.length}>
      <PairSvg goal={goal} now={now} />
      <figcaption className="small">
        {now && diff.length === 0
          ? t('goal.matches')
          : t('goal.caption', { cache: goal.cache }) + (diff.length ? t('goal.stillDifferent', { list: diff.join('; ') }) : '')}
      </figcaption>
    </figure>
  );
}
