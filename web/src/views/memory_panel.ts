// Memory per rank: live activations over time with the peak marked, and the parameters each rank
// holds (which stages, how many copies of the model). The engine's summary gives each rank's peak,
// when it is first reached, and the stages the rank holds: this panel only draws them.
// With a model and cluster picked (core's plan examples), the same run priced in bytes as `pipesim
// simulate --model FILE` prices it, at the ranks and micro-batches of the page's controls: per rank,
// weights + gradients + optimizer state plus the activations alive over time, in GB against one
// GPU's memory, and which schedules do not fit. The app asks the engine (app/memory_bytes.ts, in the
// worker) and hands the results over.
import { clear, el, svg } from '../base/dom';
import { niceStep } from '../base/time_scale';
import type { ModelRunResult } from '../engine/engine';
import type { PlanExample } from '../model/plan_examples';
import { cssVar } from '../base/tokens';
import { num } from '../base/format';
import { t } from '../i18n';
import { phaseLabel } from '../model/describe';
import type { RunView } from '../model/run';

const W = 900;
const ROW = 36;
const LEFT = 62;
const RIGHT = 120;

/** One schedule of Compare run on the model: whether its busiest rank fits, or the engine's refusal. */
export type ModelVerdict = { name: string; title: string; fits: boolean; peakBytes: number } | { name: string; title: string; error: string };

/** What the app hands over for a model: the run of the schedule on screen (or its refusal) and the
 *  verdict of every schedule of Compare at these settings. */
export interface ModelMemory {
  example: PlanExample;
  run: ModelRunResult | { error: string };
  verdicts: ModelVerdict[];
}

const GB = 1e9;

export class MemoryPanel {
  readonly element: HTMLElement;
  // Scrolls sideways inside its box on a phone, at a width its labels stay readable at.
  private readonly chart = el('div', { class: 'memory-chunks-chart' });
  private readonly params = el('div', { class: 'table-scroll' });
  private readonly summary = el('p', { class: 'caption' });
  private readonly picker = el('select', { id: 'memory-model', 'data-testid': 'memory-model' });
  /** The chunks' drawing (no model picked). */
  private readonly chunks: HTMLElement;
  /** The drawing in bytes (a model picked). */
  private readonly bytes = el('div', { 'data-testid': 'memory-bytes', hidden: true });
  /** Why the address's memory-model is not drawn (it names no model the picker offers). */
  private readonly unknown = el('p', { class: 'error-inline', role: 'alert', 'data-testid': 'memory-model-unknown', hidden: true });

  constructor(
    private readonly examples: PlanExample[],
    onModel: (id: string) => void,
  ) {
    this.picker.append(el('option', { value: '', text: t('memory.modelNone') }));
    for (const e of examples) this.picker.append(el('option', { value: e.id, text: t(e.name) }));
    this.picker.addEventListener('change', () => onModel(this.picker.value));
    this.chunks = el('div', {}, [
      el('h3', { text: t('memory.title') }),
      el('p', { class: 'hint', text: t('memory.hint') }),
      this.chart,
      this.summary,
      el('h3', { text: t('memory.parametersTitle') }),
      this.params,
    ]);
    this.element = el('section', { class: 'panel', id: 'panel-memory', role: 'tabpanel', hidden: true }, [
      el('div', { class: 'field memory-model' }, [el('label', { for: 'memory-model', text: t('memory.model') }), this.picker]),
      this.unknown,
      this.chunks,
      this.bytes,
    ]);
  }

  /** The model picked ('' for chunks), as the state has it. An id the picker does not offer (a link
   *  typed or cut short) is said, with the known ones, and the tab shows chunks as with none. */
  showPicked(id: string): void {
    const known = id === '' || this.examples.some((e) => e.id === id);
    const drawn = known ? id : '';
    this.picker.value = drawn;
    this.chunks.hidden = drawn !== '';
    this.bytes.hidden = drawn === '';
    this.unknown.hidden = known;
    this.unknown.textContent = known ? '' : t('memory.unknownModel', { value: shortened(id), known: this.examples.map((e) => e.id).join(', ') });
  }

