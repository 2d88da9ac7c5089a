// The legend's body (Legend.tsx, a chunk of its own: the box is closed
// until someone opens it): every glyph of the visualizer with what it means, drawn with
// the colours and strokes the renderers use (web/src/viz/*: topology.ts,
// sheaves.ts, barns.ts, partial.ts, slab.ts; object states from
// viz/common.ts OBJECT_STATES and GLYPHS, the renderers' own colours).
// e2e/reading.spec.ts compares the swatches
// with the drawn glyphs, so the two cannot drift apart unnoticed.
import type { ReactNode } from 'react';
import { GLYPHS, OBJECT_STATES } from '../viz/common';
import { FN_PALETTE, LANE_GLYPHS } from '../viz/lanes';
import { STRINGS } from './lanes/strings';
import { t, type MsgKey } from '../i18n';
import { Rich } from '../i18n/Rich';


function Sw({ children, w = 34, label }: { children: ReactNode; w?: number; label: string }) {
  return (
    <svg width={w} height={18} viewBox={`0 0 ${w} 18`} aria-hidden="true" className="lg-sw" data-legend-swatch={label}>
      {children}
    </svg>
  );
}

function Item({ id, sw, children }: { id: string; sw: ReactNode; children: ReactNode }) {
  return (
    <li data-legend={id}>
      {sw}
      <span>{children}</span>
    </li>
  );
}

export default function LegendBody() {
  return (
    <div className="legend-groups">
      <section aria-label={t('legend.cpusAria')}>
        <h3>{t('legend.cpusH')}</h3>
        <ul>
          <Item id="cpu-idle" sw={<Sw label="cpu-idle"><rect x={8} y={2} width={18} height={14} rx={3} fill={GLYPHS.cpuIdle} stroke="#667" /></Sw>}><Rich k="legend.cpu-idle" /></Item>
          <Item id="cpu-busy" sw={<Sw label="cpu-busy"><rect x={8} y={2} width={18} height={14} rx={3} fill={GLYPHS.cpuBusy} stroke="#667" /></Sw>}><Rich k="legend.cpu-busy" /></Item>
          <Item id="cpu-running" sw={<Sw label="cpu-running"><rect x={8} y={2} width={18} height={14} rx={3} fill={GLYPHS.cpuStep} stroke="#667" /></Sw>}><Rich k="legend.cpu-running" /></Item>
          <Item id="cpu-focus" sw={<Sw label="cpu-focus"><rect x={8} y={2} width={18} height={14} rx={3} fill={GLYPHS.cpuIdle} stroke="#000" strokeWidth={2.5} /></Sw>}><Rich k="legend.cpu-focus" /></Item>
          <Item id="node-mem" sw={<Sw label="node-mem"><rect x={2} y={2} width={30} height={14} fill={GLYPHS.nodeMem} stroke="#8aa" /></Sw>}><Rich k="legend.node-mem" /></Item>
          <Item id="node-nomem" sw={<Sw label="node-nomem">
            <defs><pattern id="lg-hatch" width={6} height={6} patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width={6} height={6} fill="#fff4f4" /><line x1={0} y1={0} x2={0} y2={6} stroke="#f2caca" strokeWidth={3} /></pattern></defs>
            <rect x={2} y={2} width={30} height={14} fill="url(#lg-hatch)" stroke={GLYPHS.nodeNoMemStroke} strokeDasharray="4 3" /></Sw>}><Rich k="legend.node-nomem" /></Item>
        </ul>
      </section>
      <section aria-label={t('legend.sheavesAria')}>
        <h3>{t('legend.sheavesH')}</h3>
        <ul>
          <Item id="sheaf-bar" sw={<Sw label="sheaf-bar"><rect x={1} y={3} width={32} height={12} fill={GLYPHS.sheafCap} stroke="#aab" /><rect x={1} y={3} width={20} height={12} fill={GLYPHS.sheafFill} /></Sw>}><Rich k="legend.sheaf-bar" /></Item>
          <Item id="no-sheaf" sw={<Sw label="no-sheaf"><rect x={1} y={3} width={32} height={12} fill={GLYPHS.noSheaf} stroke="#aab" strokeDasharray="3 3" /></Sw>}><Rich k="legend.no-sheaf" /></Item>
          <Item id="touched" sw={<Sw label="touched"><rect x={1} y={3} width={32} height={12} fill={GLYPHS.sheafCap} stroke={GLYPHS.touched} strokeWidth={2.5} /></Sw>}><Rich k="legend.touched" /></Item>
          <Item id="barn-slot" sw={<Sw label="barn-slot"><rect x={2} y={2} width={10} height={14} fill="none" stroke={GLYPHS.barnSlot} strokeDasharray="2 2" /><rect x={16} y={2} width={10} height={14} fill="#fff" stroke="#aab" /><rect x={16} y={8} width={10} height={8} fill={GLYPHS.sheafFill} /></Sw>}><Rich k="legend.barn-slot" /></Item>
        </ul>
      </section>
      <section aria-label={t('legend.slabsAria')}>
        <h3>{t('legend.slabsH')}</h3>
        <ul>
          <Item id="slab-bar" sw={<Sw label="slab-bar" w={20}><rect x={4} y={1} width={12} height={16} fill="#fff" stroke="#667" /><rect x={4} y={7} width={12} height={10} fill={GLYPHS.slabInuse} /></Sw>}><Rich k="legend.slab-bar" /></Item>
          <Item id="slab-frozen" sw={<Sw label="slab-frozen" w={20}><rect x={4} y={1} width={12} height={16} fill="#fff" stroke="#667" /><rect x={4} y={7} width={12} height={10} fill={GLYPHS.slabFrozen} /></Sw>}><Rich k="legend.slab-frozen" /></Item>
          <Item id="slab-selected" sw={<Sw label="slab-selected" w={20}><rect x={4} y={1} width={12} height={16} fill="#fff" stroke="#000" strokeWidth={2.5} /></Sw>}><Rich k="legend.slab-selected" /></Item>
          <Item id="freelist-arrow" sw={<Sw label="freelist-arrow"><defs><marker id="lg-arrow" viewBox="0 0 10 10" refX={9} refY={5} markerWidth={5} markerHeight={5} orient="auto"><path d="M0,0 L10,5 L0,10 z" fill={GLYPHS.freelistArrow} /></marker></defs><line x1={2} y1={9} x2={30} y2={9} stroke={GLYPHS.freelistArrow} markerEnd="url(#lg-arrow)" /></Sw>}><Rich k="legend.freelist-arrow" /></Item>
        </ul>
      </section>
      <section aria-label={t('legend.objectsAria')}>
        <h3>{t('legend.objectsH')}</h3>
        <ul>
          {Object.entries(OBJECT_STATES).map(([ch, s]) => (
            <Item key={ch} id={`obj-${s.name}`} sw={<Sw label={`obj-${s.name}`} w={20}><rect x={3} y={2} width={14} height={14} fill={s.color} stroke="#667" strokeDasharray={ch === 'f' ? '3 2' : undefined} /><text x={10} y={13.5} fontSize={11} textAnchor="middle" fill={ch === 'u' || ch === 's' || ch === 'l' || ch === 'c' ? '#fff' : '#222'}>{s.label}</text></Sw>}>
              <b>{s.label}</b> {s.name}: {t(`objstate.${s.name}` as MsgKey)}
            </Item>
          ))}
        </ul>
      </section>
      <LanesLegend />
    </div>
  );
}

