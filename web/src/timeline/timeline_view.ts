// The per-rank timeline: one canvas, one row per rank, time to the right, drawn like DeepSeek's
// Fig. 5 (forward orange, backward green, weight-gradient blue, idle blank, an overlapped F&B pair as
// one bordered cell). Several groups (compare mode) share one time axis. Rendering reads cached
// results and never awaits; hover, click, drag-to-pan, ctrl+wheel zoom and keyboard navigation are
// all handled here so every view that shows a timeline behaves the same.
//
// Cost: cells are drawn grouped by colour. When cells get too narrow to show a border or a label, a
// group is drawn as a picture of pixel columns instead (aggregate.ts): O(ops + pixels) in plain
// arithmetic and one canvas call per rank, however many ops there are.
import { clear, el } from '../base/dom';
import { fillFor, readPalette, textFor, type Palette } from '../base/colors';
import { niceStep, TimeScale } from '../base/time_scale';
import { KINDS, type KindName, type SimulateValue } from '../engine/engine';
import { aggregateRows, cssColourToRgb, paintClasses, typicalOpDuration, visibleRange } from './aggregate';

export interface TimelineGroup {
  key: string;
  title: string;
  result: SimulateValue;
  /** Share of an FB cell drawn as forward: F / (F + B), as the figure splits its 3-cell slot 1:2. */
  forwardShare: number;
}

export interface CellRef {
  group: number;
  op: number;
}

export interface IdleRef {
  group: number;
  rank: number;
  time: number;
  /** The op that ends this idle gap (the rank's next op), or -1 after the rank's last op. */
  nextOp: number;
}

export interface TimelineOptions {
  /** Tooltip / announcement lines for an op. */
  describeOp(group: TimelineGroup, op: number): string[];
  /** Lines explaining an idle gap. */
  describeIdle(group: TimelineGroup, idle: IdleRef): string[];
  rankLabel(rank: number): string;
  ariaLabel: string;
  onCellClick?(ref: CellRef): void;
  onIdleClick?(ref: IdleRef): void;
}

const GUTTER = 62;
const AXIS = 26;
const GROUP_HEADER = 24;
const GROUP_GAP = 10;

/** Below this many device pixels per op (on average) a group is drawn aggregated: a cell that narrow
 *  has no gap, border or label left, and columns of the dominant kind draw the same picture at a
 *  fraction of the cost. */
const AGGREGATE_BELOW_DEVICE_PX = 2;

/** How a group was drawn, for tests and tools (data-render on the canvas). */
export type RenderMode = 'cells' | 'aggregated';

interface RowLayout {
  group: number;
  rank: number;
  y: number;
  h: number;
}

/** The cells of one group, sorted by colour before they reach the canvas. */
interface CellBatch {
  fills: Map<string, number[]>; // colour -> x, y, w, h, x, y, w, h, ...
  borders: number[];
  labels: { text: string; x: number; y: number; fill: string }[];
}

let firstTimelineMarked = false;

/** Diagonal hatching `gap` pixels apart: the look of a wait, distinct from any op's solid fill. */
function hatch(ctx: CanvasRenderingContext2D, colour: string, gap: number): CanvasPattern | null {
  const tile = document.createElement('canvas');
  tile.width = tile.height = gap * 2;
  const t = tile.getContext('2d');
  if (!t) return null;
  t.strokeStyle = colour;
  t.lineWidth = 1;
  t.beginPath();
  for (let k = -1; k <= 2; k++) {
    t.moveTo(k * gap - gap, gap * 2);
    t.lineTo(k * gap + gap, 0);
  }
  t.stroke();
  return ctx.createPattern(tile, 'repeat');
}

