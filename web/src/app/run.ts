// A simulated run as the views see it: the request, the engine's result and what it was asked.
import type { RunRequest, ScheduleInfo, SimulateValue } from '../engine/engine';

export interface RunView {
  request: RunRequest;
  info: ScheduleInfo;
  result: SimulateValue;
}

/** F / (F + B): how much of an F&B cell is drawn as forward (Fig. 5 splits its 3-cell slot 1:2). */
export function forwardShare(run: RunView): number {
  const c = run.result.summary.cost;
  return c.F + c.B > 0 ? c.F / (c.F + c.B) : 0.5;
}

/** What `phase` means in this run: a direction, a leg of a V, a virtual chunk, or nothing. */
export type PhaseMeaning = 'direction' | 'leg' | 'chunk' | 'none';

export function phaseMeaning(summary: any): PhaseMeaning {
  if (summary.directions === 2) return 'direction';
  if (summary.virtual_stages > 1) return 'chunk';
  if (summary.stages === 2 * summary.ranks && summary.schedule !== 'custom') return 'leg';
  return 'none';
}
