// A request as the module takes it (RunRequestJs): a plain module of its own, so that the tests in Node
// ask the module exactly what the page asks (tests/web/hostile_urls.test.mjs).
import type { RunRequest } from '../engine/engine';
import type { RunRequestJs } from '../engine/generated/pipesim_engine.mjs';

/** Sends are named only with reference timing: the engine refuses them otherwise. */
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
    sends: request.timing === 'reference' ? request.sends : undefined,
  };
}
