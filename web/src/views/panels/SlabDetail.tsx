// The slab detail panel: one slab's objects (SVG, or a canvas for big
// slabs), their owners and a call-site filter (viz/slab.ts, viz/slabCanvas.ts).
import { memo, useEffect, useMemo, useRef, useState } from 'react';
import type { SnapSlab } from '../../engine/types';
import { ownersKey, slabKey } from '../../engine/wire';
import { cacheOf, OBJECT_STATES, objectState, siteMatches, type VizInput, type VizOptions } from '../../viz/common';
import { CANVAS_MIN, cacheSites, objectCells, pickSlab, renderSlab, type ObjectCell } from '../../viz/slab';
import { canvasHit, renderSlabCanvas, SHAPES } from '../../viz/slabCanvas';
import { useD3, useSelect, useStore, HoldOffscreen } from '../hooks';
import { Panel } from './Panel';
import { useViz } from './useViz';
import { t, type MsgKey } from '../../i18n';

/** An object state's description in the UI language (viz/common.ts OBJECT_STATES). */
const stateDesc = (ch: string) => t(`objstate.${objectState(ch).name}` as MsgKey);

function SlabCanvas({ slab, input, opts }: { slab: SnapSlab; input: VizInput; opts: VizOptions }) {
  const ref = useRef<HTMLCanvasElement>(null);
  const cells = useRef<ObjectCell[]>([]);
  const [hover, setHover] = useState<ObjectCell | null>(null);
  useEffect(() => {
    if (ref.current) cells.current = renderSlabCanvas(ref.current, slab, input, opts);
  }, [slab, input, opts.siteFilter]);
  const at = (e: { clientX: number; clientY: number }) => {
    const el = ref.current;
    if (!el) return null;
    const r = el.getBoundingClientRect();
    return canvasHit(cells.current, slab.objects, e.clientX - r.left, e.clientY - r.top, opts.width ?? 640);
  };
  return (
    <>
      <canvas ref={ref} tabIndex={0} role="img" onMouseMove={(e) => setHover(at(e))} onMouseLeave={() => setHover(null)} />
      <p className="canvas-hover" aria-live="polite" data-testid="canvas-hover">
        {hover
          ? t('slab.hover', { id: hover.id, index: hover.index, state: stateDesc(hover.state) }) +
            (hover.fl >= 0 ? t('slab.hoverFl', { n: hover.fl }) : '') +
            (hover.owner ? t('slab.hoverOwner', { handle: hover.owner.handle }) + (hover.owner.site ? t('slab.hoverSite', { site: hover.owner.site }) : '') : '')
          : t('slab.canvas', { n: slab.objects })}
      </p>
    </>
  );
}

/** The owners table, built again only when the slab's owners changed
 * (their token, wire.ts) or the filter did: most steps leave them alone. */
const Owners = memo(OwnersTable, (a, b) => a.filter === b.filter && ownersKey(a.slab) === ownersKey(b.slab));

