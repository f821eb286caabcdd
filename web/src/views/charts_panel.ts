// Curves computed by the engine: bubble fraction against micro-batches and against ranks for the
// schedules on screen, and each rank's utilisation.
import { clear, el } from '../base/dom';
import { seriesColor } from '../base/colors';
import { num, percent } from '../base/format';
import type { Engine, RunRequest } from '../engine/engine';
import { t } from '../i18n';
import type { ResolvedRequest, RunView } from '../app/run';
import { scheduleTitle } from '../app/describe';
import { barChart, lineChart, scatterChart, type ScatterPoint, type Series } from './chart';
import { EngineError } from '../engine/engine';

const range = (from: number, to: number) => Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);

export class ChartsPanel {
  readonly element: HTMLElement;
  private readonly grid = el('div', { class: 'charts-grid' });

  constructor(private readonly engine: Engine) {
    this.element = el('section', { class: 'panel', id: 'panel-charts', role: 'tabpanel', hidden: true }, [
      el('h3', { text: t('charts.title') }),
      el('p', { class: 'hint', text: t('charts.hint') }),
      this.grid,
    ]);
  }

  update(runs: RunView[]): void {
    clear(this.grid);
    if (runs.length === 0) return;
    const primary = runs[0].request;
    const ranks = primary.ranks;
    const micro = primary.microBatches;
    const microValues = range(1, Math.min(128, Math.max(48, 4 * ranks)));
    const rankValues = range(1, 32);
    const curve = (request: RunRequest, axis: 'micro_batches' | 'ranks', values: number[]): Series => {
      const sweep = this.engine.sweep(request, axis, values);
      return { name: scheduleTitle(this.engine.schedule(request.schedule), request.schedule), color: seriesColor(request.schedule), x: sweep.value, y: sweep.bubbleFraction };
    };
    const requests = runs.map((r) => r.request);
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

    const byMicro = requests.map((r) => curve(r, 'micro_batches', microValues));
    this.grid.append(
      card(
        t('charts.vsMicroBatches', { ranks }),
        t('charts.vsMicroBatchesHint'),
        lineChart({ label: t('charts.vsMicroBatches', { ranks }), xLabel: t('charts.microBatches'), yLabel: t('readout.bubbleFraction'), series: byMicro, marker: micro, yFormat: (v) => percent(v, 0) }),
        byMicro,
      ),
    );
    const byRanks = requests.map((r) => curve(r, 'ranks', rankValues));
    this.grid.append(
      card(
        t('charts.vsRanks', { micro }),
        t('charts.vsRanksHint'),
        lineChart({ label: t('charts.vsRanks', { micro }), xLabel: t('charts.ranks'), yLabel: t('readout.bubbleFraction'), series: byRanks, marker: ranks, yFormat: (v) => percent(v, 0) }),
        byRanks,
      ),
    );
    const tradeOff = this.tradeOff(primary);
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
      color: seriesColor(r.info.name),
      x: r.result.summary.per_rank.map((p: any) => p.rank),
      y: r.result.summary.per_rank.map((p: any) => p.busy / r.result.summary.makespan),
    }));
    this.grid.append(
      card(
        t('charts.utilisation'),
        t('charts.utilisationHint'),
        barChart({ label: t('charts.utilisation'), xLabel: t('charts.rank'), yLabel: t('table.utilisation'), series: utilisation, yFormat: (v) => percent(v, 0), xFormat: (v) => String(v) }),
        utilisation,
      ),
    );
  }

  /** Every schedule that accepts these sizes: its bubble against its activation memory per GPU, in
   *  micro-batches through the whole model (peak stage-activations / stages along the path), so that
   *  DualPipe's PP + 1 stages and DualPipeV's half-size stages compare fairly. */
  private tradeOff(request: ResolvedRequest): ScatterPoint[] {
    const points: ScatterPoint[] = [];
    for (const info of this.engine.schedules) {
      if (info.name === 'custom') continue;
      try {
        const s = this.engine.simulate({ ...request, schedule: info.name, virtualStages: info.uses_virtual_stages ? Math.max(2, request.virtualStages) : 1 }).summary;
        points.push({ label: scheduleTitle(info), color: seriesColor(info.name), x: s.peak_activations / s.stages, y: s.bubble_fraction });
      } catch (e) {
        if (!(e instanceof EngineError)) throw e; // a schedule that refuses these sizes has no point
      }
    }
    return points;
  }
}
