// One configuration of the planner's search as the page's address: the Timeline or Compare opened
// on it with one click (the planner panel's links), through the URL adapter's own writer.
import type { PlanSearchPoint } from '../engine/engine';
import { DEFAULT_STATE, type AppState, type ViewName } from '../state/page_state';
import { writeState } from '../state/url_adapter';

/** The page's address for one configuration of the search in `view`: its schedule, sizes and the
 *  per-stage costs the engine timed (stage 0's as the base cost, every stage's as --stage-cost). */
export function searchPointLink(p: PlanSearchPoint, view: ViewName, usesVirtualStages: boolean, extra = new URLSearchParams()): string {
  const costs = (c: PlanSearchPoint['stage_cost_ms'][number]) => `F=${c.F},B=${c.B},W=${c.W},FB=${c.FB},comm=${c.comm}`;
  const state: AppState = {
    ...DEFAULT_STATE,
    schedule: p.schedule,
    ranks: String(p.pp),
    microBatches: String(p.micro_batches),
    virtualStages: String(p.virtual_stages),
    cost: costs(p.stage_cost_ms[0]),
    stageCost: p.stage_cost_ms.map((c, stage) => `${stage}:${costs(c)}`).join(';'),
    compare: DEFAULT_STATE.compare.filter((name) => name !== p.schedule),
    view,
  };
  return writeState(state, usesVirtualStages, extra);
}
