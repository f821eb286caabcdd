// The Charts tab's numbers: the sweeps (hundreds of simulations) and the trade-off runs, computed in
// the background worker, cut into pieces so that the panel's progress bar follows them and a newer
// setting stops them between two pieces. The panel (views/charts_panel.ts) only draws what this
// hands it.
import { seriesColor } from '../base/colors';
import { Lane, SUPERSEDED, type Background, type LaneRequest } from '../engine/background';
import { EngineError, type Engine, type RunRequest } from '../engine/engine';
import { scheduleConstraints, scheduleTitle } from '../model/describe';
import type { ResolvedRequest, RunView } from '../model/run';
import type { BasisShown } from '../views/basis';
import type { Series, ScatterPoint } from '../views/chart';
import type { ChartsModel, ChartsPanel, RefusedSizes } from '../views/charts_panel';

/** The schedules that refuse sizes on a chart, each once, in the order plotted. */
const distinct = (refused: (RefusedSizes | null)[]): RefusedSizes[] =>
  refused.filter((r, k): r is RefusedSizes => r !== null && refused.findIndex((o) => o?.schedule === r.schedule) === k);

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

export class ChartsSweeps {
  private readonly sweeps: Lane;

  constructor(
    private readonly engine: Pick<Engine, 'schedule' | 'schedules'>,
    background: Background,
    private readonly panel: ChartsPanel,
  ) {
    this.sweeps = new Lane(background);
  }

  /** Stops the sweep still running: the settings it was for have changed (their runs may take a while
   *  in the worker before update() is called with them). */
  stop(): void {
    this.sweeps.begin();
    this.panel.progress.finish();
  }

  /** Starts computing the charts of `runs`, superseding any still computing; the charts on screen
   *  stay until the new ones are complete. */
  update(runs: RunView[], basis: BasisShown): void {
    this.panel.showBasis(basis);
    const sweep = this.sweeps.begin();
    if (runs.length === 0) {
      this.panel.progress.finish();
      this.panel.render(null);
      return;
    }
    this.compute(runs, sweep).catch((e: unknown) => this.showRefusal(e, sweep));
  }

  /** A sweep the engine refused (the runs on screen were accepted, so this is rare): its message in
   *  place of the charts rather than a bar that never finishes. */
  private showRefusal(e: unknown, sweep: LaneRequest): void {
    if (!(e instanceof EngineError)) throw e;
    if (!sweep.current) return;
    this.panel.progress.finish();
    this.panel.renderRefusal({ message: e.message, code: e.code });
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
    this.panel.progress.start(plans.reduce((n, p) => n + p.values.length, 0) + tradeOffRequests.length);
    const curves: Series[] = [];
    const absolute: Series[] = [];
    const refusing: (RefusedSizes | null)[] = [];
    for (const plan of plans) {
      const curve = await this.curve(plan, sweep);
      if (curve === SUPERSEDED) return;
      curves.push(curve.fraction);
      absolute.push(curve.largest);
      refusing.push(curve.refused);
    }
    const tradeOff = await this.tradeOff(tradeOffRequests, sweep);
    if (tradeOff === SUPERSEDED) return;
    this.panel.progress.finish();
    const n = requests.length;
    const model: ChartsModel = {
      ranks: primary.ranks,
      microBatches: primary.microBatches,
      byMicro: curves.slice(0, n),
      byRanks: curves.slice(n),
      largestByMicro: absolute.slice(0, n),
      largestByRanks: absolute.slice(n),
      refusedByMicro: distinct(refusing.slice(0, n)),
      refusedByRanks: distinct(refusing.slice(n)),
      tradeOff,
      utilisation: runs.map((r) => ({
        name: scheduleTitle(r.info),
        color: seriesColor(r.info),
        x: r.result.summary.per_rank.map((p: any) => p.rank),
        y: r.result.summary.per_rank.map((p: any) => p.utilisation),
      })),
      sweptIn: this.sweeps.background.lastPlace ?? '',
    };
    this.panel.render(model);
  }

  /** One curve, piece by piece: the bubble fraction, and the largest rank's bubble in time units. */
  private async curve(plan: CurvePlan, sweep: LaneRequest): Promise<{ fraction: Series; largest: Series; refused: RefusedSizes | null } | typeof SUPERSEDED> {
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
      this.panel.progress.advance(values.length);
    }
    const info = this.engine.schedule(plan.request.schedule);
    const name = scheduleTitle(info, plan.request.schedule);
    const color = seriesColor(info);
    // A curve with a hole is a schedule refusing some of the sizes swept: its rule, in the registry's words.
    const refused = largest.some(Number.isNaN) ? { schedule: name, constraints: scheduleConstraints(info) } : null;
    return { fraction: { name, color, x, y }, largest: { name, color, x, y: largest }, refused };
  }

  /** Every schedule at these sizes, for the trade-off chart (those that refuse them have no point;
   *  the one given as text has fixed sizes). */
  private tradeOffRequests(request: ResolvedRequest): RunRequest[] {
    return this.engine.schedules
      .filter((info) => !info.takes_text)
      .map((info) => ({ ...request, schedule: info.name, virtualStages: info.uses_virtual_stages ? Math.max(2, request.virtualStages) : 1 }));
  }

  /** Every schedule that accepts these sizes: its bubble against its activation memory per GPU, in
   *  micro-batches through the whole model (peak stage-activations / stages along the path), so that
   *  DualPipe's PP + 1 stages and DualPipeV's half-size stages compare fairly. */
  private async tradeOff(requests: RunRequest[], sweep: LaneRequest): Promise<ScatterPoint[] | typeof SUPERSEDED> {
    const summaries = await sweep.run('summaries', requests);
    if (summaries === SUPERSEDED) return SUPERSEDED;
    this.panel.progress.advance(requests.length);
    return summaries.flatMap((outcome, k) => {
      if (!('value' in outcome)) return []; // a schedule that refuses these sizes has no point
      const s = outcome.value;
      const name = requests[k].schedule;
      return [{ label: scheduleTitle(this.engine.schedule(name)), color: seriesColor(this.engine.schedule(name)), x: s.peak_activations / s.stages, y: s.bubble_fraction }];
    });
  }
}