/** The CPU lanes' glyphs (viz/lanes.ts draws them with LANE_GLYPHS). */
function LanesLegend() {
  const L = STRINGS.legend;
  return (
    <section aria-label={L.section}>
      <h3>{L.section}</h3>
      <ul>
        <Item id="lane-seg" sw={<Sw label="lane-seg">{FN_PALETTE.slice(0, 4).map((c, i) => <rect key={c} x={1 + i * 8} y={4} width={8} height={10} fill={c} />)}</Sw>}>{L.seg}</Item>
        <Item id="lane-spin" sw={<Sw label="lane-spin">
          <defs><pattern id="lg-lane-spin" width={5} height={5} patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width={5} height={5} fill="#fff" /><line x1={0} y1={0} x2={0} y2={5} stroke={LANE_GLYPHS.spinHatch} strokeWidth={2} /></pattern></defs>
          <rect x={2} y={4} width={30} height={10} fill="url(#lg-lane-spin)" /></Sw>}>{L.spin}</Item>
        <Item id="lane-trylock" sw={<Sw label="lane-trylock"><rect x={2} y={4} width={30} height={10} fill={FN_PALETTE[1]} stroke={LANE_GLYPHS.trylock} strokeDasharray="2 1" /></Sw>}>{L.trylock}</Item>
        <Item id="lane-hold" sw={<Sw label="lane-hold"><rect x={2} y={3} width={30} height={9} fill={FN_PALETTE[0]} /><rect x={2} y={13} width={14} height={3} fill={LANE_GLYPHS.holdBy.list_lock} /><rect x={18} y={11} width={14} height={3} fill={LANE_GLYPHS.holdBy.barn_lock} /><rect x={2} y={16} width={30} height={2} fill={LANE_GLYPHS.holdBy.cpu_sheaves_lock} /></Sw>}>{L.hold}</Item>
        <Item id="lane-holder" sw={<Sw label="lane-holder"><path d="M17,4 L22,9 L17,14 L12,9 Z" fill={LANE_GLYPHS.holderMark} stroke="#fff" /></Sw>}>{L.holder}</Item>
        <Item id="lane-hand" sw={<Sw label="lane-hand"><rect x={10} y={6} width={14} height={10} fill={FN_PALETTE[2]} /><path d="M14,1 L20,1 L17,5 Z" fill={LANE_GLYPHS.hand} /></Sw>}>{L.hand}</Item>
        <Item id="lane-current" sw={<Sw label="lane-current"><rect x={8} y={4} width={18} height={10} fill={FN_PALETTE[3]} stroke={LANE_GLYPHS.current} strokeWidth={1.5} /></Sw>}>{L.current}</Item>
      </ul>
    </section>
  );
}
