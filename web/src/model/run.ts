// A simulated run as the views see it: the request, the engine's result and what it was asked.
import type { RunRequest, ScheduleInfo, SimulateValue } from '../engine/engine';

/** A request as the engine read it: sizes are numbers. */
export type ResolvedRequest = RunRequest & { ranks: number; microBatches: number; virtualStages: number };

export interface RunView {
  request: ResolvedRequest;
  info: ScheduleInfo;
  result: SimulateValue;
  /** With reference timing: the same schedule's dataflow makespan (the gap readout compares them). */
  dataflowMakespan?: number;
}

/** F / (F + B): how much of an F&B cell is drawn as forward (Fig. 5 splits its 3-cell slot 1:2). */
export function forwardShareOf(summary: any): number {
  const c = summary.cost;
  return c.F + c.B > 0 ? c.F / (c.F + c.B) : 0.5;
}

export function forwardShare(run: RunView): number {
  return forwardShareOf(run.result.summary);
}

/** What `phase` means in this run: a direction, a leg of a V, a virtual chunk, or nothing. */
export type PhaseMeaning = 'direction' | 'leg' | 'chunk' | 'none';

/** The engine reads it off the layout (`phases` in the JSON contract). */
export function phaseMeaning(summary: any): PhaseMeaning {
  return summary.phases as PhaseMeaning;
}
