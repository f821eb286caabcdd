// The per-rank timeline: one canvas, one row per rank, time to the right, drawn like DeepSeek's
// Fig. 5. Several groups (compare mode) share one time axis. Rendering reads cached results and
// never awaits. It is made of three pieces: the canvas host (canvas_host.ts: sizing, device pixels,
// redraw scheduling), one track per rank (track.ts: render(ctx, scale)) and the input (input.ts:
// pointer, wheel, touch, keyboard); this file lays the tracks out, draws the axis and the group
// titles, and keeps the window of time, the focus and the highlight.
//
// Cost: when cells get too narrow to show a border or a label, a group is drawn as a picture of pixel
// columns instead (aggregate.ts): O(ops + pixels) in plain arithmetic and one canvas call per rank,
// however many ops there are.
import { clear, el } from '../base/dom';
import { readPalette, type Palette } from '../base/colors';
import { niceStep, TimeScale } from '../base/time_scale';
import type { SimulateValue } from '../engine/engine';
import { aggregateRows, cssColourToRgb, paintClasses, typicalOpDuration, waitsInWindow, type WindowWaits } from './aggregate';
import { CanvasHost, sizeCanvas } from './canvas_host';
import { bindTimelineInput } from './input';
import { GUTTER, hatch, RankTrack, type TrackFrame } from './track';

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

/** In a group drawn aggregated (reference timing), the waits of the pixel column under the pointer:
 *  the column's time window on `rank`, each layer's time in it, their total and the dominant layer. */
export interface ColumnWaits extends WindowWaits {
  rank: number;
  from: number;
  to: number;
}

/** What the pointer is over: a cell or an idle gap, and in an aggregated group its column's waits. */
interface Hit {
  cell?: CellRef;
  idle?: IdleRef;
  column?: ColumnWaits;
}

export interface TimelineOptions {
  /** Tooltip / announcement lines for an op. */
  describeOp(group: TimelineGroup, op: number): string[];
  /** Lines explaining an idle gap. */
  describeIdle(group: TimelineGroup, idle: IdleRef): string[];
  /** Lines on the waits of an aggregated pixel column (added to the op's or the gap's). */
  describeColumnWaits?(group: TimelineGroup, waits: ColumnWaits): string[];
  rankLabel(rank: number): string;
  ariaLabel: string;
  onCellClick?(ref: CellRef): void;
  onIdleClick?(ref: IdleRef): void;
}

const AXIS = 26;
const GROUP_HEADER = 24;
const GROUP_GAP = 10;

/** Below this many device pixels per op (on average) a group is drawn aggregated: a cell that narrow
 *  has no gap, border or label left, and columns of the dominant kind draw the same picture at a
 *  fraction of the cost. */
const AGGREGATE_BELOW_DEVICE_PX = 2;

/** How a group was drawn, for tests and tools (data-render on the canvas). */
export type RenderMode = 'cells' | 'aggregated';

let firstTimelineMarked = false;

export class TimelineView {
  readonly element: HTMLElement;
  private readonly host: CanvasHost;
  private readonly canvas: HTMLCanvasElement;
  private readonly tooltip: HTMLElement;
  private readonly live: HTMLElement;
  private groups: TimelineGroup[] = [];
  private tracks: RankTrack[] = [];
  private shown: [number, number] | null = null;
  private highlight: ((group: number, op: number) => boolean) | null = null;
  private focus: CellRef | null = null;
  /** Canvas calls issued for ops in the last paint, and how each group was drawn. */
  private drawCalls = 0;
  private modes: RenderMode[] = [];
  /** Scratch canvas holding an aggregated group, one device-pixel row per rank. */
  private scratch: HTMLCanvasElement | null = null;

  constructor(private readonly options: TimelineOptions) {
    this.tooltip = el('div', { class: 'timeline-tooltip', role: 'tooltip', hidden: true });
    this.live = el('div', { class: 'visually-hidden', 'aria-live': 'polite' });
    // An application role lets screen readers in browse mode pass the arrow keys through to the cells.
    this.host = new CanvasHost(
      { class: 'timeline-canvas', tabindex: 0, role: 'application', 'aria-roledescription': 'timeline', 'aria-label': options.ariaLabel },
      [this.tooltip, this.live],
      () => this.render(),
    );
    this.element = this.host.element;
    this.canvas = this.host.canvas;
    this.bindInput();
  }

