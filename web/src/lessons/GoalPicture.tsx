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
  const shown = Math.min(10, full + empty);
  return (
    <g>
      {Array.from({ length: shown }, (_, i) => (
        <rect key={i} x={x + i * 9} y={y + 3} width={7} height={9} className={i < Math.min(full, shown) ? 'gp-slot-full' : 'gp-slot-empty'} />
      ))}
      <text x={x + shown * 9 + 4} y={y + 11} className="gp-t">{t('goal.slots', { full, empty })}</text>
    </g>
  );
}

/** One state drawn: per CPU its sheaves (or cpu slab), per node its partial list and barn. */
export function StateSvg({ p, title }: { p: StatePicture; title: string }) {
  const two = p.era === 'classic' ? 1 : 2;
  const rows = (p.cpus.length + p.nodes.length) * two;
  const h = 22 + rows * ROW;
  let y = 18;
  const next = () => (y += ROW) - ROW;
  return (
    <svg className="goal-svg" width={250} height={h} viewBox={`0 0 250 ${h}`} role="img" aria-label={t('goal.aria', { title, cache: p.cache, inuse: p.inuse, slabs: p.slabs })}>
      <text x={4} y={12} className="gp-h">{title}</text>
      {p.cpus.map((c) => {
        const yy = next();
        const y2 = p.era === 'classic' ? yy : next();
        return (
          <g key={`c${c.cpu}`} data-cpu-row={c.cpu}>
            <text x={4} y={yy + 11} className="gp-t">CPU {c.cpu}</text>
            {p.era === 'classic' ? (
              <text x={44} y={yy + 11} className="gp-t">
                {c.cpuSlabFree === null ? t('goal.noCpuSlab') : t('goal.cpuSlab', { n: c.cpuSlabFree })} · {t('goal.partial', { n: c.cpuPartial })}
              </text>
            ) : (
              <>
                <Bar x={44} y={yy} label="main" size={c.main} cap={c.capacity} />
                <Bar x={44} y={y2} label="spare" size={c.spare} cap={c.capacity} />
              </>
            )}
          </g>
        );
      })}
      {p.nodes.map((n) => {
        const y1 = next();
        const y2 = p.era === 'classic' ? null : next();
        return (
          <g key={`n${n.node}`} data-node-row={n.node}>
            <text x={4} y={y1 + 11} className="gp-t">{t('panel.node', { id: n.node })}</text>
            <text x={44} y={y1 + 11} className="gp-t">{t('goal.partial', { n: n.partial })} · {t(n.full === 1 ? 'goal.fullSlab.one' : 'goal.fullSlab.other', { n: n.full })}</text>
            {y2 !== null && (
              <>
                <text x={44} y={y2 + 11} className="gp-t">barn</text>
                {n.barn ? <Slots x={78} y={y2} full={n.barn.full} empty={n.barn.empty} /> : <text x={78} y={y2 + 11} className="gp-t">{t('goal.none')}</text>}
              </>
            )}
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
      <div className="goal-pair">
        <StateSvg p={goal} title={t('goal.goal')} />
        {now && <StateSvg p={now} title={t('goal.now')} />}
      </div>
      <figcaption className="small">
        {now && diff.length === 0
          ? t('goal.matches')
          : t('goal.caption', { cache: goal.cache }) + (diff.length ? t('goal.stillDifferent', { list: diff.join('; ') }) : '')}
      </figcaption>
    </figure>
  );
}
