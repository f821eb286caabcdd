// Drawing a run too large to show op by op: per rank and device-pixel column, how long each kind of
// op runs there, reduced to one colour (the dominant kind's, faded towards idle by the column's idle
// share, so bubbles stay visible). Plain arithmetic over the op columns and one image: O(ops + pixels),
// whatever the number of ops.
import type { Palette } from '../base/colors';
import type { SimulateValue } from '../engine/engine';

/** What an aggregated pixel can be painted as, in fillFor's colours: kind x shade (a direction, a leg
 *  or a chunk: even phases dark, odd light). I and the backward half of an F&B paint as B. */
const CLASS_COUNT = 6; // F dark, F light, B dark, B light, W dark, W light
const KIND_CLASS = [0, 2, 2, 4, -1]; // F, B, I, W, FB (FB is split into its F and B parts)

export type Rgb = [number, number, number];

export function paintClasses(p: Palette): string[] {
  return [p.forward[0], p.forward[1], p.backward[0], p.backward[1], p.weight[0], p.weight[1]];
}

const rgbCache = new Map<string, Rgb>();
let probe: CanvasRenderingContext2D | null = null;

/** A CSS colour as sRGB channels, whatever its syntax: the canvas parses it (cached per colour). */
export function cssColourToRgb(colour: string): Rgb {
  let rgb = rgbCache.get(colour);
  if (rgb) return rgb;
  probe ??= document.createElement('canvas').getContext('2d', { willReadFrequently: true })!;
  probe.clearRect(0, 0, 1, 1);
  probe.fillStyle = '#000000';
  probe.fillStyle = colour;
  probe.fillRect(0, 0, 1, 1);
  const [r, g, b] = probe.getImageData(0, 0, 1, 1).data;
  rgb = [r, g, b];
  rgbCache.set(colour, rgb);
  return rgb;
}

const typicalDuration = new WeakMap<SimulateValue, number>();

/** The mean duration of an op: how wide a typical cell is, to choose how to draw the run. */
export function typicalOpDuration(result: SimulateValue): number {
  let mean = typicalDuration.get(result);
  if (mean === undefined) {
    const { start, end, count } = result.ops;
    let busy = 0;
    for (let i = 0; i < count; i++) busy += end[i] - start[i];
    mean = count > 0 ? busy / count : 0;
    typicalDuration.set(result, mean);
  }
  return mean;
}

/** Ops [begin, end) of `rank` that overlap [t0, t1]. A rank's ops run one after another, so their
 *  starts and ends are both sorted: two binary searches. */
export function visibleRange(result: SimulateValue, rank: number, t0: number, t1: number): [number, number] {
  const { start, end } = result.ops;
  let lo = result.rankBegin[rank];
  let hi = result.rankBegin[rank + 1];
  const last = hi;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (end[mid] < t0) lo = mid + 1;
    else hi = mid;
  }
  const begin = lo;
  hi = last;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (start[mid] <= t1) lo = mid + 1;
    else hi = mid;
  }
  return [begin, lo];
}

/** Time (in columns) of each paint class per column of one rank. */
class ColumnTotals {
  readonly totals: Float32Array;

  constructor(readonly columns: number) {
    this.totals = new Float32Array(columns * CLASS_COUNT);
  }

  /** Adds the span [a, b) (in columns, fractional) of paint class `cls`. */
  add(a: number, b: number, cls: number): void {
    const lo = Math.max(0, a);
    const hi = Math.min(this.columns, b);
    if (hi <= lo) return;
    const first = Math.floor(lo);
    const last = Math.min(this.columns - 1, Math.ceil(hi) - 1);
    if (first === last) {
      this.totals[first * CLASS_COUNT + cls] += hi - lo;
      return;
    }
    this.totals[first * CLASS_COUNT + cls] += first + 1 - lo;
    for (let c = first + 1; c < last; c++) this.totals[c * CLASS_COUNT + cls] += 1;
    this.totals[last * CLASS_COUNT + cls] += hi - last;
  }
}

/** One pixel row per rank: each column's colour over [t0, t1]. */
export function aggregateRows(
  result: SimulateValue,
  forwardShare: number,
  ranks: number,
  columns: number,
  t0: number,
  t1: number,
  classColours: Rgb[],
  idle: Rgb,
): ImageData {
  const image = new ImageData(columns, ranks);
  const pixels = image.data;
  const ops = result.ops;
  const perTime = columns / (t1 - t0);
  const row = new ColumnTotals(columns);
  for (let rank = 0; rank < ranks; rank++) {
    row.totals.fill(0);
    const [begin, end] = visibleRange(result, rank, t0, t1);
    for (let i = begin; i < end; i++) {
      const a = (ops.start[i] - t0) * perTime;
      const b = (ops.end[i] - t0) * perTime;
      const kind = ops.kind[i];
      if (KIND_CLASS[kind] >= 0) {
        row.add(a, b, KIND_CLASS[kind] + (ops.phase[i] & 1));
      } else {
        const split = a + (b - a) * forwardShare;
        row.add(a, split, ops.phase[i] & 1);
        row.add(split, b, 2 + (ops.bPhase[i] & 1));
      }
    }
    paintRow(row, pixels, rank * columns * 4, classColours, idle);
  }
  return image;
}

function paintRow(row: ColumnTotals, pixels: Uint8ClampedArray, offset: number, colours: Rgb[], idle: Rgb): void {
  const totals = row.totals;
  for (let c = 0; c < row.columns; c++) {
    let busy = 0;
    let dominant = 0;
    let most = -1;
    for (let k = 0; k < CLASS_COUNT; k++) {
      const time = totals[c * CLASS_COUNT + k];
      busy += time;
      if (time > most) {
        most = time;
        dominant = k;
      }
    }
    const share = Math.min(1, busy);
    const colour = colours[dominant];
    const at = offset + c * 4;
    pixels[at] = idle[0] + (colour[0] - idle[0]) * share;
    pixels[at + 1] = idle[1] + (colour[1] - idle[1]) * share;
    pixels[at + 2] = idle[2] + (colour[2] - idle[2]) * share;
    pixels[at + 3] = 255;
  }
}
