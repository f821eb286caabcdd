// Curves computed by the engine: bubble fraction against micro-batches and against ranks for the
// schedules on screen, and each rank's utilisation. The sweeps (hundreds of simulations) run in the
// background worker, cut into pieces so that a progress bar follows them and a newer setting stops
// them between two pieces.
import { clear, el } from '../base/dom';
import { seriesColor } from '../base/colors';
import { num, percent } from '../base/format';
import { Lane, SUPERSEDED, type Background, type LaneRequest } from '../engine/background';
import { EngineError, type Engine, type RunRequest } from '../engine/engine';
import { t } from '../i18n';
import type { CostBasis } from '../state/page_state';
import { basisBlock, type BasisShown } from './basis';
import type { ResolvedRequest, RunView } from '../model/run';
import { scheduleTitle } from '../model/describe';
import { barChart, dataTable, lineChart, scatterChart, type ChartSpec, type ScatterPoint, type Series } from './chart';

const range = (from: number, to: number) => Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);

/** Sweep values per piece sent to the worker: small enough for the progress bar to move often, large
 *  enough that messages cost little next to the simulations. */
const PIECE = 16;

type Axis = 'micro_batches' | 'ranks';

/** One curve to compute: a schedule swept along an axis. */
interface CurvePlan {
  request: RunRequest;
  axis: Axis;
  values: number[];
}

/** Counts the points done and shows them (a <progress> and "k of n points"). */
class Progress {
  readonly element: HTMLElement;
  private readonly bar = el('progress', { 'aria-labelledby': 'sweep-progress-text' });
  private readonly text = el('span', { id: 'sweep-progress-text' });
  private done = 0;

  constructor() {
    this.element = el('div', { class: 'hint sweep-progress', 'data-testid': 'sweep-progress', hidden: true }, [this.bar, ' ', this.text]);
  }

  start(total: number): void {
    this.done = 0;
    this.bar.max = total;
    this.element.hidden = false;
    this.advance(0);
  }

  advance(points: number): void {
    this.done += points;
    this.bar.value = this.done;
    this.text.textContent = t('charts.progress', { done: this.done, total: this.bar.max });
    this.element.dataset.done = String(this.done);
    this.element.dataset.total = String(this.bar.max);
  }

  finish(): void {
    this.element.hidden = true;
  }
}

export class ChartsPanel {
  readonly element: HTMLElement;
  private readonly grid = el('div', { class: 'charts-grid' });
  private readonly progress = new Progress();
  private readonly sweeps: Lane;
  private readonly basis = el('div');

  constructor(
    private readonly engine: Engine,
    background: Background,
    private readonly onBasis: (basis: CostBasis) => void,
  ) {
    this.sweeps = new Lane(background);
    this.element = el('section', { class: 'panel', id: 'panel-charts', role: 'tabpanel', hidden: true }, [
      el('h3', { text: t('charts.title') }),
      el('p', { class: 'hint', text: t('charts.hint') }),
      this.basis,
      this.progress.element,
      this.grid,
    ]);
  }

  /** Stops the sweep still running: the settings it was for have changed (their runs may take a while
   *  in the worker before update() is called with them). */
  stop(): void {
    this.sweeps.begin();
    this.progress.finish();
  }

  /** Starts computing the charts of `runs`, superseding any still computing; the charts on screen
   *  stay until the new ones are complete. */
  update(runs: RunView[], basis: BasisShown): void {
    this.basis.replaceChildren(basisBlock('charts', basis, this.onBasis));
    const sweep = this.sweeps.begin();
    if (runs.length === 0) {
      this.progress.finish();
      clear(this.grid);
      return;
    }
    this.compute(runs, sweep).catch((e: unknown) => this.showRefusal(e, sweep));
  }

  /** A sweep the engine refused (the runs on screen were accepted, so this is rare): its message in
   *  place of the charts rather than a bar that never finishes. */
  private showRefusal(e: unknown, sweep: LaneRequest): void {
    if (!(e instanceof EngineError)) throw e;
    if (!sweep.current) return;
    this.progress.finish();
    clear(this.grid);
    this.grid.append(el('div', { class: 'error', role: 'alert', 'data-code': e.code, text: `${t('error.refused')} ${e.message}` }));
  }

