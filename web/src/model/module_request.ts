// A request as the module takes it (RunRequestJs): a plain module of its own, so that the tests in Node
// ask the module exactly what the page asks (tests/web/hostile_urls.test.mjs).
import type { RunRequest } from '../engine/engine';
import type { RunRequestJs } from '../engine/generated/pipesim_engine.mjs';

/** The request as the page built it: `requestOf` names sends only with reference timing, and the
 *  engine refuses them with dataflow (the element passes its attributes through, so a bad pair is refused). */
export function moduleRequest(request: RunRequest): RunRequestJs {
  return {
    schedule: request.schedule,
    ranks: request.ranks,
    microBatches: request.microBatches,
    virtualStages: request.virtualStages ?? 1,
    cost: request.cost,
    modelStages: request.modelStages,
    stageCost: request.stageCost,
    rankSpeed: request.rankSpeed,
    customSchedule: request.customSchedule,
    timing: request.timing,
    sends: request.sends,
  };
}