  /** The run in bytes on the model: chart in GB against the GPU's memory, the verdicts, the table. */
  showModel(memory: ModelMemory): void {
    clear(this.bytes);
    const { run } = memory;
    this.bytes.append(el('h3', { text: t('memory.bytesTitle') }));
    if ('error' in run) {
      this.bytes.append(el('p', { class: 'error-inline', role: 'alert', 'data-testid': 'memory-model-error', text: run.error }));
    } else {
      this.bytes.append(
        el('p', { class: 'hint', 'data-testid': 'memory-model-caption', text: t('memory.modelCaption', {
          model: String(run.model.name), ranks: run.ranks, mb: run.micro_batches, gpu: num(run.memory.gpu_bytes / GB), ...fileSizes(memory.example),
        }) }),
        el('div', { class: 'memory-bytes-chart' }, [bytesChart(run)]),
      );
    }
    this.bytes.append(verdictLine(memory.verdicts));
    if (!('error' in run)) this.bytes.append(el('div', { class: 'table-scroll' }, [bytesTable(run)]));
  }

  update(run: RunView): void {
    const s = run.result.summary;
    const curves = run.result.activations;
    const peak = Math.max(1, s.peak_activations);
    const makespan = s.makespan || 1;
    // Below the rows: the time axis (ticks, its title) and the rows' common height scale.
    const axisY = 8 + ROW * s.ranks;
    const height = axisY + 52;
    const root = svg('svg', { class: 'chart', viewBox: `0 0 ${W} ${height}`, role: 'img', 'aria-label': t('memory.aria') });
    const sx = (time: number) => LEFT + (time / makespan) * (W - LEFT - RIGHT);
    curves.forEach((curve, rank) => {
      const top = 8 + rank * ROW;
      const base = top + ROW - 6;
      const sy = (alive: number) => base - (alive / peak) * (ROW - 10);
      let d = `M${sx(0).toFixed(1)},${base}`;
      const rankPeak: number = s.per_rank[rank].peak_activations;
      const peakAt: number = s.per_rank[rank].peak_at;
      for (let i = 0; i < curve.time.length; i++) {
        const x = sx(curve.time[i]).toFixed(1);
        const prev = i > 0 ? curve.alive[i - 1] : 0;
        d += `L${x},${sy(prev).toFixed(1)}L${x},${sy(curve.alive[i]).toFixed(1)}`;
      }
      d += `L${sx(makespan).toFixed(1)},${base}Z`;
      root.append(
        svg('text', { x: LEFT - 8, y: top + ROW / 2, 'text-anchor': 'end', 'dominant-baseline': 'middle', text: t('timeline.rank', { n: rank }) }),
        svg('line', { x1: LEFT, x2: W - RIGHT, y1: base, y2: base, stroke: 'currentColor', 'stroke-opacity': 0.2 }),
        svg('path', { d, fill: cssVar('pipesim-forward'), 'fill-opacity': 0.45, stroke: cssVar('pipesim-forward'), 'stroke-width': 1 }),
        svg('circle', { cx: sx(peakAt).toFixed(1), cy: sy(rankPeak).toFixed(1), r: 3.5, fill: cssVar('pipesim-highlight') }, [
          svg('title', { text: t('memory.peakAt', { peak: rankPeak, time: num(peakAt) }) }),
        ]),
        svg('text', { x: W - RIGHT + 8, y: top + ROW / 2, 'dominant-baseline': 'middle', 'data-testid': `memory-peak-${rank}`, text: t('memory.peakLabel', { peak: rankPeak }) }),
      );
    });
    timeAxis(root, sx, makespan, axisY);
    root.append(svg('text', { 'data-testid': 'memory-row-scale', x: LEFT, y: axisY + 46, text: t('memory.rowScale', { peak }) }));
    clear(this.chart);
    this.chart.append(root);
    this.summary.textContent = t('memory.summary', { peak: s.peak_activations, ranks: s.ranks });
    clear(this.params);
    this.params.append(parametersTable(run));
  }
}

/** The activation rows' time axis at `y`: a line, ticks in the run's time units, its title. */
function timeAxis(root: SVGSVGElement, sx: (time: number) => number, makespan: number, y: number): void {
  root.append(svg('line', { stroke: 'currentColor', 'stroke-opacity': 0.3, x1: sx(0), x2: sx(makespan), y1: y, y2: y }));
  const step = niceStep(makespan, 8);
  for (let x = 0; x <= makespan + 1e-9; x += step)
    root.append(svg('text', { class: 'memory-x-tick', x: sx(x).toFixed(1), y: y + 14, 'text-anchor': 'middle', text: num(Number(x.toPrecision(6))) }));
  root.append(svg('text', { 'data-testid': 'memory-time-axis', x: (sx(0) + sx(makespan)) / 2, y: y + 30, 'text-anchor': 'middle', text: t('memory.timeAxis', { units: t('memory.timeUnits') }) }));
}

