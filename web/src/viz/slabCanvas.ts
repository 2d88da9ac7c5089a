// Slab detail for very large slabs (more than CANVAS_MIN objects): the
// object grid drawn on a <canvas>, one small cell per object. State is told
// by shape as well as color (free: hollow square; allocated: filled square;
// in a sheaf: disc; on a c->freelist: diamond; bulk/chain/rcu: triangle;
// lost: cross). The canvas keeps what tests need as data-* attributes
// (data-slab-id, data-objects, data-inuse, data-states: one state char per
// object, data-state-counts, data-site-matches), and canvasHit() maps a
// pointer position to the object under it.
import { GLYPHS, objectState, type VizInput, type VizOptions } from './common';
import { cellSiteMatch, objectCells, type ObjectCell } from './slab';
import type { SnapSlab } from '../engine/types';

export const CCELL = 9;
export const CGAP = 2;

export function canvasLayout(objects: number, width = 640) {
  const pitch = CCELL + CGAP;
  const cols = Math.max(8, Math.min(objects, Math.floor((width - 4) / pitch)));
  const rows = Math.ceil(objects / cols);
  return {
    cols,
    rows,
    pitch,
    width: cols * pitch + 4,
    height: rows * pitch + 4,
    pos: (i: number) => ({ x: 2 + (i % cols) * pitch, y: 2 + Math.floor(i / cols) * pitch }),
  };
}

export function stateCounts(state: string): Record<string, number> {
  const n: Record<string, number> = {};
  for (const ch of state) n[ch] = (n[ch] ?? 0) + 1;
  return n;
}

export const SHAPES: Record<string, string> = {
  f: 'hollow square',
  u: 'filled square',
  s: 'disc',
  p: 'diamond',
  b: 'triangle',
  c: 'triangle',
  r: 'triangle',
  l: 'cross',
};

function drawCell(g: CanvasRenderingContext2D, c: ObjectCell, x: number, y: number, dim: boolean, touched: boolean): void {
  const st = objectState(c.state);
  const s = CCELL;
  g.globalAlpha = dim ? 0.2 : 1;
  g.fillStyle = st.color;
  g.strokeStyle = '#556';
  g.lineWidth = 1;
  switch (c.state) {
    case 'f':
      g.strokeRect(x + 0.5, y + 0.5, s - 1, s - 1);
      break;
    case 's':
      g.beginPath();
      g.arc(x + s / 2, y + s / 2, s / 2, 0, 2 * Math.PI);
      g.fill();
      break;
    case 'p':
      g.beginPath();
      g.moveTo(x + s / 2, y);
      g.lineTo(x + s, y + s / 2);
      g.lineTo(x + s / 2, y + s);
      g.lineTo(x, y + s / 2);
      g.closePath();
      g.fill();
      break;
    case 'b':
    case 'c':
    case 'r':
      g.beginPath();
      g.moveTo(x + s / 2, y);
      g.lineTo(x + s, y + s);
      g.lineTo(x, y + s);
      g.closePath();
      g.fill();
      break;
    case 'l':
      g.strokeStyle = st.color;
      g.lineWidth = 2;
      g.beginPath();
      g.moveTo(x, y);
      g.lineTo(x + s, y + s);
      g.moveTo(x + s, y);
      g.lineTo(x, y + s);
      g.stroke();
      break;
    default:
      g.fillRect(x, y, s, s);
  }
  if (touched) {
    g.globalAlpha = 1;
    g.strokeStyle = GLYPHS.touched;
    g.lineWidth = 2;
    g.strokeRect(x - 1, y - 1, s + 2, s + 2);
  }
  g.globalAlpha = 1;
}

/** Draws the slab; returns the cells drawn (for hit tests). */
export function renderSlabCanvas(canvas: HTMLCanvasElement, slab: SnapSlab, input: VizInput, opts: VizOptions): ObjectCell[] {
  const L = canvasLayout(slab.objects, opts.width ?? 640);
  const cells = objectCells(slab);
  const counts = stateCounts(slab.state);
  const matches = opts.siteFilter ? cells.filter((c) => cellSiteMatch(c, opts.siteFilter) === 'true').length : null;
  canvas.width = L.width;
  canvas.height = L.height;
  canvas.style.width = `${L.width}px`;
  canvas.style.height = `${L.height}px`;
  canvas.dataset.render = 'canvas';
  canvas.dataset.slabId = String(slab.id);
  canvas.dataset.objects = String(slab.objects);
  canvas.dataset.inuse = String(slab.inuse);
  canvas.dataset.states = slab.state;
  canvas.dataset.stateCounts = Object.entries(counts)
    .map(([k, v]) => `${objectState(k).name}:${v}`)
    .sort()
    .join(',');
  canvas.dataset.freelist = String(slab.freelist.length);
  if (matches === null) delete canvas.dataset.siteMatches;
  else canvas.dataset.siteMatches = String(matches);
  canvas.setAttribute(
    'aria-label',
    `${slab.objects} objects of slab ${slab.slab}: ` +
      Object.entries(counts)
        .map(([k, v]) => `${v} ${objectState(k).name} (${SHAPES[k] ?? 'square'})`)
        .join(', '),
  );
  let g: CanvasRenderingContext2D | null = null;
  try {
    g = typeof navigator !== 'undefined' && /jsdom/.test(navigator.userAgent) ? null : canvas.getContext('2d');
  } catch {
    g = null;
  }
  if (!g) return cells; // jsdom: no 2D context, the data-* attributes still hold
  g.clearRect(0, 0, L.width, L.height);
  const ev = input.event;
  for (const c of cells) {
    const p = L.pos(c.index);
    drawCell(g, c, p.x, p.y, cellSiteMatch(c, opts.siteFilter) === 'false', ev?.obj === c.id);
  }
  return cells;
}

/** The cell under a point in the canvas's own pixels, or null. */
export function canvasHit(cells: ObjectCell[], objects: number, x: number, y: number, width = 640): ObjectCell | null {
  const L = canvasLayout(objects, width);
  const col = Math.floor((x - 2) / L.pitch);
  const row = Math.floor((y - 2) / L.pitch);
  if (col < 0 || col >= L.cols || row < 0) return null;
  return cells[row * L.cols + col] ?? null;
}