export class TimelineView {
  readonly element: HTMLElement;
  private readonly canvas: HTMLCanvasElement;
  private readonly ctx: CanvasRenderingContext2D;
  /** The context being drawn on: the visible canvas, or an export's. */
  private target: CanvasRenderingContext2D;
  private readonly tooltip: HTMLElement;
  private readonly live: HTMLElement;
  private groups: TimelineGroup[] = [];
  private rows: RowLayout[] = [];
  private window: [number, number] | null = null;
  private highlight: ((group: number, op: number) => boolean) | null = null;
  private focus: CellRef | null = null;
  private frame = 0;
  private drag: { x: number; window: [number, number]; moved: boolean } | null = null;
  /** Fingers on the canvas (pointer id -> x), and the spread of two of them while pinching. */
  private readonly touches = new Map<number, number>();
  private pinchSpread = 0;
  /** Canvas calls issued for ops in the last paint, and how each group was drawn. */
  private drawCalls = 0;
  private modes: RenderMode[] = [];
  /** Scratch canvas holding an aggregated group, one device-pixel row per rank. */
  private scratch: HTMLCanvasElement | null = null;
  /** The element's width as the ResizeObserver last saw it (0: not laid out, or hidden). Reading
   *  clientWidth right after the page changed its DOM would force a layout in the middle of an update. */
  private width = 0;

  constructor(private readonly options: TimelineOptions) {
    // An application role lets screen readers in browse mode pass the arrow keys through to the cells.
    this.canvas = el('canvas', { class: 'timeline-canvas', tabindex: 0, role: 'application', 'aria-roledescription': 'timeline', 'aria-label': options.ariaLabel });
    this.tooltip = el('div', { class: 'timeline-tooltip', role: 'tooltip', hidden: true });
    this.live = el('div', { class: 'visually-hidden', 'aria-live': 'polite' });
    this.element = el('div', { class: 'timeline' }, [this.canvas, this.tooltip, this.live]);
    const ctx = this.canvas.getContext('2d');
    if (!ctx) throw new Error('canvas 2D context unavailable');
    this.ctx = ctx;
    this.target = ctx;
    this.bindEvents();
    new ResizeObserver(() => {
      this.width = this.element.clientWidth; // laid out already when observers run: no extra layout
      this.requestRender();
    }).observe(this.element);
  }

  /** New results: drawn at once when the view is on screen, so that an update's simulation and
   *  drawing happen in one task and show in the next frame. */
  setGroups(groups: TimelineGroup[]): void {
    const oldFull = this.fullSpan();
    this.groups = groups;
    if (this.window && Math.abs(this.fullSpan() - oldFull) > 1e-9) this.window = null;
    this.focus = null;
    if (this.knownWidth() > 0) this.renderNow();
    else this.requestRender();
  }

  /** The width to draw at; read from the layout only before the observer has reported one. */
  private knownWidth(): number {
    if (this.width === 0) this.width = this.element.clientWidth;
    return this.width;
  }

  setHighlight(predicate: ((group: number, op: number) => boolean) | null): void {
    this.highlight = predicate;
    this.requestRender();
  }

  fit(): void {
    this.window = null;
    this.requestRender();
  }

  zoom(factor: number, anchor?: number): void {
    const [t0, t1] = this.currentWindow();
    const full = this.fullSpan();
    const at = anchor ?? (t0 + t1) / 2;
    const span = Math.min(full, Math.max(full / 400, (t1 - t0) / factor));
    let n0 = at - ((at - t0) / (t1 - t0)) * span;
    n0 = Math.max(0, Math.min(full - span, n0));
    this.window = span >= full ? null : [n0, n0 + span];
    this.requestRender();
  }

  /** Draws now (tests and screenshots call this; the page normally renders on the next frame). */
  renderNow(): void {
    cancelAnimationFrame(this.frame);
    this.frame = 0;
    this.render();
  }