/** The longest address value the refusal quotes: a link may carry a megabyte. */
const QUOTED_CHARS = 40;

function shortened(value: string): string {
  return value.length > QUOTED_CHARS ? `${value.slice(0, QUOTED_CHARS)}…` : value;
}

/** The sizes the model file itself gives (its pipeline size, micro-batches and GPUs), which the
 *  caption sets beside the controls' sizes the run was made at. */
function fileSizes(example: PlanExample): { fileRanks: number; fileMb: number; gpus: number } {
  const file = JSON.parse(example.text) as { model: { pp: number; micro_batches: number }; cluster: { gpus: number } };
  return { fileRanks: file.model.pp, fileMb: file.model.micro_batches, gpus: file.cluster.gpus };
}

/** A stage a rank holds (summary.per_rank[r].stages), in words: "stage 3 (direction 1)". */
function stageName(summary: any, held: { phase: number; stage: number }): string {
  const where = phaseLabel(summary, held.phase);
  return where ? `${t('op.stage', { n: held.stage })} (${where})` : t('op.stage', { n: held.stage });
}

function parametersTable(run: RunView): HTMLElement {
  const s = run.result.summary;
  const rows = s.per_rank.map((r: any) =>
    el('tr', {}, [
      el('td', { text: t('timeline.rank', { n: r.rank }) }),
      el('td', { text: r.stages.map((held: { phase: number; stage: number }) => stageName(s, held)).join(', ') }),
      el('td', { text: t('compare.stagesOf', { held: r.stages_held, total: s.stages }) }),
      el('td', { text: num(r.peak_activations) }),
    ]),
  );
  return el('table', { class: 'data', 'data-testid': 'parameters-table' }, [
    el('thead', {}, [
      el('tr', {}, [el('th', { text: t('table.rank') }), el('th', { text: t('memory.stages') }), el('th', { text: t('compare.parameters') }), el('th', { text: t('table.peak') })]),
    ]),
    el('tbody', {}, rows),
  ]);
}

/** GB with at most one decimal: the chart's and the table's unit. */
function gb(bytes: number): string {
  return num(Number((bytes / GB).toFixed(1)));
}

const BW = 900;
const BH = 320;
const BM = { left: 64, right: 16, top: 16, bottom: 44 };

/** Every rank's bytes over time (state + live activations), in GB; the GPU's memory as a dashed line,
 *  the highest rank's peak marked. */