  /** New results: drawn at once when the view is on screen, so that an update's simulation and
   *  drawing happen in one task and show in the next frame. */
  setGroups(groups: TimelineGroup[]): void {
    const oldFull = this.fullSpan();
    this.groups = groups;
    if (this.shown && Math.abs(this.fullSpan() - oldFull) > 1e-9) this.shown = null;
    this.focus = null;
    if (this.host.knownWidth() > 0) this.renderNow();
    else this.host.requestRender();
  }

  setHighlight(predicate: ((group: number, op: number) => boolean) | null): void {
    this.highlight = predicate;
    this.host.requestRender();
  }

  fit(): void {
    this.shown = null;
    this.host.requestRender();
  }

  zoom(factor: number, anchor?: number): void {
    const [t0, t1] = this.currentWindow();
    const full = this.fullSpan();
    const at = anchor ?? (t0 + t1) / 2;
    const span = Math.min(full, Math.max(full / 400, (t1 - t0) / factor));
    let n0 = at - ((at - t0) / (t1 - t0)) * span;
    n0 = Math.max(0, Math.min(full - span, n0));
    this.shown = span >= full ? null : [n0, n0 + span];
    this.host.requestRender();
  }

  /** Draws now (tests and screenshots call this; the page normally renders on the next frame). */
  renderNow(): void {
    this.host.renderNow();
  }

  private fullSpan(): number {
    let span = 0;
    for (const g of this.groups) span = Math.max(span, g.result.summary.makespan as number);
    return span || 1;
  }