  private requestRender(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render();
    });
  }

  private fullSpan(): number {
    let span = 0;
    for (const g of this.groups) span = Math.max(span, g.result.summary.makespan as number);
    return span || 1;
  }

  private currentWindow(): [number, number] {
    return this.window ?? [0, this.fullSpan()];
  }

  private scale(width: number): TimeScale {
    const [t0, t1] = this.currentWindow();
    return new TimeScale(t0, t1, GUTTER, width - 8);
  }

  private rowHeight(): number {
    const ranks = this.groups.reduce((n, g) => n + (g.result.summary.ranks as number), 0);
    if (ranks <= 16) return 26;
    if (ranks <= 32) return 18;
    return Math.max(7, Math.floor(720 / ranks));
  }

  private layout(): number {
    const h = this.rowHeight();
    const header = this.groups.length > 1 ? GROUP_HEADER : 0;
    this.rows = [];
    let y = AXIS;
    this.groups.forEach((g, gi) => {
      y += header;
      for (let r = 0; r < (g.result.summary.ranks as number); r++) {
        this.rows.push({ group: gi, rank: r, y, h });
        y += h;
      }
      y += GROUP_GAP;
    });
    return y;
  }

  private render(): void {
    const width = this.knownWidth();
    this.paint(this.canvas, this.ctx, Math.max(160, width), window.devicePixelRatio || 1, true);
    if (!firstTimelineMarked && this.groups.length > 0 && width > 0) {
      firstTimelineMarked = true;
      performance.mark('pipesim:first-timeline');
    }
  }

  /** The whole timeline (fitted) as a PNG at `scale` x its on-screen size, for slides. */
  toPng(scale = 2): Promise<Blob> {
    const canvas = document.createElement('canvas');
    const ctx = canvas.getContext('2d')!;
    const saved = this.window;
    this.window = null;
    this.paint(canvas, ctx, Math.max(160, this.knownWidth()), scale, false);
    this.window = saved;
    return new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('PNG encoding failed'))), 'image/png'));
  }

  private paint(canvas: HTMLCanvasElement, ctx: CanvasRenderingContext2D, width: number, dpr: number, onScreen: boolean): void {
    const height = this.layout();
    const styleWidth = `${width}px`;
    const styleHeight = `${height}px`;
    if (canvas.style.width !== styleWidth) canvas.style.width = styleWidth;
    if (canvas.style.height !== styleHeight) canvas.style.height = styleHeight;
    // Resizing a canvas reallocates its pixels: only when the size really changes.
    const pixelWidth = Math.round(width * dpr);
    const pixelHeight = Math.round(height * dpr);
    if (canvas.width !== pixelWidth) canvas.width = pixelWidth;
    if (canvas.height !== pixelHeight) canvas.height = pixelHeight;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const palette = readPalette(this.element);
    ctx.clearRect(0, 0, width, height);
    if (!onScreen) {
      ctx.fillStyle = palette.idle; // an exported image needs its own background
      ctx.fillRect(0, 0, width, height);
    }
    this.drawCalls = 0;
    this.modes = [];
    if (this.groups.length > 0) {
      const scale = this.scale(width);
      const previous = this.target;
      this.target = ctx;
      this.drawAxis(palette, scale, height);
      this.groups.forEach((g, gi) => this.drawGroup(palette, scale, g, gi, dpr));
      this.target = previous;
      if (onScreen) this.publishLayout(scale);
    }
  }

  /** Stable hooks for tests and tools: where time and rows are on the canvas (CSS pixels), and how
   *  the groups were drawn (cells or aggregated columns) with how many canvas calls for their ops. */
  private publishLayout(scale: TimeScale): void {
    const mode = this.modes.every((m) => m === this.modes[0]) ? this.modes[0] : 'mixed';
    Object.assign(this.canvas.dataset, {
      t0: String(scale.t0),
      t1: String(scale.t1),
      px0: String(scale.px0),
      px1: String(scale.px1),
      axis: String(AXIS),
      rowHeight: String(this.rowHeight()),
      render: mode,
      drawCalls: String(this.drawCalls),
    });
  }

  private drawAxis(p: Palette, scale: TimeScale, height: number): void {
    const ctx = this.target;
    const step = niceStep(scale.t1 - scale.t0, Math.max(2, (scale.px1 - scale.px0) / 70));
    ctx.font = `11px ${p.fontMono}`;
    ctx.textBaseline = 'middle';
    ctx.textAlign = 'center';
    ctx.strokeStyle = p.grid;
    ctx.lineWidth = 1;
    ctx.beginPath();
    for (let t = Math.ceil(scale.t0 / step) * step; t <= scale.t1 + 1e-9; t += step) {
      const x = Math.round(scale.timeToPx(t)) + 0.5;
      ctx.moveTo(x, AXIS - 4);
      ctx.lineTo(x, height - GROUP_GAP);
    }
    ctx.stroke();
    ctx.fillStyle = p.inkSoft;
    for (let t = Math.ceil(scale.t0 / step) * step; t <= scale.t1 + 1e-9; t += step)
      ctx.fillText(String(Number(t.toFixed(6))), Math.round(scale.timeToPx(t)) + 0.5, AXIS / 2);
  }

  private drawGroup(p: Palette, scale: TimeScale, g: TimelineGroup, gi: number, dpr: number): void {
    const ctx = this.target;
    const rows = this.rows.filter((r) => r.group === gi);
    if (rows.length === 0) return;
    if (this.groups.length > 1) {
      ctx.fillStyle = p.ink;
      ctx.font = `600 12px ${p.fontBody}`;
      ctx.textAlign = 'left';
      ctx.textBaseline = 'middle';
      ctx.fillText(g.title, 4, rows[0].y - GROUP_HEADER / 2);
    }
    this.drawRowBackgrounds(p, scale, rows);
    ctx.save();
    ctx.beginPath();
    ctx.rect(GUTTER, 0, scale.px1 - GUTTER, ctx.canvas.height);
    ctx.clip();
    const cellPx = typicalOpDuration(g.result) * ((scale.px1 - scale.px0) / (scale.t1 - scale.t0)) * dpr;
    if (cellPx < AGGREGATE_BELOW_DEVICE_PX) {
      this.modes.push('aggregated');
      this.drawAggregated(p, scale, g, rows, dpr);
    } else {
      this.modes.push('cells');
      this.drawCells(p, scale, g, rows);
    }
    this.drawWaits(p, scale, g, rows);
    this.drawMarked(p, scale, g, gi, rows);
    ctx.restore();
  }

  /** Reference timing: each op's wait, hatched over the idle time before it, one band per layer
   *  (consumed receives, receives it does not use, sends), densest for the waits the dataflow avoids.
   *  The reason is on hover (describeIdle). */
  private drawWaits(p: Palette, scale: TimeScale, g: TimelineGroup, rows: RowLayout[]): void {
    const ops = g.result.ops;
    if (!ops.waitUsedReceive || !ops.waitUnusedReceive || !ops.waitSend) return;
    const ctx = this.target;
    const layers = [ops.waitUsedReceive, ops.waitUnusedReceive, ops.waitSend];
    const patterns = [8, 5, 3].map((gap) => hatch(ctx, p.inkSoft, gap));
    for (const row of rows) {
      const [begin, end] = visibleRange(g.result, row.rank, scale.t0, scale.t1);
      const y = row.y + 1;
      const h = row.h - 2;
      for (let i = begin; i < Math.min(end + 1, g.result.rankBegin[row.rank + 1]); i++) {
        let at = ops.start[i] - (layers[0][i] + layers[1][i] + layers[2][i]);
        layers.forEach((layer, k) => {
          const length = layer[i];
          if (length <= 0) return;
          const x0 = scale.timeToPx(at);
          const x1 = scale.timeToPx(at + length);
          at += length;
          if (x1 - x0 < 1) return;
          ctx.fillStyle = patterns[k] ?? p.inkSoft;
          ctx.fillRect(x0, y + h * 0.25, x1 - x0, h * 0.5);
          this.drawCalls += 1;
        });
      }
    }
  }

  private drawRowBackgrounds(p: Palette, scale: TimeScale, rows: RowLayout[]): void {
    const ctx = this.target;
    ctx.fillStyle = p.idle;
    ctx.beginPath();
    for (const row of rows) ctx.rect(GUTTER, row.y + 1, scale.px1 - GUTTER, row.h - 2);
    ctx.fill();
    if (rows[0].h < 9) return; // too small for a label
    ctx.fillStyle = p.inkSoft;
    ctx.font = `${Math.min(12, rows[0].h - 2)}px ${p.fontMono}`;
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    for (const row of rows) ctx.fillText(this.options.rankLabel(row.rank), GUTTER - 6, row.y + row.h / 2);
  }

  /** Every visible op as its own cell, batched by colour (one fillStyle per colour, not per op), then
   *  the F&B borders and the labels that fit. Separate rectangles, not one path per colour: Chromium
   *  rasterises thousands of small rectangles faster than a path made of them. */
  private drawCells(p: Palette, scale: TimeScale, g: TimelineGroup, rows: RowLayout[]): void {
    const ctx = this.target;
    const h = rows[0].h - 2;
    const labelSize = Math.min(12, h - 4);
    ctx.font = `600 ${labelSize}px ${p.fontMono}`;
    // Labels are micro-batch numbers in a monospace font: one digit's width sizes them all.
    const digit = labelSize >= 7 ? ctx.measureText('0').width : Infinity;
    const batch = this.batchCells(p, scale, g, rows, digit);
    for (const [colour, rects] of batch.fills) {
      ctx.fillStyle = colour;
      for (let k = 0; k < rects.length; k += 4) ctx.fillRect(rects[k], rects[k + 1], rects[k + 2], rects[k + 3]);
      this.drawCalls += rects.length / 4;
    }
    ctx.strokeStyle = p.border;
    ctx.lineWidth = 1.5;
    const borders = batch.borders;
    for (let k = 0; k < borders.length; k += 4) ctx.strokeRect(borders[k], borders[k + 1], borders[k + 2], borders[k + 3]);
    this.drawCalls += borders.length / 4;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    const ink = new Map<string, string>();
    for (const label of batch.labels) {
      if (!ink.has(label.fill)) ink.set(label.fill, textFor(p, label.fill));
      ctx.fillStyle = ink.get(label.fill)!;
      ctx.fillText(label.text, label.x, label.y);
    }
    this.drawCalls += batch.labels.length;
  }

  private batchCells(p: Palette, scale: TimeScale, g: TimelineGroup, rows: RowLayout[], digit: number): CellBatch {
    const ops = g.result.ops;
    const batch: CellBatch = { fills: new Map(), borders: [], labels: [] };
    const rect = (fill: string, x: number, y: number, w: number, h: number) => {
      let list = batch.fills.get(fill);
      if (!list) batch.fills.set(fill, (list = []));
      list.push(x, y, w, h);
    };
    const label = (mb: number, cx: number, width: number, y: number, fill: string) => {
      const text = String(mb);
      if (text.length * digit + 3 <= width) batch.labels.push({ text, x: cx, y, fill });
    };
    for (const row of rows) {
      const [begin, end] = visibleRange(g.result, row.rank, scale.t0, scale.t1);
      const y = row.y + 1;
      const h = row.h - 2;
      const labelY = y + h / 2 + 0.5;
      for (let i = begin; i < end; i++) {
        const x0 = scale.timeToPx(ops.start[i]);
        const x1 = scale.timeToPx(ops.end[i]);
        const w = Math.max(1, x1 - x0 - (x1 - x0 > 4 ? 1 : 0));
        const kind = KINDS[ops.kind[i]] as KindName;
        if (kind === 'FB') {
          const fw = w * g.forwardShare;
          const fFill = fillFor(p, 'F', ops.phase[i]);
          const bFill = fillFor(p, 'B', ops.bPhase[i]);
          rect(fFill, x0, y, fw, h);
          rect(bFill, x0 + fw, y, w - fw, h);
          batch.borders.push(x0 + 0.75, y + 0.75, w - 1.5, h - 1.5);
          label(ops.mb[i], x0 + fw / 2, fw, labelY, fFill);
          label(ops.bMb[i], x0 + fw + (w - fw) / 2, w - fw, labelY, bFill);
        } else {
          const fill = fillFor(p, kind, ops.phase[i]);
          rect(fill, x0, y, w, h);
          label(ops.mb[i], x0 + w / 2, w, labelY, fill);
        }
      }
    }
    return batch;
  }

  /** The group as pixel columns: per rank and device-pixel column, the dominant kind's colour faded
   *  towards idle by the column's idle share, written into one image (one pixel row per rank) and
   *  stretched onto each row. */
  private drawAggregated(p: Palette, scale: TimeScale, g: TimelineGroup, rows: RowLayout[], dpr: number): void {
    const ctx = this.target;
    const columns = Math.max(1, Math.round((scale.px1 - scale.px0) * dpr));
    const classes = paintClasses(p).map(cssColourToRgb);
    const image = aggregateRows(g.result, g.forwardShare, rows.length, columns, scale.t0, scale.t1, classes, cssColourToRgb(p.idle));
    this.scratch ??= document.createElement('canvas');
    const scratch = this.scratch;
    if (scratch.width !== columns) scratch.width = columns;
    if (scratch.height !== rows.length) scratch.height = rows.length;
    scratch.getContext('2d')!.putImageData(image, 0, 0);
    ctx.imageSmoothingEnabled = false;
    for (const row of rows) ctx.drawImage(scratch, 0, row.rank, columns, 1, scale.px0, row.y + 1, scale.px1 - scale.px0, row.h - 2);
    ctx.imageSmoothingEnabled = true;
    this.drawCalls += rows.length + 1;
  }

  /** The focused cell and the highlighted ones, outlined on top, whichever way the group was drawn. */
  private drawMarked(p: Palette, scale: TimeScale, g: TimelineGroup, gi: number, rows: RowLayout[]): void {
    const focused = this.focus && this.focus.group === gi ? this.focus.op : -1;
    if (focused < 0 && !this.highlight) return;
    const ctx = this.target;
    const ops = g.result.ops;
    ctx.lineWidth = 3;
    const outline = (i: number, colour: string) => {
      const x0 = scale.timeToPx(ops.start[i]);
      const x1 = scale.timeToPx(ops.end[i]);
      const w = Math.max(1, x1 - x0 - (x1 - x0 > 4 ? 1 : 0));
      const row = rows[ops.rank[i]];
      ctx.strokeStyle = colour;
      ctx.strokeRect(x0 + 1.5, row.y + 2.5, Math.max(1, w - 3), row.h - 5);
    };
    if (this.highlight)
      for (let i = 0; i < ops.count; i++) if (i !== focused && this.highlight(gi, i)) outline(i, p.highlight);
    if (focused >= 0) outline(focused, p.ink);
  }

  // ---- interaction -------------------------------------------------------------------------------

  private hit(clientX: number, clientY: number): { cell?: CellRef; idle?: IdleRef } | null {
    const rect = this.canvas.getBoundingClientRect();
    const x = clientX - rect.left;
    const y = clientY - rect.top;
    if (x < GUTTER) return null;
    const row = this.rows.find((r) => y >= r.y && y < r.y + r.h);
    if (!row) return null;
    const g = this.groups[row.group];
    const time = this.scale(rect.width).pxToTime(x);
    const ops = g.result.ops;
    const begin = g.result.rankBegin[row.rank];
    const end = g.result.rankBegin[row.rank + 1];
    // Ops of a rank run in order, so their start times are sorted: binary search the last start <= time.
    let lo = begin;
    let hi = end;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ops.start[mid] <= time) lo = mid + 1;
      else hi = mid;
    }
    const i = lo - 1;
    if (i >= begin && time < ops.end[i]) return { cell: { group: row.group, op: i } };
    if (time < 0 || time > (g.result.summary.makespan as number)) return null;
    return { idle: { group: row.group, rank: row.rank, time, nextOp: lo < end ? lo : -1 } };
  }

  private showTooltip(lines: string[], clientX: number, clientY: number): void {
    clear(this.tooltip);
    lines.forEach((line, k) => this.tooltip.append(el(k === 0 ? 'strong' : 'div', { text: line })));
    this.tooltip.hidden = false;
    const host = this.element.getBoundingClientRect();
    const tw = this.tooltip.offsetWidth;
    let left = clientX - host.left + 14;
    if (left + tw > host.width) left = Math.max(0, clientX - host.left - tw - 14);
    this.tooltip.style.left = `${left}px`;
    this.tooltip.style.top = `${clientY - host.top + 14}px`;
  }

  private bindEvents(): void {
    const c = this.canvas;
    c.addEventListener('pointermove', (e) => {
      if (this.touches.has(e.pointerId)) this.touches.set(e.pointerId, e.clientX);
      if (this.touches.size === 2) return this.pinch();
      if (this.drag) {
        const dx = e.clientX - this.drag.x;
        if (Math.abs(dx) > 3) this.drag.moved = true;
        if (this.drag.moved) {
          const [t0, t1] = this.drag.window;
          const dt = (dx / (c.clientWidth - GUTTER)) * (t1 - t0);
          const full = this.fullSpan();
          const n0 = Math.max(0, Math.min(full - (t1 - t0), t0 - dt));
          this.window = [n0, n0 + (t1 - t0)];
          this.requestRender();
        }
        return;
      }
      const hit = this.hit(e.clientX, e.clientY);
      if (!hit) {
        this.tooltip.hidden = true;
        return;
      }
      const lines = hit.cell
        ? this.options.describeOp(this.groups[hit.cell.group], hit.cell.op)
        : this.options.describeIdle(this.groups[hit.idle!.group], hit.idle!);
      this.showTooltip(lines, e.clientX, e.clientY);
    });
    c.addEventListener('pointerleave', () => (this.tooltip.hidden = true));
    c.addEventListener('pointerdown', (e) => {
      if (e.pointerType === 'touch') this.touches.set(e.pointerId, e.clientX);
      this.drag = this.touches.size > 1 ? null : { x: e.clientX, window: this.currentWindow(), moved: false };
      this.pinchSpread = 0;
      c.setPointerCapture(e.pointerId);
    });
    c.addEventListener('pointercancel', (e) => this.touches.delete(e.pointerId));
    c.addEventListener('pointerup', (e) => {
      const pinched = this.touches.size > 1 || this.pinchSpread > 0;
      this.touches.delete(e.pointerId);
      if (this.touches.size === 0) this.pinchSpread = 0;
      const wasDrag = this.drag?.moved || pinched;
      this.drag = null;
      if (wasDrag) return;
      const hit = this.hit(e.clientX, e.clientY);
      // A tap is a touch screen's hover: it shows what the pointer would.
      if (hit && e.pointerType !== 'mouse')
        this.showTooltip(
          hit.cell ? this.options.describeOp(this.groups[hit.cell.group], hit.cell.op) : this.options.describeIdle(this.groups[hit.idle!.group], hit.idle!),
          e.clientX,
          e.clientY,
        );
      if (hit?.cell) {
        this.focus = hit.cell;
        this.requestRender();
        this.options.onCellClick?.(hit.cell);
      } else if (hit?.idle) {
        this.options.onIdleClick?.(hit.idle);
      }
    });
    c.addEventListener(
      'wheel',
      (e) => {
        // Plain wheel scrolls the page; ctrl/meta + wheel zooms at the cursor; shift or a sideways wheel pans.
        const rect = c.getBoundingClientRect();
        if (e.ctrlKey || e.metaKey) {
          e.preventDefault();
          this.zoom(e.deltaY < 0 ? 1.25 : 0.8, this.scale(rect.width).pxToTime(e.clientX - rect.left));
        } else if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) {
          if (!this.window) return;
          e.preventDefault();
          const [t0, t1] = this.window;
          const dt = ((e.shiftKey ? e.deltaY : e.deltaX) / rect.width) * (t1 - t0);
          const full = this.fullSpan();
          const n0 = Math.max(0, Math.min(full - (t1 - t0), t0 + dt));
          this.window = [n0, n0 + (t1 - t0)];
          this.requestRender();
        }
      },
      { passive: false },
    );
    c.addEventListener('keydown', (e) => this.onKey(e));
  }

  /** Two fingers moving apart zoom in around their midpoint, and together zoom out. */
  private pinch(): void {
    const [a, b] = [...this.touches.values()];
    const spread = Math.abs(a - b);
    if (this.pinchSpread > 8 && spread > 8) {
      const rect = this.canvas.getBoundingClientRect();
      this.zoom(spread / this.pinchSpread, this.scale(rect.width).pxToTime((a + b) / 2 - rect.left));
    }
    this.pinchSpread = spread;
    this.tooltip.hidden = true;
  }

  /** Arrow keys move between cells (left/right along a rank, up/down to the nearest op of the next
   *  rank) and announce them; Enter selects; + and - zoom; 0 fits. */
  private onKey(e: KeyboardEvent): void {
    if (this.groups.length === 0) return;
    const handled = ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Enter', '+', '=', '-', '0', 'Home', 'End'];
    if (!handled.includes(e.key)) return;
    e.preventDefault();
    if (e.key === '+' || e.key === '=') return this.zoom(1.5);
    if (e.key === '-') return this.zoom(1 / 1.5);
    if (e.key === '0') return this.fit();
    let focus = this.focus ?? { group: 0, op: 0 };
    const g = this.groups[focus.group];
    const ops = g.result.ops;
    const rank = ops.rank[focus.op];
    const begin = g.result.rankBegin[rank];
    const end = g.result.rankBegin[rank + 1];
    if (!this.focus) {
      focus = { group: 0, op: 0 };
    } else if (e.key === 'ArrowRight') {
      focus = { ...focus, op: Math.min(end - 1, focus.op + 1) };
    } else if (e.key === 'ArrowLeft') {
      focus = { ...focus, op: Math.max(begin, focus.op - 1) };
    } else if (e.key === 'Home') {
      focus = { ...focus, op: begin };
    } else if (e.key === 'End') {
      focus = { ...focus, op: end - 1 };
    } else if (e.key === 'ArrowUp' || e.key === 'ArrowDown') {
      focus = this.verticalNeighbour(focus, e.key === 'ArrowDown' ? 1 : -1);
    } else if (e.key === 'Enter') {
      this.options.onCellClick?.(focus);
    }
    this.focus = focus;
    this.ensureVisible(focus);
    this.live.textContent = this.options.describeOp(this.groups[focus.group], focus.op).join('. ');
    this.requestRender();
  }

  private verticalNeighbour(from: CellRef, direction: 1 | -1): CellRef {
    const g = this.groups[from.group];
    const ranks = g.result.summary.ranks as number;
    let group = from.group;
    let rank = g.result.ops.rank[from.op] + direction;
    if (rank < 0 || rank >= ranks) {
      group += direction;
      if (group < 0 || group >= this.groups.length) return from;
      rank = direction > 0 ? 0 : (this.groups[group].result.summary.ranks as number) - 1;
    }
    const target = this.groups[group];
    const t = (g.result.ops.start[from.op] + g.result.ops.end[from.op]) / 2;
    const begin = target.result.rankBegin[rank];
    const end = target.result.rankBegin[rank + 1];
    let best = begin;
    for (let i = begin; i < end; i++) {
      const mid = (target.result.ops.start[i] + target.result.ops.end[i]) / 2;
      if (Math.abs(mid - t) < Math.abs((target.result.ops.start[best] + target.result.ops.end[best]) / 2 - t)) best = i;
    }
    return end > begin ? { group, op: best } : from;
  }

  private ensureVisible(ref: CellRef): void {
    if (!this.window) return;
    const ops = this.groups[ref.group].result.ops;
    const [t0, t1] = this.window;
    if (ops.start[ref.op] >= t0 && ops.end[ref.op] <= t1) return;
    const span = t1 - t0;
    const full = this.fullSpan();
    const n0 = Math.max(0, Math.min(full - span, ops.start[ref.op] - span / 3));
    this.window = [n0, n0 + span];
  }
}