function bytesChart(run: ModelRunResult): SVGSVGElement {
  const ranks = run.per_rank.map((r) => r.memory_bytes);
  const gpu = run.memory.gpu_bytes;
  const highest = ranks.reduce((a, b) => (b.total > a.total ? b : a));
  const yMax = Math.max(gpu, highest.total) * 1.08;
  const xMax = run.makespan || 1;
  const sx = (time: number) => BM.left + (time / xMax) * (BW - BM.left - BM.right);
  const sy = (bytes: number) => BH - BM.bottom - (bytes / yMax) * (BH - BM.top - BM.bottom);
  const root = svg('svg', { class: 'chart', viewBox: `0 0 ${BW} ${BH}`, role: 'img', 'aria-label': t('memory.bytesAria'), 'data-testid': 'memory-bytes-chart' });
  const yStep = niceStep(yMax / GB, 5) * GB;
  for (let y = 0; y <= yMax + 1; y += yStep)
    root.append(
      svg('line', { class: 'gridline', x1: BM.left, x2: BW - BM.right, y1: sy(y).toFixed(1), y2: sy(y).toFixed(1) }),
      svg('text', { class: 'memory-y-tick', x: BM.left - 6, y: sy(y).toFixed(1), 'text-anchor': 'end', 'dominant-baseline': 'middle', text: `${gb(y)} GB` }),
    );
  const xStep = niceStep(xMax, 8);
  for (let x = 0; x <= xMax + 1e-9; x += xStep)
    root.append(svg('text', { x: sx(x).toFixed(1), y: BH - BM.bottom + 16, 'text-anchor': 'middle', text: num(Number(x.toPrecision(6))) }));
  root.append(
    svg('line', { stroke: 'currentColor', 'stroke-opacity': 0.3, x1: BM.left, x2: BW - BM.right, y1: BH - BM.bottom, y2: BH - BM.bottom }),
    svg('text', { 'data-testid': 'memory-x-axis', x: (BM.left + BW - BM.right) / 2, y: BH - 6, 'text-anchor': 'middle', text: t('memory.timeAxis', { units: String(run.model.units ?? '') }) }),
    svg('text', { 'data-testid': 'memory-y-axis', x: 12, y: (BM.top + BH - BM.bottom) / 2, transform: `rotate(-90 12 ${(BM.top + BH - BM.bottom) / 2})`, 'text-anchor': 'middle', text: t('memory.bytesAxis') }),
  );
  for (const r of ranks) {
    const state = r.weights + r.gradients + r.optimizer;
    let d = `M${sx(0).toFixed(1)},${sy(state).toFixed(1)}`;
    let held = 0;
    for (const [time, bytes] of r.activation_curve) {
      d += `L${sx(time).toFixed(1)},${sy(state + held).toFixed(1)}L${sx(time).toFixed(1)},${sy(state + bytes).toFixed(1)}`;
      held = bytes;
    }
    d += `L${sx(xMax).toFixed(1)},${sy(state + held).toFixed(1)}`;
    const top = r === highest;
    root.append(svg('path', { class: 'series', d, stroke: cssVar('pipesim-forward'), 'stroke-width': top ? 2 : 1, 'stroke-opacity': top ? 1 : 0.35, 'data-rank': r.rank }, [
      svg('title', { text: `${t('timeline.rank', { n: r.rank })}: ${gb(r.total)} GB` }),
    ]));
  }
  const gpuY = sy(gpu).toFixed(1);
  root.append(
    svg('line', { 'data-testid': 'memory-gpu-line', x1: BM.left, x2: BW - BM.right, y1: gpuY, y2: gpuY, stroke: cssVar('pipesim-highlight'), 'stroke-width': 2, 'stroke-dasharray': '6 4' }),
    svg('text', { x: BW - BM.right - 4, y: Number(gpuY) - 6, 'text-anchor': 'end', text: t('memory.gpuLine', { gb: gb(gpu) }) }),
    svg('circle', { cx: sx(highest.activations_peak_time).toFixed(1), cy: sy(highest.total).toFixed(1), r: 4.5, fill: cssVar('pipesim-highlight') }),
    svg('text', { 'data-testid': 'memory-peak-bytes', x: sx(highest.activations_peak_time).toFixed(1), y: sy(highest.total) - 9,
      'text-anchor': highest.activations_peak_time > xMax / 2 ? 'end' : 'start',
      text: t('memory.peakBytes', { gb: gb(highest.total), rank: highest.rank }) }),
  );
  return root;
}

/** The line naming the schedules of Compare that do not fit, and those the engine refuses on this model. */
function verdictLine(verdicts: ModelVerdict[]): HTMLElement {
  const ran = verdicts.filter((v) => 'fits' in v);
  const over = ran.filter((v) => 'fits' in v && !v.fits);
  const refused = verdicts.filter((v): v is Extract<ModelVerdict, { error: string }> => 'error' in v);
  const line = el('div', { class: 'memory-verdicts', 'data-testid': 'memory-fits' });
  // A schedule the engine refused on this model neither fits nor overflows: the sentence speaks only of
  // those that ran, and says nothing about fitting when none did.
  if (over.length)
    line.append(el('p', { text: t('memory.notFit', { names: over.map((v) => `${v.title} (${gb((v as { peakBytes: number }).peakBytes)} GB)`).join(', ') }) }));
  else if (ran.length) line.append(el('p', { text: t(refused.length ? 'memory.ranFit' : 'memory.allFit') }));
  for (const v of refused) line.append(el('p', { class: 'hint', text: t('memory.refusedOnModel', { name: v.title, reason: v.error }) }));
  return line;
}

function bytesTable(run: ModelRunResult): HTMLElement {
  const head = ['table.rank', 'memory.stages', 'memory.weights', 'memory.gradients', 'memory.optimizer', 'memory.activationsPeak', 'memory.total'] as const;
  return el('table', { class: 'data', 'data-testid': 'memory-bytes-table' }, [
    el('thead', {}, [el('tr', {}, head.map((k) => el('th', { text: t(k) })))]),
    el('tbody', {}, run.per_rank.map(({ memory_bytes: r }) => el('tr', { class: r.fits ? undefined : 'is-over' }, [
      el('td', { text: t('timeline.rank', { n: r.rank }) }),
      el('td', { text: r.stages.join(', ') }),
      ...[r.weights, r.gradients, r.optimizer, r.activations_peak, r.total].map((b) => el('td', { text: `${gb(b)} GB` })),
    ]))),
  ]);
}
