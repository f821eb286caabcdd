// The per-rank timeline: one canvas, one row per rank, time to the right, drawn like DeepSeek's
// Fig. 5 (forward orange, backward green, weight-gradient blue, idle blank, an overlapped F&B pair as
// one bordered cell). Several groups (compare mode) share one time axis. Rendering reads cached
// results and never awaits; hover, click, drag-to-pan, ctrl+wheel zoom and keyboard navigation are
// all handled here so every view that shows a timeline behaves the same.
import { clear, el } from '../base/dom';
import { fillFor, readPalette, textFor, type Palette } from '../base/colors';
import { niceStep, TimeScale } from '../base/time_scale';
import { KINDS, type KindName, type SimulateValue } from '../engine/engine';

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

interface RowLayout {
  group: number;
  rank: number;
  y: number;
  h: number;
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
    new ResizeObserver(() => this.requestRender()).observe(this.element);
  }

  setGroups(groups: TimelineGroup[]): void {
    const oldFull = this.fullSpan();
    this.groups = groups;
    if (this.window && Math.abs(this.fullSpan() - oldFull) > 1e-9) this.window = null;
    this.focus = null;
    this.requestRender();
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
    const width = Math.max(160, this.element.clientWidth);
    this.paint(this.canvas, this.ctx, width, window.devicePixelRatio || 1, true);
  }

  /** The whole timeline (fitted) as a PNG at `scale` x its on-screen size, for slides. */
  toPng(scale = 2): Promise<Blob> {
    const canvas = document.createElement('canvas');
    const ctx = canvas.getContext('2d')!;
    const saved = this.window;
    this.window = null;
    this.paint(canvas, ctx, Math.max(160, this.element.clientWidth), scale, false);
    this.window = saved;
    return new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('PNG encoding failed'))), 'image/png'));
  }

  private paint(canvas: HTMLCanvasElement, ctx: CanvasRenderingContext2D, width: number, dpr: number, onScreen: boolean): void {
    const height = this.layout();
    canvas.style.width = `${width}px`;
    canvas.style.height = `${height}px`;
    canvas.width = Math.round(width * dpr);
    canvas.height = Math.round(height * dpr);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const palette = readPalette(this.element);
    ctx.clearRect(0, 0, width, height);
    if (!onScreen) {
      ctx.fillStyle = palette.idle; // an exported image needs its own background
      ctx.fillRect(0, 0, width, height);
    }
    if (this.groups.length === 0) return;
    const scale = this.scale(width);
    if (onScreen)
      // Stable hooks for tests and tools: where time and rows are on the canvas (CSS pixels).
      Object.assign(canvas.dataset, {
        t0: String(scale.t0),
        t1: String(scale.t1),
        px0: String(scale.px0),
        px1: String(scale.px1),
        axis: String(AXIS),
        rowHeight: String(this.rowHeight()),
      });
    const previous = this.target;
    this.target = ctx;
    this.drawAxis(palette, scale, height);
    this.groups.forEach((g, gi) => this.drawGroup(palette, scale, g, gi));
    this.target = previous;
  }

  private drawAxis(p: Palette, scale: TimeScale, height: number): void {
    const ctx = this.target;
    const step = niceStep(scale.t1 - scale.t0, Math.max(2, (scale.px1 - scale.px0) / 70));
    ctx.font = `11px ${p.fontMono}`;
    ctx.textBaseline = 'middle';
    ctx.textAlign = 'center';
    for (let t = Math.ceil(scale.t0 / step) * step; t <= scale.t1 + 1e-9; t += step) {
      const x = Math.round(scale.timeToPx(t)) + 0.5;
      ctx.strokeStyle = p.grid;
      ctx.beginPath();
      ctx.moveTo(x, AXIS - 4);
      ctx.lineTo(x, height - GROUP_GAP);
      ctx.stroke();
      ctx.fillStyle = p.inkSoft;
      ctx.fillText(String(Number(t.toFixed(6))), x, AXIS / 2);
    }
  }

  private drawGroup(p: Palette, scale: TimeScale, g: TimelineGroup, gi: number): void {
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
    for (const row of rows) {
      ctx.fillStyle = p.idle;
      ctx.fillRect(GUTTER, row.y + 1, scale.px1 - GUTTER, row.h - 2);
      ctx.fillStyle = p.inkSoft;
      ctx.font = `${Math.min(12, row.h - 2)}px ${p.fontMono}`;
      ctx.textAlign = 'right';
      ctx.textBaseline = 'middle';
      if (row.h >= 9) ctx.fillText(this.options.rankLabel(row.rank), GUTTER - 6, row.y + row.h / 2);
    }
    const ops = g.result.ops;
    ctx.save();
    ctx.beginPath();
    ctx.rect(GUTTER, 0, scale.px1 - GUTTER, ctx.canvas.height);
    ctx.clip();
    for (let i = 0; i < ops.count; i++) {
      if (ops.end[i] < scale.t0 || ops.start[i] > scale.t1) continue;
      const row = rows[ops.rank[i]];
      this.drawOp(p, scale, g, i, row);
    }
    ctx.restore();
  }

  private drawOp(p: Palette, scale: TimeScale, g: TimelineGroup, i: number, row: RowLayout): void {
    const ctx = this.target;
    const ops = g.result.ops;
    const x0 = scale.timeToPx(ops.start[i]);
    const x1 = scale.timeToPx(ops.end[i]);
    const w = Math.max(1, x1 - x0 - (x1 - x0 > 4 ? 1 : 0));
    const y = row.y + 1;
    const h = row.h - 2;
    const kind = KINDS[ops.kind[i]] as KindName;
    const labelSize = Math.min(12, h - 4);
    ctx.font = `600 ${labelSize}px ${p.fontMono}`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    const label = (text: string, cx: number, width: number, fill: string) => {
      if (labelSize < 7 || ctx.measureText(text).width + 3 > width) return;
      ctx.fillStyle = textFor(p, fill);
      ctx.fillText(text, cx, y + h / 2 + 0.5);
    };
    if (kind === 'FB') {
      const fw = w * g.forwardShare;
      const fFill = fillFor(p, 'F', ops.phase[i]);
      const bFill = fillFor(p, 'B', ops.bPhase[i]);
      ctx.fillStyle = fFill;
      ctx.fillRect(x0, y, fw, h);
      ctx.fillStyle = bFill;
      ctx.fillRect(x0 + fw, y, w - fw, h);
      ctx.strokeStyle = p.border;
      ctx.lineWidth = 1.5;
      ctx.strokeRect(x0 + 0.75, y + 0.75, w - 1.5, h - 1.5);
      label(String(ops.mb[i]), x0 + fw / 2, fw, fFill);
      label(String(ops.bMb[i]), x0 + fw + (w - fw) / 2, w - fw, bFill);
    } else {
      const fill = fillFor(p, kind, ops.phase[i]);
      ctx.fillStyle = fill;
      ctx.fillRect(x0, y, w, h);
      label(String(ops.mb[i]), x0 + w / 2, w, fill);
    }
    const focused = this.focus && this.groups[this.focus.group] === g && this.focus.op === i;
    if (focused || (this.highlight && this.highlight(this.groups.indexOf(g), i))) {
      ctx.strokeStyle = focused ? p.ink : p.highlight;
      ctx.lineWidth = 3;
      ctx.strokeRect(x0 + 1.5, y + 1.5, Math.max(1, w - 3), h - 3);
    }
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
      this.drag = { x: e.clientX, window: this.currentWindow(), moved: false };
      c.setPointerCapture(e.pointerId);
    });
    c.addEventListener('pointerup', (e) => {
      const wasDrag = this.drag?.moved;
      this.drag = null;
      if (wasDrag) return;
      const hit = this.hit(e.clientX, e.clientY);
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
