// Work that can take longer than a frame (large runs, sweeps, the planner) runs in a Web Worker with
// its own instance of the engine, so the page keeps answering while it runs. Small runs stay on the
// main thread, synchronous, so a slider move is simulated and drawn within the same frame: client.ts
// decides which is which.
//
// Requests come in lanes (one per view): a newer request of a lane supersedes the older ones, whose
// tasks still waiting are dropped and whose results are discarded. Tasks go to the worker one at a
// time, so a waiting task can still be dropped.
//
// When no worker starts (the offline file, a script served from another origin, a worker that
// fails), the same tasks run on the main thread, each in its own macrotask so the page can paint
// between them.
import { EngineClient } from './client';
import { compiledEngine, type Engine } from './engine';
import { errorData, errorFrom, prepareTask, runTask, type TaskArgs, type TaskName, type TaskResult } from './tasks';
import type { FromWorker, ToWorker } from './worker';

import { SUPERSEDED, type Superseded } from './superseded';

export { SUPERSEDED, type Superseded } from './superseded';

/** A browser test of the recovery from a broken engine: under automation (navigator.webdriver) a page
 *  opened with ?test-engine=abort has its first worker's engine fail inside WebAssembly, for real,
 *  before its first task. Nobody else can reach it, and it breaks only that page's worker. */
function testAbortRequested(): boolean {
  return navigator.webdriver === true && new URLSearchParams(location.search).get('test-engine') === 'abort';
}

/** How long a worker may take to start its engine before the page gives up on it. */
const WORKER_START_TIMEOUT_MS = 15_000;

interface Job {
  id: number;
  task: TaskName;
  args: unknown;
  lane: Lane | null;
  /** Told a large export's progress, in whole percent, while the worker writes it. */
  onProgress?: (percent: number) => void;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

export type Place = 'worker' | 'main-thread';

export class Background {
  private worker: Worker | null = null;
  private state: 'starting' | 'ready' | 'none' = 'none';
  private readonly queue: Job[] = [];
  private running: Job | null = null;
  private nextId = 1;
  /** Where the last task ran (tests and the page's data-* hooks read it). */
  lastPlace: Place | null = null;
  /** How many times a worker whose engine broke was replaced by a new one. */
  restarts = 0;
  private readonly restartListeners: (() => void)[] = [];
  private started = false;

  constructor(private readonly engine: Engine) {}

  /** Starts the worker, once: the first task does, so that the worker's script (loaded with it, by
   *  a dynamic import) is not part of the page's first download. */
  warmUp(): void {
    if (this.started) return;
    this.started = true;
    this.start();
  }

