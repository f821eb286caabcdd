// The page's one engine client: every run the page and its elements draw is asked for here. It
// decides, in one place, whether runs are simulated at once on this thread (small ones: a slider
// move is simulated and drawn within its frame) or in the background worker (large ones, while the
// page keeps its last drawing), and it keeps recent results, so that a setting moved back, a view
// opened again or a second element with the same settings is not simulated twice.
//
// It imports only types from the engine and the worker's queue, so that it runs in Node's unit tests
// with stand-ins for both.
import type { Engine, ExportFormat, ModelRunRequest, ModelRunResult, RunRequest, SimulateValue } from './engine';
import type { Background, LaneRequest } from './background';
import { SUPERSEDED, type Superseded } from './superseded';
import { isRefusal, outcomeOf, type Outcome, type Refusal } from './outcome';

/** Above this many ops (estimated, over all the runs of one update) simulation leaves the main thread.
 *  The engine in WebAssembly does about 10 M ops/s and drawing costs about as much again, so 30 000
 *  ops keep a synchronous update within a 16 ms frame; the worker's round trip is not worth it below. */
export const BACKGROUND_ABOVE_OPS = 30_000;

/** The most ops the cache keeps over all its results (a result's op columns are ~40 bytes an op). */
export const CACHE_OPS_LIMIT = 2_000_000;
/** The most results it keeps. */
export const CACHE_ENTRIES_LIMIT = 64;

/** An upper estimate of a run's op count from its request, before simulating it: at most three ops
 *  (F, I, W) per micro-batch, stage and virtual stage; a schedule given as text has one op per ~4
 *  characters. */
export function estimatedOps(request: RunRequest): number {
  if (request.customSchedule !== undefined) return request.customSchedule.length / 4;
  const n = (v: number | string | undefined) => (Number.isFinite(Number(v)) ? Math.max(1, Number(v)) : 1);
  return 3 * n(request.ranks) * n(request.microBatches) * n(request.virtualStages);
}

/** The most runs on a model (the Memory tab's) the cache keeps: a tab's schedules at a few settings. */
export const MODEL_CACHE_ENTRIES_LIMIT = 16;

/** The same key for the same request, whatever order its fields were written in. */
export function requestKey(request: RunRequest | ModelRunRequest): string {
  const entries = Object.entries(request).filter(([, v]) => v !== undefined);
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify(entries.map(([k, v]) => [k, typeof v === 'number' ? String(v) : v]));
}

/** What the client needs of the engine (tests give a stand-in). */
export type EngineCalls = Pick<Engine, 'simulate' | 'exportText' | 'toolsReady'>;
/** What the client needs of the worker's queue. */
export type BackgroundCalls = Pick<Background, 'lastPlace'>;

export type Place = 'cache' | 'main-thread' | 'worker';

/** Runs asked for: done now (from the cache or simulated here), or under way in the worker. */
export type Simulation =
  | { outcomes: Outcome<SimulateValue>[]; where: Place }
  | { pending: Promise<Outcome<SimulateValue>[] | Superseded>; ops: number };

export class EngineClient {
  /** Results by request key, oldest first (a Map keeps insertion order). */
  private readonly cache = new Map<string, { outcome: Outcome<SimulateValue>; ops: number }>();
  private cachedOps = 0;
  /** Runs on a model by request key, oldest first. */
  private readonly modelCache = new Map<string, Outcome<ModelRunResult>>();

  constructor(
    readonly engine: EngineCalls,
    readonly background: BackgroundCalls,
  ) {}

  /** Where the last run that left the cache was simulated in the worker's queue (the worker, or the
   *  main thread when no worker could start). */
  get lastPlace(): Place {
    return this.background.lastPlace ?? 'worker';
  }

  /** Whether these requests, less those cached, go to the worker, and how many ops they have. */
  placement(requests: RunRequest[]): { background: boolean; ops: number } {
    const ops = requests.reduce((sum, r) => sum + (this.cache.has(requestKey(r)) ? 0 : estimatedOps(r)), 0);
    return { background: ops > BACKGROUND_ABOVE_OPS, ops };
  }

  /** The runs of `requests`, in order, each its result or its refusal: at once when they are cached or
   *  small, else from the worker through `update` (a newer request of its lane supersedes it). */
  simulate(requests: RunRequest[], update: Pick<LaneRequest, 'run'>): Simulation {
    const { background, ops } = this.placement(requests);
    if (background) return { pending: this.simulateAway(requests, update), ops };
    const missing = requests.some((r) => !this.cache.has(requestKey(r)));
    return { outcomes: requests.map((r) => this.simulateHere(r)), where: missing ? 'main-thread' : 'cache' };
  }

  /** The cached outcome of a request, if any. A hit becomes the newest entry, so what the page keeps
   *  using (the primary run beside a new comparison) is the last to be evicted. */
  cached(request: RunRequest): Outcome<SimulateValue> | undefined {
    const key = requestKey(request);
    const hit = this.cache.get(key);
    if (!hit) return undefined;
    this.cache.delete(key);
    this.cache.set(key, hit);
    return hit.outcome;
  }

  /** Empties the cache (nothing calls it in the page: results depend on the request alone). */
  forget(): void {
    this.cache.clear();
    this.cachedOps = 0;
    this.modelCache.clear();
  }