  private async compute(runs: RunView[], sweep: LaneRequest): Promise<void> {
    const primary = runs[0].request;
    const requests = runs.map((r) => r.request);
    const microValues = range(1, Math.min(128, Math.max(48, 4 * primary.ranks)));
    const rankValues = range(1, 32);
    const plans = [
      ...requests.map((request) => ({ request, axis: 'micro_batches' as const, values: microValues })),
      ...requests.map((request) => ({ request, axis: 'ranks' as const, values: rankValues })),
    ];
    const tradeOffRequests = this.tradeOffRequests(primary);
    this.progress.start(plans.reduce((n, p) => n + p.values.length, 0) + tradeOffRequests.length);
    const curves: Series[] = [];
    const absolute: Series[] = [];
    for (const plan of plans) {
      const curve = await this.curve(plan, sweep);
      if (curve === SUPERSEDED) return;
      curves.push(curve.fraction);
      absolute.push(curve.largest);
    }
    const tradeOff = await this.tradeOff(tradeOffRequests, sweep);
    if (tradeOff === SUPERSEDED) return;
    this.progress.finish();
    this.element.dataset.sweptIn = this.sweeps.background.lastPlace ?? '';
    this.draw(runs, curves.slice(0, requests.length), curves.slice(requests.length), tradeOff);
    this.drawAbsolute(runs, absolute.slice(0, requests.length), absolute.slice(requests.length));
  }

  /** One curve, piece by piece: the bubble fraction, and the largest rank's bubble in time units. */
  private async curve(plan: CurvePlan, sweep: LaneRequest): Promise<{ fraction: Series; largest: Series } | typeof SUPERSEDED> {
    const x: number[] = [];
    const y: number[] = [];
    const largest: number[] = [];
    for (let at = 0; at < plan.values.length; at += PIECE) {
      const values = plan.values.slice(at, at + PIECE);
      const piece = await sweep.run('sweep', { request: plan.request, axis: plan.axis, values });
      if (piece === SUPERSEDED) return SUPERSEDED;
      x.push(...piece.value);
      y.push(...piece.bubbleFraction);
      // A refused size has no point (NaN), as in the fraction.
      piece.maxBubble.forEach((v: number, k: number) => largest.push(piece.valid[k] ? v : NaN));
      this.progress.advance(values.length);
    }
    const name = scheduleTitle(this.engine.schedule(plan.request.schedule), plan.request.schedule);
    const color = seriesColor(this.engine.schedule(plan.request.schedule));
    return { fraction: { name, color, x, y }, largest: { name, color, x, y: largest } };
  }

  /** The bubble in time units, not as a share: DualPipe's stays flat as micro-batches grow, while a
   *  fraction falls for every schedule just because there is more work. */
  private drawAbsolute(runs: RunView[], byMicro: Series[], byRanks: Series[]): void {
    const { ranks, microBatches: micro } = runs[0].request;
    const specs: [string, string, ChartSpec][] = [
      [t('charts.absVsMicroBatches', { ranks }), t('charts.absVsMicroBatchesHint'), { label: t('charts.absVsMicroBatches', { ranks }), xLabel: t('charts.microBatches'), yLabel: t('charts.largestBubble'), series: byMicro, marker: micro, yFormat: num, valueFormat: num }],
      [t('charts.absVsRanks', { micro }), t('charts.absVsRanksHint'), { label: t('charts.absVsRanks', { micro }), xLabel: t('charts.ranks'), yLabel: t('charts.largestBubble'), series: byRanks, marker: ranks, yFormat: num, valueFormat: num }],
    ];
    for (const [title, hint, spec] of specs) this.grid.append(chartCard(title, hint, lineChart(spec), spec));
  }