  private currentWindow(): [number, number] {
    return this.shown ?? [0, this.fullSpan()];
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

  /** One track per rank of every group, top to bottom; returns the canvas height. */
  private layout(): number {
    const h = this.rowHeight();
    const header = this.groups.length > 1 ? GROUP_HEADER : 0;
    this.tracks = [];
    let y = AXIS;
    this.groups.forEach((g, gi) => {
      y += header;
      for (let r = 0; r < (g.result.summary.ranks as number); r++) {
        this.tracks.push(new RankTrack(g, gi, r, y, h));
        y += h;
      }
      y += GROUP_GAP;
    });
    return y;
  }

  private render(): void {
    const width = this.host.knownWidth();
    this.paint(this.canvas, this.host.ctx, Math.max(160, width), this.host.dpr, true);
    if (!firstTimelineMarked && this.groups.length > 0 && width > 0) {
      firstTimelineMarked = true;
      performance.mark('pipesim:first-timeline');
    }
  }

  /** The whole timeline (fitted) as a PNG at `scale` x its on-screen size, for slides. */
  toPng(scale = 2): Promise<Blob> {
    const canvas = document.createElement('canvas');
    const ctx = canvas.getContext('2d')!;
    const saved = this.shown;
    this.shown = null;
    this.paint(canvas, ctx, Math.max(160, this.host.knownWidth()), scale, false);
    this.shown = saved;
    return new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('PNG encoding failed'))), 'image/png'));
  }

  private paint(canvas: HTMLCanvasElement, ctx: CanvasRenderingContext2D, width: number, dpr: number, onScreen: boolean): void {
    const height = this.layout();
    sizeCanvas(canvas, ctx, width, height, dpr);
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
      this.drawAxis(ctx, palette, scale, height);
      this.groups.forEach((g, gi) => this.drawGroup(ctx, palette, scale, g, gi, dpr));
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

  private drawAxis(ctx: CanvasRenderingContext2D, p: Palette, scale: TimeScale, height: number): void {
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

  /** A group: its title (when there are several), then each of its tracks. */
  private drawGroup(ctx: CanvasRenderingContext2D, p: Palette, scale: TimeScale, g: TimelineGroup, gi: number, dpr: number): void {
    const tracks = this.tracks.filter((t) => t.groupIndex === gi);
    if (tracks.length === 0) return;
    if (this.groups.length > 1) {
      ctx.fillStyle = p.ink;
      ctx.font = `600 12px ${p.fontBody}`;
      ctx.textAlign = 'left';
      ctx.textBaseline = 'middle';
      ctx.fillText(g.title, 4, tracks[0].y - GROUP_HEADER / 2);
    }
    const cellPx = typicalOpDuration(g.result) * ((scale.px1 - scale.px0) / (scale.t1 - scale.t0)) * dpr;
    const aggregated = cellPx < AGGREGATE_BELOW_DEVICE_PX;
    this.modes.push(aggregated ? 'aggregated' : 'cells');
    let patterns: (CanvasPattern | null)[] | null = null;
    const highlight = this.highlight;
    const frame: TrackFrame = {
      palette: p,
      aggregated: aggregated ? this.aggregatedPicture(p, scale, g, tracks.length, dpr) : null,
      focused: this.focus && this.focus.group === gi ? this.focus.op : -1,
      highlight: highlight ? (op) => highlight(gi, op) : null,
      rankLabel: (rank) => this.options.rankLabel(rank),
      waitPatterns: (c) => (patterns ??= [8, 5, 3].map((gap) => hatch(c, p.inkSoft, gap))),
      drawCalls: aggregated ? 1 : 0, // the picture's one putImageData
      colourOrder: [],
    };
    for (const track of tracks) track.render(ctx, scale, frame);
    this.drawCalls += frame.drawCalls;
  }

  /** The group as pixel columns: per rank and device-pixel column, the dominant kind's colour faded
   *  towards idle by the column's idle share, written into one image (one pixel row per rank) that
   *  each track stretches onto its row. */
  private aggregatedPicture(p: Palette, scale: TimeScale, g: TimelineGroup, ranks: number, dpr: number): HTMLCanvasElement {
    const columns = Math.max(1, Math.round((scale.px1 - scale.px0) * dpr));
    const classes = paintClasses(p).map(cssColourToRgb);
    const image = aggregateRows(g.result, g.forwardShare, ranks, columns, scale.t0, scale.t1, classes, cssColourToRgb(p.idle));
    this.scratch ??= document.createElement('canvas');
    const scratch = this.scratch;
    if (scratch.width !== columns) scratch.width = columns;
    if (scratch.height !== ranks) scratch.height = ranks;
    scratch.getContext('2d')!.putImageData(image, 0, 0);
    return scratch;
  }

  // ---- what the input (input.ts) asks of the view ---------------------------------------------------

  private hit(clientX: number, clientY: number): Hit | null {
    const rect = this.canvas.getBoundingClientRect();
    const x = clientX - rect.left;
    const y = clientY - rect.top;
    if (x < GUTTER) return null;
    const track = this.tracks.find((t) => t.contains(y));
    if (!track) return null;
    const g = this.groups[track.groupIndex];
    const time = this.scale(rect.width).pxToTime(x);
    const ops = g.result.ops;
    const begin = g.result.rankBegin[track.rank];
    const end = g.result.rankBegin[track.rank + 1];
    // Ops of a rank run in order, so their start times are sorted: binary search the last start <= time.
    let lo = begin;
    let hi = end;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ops.start[mid] <= time) lo = mid + 1;
      else hi = mid;
    }
    const i = lo - 1;
    const column = this.columnWaits(track, rect.width, x);
    if (i >= begin && time < ops.end[i]) return { cell: { group: track.groupIndex, op: i }, column };
    if (time < 0 || time > (g.result.summary.makespan as number)) return null;
    return { idle: { group: track.groupIndex, rank: track.rank, time, nextOp: lo < end ? lo : -1 }, column };
  }

  /** When the track's group was drawn aggregated, the waits of the device-pixel column at canvas x
   *  (the picture's column, as aggregatedPicture cut it); undefined when it has none. */
  private columnWaits(track: RankTrack, width: number, x: number): ColumnWaits | undefined {
    if (this.modes[track.groupIndex] !== 'aggregated') return undefined;
    const scale = this.scale(width);
    const columns = Math.max(1, Math.round((scale.px1 - scale.px0) * this.host.dpr));
    const c = Math.floor(((x - scale.px0) / (scale.px1 - scale.px0)) * columns);
    if (c < 0 || c >= columns) return undefined;
    const perColumn = (scale.t1 - scale.t0) / columns;
    const from = scale.t0 + c * perColumn;
    const to = from + perColumn;
    const waits = waitsInWindow(this.groups[track.groupIndex].result, track.rank, from, to);
    return waits.total > 0 ? { ...waits, rank: track.rank, from, to } : undefined;
  }

  private describe(hit: Hit): string[] {
    const lines = hit.cell ? this.options.describeOp(this.groups[hit.cell.group], hit.cell.op) : this.options.describeIdle(this.groups[hit.idle!.group], hit.idle!);
    const group = this.groups[hit.cell?.group ?? hit.idle!.group];
    return hit.column && this.options.describeColumnWaits ? [...lines, ...this.options.describeColumnWaits(group, hit.column)] : lines;
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

  private bindInput(): void {
    bindTimelineInput({
      canvas: this.canvas,
      gutter: GUTTER,
      hit: (x, y) => this.hit(x, y),
      timeAt: (x, width) => this.scale(width).pxToTime(x),
      window: () => this.currentWindow(),
      fullSpan: () => this.fullSpan(),
      setWindow: (window) => {
        this.shown = window;
        this.host.requestRender();
      },
      zoom: (factor, anchor) => this.zoom(factor, anchor),
      fit: () => this.fit(),
      zoomed: () => this.shown !== null,
      describe: (hit) => this.describe(hit),
      showTooltip: (lines, x, y) => this.showTooltip(lines, x, y),
      hideTooltip: () => (this.tooltip.hidden = true),
      select: (hit) => {
        if (hit.cell) {
          this.focus = hit.cell;
          this.host.requestRender();
          this.options.onCellClick?.(hit.cell);
        } else if (hit.idle) {
          this.options.onIdleClick?.(hit.idle);
        }
      },
      moveFocus: (key) => this.moveFocus(key),
      hasCells: () => this.groups.length > 0,
    });
  }

  /** Arrow keys move between cells (left/right along a rank, up/down to the nearest op of the next
   *  rank) and announce them; Home and End go to a rank's ends; Enter selects. */
  private moveFocus(key: string): void {
    let focus = this.focus ?? { group: 0, op: 0 };
    const g = this.groups[focus.group];
    const ops = g.result.ops;
    const rank = ops.rank[focus.op];
    const begin = g.result.rankBegin[rank];
    const end = g.result.rankBegin[rank + 1];
    if (!this.focus) {
      focus = { group: 0, op: 0 };
    } else if (key === 'ArrowRight') {
      focus = { ...focus, op: Math.min(end - 1, focus.op + 1) };
    } else if (key === 'ArrowLeft') {
      focus = { ...focus, op: Math.max(begin, focus.op - 1) };
    } else if (key === 'Home') {
      focus = { ...focus, op: begin };
    } else if (key === 'End') {
      focus = { ...focus, op: end - 1 };
    } else if (key === 'ArrowUp' || key === 'ArrowDown') {
      focus = this.verticalNeighbour(focus, key === 'ArrowDown' ? 1 : -1);
    } else if (key === 'Enter') {
      this.options.onCellClick?.(focus);
    }
    this.focus = focus;
    this.ensureVisible(focus);
    this.live.textContent = this.options.describeOp(this.groups[focus.group], focus.op).join('. ');
    this.host.requestRender();
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
    if (!this.shown) return;
    const ops = this.groups[ref.group].result.ops;
    const [t0, t1] = this.shown;
    if (ops.start[ref.op] >= t0 && ops.end[ref.op] <= t1) return;
    const span = t1 - t0;
    const full = this.fullSpan();
    const n0 = Math.max(0, Math.min(full - span, ops.start[ref.op] - span / 3));
    this.shown = [n0, n0 + span];
  }
}
