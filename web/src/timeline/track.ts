// One rank of one run on the timeline: its row, drawn by render(ctx, scale) like DeepSeek's Fig. 5
// (forward orange, backward green, weight-gradient blue, idle blank, an overlapped F&B pair as one
// bordered cell), with its waits (reference timing) hatched and its marked cells outlined.
//
// Cost: a row's cells are drawn grouped by colour (one fillStyle per colour, not per op). When cells
// get too narrow to show a border or a label, the run is drawn as a picture of pixel columns instead
// (aggregate.ts, one image for all its ranks), of which the track draws its own row.
import { fillFor, textFor, type Palette } from '../base/colors';
import type { TimeScale } from '../base/time_scale';
import { KINDS, type KindName } from '../engine/engine';
import { visibleRange, waitColumns, waitRuns } from './aggregate';
import type { TimelineGroup } from './timeline_view';

/** The left margin holding the rank labels; cells are clipped to its right. */
export const GUTTER = 62;

/** What every track of one paint shares. */
export interface TrackFrame {
  palette: Palette;
  /** The run's aggregated picture (one device-pixel row per rank), when it is drawn aggregated. */
  aggregated: HTMLCanvasElement | null;
  /** The op with keyboard or click focus in this track's run (-1: none). */
  focused: number;
  highlight: ((op: number) => boolean) | null;
  rankLabel(rank: number): string;
  /** The three hatchings of waits, made once per paint on first need. */
  waitPatterns(ctx: CanvasRenderingContext2D): (CanvasPattern | null)[];
  /** Canvas calls issued for ops, counted for data-draw-calls. */
  drawCalls: number;
  /** The colours of the run's cells in the order the tracks above first used them: each track fills
   *  its colours in this order, so that where two cells share a pixel (cells narrower than 4 px have
   *  no gap) it blends the same way whichever track draws it. */
  colourOrder: string[];
}

/** The cells of one row, sorted by colour before they reach the canvas. */
interface CellBatch {
  fills: Map<string, number[]>; // colour -> x, y, w, h, x, y, w, h, ...
  borders: number[];
  labels: { text: string; x: number; y: number; fill: string }[];
}