  private draw(runs: RunView[], byMicro: Series[], byRanks: Series[], tradeOff: ScatterPoint[]): void {
    clear(this.grid);
    const primary = runs[0].request;
    const ranks = primary.ranks;
    const micro = primary.microBatches;
    const card = (titleText: string, hint: string, chart: SVGSVGElement, legendSeries: Series[]) =>
      el('div', { class: 'chart-card' }, [
        el('h4', { text: titleText }),
        chart,
        el('div', { class: 'legend' }, legendSeries.map((s) => {
          const sw = el('span', { class: 'cell' });
          sw.style.background = s.color;
          return el('span', { class: 'item' }, [sw, s.name]);
        })),
        el('div', { class: 'hint', text: hint }),
      ]);

    this.grid.append(
      card(
        t('charts.vsMicroBatches', { ranks }),
        t('charts.vsMicroBatchesHint'),
        lineChart({ label: t('charts.vsMicroBatches', { ranks }), xLabel: t('charts.microBatches'), yLabel: t('readout.bubbleFraction'), series: byMicro, marker: micro, yFormat: (v) => percent(v, 0), valueFormat: (v) => percent(v, 2) }),
        byMicro,
      ),
    );
    this.grid.lastElementChild!.append(dataDetails({ label: '', xLabel: t('charts.microBatches'), yLabel: '', series: byMicro, valueFormat: (v) => percent(v, 2) }));
    this.grid.append(
      card(
        t('charts.vsRanks', { micro }),
        t('charts.vsRanksHint'),
        lineChart({ label: t('charts.vsRanks', { micro }), xLabel: t('charts.ranks'), yLabel: t('readout.bubbleFraction'), series: byRanks, marker: ranks, yFormat: (v) => percent(v, 0), valueFormat: (v) => percent(v, 2) }),
        byRanks,
      ),
    );
    this.grid.lastElementChild!.append(dataDetails({ label: '', xLabel: t('charts.ranks'), yLabel: '', series: byRanks, valueFormat: (v) => percent(v, 2) }));
    this.grid.append(
      card(
        t('charts.pareto', { ranks, micro }),
        t('charts.paretoHint'),
        scatterChart({
          label: t('charts.pareto', { ranks, micro }),
          xLabel: t('charts.activationAxis'),
          yLabel: t('readout.bubbleFraction'),
          points: tradeOff,
          xFormat: (v) => num(Number(v.toFixed(2))),
          yFormat: (v) => percent(v, 0),
        }),
        [],
      ),
    );
    const utilisation: Series[] = runs.map((r) => ({
      name: scheduleTitle(r.info),
      color: seriesColor(r.info),
      x: r.result.summary.per_rank.map((p: any) => p.rank),
      y: r.result.summary.per_rank.map((p: any) => p.utilisation),
    }));
    this.grid.append(
      card(
        t('charts.utilisation'),
        t('charts.utilisationHint'),
        barChart({ label: t('charts.utilisation'), xLabel: t('charts.rank'), yLabel: t('table.utilisation'), series: utilisation, yFormat: (v) => percent(v, 0), xFormat: (v) => String(v) }),
        utilisation,
      ),
    );
    this.grid.lastElementChild!.append(dataDetails({ label: '', xLabel: t('charts.rank'), yLabel: '', series: utilisation, valueFormat: (v) => percent(v, 2) }));
  }

  /** Every schedule at these sizes, for the trade-off chart (those that refuse them have no point). */
  private tradeOffRequests(request: ResolvedRequest): RunRequest[] {
    return this.engine.schedules
      .filter((info) => info.name !== 'custom')
      .map((info) => ({ ...request, schedule: info.name, virtualStages: info.uses_virtual_stages ? Math.max(2, request.virtualStages) : 1 }));
  }

  /** Every schedule that accepts these sizes: its bubble against its activation memory per GPU, in
   *  micro-batches through the whole model (peak stage-activations / stages along the path), so that
   *  DualPipe's PP + 1 stages and DualPipeV's half-size stages compare fairly. */
  private async tradeOff(requests: RunRequest[], sweep: LaneRequest): Promise<ScatterPoint[] | typeof SUPERSEDED> {
    const summaries = await sweep.run('summaries', requests);
    if (summaries === SUPERSEDED) return SUPERSEDED;
    this.progress.advance(requests.length);
    return summaries.flatMap((outcome, k) => {
      if (!('value' in outcome)) return []; // a schedule that refuses these sizes has no point
      const s = outcome.value;
      const name = requests[k].schedule;
      return [{ label: scheduleTitle(this.engine.schedule(name)), color: seriesColor(this.engine.schedule(name)), x: s.peak_activations / s.stages, y: s.bubble_fraction }];
    });
  }
}

/** The numbers of a chart, under it, folded: exact values for reading and for screen readers. */
function dataDetails(spec: ChartSpec): HTMLElement {
  return el('details', { class: 'chart-data-details' }, [el('summary', { text: t('charts.data') }), dataTable(spec, t('charts.data'))]);
}

function chartCard(title: string, hint: string, chart: SVGSVGElement, spec: ChartSpec): HTMLElement {
  const legend = el('div', { class: 'legend' }, spec.series.map((s) => {
    const sw = el('span', { class: 'cell' });
    sw.style.background = s.color;
    return el('span', { class: 'item' }, [sw, s.name]);
  }));
  return el('div', { class: 'chart-card', 'data-testid': 'chart-absolute' }, [el('h4', { text: title }), chart, legend, el('div', { class: 'hint', text: hint }), dataDetails(spec)]);
}
