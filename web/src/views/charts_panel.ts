// Curves computed by the engine, drawn: bubble fraction against micro-batches and against ranks for
// the schedules on screen, the largest bubble in time units, bubble against activation memory, and
// each rank's utilisation. The app computes them (app/charts_sweeps.ts, in the background worker)
// and hands them over with their progress; this panel only draws.
import { clear, el } from '../base/dom';
import { num, percent } from '../base/format';
import { t } from '../i18n';
import type { CostBasis } from '../state/page_state';
import { basisBlock, type BasisShown } from './basis';
import { barChart, dataTable, lineChart, scatterChart, type ChartSpec, type ScatterPoint, type Series } from './chart';

/** A plotted schedule that refuses some of a chart's sizes, and the rule it follows (the registry's words). */
export interface RefusedSizes {
  schedule: string;
  constraints: string;
}

/** What the Charts tab draws, computed by the app. */
export interface ChartsModel {
  /** The primary run's sizes: the marker on each curve. */
  ranks: number;
  microBatches: number;
  /** Bubble fraction per schedule, against micro-batches (at `ranks`) and against ranks (at `microBatches`). */
  byMicro: Series[];
  byRanks: Series[];
  /** The largest rank's bubble in time units, on the same axes. */
  largestByMicro: Series[];
  largestByRanks: Series[];
  /** The plotted schedules whose curves have holes, against micro-batches and against ranks. */
  refusedByMicro: RefusedSizes[];
  refusedByRanks: RefusedSizes[];
  /** Every schedule accepting these sizes: activation memory against bubble. */
  tradeOff: ScatterPoint[];
  /** Each rank's utilisation per schedule on screen. */
  utilisation: Series[];
  /** Where the sweeps ran (the worker, or the main thread without one), for tools and tests. */
  sweptIn: string;
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
  /** The sweep's progress, moved by whoever computes it. */
  readonly progress = new Progress();
  private readonly grid = el('div', { class: 'charts-grid' });
  private readonly basis = el('div');

  constructor(private readonly onBasis: (basis: CostBasis) => void) {
    this.element = el('section', { class: 'panel', id: 'panel-charts', role: 'tabpanel', hidden: true }, [
      el('h3', { text: t('charts.title') }),
      el('p', { class: 'hint', text: t('charts.hint') }),
      this.basis,
      this.progress.element,
      this.grid,
    ]);
  }

  /** The basis the charts are on, and its switch. */
  showBasis(basis: BasisShown): void {
    this.basis.replaceChildren(basisBlock('charts', basis, this.onBasis));
  }

  /** Draws the charts of `model` in place of those on screen (none for null: no run to chart). */
  render(model: ChartsModel | null): void {
    if (!model) {
      clear(this.grid);
      return;
    }
    this.element.dataset.sweptIn = model.sweptIn;
    this.draw(model);
    this.drawAbsolute(model);
  }

  /** A sweep the engine refused: its message in place of the charts. */
  renderRefusal(refusal: { message: string; code: string }): void {
    clear(this.grid);
    this.grid.append(el('div', { class: 'error', role: 'alert', 'data-code': refusal.code, text: `${t('error.refused')} ${refusal.message}` }));
  }

  /** The bubble in time units, not as a share: DualPipe's stays flat as micro-batches grow, while a
   *  fraction falls for every schedule just because there is more work. */
  private drawAbsolute(model: ChartsModel): void {
    const { ranks, microBatches: micro, largestByMicro: byMicro, largestByRanks: byRanks, refusedByMicro, refusedByRanks } = model;
    const specs: [string, string, ChartSpec, RefusedSizes[]][] = [
      [t('charts.absVsMicroBatches', { ranks }), t('charts.absVsMicroBatchesHint'), { label: t('charts.absVsMicroBatches', { ranks }), xLabel: t('charts.microBatches'), yLabel: t('charts.largestBubble'), series: byMicro, marker: micro, yFormat: num, valueFormat: num }, refusedByMicro],
      [t('charts.absVsRanks', { micro }), t('charts.absVsRanksHint'), { label: t('charts.absVsRanks', { micro }), xLabel: t('charts.ranks'), yLabel: t('charts.largestBubble'), series: byRanks, marker: ranks, yFormat: num, valueFormat: num }, refusedByRanks],
    ];
    for (const [title, hint, spec, refused] of specs) this.grid.append(chartCard(title, hint, lineChart(spec), spec, refused));
  }

  private draw(model: ChartsModel): void {
    clear(this.grid);
    const { ranks, microBatches: micro, byMicro, byRanks, tradeOff, utilisation, refusedByMicro, refusedByRanks } = model;
    const card = (titleText: string, hint: string, chart: SVGSVGElement, legendSeries: Series[], refused: RefusedSizes[] = []) =>
      el('div', { class: 'chart-card' }, [
        el('h4', { text: titleText }),
        chart,
        el('div', { class: 'legend' }, legendSeries.map((s) => {
          const sw = el('span', { class: 'cell' });
          sw.style.background = s.color;
          return el('span', { class: 'item' }, [sw, s.name]);
        })),
        el('div', { class: 'hint', text: hint }),
        ...caveats(refused),
      ]);

    this.grid.append(
      card(
        t('charts.vsMicroBatches', { ranks }),
        t('charts.vsMicroBatchesHint'),
        lineChart({ label: t('charts.vsMicroBatches', { ranks }), xLabel: t('charts.microBatches'), yLabel: t('readout.bubbleFraction'), series: byMicro, marker: micro, yFormat: (v) => percent(v, 0), valueFormat: (v) => percent(v, 2) }),
        byMicro,
        refusedByMicro,
      ),
    );
    this.grid.lastElementChild!.append(dataDetails({ label: '', xLabel: t('charts.microBatches'), yLabel: '', series: byMicro, valueFormat: (v) => percent(v, 2) }));
    this.grid.append(
      card(
        t('charts.vsRanks', { micro }),
        t('charts.vsRanksHint'),
        lineChart({ label: t('charts.vsRanks', { micro }), xLabel: t('charts.ranks'), yLabel: t('readout.bubbleFraction'), series: byRanks, marker: ranks, yFormat: (v) => percent(v, 0), valueFormat: (v) => percent(v, 2) }),
        byRanks,
        refusedByRanks,
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
}

/** The numbers of a chart, under it, folded: exact values for reading and for screen readers. */
function dataDetails(spec: ChartSpec): HTMLElement {
  return el('details', { class: 'chart-data-details' }, [el('summary', { text: t('charts.data') }), dataTable(spec, t('charts.data'))]);
}

/** One line per plotted schedule that refuses some of the chart's sizes: why its curve has holes. */
function caveats(refused: RefusedSizes[]): HTMLElement[] {
  return refused.map((r) => el('div', { class: 'hint', 'data-testid': 'chart-caveat', text: t('charts.refusedSizes', { schedule: r.schedule, constraints: r.constraints }) }));
}

function chartCard(title: string, hint: string, chart: SVGSVGElement, spec: ChartSpec, refused: RefusedSizes[]): HTMLElement {
  const legend = el('div', { class: 'legend' }, spec.series.map((s) => {
    const sw = el('span', { class: 'cell' });
    sw.style.background = s.color;
    return el('span', { class: 'item' }, [sw, s.name]);
  }));
  return el('div', { class: 'chart-card', 'data-testid': 'chart-absolute' }, [el('h4', { text: title }), chart, legend, el('div', { class: 'hint', text: hint }), ...caveats(refused), dataDetails(spec)]);
}