/** Diagonal hatching `gap` pixels apart: the look of a wait, distinct from any op's solid fill. */
export function hatch(ctx: CanvasRenderingContext2D, colour: string, gap: number): CanvasPattern | null {
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

export class RankTrack {
  constructor(
    readonly group: TimelineGroup,
    /** The run's index among the timeline's groups. */
    readonly groupIndex: number,
    readonly rank: number,
    /** Top and height of the row, CSS pixels. */
    readonly y: number,
    readonly h: number,
  ) {}

  /** Whether canvas y (CSS pixels) is on this row. */
  contains(y: number): boolean {
    return y >= this.y && y < this.y + this.h;
  }

  /** Draws the row: its idle background and label, then (clipped right of the gutter) its ops, its
   *  waits and its marked cells. */
  render(ctx: CanvasRenderingContext2D, scale: TimeScale, frame: TrackFrame): void {
    this.drawBackground(ctx, scale, frame);
    ctx.save();
    ctx.beginPath();
    ctx.rect(GUTTER, 0, scale.px1 - GUTTER, ctx.canvas.height);
    ctx.clip();
    if (frame.aggregated) this.drawAggregated(ctx, scale, frame.aggregated, frame);
    else this.drawCells(ctx, scale, frame);
    this.drawWaits(ctx, scale, frame);
    this.drawMarked(ctx, scale, frame);
    ctx.restore();
  }

  private drawBackground(ctx: CanvasRenderingContext2D, scale: TimeScale, frame: TrackFrame): void {
    const p = frame.palette;
    ctx.fillStyle = p.idle;
    ctx.fillRect(GUTTER, this.y + 1, scale.px1 - GUTTER, this.h - 2);
    if (this.h < 9) return; // too small for a label
    ctx.fillStyle = p.inkSoft;
    ctx.font = `${Math.min(12, this.h - 2)}px ${p.fontMono}`;
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    ctx.fillText(frame.rankLabel(this.rank), GUTTER - 6, this.y + this.h / 2);
  }

  /** Every visible op as its own cell, batched by colour, then the F&B borders and the labels that
   *  fit. Separate rectangles, not one path per colour: Chromium rasterises thousands of small
   *  rectangles faster than a path made of them. */
  private drawCells(ctx: CanvasRenderingContext2D, scale: TimeScale, frame: TrackFrame): void {
    const p = frame.palette;
    const h = this.h - 2;
    const labelSize = Math.min(12, h - 4);
    ctx.font = `600 ${labelSize}px ${p.fontMono}`;
    // Labels are micro-batch numbers in a monospace font: one digit's width sizes them all.
    const digit = labelSize >= 7 ? ctx.measureText('0').width : Infinity;
    const batch = this.batchCells(p, scale, digit, frame.colourOrder);
    frame.colourOrder = [...batch.fills.keys()];
    for (const [colour, rects] of batch.fills) {
      ctx.fillStyle = colour;
      for (let k = 0; k < rects.length; k += 4) ctx.fillRect(rects[k], rects[k + 1], rects[k + 2], rects[k + 3]);
      frame.drawCalls += rects.length / 4;
    }
    ctx.strokeStyle = p.border;
    ctx.lineWidth = 1.5;
    const borders = batch.borders;
    for (let k = 0; k < borders.length; k += 4) ctx.strokeRect(borders[k], borders[k + 1], borders[k + 2], borders[k + 3]);
    frame.drawCalls += borders.length / 4;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    const ink = new Map<string, string>();
    for (const label of batch.labels) {
      if (!ink.has(label.fill)) ink.set(label.fill, textFor(p, label.fill));
      ctx.fillStyle = ink.get(label.fill)!;
      ctx.fillText(label.text, label.x, label.y);
    }
    frame.drawCalls += batch.labels.length;
  }

  private batchCells(p: Palette, scale: TimeScale, digit: number, colourOrder: string[]): CellBatch {
    const g = this.group;
    const ops = g.result.ops;
    const batch: CellBatch = { fills: new Map(colourOrder.map((c) => [c, []])), borders: [], labels: [] };
    const rect = (fill: string, x: number, y: number, w: number, h: number) => {
      let list = batch.fills.get(fill);
      if (!list) batch.fills.set(fill, (list = []));
      list.push(x, y, w, h);
    };
    const label = (mb: number, cx: number, width: number, y: number, fill: string) => {
      const text = String(mb);
      if (text.length * digit + 3 <= width) batch.labels.push({ text, x: cx, y, fill });
    };
    const [begin, end] = visibleRange(g.result, this.rank, scale.t0, scale.t1);
    const y = this.y + 1;
    const h = this.h - 2;
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
    return batch;
  }

  /** This rank's row of the run's aggregated picture, stretched onto the row. */
  private drawAggregated(ctx: CanvasRenderingContext2D, scale: TimeScale, picture: HTMLCanvasElement, frame: TrackFrame): void {
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(picture, 0, this.rank, picture.width, 1, scale.px0, this.y + 1, scale.px1 - scale.px0, this.h - 2);
    ctx.imageSmoothingEnabled = true;
    frame.drawCalls += 1;
  }

  /** Reference timing: each op's wait, hatched over the idle time before it, one band per layer
   *  (consumed receives, receives it does not use, sends), densest for the waits the dataflow avoids.
   *  The reason is on hover (describeIdle). */
  private drawWaits(ctx: CanvasRenderingContext2D, scale: TimeScale, frame: TrackFrame): void {
    if (frame.aggregated) return this.drawAggregatedWaits(ctx, scale, frame.aggregated.width, frame);
    const g = this.group;
    const ops = g.result.ops;
    if (!ops.waitUsedReceive || !ops.waitUnusedReceive || !ops.waitSend) return;
    const layers = [ops.waitUsedReceive, ops.waitUnusedReceive, ops.waitSend];
    const patterns = frame.waitPatterns(ctx);
    const [begin, end] = visibleRange(g.result, this.rank, scale.t0, scale.t1);
    const y = this.y + 1;
    const h = this.h - 2;
    for (let i = begin; i < Math.min(end + 1, g.result.rankBegin[this.rank + 1]); i++) {
      let at = ops.start[i] - (layers[0][i] + layers[1][i] + layers[2][i]);
      layers.forEach((layer, k) => {
        const length = layer[i];
        if (length <= 0) return;
        const x0 = scale.timeToPx(at);
        const x1 = scale.timeToPx(at + length);
        at += length;
        if (x1 - x0 < 1) return;
        ctx.fillStyle = patterns[k] ?? frame.palette.inkSoft;
        ctx.fillRect(x0, y + h * 0.25, x1 - x0, h * 0.5);
        frame.drawCalls += 1;
      });
    }
  }

  /** Reference timing drawn aggregated: the waits summed per column of the run's picture as its ops
   *  are (aggregate.ts), each stretch of columns hatched with its dominant layer's pattern, as opaque
   *  as the columns' wait share (rounded up to a quarter, at least a half, so that a column that waits
   *  at all shows). The column's reason and total are on hover (describeColumnWaits). */
  private drawAggregatedWaits(ctx: CanvasRenderingContext2D, scale: TimeScale, columns: number, frame: TrackFrame): void {
    const totals = waitColumns(this.group.result, this.rank, columns, scale.t0, scale.t1);
    if (!totals) return;
    const runs = waitRuns(totals, columns);
    if (runs.length === 0) return;
    const patterns = frame.waitPatterns(ctx);
    const perColumn = (scale.px1 - scale.px0) / columns;
    const y = this.y + 1;
    const h = this.h - 2;
    for (const run of runs) {
      ctx.globalAlpha = run.alpha;
      ctx.fillStyle = patterns[run.layer] ?? frame.palette.inkSoft;
      ctx.fillRect(scale.px0 + run.first * perColumn, y + h * 0.25, (run.end - run.first) * perColumn, h * 0.5);
    }
    ctx.globalAlpha = 1;
    frame.drawCalls += runs.length;
  }

  /** The focused cell and the highlighted ones of this row, outlined on top, whichever way the run
   *  was drawn. */
  private drawMarked(ctx: CanvasRenderingContext2D, scale: TimeScale, frame: TrackFrame): void {
    const focused = frame.focused;
    const ops = this.group.result.ops;
    const mine = focused >= 0 && ops.rank[focused] === this.rank;
    if (!mine && !frame.highlight) return;
    ctx.lineWidth = 3;
    const outline = (i: number, colour: string) => {
      const x0 = scale.timeToPx(ops.start[i]);
      const x1 = scale.timeToPx(ops.end[i]);
      const w = Math.max(1, x1 - x0 - (x1 - x0 > 4 ? 1 : 0));
      ctx.strokeStyle = colour;
      ctx.strokeRect(x0 + 1.5, this.y + 2.5, Math.max(1, w - 3), this.h - 5);
    };
    if (frame.highlight) {
      const begin = this.group.result.rankBegin[this.rank];
      const end = this.group.result.rankBegin[this.rank + 1];
      for (let i = begin; i < end; i++) if (i !== focused && frame.highlight(i)) outline(i, frame.palette.highlight);
    }
    if (mine) outline(focused, frame.palette.ink);
  }
}