function OwnersTable({ slab, filter }: { slab: SnapSlab; filter: string }) {
  const owners = slab.owners ?? [];
  if (owners.length === 0) return null;
  const shown = owners.filter((o) => siteMatches(o.site, filter));
  const MAX = 200;
  return (
    <details className="owners" open data-testid="owners">
      <summary>
        {t('slab.owners', { n: owners.length })}{filter ? t('slab.ownersMatching', { n: shown.length, filter }) : ''}
      </summary>
      <table className="fp">
        <thead>
          <tr>
            <th>{t('slab.object')}</th>
            <th>{t('les.handle')}</th>
            <th>{t('slab.callSite')}</th>
          </tr>
        </thead>
        <tbody>
          {shown.slice(0, MAX).map((o) => (
            <tr key={o.obj} data-owner-obj={o.obj} data-owner={o.handle} data-site={o.site}>
              <td>#{o.obj}</td>
              <td>{o.handle}</td>
              <td>{o.site || '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {shown.length > MAX && <p>{t('slab.andMore', { n: shown.length - MAX })}</p>}
    </details>
  );
}

function SiteFilter({ slabs, cacheId }: { slabs: SnapSlab[]; cacheId: number }) {
  const st = useSelect(({ siteFilter }) => ({ siteFilter }));
  const store = useStore();
  const sites = cacheSites(slabs, cacheId).filter((x) => x.site !== '');
  if (sites.length === 0 && !st.siteFilter) return null;
  return (
    <div className="site-filter form" data-testid="site-filter">
      <label>
        {t('slab.callSite')}{' '}
        <input
          aria-label={t('slab.siteFilterAria')}
          list="svz-sites"
          size={28}
          value={st.siteFilter}
          placeholder={t('slab.filterPlaceholder')}
          onChange={(e) => store.setSiteFilter(e.target.value)}
        />
      </label>
      <datalist id="svz-sites">
        {sites.slice(0, 200).map((x) => (
          <option key={x.site} value={x.site} />
        ))}
      </datalist>
      {st.siteFilter && (
        <button type="button" className="link" onClick={() => store.setSiteFilter('')}>
          {t('slab.clear')}
        </button>
      )}
      <span className="sites">
        {sites.slice(0, 6).map((x) => (
          <button
            type="button"
            key={x.site}
            className="chip"
            aria-pressed={st.siteFilter === x.site}
            data-site={x.site}
            data-count={x.count}
            onClick={() => store.setSiteFilter(st.siteFilter === x.site ? '' : x.site)}
          >
            {x.site} ({x.count})
          </button>
        ))}
        {sites.length > 6 ? t('slab.plusMore', { n: sites.length - 6 }) : ''}
      </span>
    </div>
  );
}

/** Held while out of sight or veiled (HoldOffscreen). */
export function SlabDetailView() {
  return <HoldOffscreen view={SlabDetailViewBody} />;
}

function SlabDetailViewBody() {
  const store = useStore();
  const { input, opts } = useViz();
  const st = { siteFilter: opts.siteFilter ?? '', selectedSlab: opts.selectedSlab ?? null };
  const slab = input ? pickSlab(input, opts.cache, opts.selectedSlab) : null;
  const cache = input && slab ? cacheOf(input.snap, slab.cache) : null;
  const big = !!slab && slab.objects > CANVAS_MIN;
  // redrawn when what it draws changes (the slab's contents, the event's
  // object), not on every step: most steps leave the slab shown alone. Its
  // owners compare by their token (wire.ts), never built just for this.
  const slabDrawn = useMemo(() => (slab && !big ? slabKey(slab) : ''), [slab, big]);
  const ref = useD3<SVGSVGElement>(
    (el) => input && renderSlab(el, big ? null : slab, input, opts),
    [input === null, slabDrawn, input?.event?.obj, big, opts.animMs, opts.siteFilter],
  );
  const hardened = input?.snap.config.switches.freelist_hardened === true;
  const matches = slab && st.siteFilter ? objectCells(slab).filter((c) => c.owner && siteMatches(c.owner.site, st.siteFilter)).length : null;
  return (
    <Panel id="slab" title={t('panel.slab')} extra={slab && <small>{`slab ${slab.slab} (#${slab.id})`}</small>}>
      {input && <SiteFilter slabs={input.snap.slabs} cacheId={opts.cache} />}
      {slab && cache ? (
        <>
          <p className="slab-facts" data-testid="slab-facts">
            {cache.name} · node {slab.node} · order {slab.order} · base {slab.base} · inuse {slab.inuse}/{slab.objects} ·{' '}
            {slab.frozen ? 'frozen' : t('slab.notFrozen')} · list {slab.list} · freelist {slab.freelist.length}
            {slab.freelist_broken ? ' (BROKEN)' : ''}
            {matches !== null ? t('slab.matches', { n: matches }) : ''}
            {st.selectedSlab !== null && (
              <button type="button" className="link" onClick={() => store.selectSlab(null)}>
                {t('slab.follow')}
              </button>
            )}
          </p>
          <div className="scroll" tabIndex={0} role="region" aria-label={t('slab.scroll')}>
            {big ? (
              <SlabCanvas slab={slab} input={input!} opts={opts} />
            ) : (
              <svg ref={ref} role="img" aria-label={t('slab.svgAria', { slab: slab.slab })} />
            )}
          </div>
          <ul className="legend" aria-label={t('legend.objectsAria')}>
            {Object.entries(OBJECT_STATES).map(([ch, s]) => (
              <li key={s.name}>
                <i style={{ background: s.color }}>{s.label}</i> {stateDesc(ch)}
                {big ? ` (${t(`shape.${(SHAPES[ch] ?? 'square').replace(' ', '_')}` as MsgKey)})` : ''}
              </li>
            ))}
          </ul>
          <Owners slab={slab} filter={st.siteFilter} />
          <details>
            <summary>{t('slab.fp', { how: hardened ? t('slab.hardened') : t('slab.notHardened') })}</summary>
            <table className="fp">
              <thead>
                <tr>
                  <th>freelist #</th>
                  <th>{t('slab.object')}</th>
                  <th>{t('slab.address')}</th>
                  <th>{t('slab.raw')}</th>
                  <th>{t('slab.decoded')}</th>
                </tr>
              </thead>
              <tbody>
                {slab.freelist.slice(0, 64).map((o, i) => {
                  const fr = slab.free.find((x) => x.obj === o);
                  const addr = (BigInt('0x' + slab.base) + BigInt((o - slab.obj0) * cache.size)).toString(16).padStart(16, '0');
                  return (
                    <tr key={o} data-free-obj={o}>
                      <td>{i}</td>
                      <td>#{o}</td>
                      <td>{addr}</td>
                      <td>{fr?.raw ?? '?'}</td>
                      <td>{fr?.next ?? '?'}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </details>
        </>
      ) : (
        <>
          <p>{t('panel.noSlab')}</p>
          <svg ref={ref} aria-hidden="true" />
        </>
      )}
    </Panel>
  );
}
