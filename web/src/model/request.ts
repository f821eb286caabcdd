// The engine request of one schedule at the page's settings: the page and the <pipesim-timeline>
// element both ask the engine through this, so that they ask the same thing.
import type { RunRequest, ScheduleInfo } from '../engine/engine';
import type { AppState } from '../state/page_state';

/** Splits a ';'-separated list of per-stage costs or per-rank speeds into its entries. */
function entries(text: string): string[] {
  return text.split(';').map((s) => s.trim()).filter(Boolean);
}

/** A run as core writes it: a preset, a lesson step's run, an exercise's inputs. */
export interface CoreRun {
  schedule: string;
  ranks: number;
  micro_batches: number;
  virtual_stages?: number;
}

/** The request for a run core describes, with its sizes in the page's words, priced at `cost` (a
 *  preset's or an exercise's own, or the lesson's for every lesson step). */
export function requestOfCoreRun(run: CoreRun, cost: string): RunRequest {
  const virtualStages = run.virtual_stages === undefined ? {} : { virtualStages: run.virtual_stages };
  return { schedule: run.schedule, ranks: run.ranks, microBatches: run.micro_batches, ...virtualStages, cost };
}

/** What a request needs to know of its schedule's registry entry (undefined: a name the engine does
 *  not know, which it refuses). */
export type ScheduleTraits = Pick<ScheduleInfo, 'uses_virtual_stages' | 'takes_text'>;

/** The request for `schedule` at `state`'s settings. Virtual stages only for a schedule that has them;
 *  the pasted text and no whole-model basis for the one given as text (`takes_text`).
 *  On the same-model basis (`sameModel`) the costs on screen are one rank's share of the model: the
 *  model is cut into `ranks` stages of those costs, and each schedule re-cuts it into its own stages
 *  (the engine does the division). Ranks the engine will refuse leave the costs as they are. */
export function requestOf(state: Readonly<AppState>, schedule: string, traits: ScheduleTraits | undefined, sameModel = false): RunRequest {
  const ranks = Number(state.ranks);
  const takesText = !!traits?.takes_text;
  const modelStages = sameModel && !takesText && Number.isInteger(ranks) && ranks > 0 ? ranks : undefined;
  const stageCost = entries(state.stageCost);
  const rankSpeed = entries(state.rankSpeed);
  return {
    schedule,
    ranks: state.ranks,
    microBatches: state.microBatches,
    virtualStages: traits?.uses_virtual_stages ? state.virtualStages : 1,
    cost: state.cost,
    ...(modelStages ? { modelStages } : {}),
    ...(stageCost.length ? { stageCost } : {}),
    ...(rankSpeed.length ? { rankSpeed } : {}),
    customSchedule: takesText ? state.custom : undefined,
    timing: state.timing,
    // The send semantics belong to reference timing: the engine refuses them with another.
    ...(state.timing === 'reference' ? { sends: state.sends } : {}),
  };
}
