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

/** Time (in columns) of each of `classes` paint classes (or wait layers) per column of one rank. */
class ColumnTotals {
  readonly totals: Float32Array;

  constructor(
    readonly columns: number,
    readonly classes = CLASS_COUNT,
  ) {
    this.totals = new Float32Array(columns * classes);
  }

  /** Adds the span [a, b) (in columns, fractional) of paint class `cls`. */
  add(a: number, b: number, cls: number): void {
    const lo = Math.max(0, a);
    const hi = Math.min(this.columns, b);
    if (hi <= lo) return;
    const first = Math.floor(lo);
    const last = Math.min(this.columns - 1, Math.ceil(hi) - 1);
    const n = this.classes;
    if (first === last) {
      this.totals[first * n + cls] += hi - lo;
      return;
    }
    this.totals[first * n + cls] += first + 1 - lo;
    for (let c = first + 1; c < last; c++) this.totals[c * n + cls] += 1;
    this.totals[last * n + cls] += hi - last;
  }
}

/** The layers of a wait in reference timing, in the order an op's wait is laid out before it (and
 *  hatched, densest last): the receives it consumes, a receive it does not use, a send not completed. */
export const WAIT_LAYERS = 3;

/** An op's three wait layers (undefined outside reference timing). */
function waitLayers(result: SimulateValue): [Float64Array, Float64Array, Float64Array] | null {
  const ops = result.ops;
  if (!ops.waitUsedReceive || !ops.waitUnusedReceive || !ops.waitSend) return null;
  return [ops.waitUsedReceive, ops.waitUnusedReceive, ops.waitSend];
}

/** Calls `visit(layer, from, to)` for each wait of `rank` that may overlap [t0, t1], at the place the
 *  timeline draws it: the idle time just before the op that waited, its layers in order. */
function forEachWait(result: SimulateValue, rank: number, t0: number, t1: number, visit: (layer: number, from: number, to: number) => void): void {
  const layers = waitLayers(result);
  if (!layers) return;
  const ops = result.ops;
  const [begin, end] = visibleRange(result, rank, t0, t1);
  // A wait lies before its op: the first op past the window may still have waited inside it.
  const last = Math.min(end + 1, result.rankBegin[rank + 1]);
  for (let i = begin; i < last; i++) {
    let at = ops.start[i] - (layers[0][i] + layers[1][i] + layers[2][i]);
    for (let k = 0; k < WAIT_LAYERS; k++) {
      const length = layers[k][i];
      if (length > 0) visit(k, at, at + length);
      at += length;
    }
  }
}

/** Per device-pixel column of one rank over [t0, t1], the share of the column (0..1) each wait layer
 *  takes: `columns x WAIT_LAYERS` values (column c's layer k at c * WAIT_LAYERS + k).
 *  Null when the run has no waits (dataflow timing). Summed the way aggregateRows sums the ops. */
export function waitColumns(result: SimulateValue, rank: number, columns: number, t0: number, t1: number): Float32Array | null {
  if (!waitLayers(result)) return null;
  const perTime = columns / (t1 - t0);
  const row = new ColumnTotals(columns, WAIT_LAYERS);
  forEachWait(result, rank, t0, t1, (layer, from, to) => row.add((from - t0) * perTime, (to - t0) * perTime, layer));
  return row.totals;
}

/** The waits of `rank` inside [t0, t1]: the time of each layer, their total, and the dominant layer
 *  (the longest; -1 when there is none). What hovering an aggregated column reports. */
export interface WindowWaits {
  layers: [number, number, number];
  total: number;
  dominant: number;
}

export function waitsInWindow(result: SimulateValue, rank: number, t0: number, t1: number): WindowWaits {
  const layers: [number, number, number] = [0, 0, 0];
  forEachWait(result, rank, t0, t1, (layer, from, to) => {
    const overlap = Math.min(t1, to) - Math.max(t0, from);
    if (overlap > 0) layers[layer] += overlap;
  });
  let dominant = -1;
  for (let k = 0; k < WAIT_LAYERS; k++) if (layers[k] > 0 && (dominant < 0 || layers[k] > layers[dominant])) dominant = k;
  return { layers, total: layers[0] + layers[1] + layers[2], dominant };
}

/** A stretch of adjacent columns hatched alike: [first, end) columns, the layer whose hatching it takes,
 *  and its opacity, the columns' wait share rounded up to a quarter and at least a half (a column that
 *  waits at all stays visible over the ops' colours, one that only waits is fully hatched). */
/** The faintest hatching of a column that waits: fainter is lost on a busy column's colour. */
const MIN_WAIT_ALPHA = 0.5;

export interface WaitRun {
  first: number;
  end: number;
  layer: number;
  alpha: number;
}

/** The hatched stretches of one rank's wait columns (waitColumns): each column takes its dominant
 *  layer's hatching at its wait share; equal neighbours merge, so the canvas gets one call a stretch. */
export function waitRuns(totals: Float32Array, columns: number): WaitRun[] {
  const runs: WaitRun[] = [];
  for (let c = 0; c < columns; c++) {
    let share = 0;
    let layer = 0;
    for (let k = 0; k < WAIT_LAYERS; k++) {
      const time = totals[c * WAIT_LAYERS + k];
      share += time;
      if (time > totals[c * WAIT_LAYERS + layer]) layer = k;
    }
    if (share <= 1e-6) continue; // float dust, not a wait
    const alpha = Math.min(1, Math.max(MIN_WAIT_ALPHA, Math.ceil(share * 4) / 4));
    const previous = runs[runs.length - 1];
    if (previous && previous.end === c && previous.layer === layer && previous.alpha === alpha) previous.end = c + 1;
    else runs.push({ first: c, end: c + 1, layer, alpha });
  }
  return runs;
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