  /** The run in one of the export formats: written here for a small run (the download starts within
   *  the click), in the worker for a large one; `away` tells when that is so. */
  async exportText(
    request: RunRequest,
    format: ExportFormat,
    update: Pick<LaneRequest, 'run'>,
    away: () => void = () => {},
    progress?: (percent: number) => void,
  ): Promise<string | Superseded> {
    if (estimatedOps(request) <= BACKGROUND_ABOVE_OPS) {
      // The exporters come with the module loaded on first need (engine.ts toolsReady()).
      await this.engine.toolsReady();
      return this.engine.exportText(request, format);
    }
    away();
    return update.run('exportText', { request, format }, progress);
  }

  /** Schedules run on a model and cluster (the Memory tab), each its result or its refusal: always in
   *  the worker's queue through `update`, since each needs the course module and prices a whole model
   *  (a newer request of its lane supersedes it); the runs already made come from the cache. */
  async simulateModels(requests: ModelRunRequest[], update: Pick<LaneRequest, 'run'>): Promise<Outcome<ModelRunResult>[] | Superseded> {
    const key = (r: ModelRunRequest) => requestKey(r);
    const hits = new Map(requests.flatMap((r) => {
      const hit = this.modelCache.get(key(r));
      return hit ? [[key(r), hit] as const] : [];
    }));
    const missing = requests.filter((r) => !hits.has(key(r)));
    let got: Outcome<ModelRunResult>[] | Superseded = [];
    if (missing.length) {
      try {
        got = await update.run('simulateModel', missing);
      } catch (e) {
        // The whole task failed (a worker that broke, a course module that did not load): every run of
        // it is refused with that message, and none is kept (another try may succeed).
        const error = { message: e instanceof Error ? e.message : String(e), code: isRefusal(e) ? e.code : 'internal', ...wordingOf(e) };
        return requests.map((r) => hits.get(key(r)) ?? { error });
      }
    }
    if (got === SUPERSEDED) return SUPERSEDED;
    const settled = got;
    missing.forEach((r, k) => this.keepModelRun(key(r), settled[k]));
    const made = new Map(missing.map((r, k) => [key(r), settled[k]] as const));
    return requests.map((r) => (made.get(key(r)) ?? hits.get(key(r)))!);
  }

  private keepModelRun(key: string, outcome: Outcome<ModelRunResult>): void {
    if ('error' in outcome && outcome.error.code === 'internal') return;
    this.modelCache.delete(key);
    this.modelCache.set(key, outcome);
    for (const oldest of this.modelCache.keys()) {
      if (this.modelCache.size <= MODEL_CACHE_ENTRIES_LIMIT) break;
      this.modelCache.delete(oldest);
    }
  }

  private simulateHere(request: RunRequest): Outcome<SimulateValue> {
    const hit = this.cached(request);
    if (hit) return hit;
    const outcome = outcomeOf(() => this.engine.simulate(request));
    this.keep(request, outcome);
    return outcome;
  }

  private async simulateAway(requests: RunRequest[], update: Pick<LaneRequest, 'run'>): Promise<Outcome<SimulateValue>[] | Superseded> {
    const missing = requests.filter((r) => !this.cache.has(requestKey(r)));
    // The hits are taken now: while the worker runs the rest, what it brings back (or a run made here
    // meanwhile) may evict them from the cache.
    const hits = new Map(requests.flatMap((r) => {
      const hit = this.cached(r);
      return hit ? [[requestKey(r), hit] as const] : [];
    }));
    let outcomes: Outcome<SimulateValue>[] | Superseded;
    try {
      outcomes = await update.run('simulate', missing);
    } catch (e) {
      // The whole task failed (a worker that broke): every run of it is refused with that message,
      // and none of them is kept (another try may succeed).
      const error = { message: e instanceof Error ? e.message : String(e), code: isRefusal(e) ? e.code : 'internal' };
      const failed = new Map(missing.map((r) => [requestKey(r), { error }] as const));
      return requests.map((r) => failed.get(requestKey(r)) ?? hits.get(requestKey(r)) ?? { error });
    }
    if (outcomes === SUPERSEDED) return SUPERSEDED;
    const settled = outcomes;
    missing.forEach((r, k) => this.keep(r, settled[k]));
    const got = new Map(missing.map((r, k) => [requestKey(r), settled[k]] as const));
    return requests.map((r) => (got.get(requestKey(r)) ?? hits.get(requestKey(r)))!);
  }

  /** Keeps an outcome, dropping the oldest ones past the limits; a refusal the engine did not give
   *  (code 'internal': a broken engine) is not kept. */
  private keep(request: RunRequest, outcome: Outcome<SimulateValue>): void {
    if ('error' in outcome && outcome.error.code === 'internal') return;
    const ops = 'value' in outcome ? outcome.value.ops.count : 0;
    if (ops > CACHE_OPS_LIMIT) return;
    const key = requestKey(request);
    const old = this.cache.get(key);
    if (old) {
      this.cache.delete(key);
      this.cachedOps -= old.ops;
    }
    this.cache.set(key, { outcome, ops });
    this.cachedOps += ops;
    for (const [k, entry] of this.cache) {
      if (this.cachedOps <= CACHE_OPS_LIMIT && this.cache.size <= CACHE_ENTRIES_LIMIT) break;
      this.cache.delete(k);
      this.cachedOps -= entry.ops;
    }
  }
}

/** The page's wording of a refusal thrown whole (errorFrom in tasks.ts keeps it), if it has one. */
function wordingOf(e: unknown): { wording?: Refusal['wording'] } {
  const wording = (e as { wording?: Refusal['wording'] } | null)?.wording;
  return wording ? { wording } : {};
}