  /** Runs `task` away from the main thread if a worker is there; resolves with its result, or
   *  SUPERSEDED if a newer request of `lane` dropped it before it started. `onProgress` hears how far
   *  an export in the worker has got. */
  run<K extends TaskName>(
    task: K,
    args: TaskArgs<K>,
    lane: Lane | null = null,
    onProgress?: (percent: number) => void,
  ): Promise<TaskResult<K> | Superseded> {
    this.warmUp();
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, task, args, lane, onProgress, resolve: resolve as (v: unknown) => void, reject });
      this.pump();
    });
  }

  /** Calls `listener` each time a broken worker is replaced (the page says so). */
  onRestart(listener: () => void): void {
    this.restartListeners.push(listener);
  }

  /** Drops the waiting tasks of `lane`: a newer request replaced them. */
  dropWaiting(lane: Lane): void {
    for (let i = this.queue.length - 1; i >= 0; i--) {
      if (this.queue[i].lane !== lane) continue;
      this.queue[i].resolve(SUPERSEDED);
      this.queue.splice(i, 1);
    }
  }

  private start(): void {
    this.state = 'starting'; // tasks wait for the worker's module to load
    import('./worker_start').then(
      ({ startWorker }) => this.attach(startWorker),
      () => this.giveUpWorker(),
    );
  }

  private attach(startWorker: () => Worker): void {
    let worker: Worker;
    try {
      worker = startWorker();
    } catch {
      this.giveUpWorker(); // no worker here (see worker_start_offline.ts): the main thread does the work
      return;
    }
    this.worker = worker;
    const timer = setTimeout(() => this.state === 'starting' && this.giveUpWorker(), WORKER_START_TIMEOUT_MS);
    worker.addEventListener('message', (e: MessageEvent<FromWorker>) => this.onMessage(e.data, timer));
    // A worker script that cannot load (blocked, missing) or that crashes: carry on without it.
    worker.addEventListener('error', (e) => {
      e.preventDefault();
      this.giveUpWorker();
    });
    const abortOnFirstTask = this.restarts === 0 && testAbortRequested(); // the replacement works
    void compiledEngine().then((module) => worker.postMessage({ type: 'init', module, abortOnFirstTask } satisfies ToWorker));
  }

  private onMessage(m: FromWorker, timer: ReturnType<typeof setTimeout>): void {
    if (m.type === 'ready') {
      clearTimeout(timer);
      this.state = 'ready';
      this.pump();
    } else if (m.type === 'failed') {
      this.giveUpWorker();
    } else if (m.type === 'progress') {
      if (this.running?.id === m.id) this.running.onProgress?.(m.percent);
    } else {
      const job = this.running;
      if (!job || job.id !== m.id) return;
      this.running = null;
      this.lastPlace = 'worker';
      if (m.ok) job.resolve(m.value);
      else job.reject(errorFrom(m.error));
      if (m.broken) this.replaceWorker();
      else this.pump();
    }
  }

  /** The worker's engine failed inside WebAssembly and refuses every call from then on: a new worker
   *  with a new engine takes the waiting tasks. */
  private replaceWorker(): void {
    this.worker?.terminate();
    this.worker = null;
    this.restarts++;
    this.start();
    for (const listener of this.restartListeners) listener();
  }

  /** From now on the main thread runs every task, the one the worker was running included. */
  private giveUpWorker(): void {
    this.worker?.terminate();
    this.worker = null;
    this.state = 'none';
    const lost = this.running;
    this.running = null;
    if (lost) this.queue.unshift(lost);
    this.pump();
  }

  private pump(): void {
    if (this.running || this.state === 'starting') return;
    const job = this.queue.shift();
    if (!job) return;
    this.running = job;
    if (this.worker && this.state === 'ready') {
      this.worker.postMessage({ type: 'task', id: job.id, task: job.task, args: job.args } satisfies ToWorker);
      return;
    }
    // A macrotask per task, so the page paints (and shows progress) between the pieces of a sweep.
    setTimeout(() => void this.runHere(job), 0);
  }

  /** Runs `job` on the main thread (no worker), once its course data, if it needs any, is loaded. */
  private async runHere(job: Job): Promise<void> {
    if (this.running !== job) return;
    try {
      await prepareTask(this.engine, job.task);
      this.lastPlace = 'main-thread';
      job.resolve(runTask(this.engine, job.task, job.args as never));
    } catch (e) {
      job.reject(errorFrom(errorData(e)));
    }
    this.running = null;
    this.pump();
  }
}

/** One view's stream of requests, of which only the newest matters. */
export class Lane {
  private generation = 0;

  constructor(readonly background: Background) {}

  /** Starts a new request, superseding every older one of this lane. */
  begin(): LaneRequest {
    this.generation++;
    this.background.dropWaiting(this);
    return new LaneRequest(this, this.background, this.generation);
  }

  isLatest(generation: number): boolean {
    return generation === this.generation;
  }
}

export class LaneRequest {
  constructor(
    private readonly lane: Lane,
    private readonly background: Background,
    private readonly generation: number,
  ) {}

  /** False once a newer request of the lane has begun: its results would be stale. */
  get current(): boolean {
    return this.lane.isLatest(this.generation);
  }

  /** Runs one task of this request; SUPERSEDED (never an error) once the request is stale. */
  async run<K extends TaskName>(task: K, args: TaskArgs<K>, onProgress?: (percent: number) => void): Promise<TaskResult<K> | Superseded> {
    if (!this.current) return SUPERSEDED;
    try {
      const result = await this.background.run(task, args, this.lane, onProgress);
      return this.current ? result : SUPERSEDED;
    } catch (e) {
      if (!this.current) return SUPERSEDED;
      throw e;
    }
  }
}

let shared: Background | null = null;

/** The page's one background worker (the views and embedded elements share it). */
export function sharedBackground(engine: Engine): Background {
  shared ??= new Background(engine);
  return shared;
}

let client: EngineClient | null = null;

/** The page's one engine client (client.ts), over its one background worker: the page and every
 *  embedded element share its results. */
export function sharedClient(engine: Engine): EngineClient {
  client ??= new EngineClient(engine, sharedBackground(engine));
  return client;
}
