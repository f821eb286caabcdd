// The background worker: its own instance of the engine, made from the module the page compiled (sent
// in the first message), running the tasks of tasks.ts one message at a time.
import { instantiateEngine, type Engine } from './engine';
import { errorData, prepareTask, runTask, transferablesOf, type TaskName } from './tasks';
import { wasmOptions } from './wasm_source';

export type ToWorker =
  // abortOnFirstTask: a browser test of the page's recovery (background.ts) asks this worker's engine to
  // fail inside WebAssembly before its first task, for real, as a bug would.
  | { type: 'init'; module: WebAssembly.Module; abortOnFirstTask?: boolean }
  | { type: 'task'; id: number; task: TaskName; args: unknown };
export type FromWorker =
  | { type: 'ready' }
  | { type: 'failed'; message: string }
  // How far the running task's export has got, in whole percent of its records (sent as it changes).
  | { type: 'progress'; id: number; percent: number }
  | { type: 'result'; id: number; ok: true; value: unknown; broken: boolean }
  | { type: 'result'; id: number; ok: false; error: ReturnType<typeof errorData>; broken: boolean };

let engine: Promise<Engine> | null = null;
let current: Engine | null = null;
let abortOnFirstTask = false;
/** The task running now, whose export's progress is posted, and the last percent posted for it. */
let running = { id: 0, percent: -1 };

function post(message: FromWorker, transfer: Transferable[] = []): void {
  self.postMessage(message, { transfer });
}

/** The engine's onExportProgress: called inside WebAssembly, so it never throws. Short of 100% until
 *  the export is done (the writer's record count is an estimate for a trace's events). */
function exportProgress(written: number, expected: number): void {
  try {
    const percent = expected > 0 ? Math.min(99, Math.floor((100 * written) / expected)) : 0;
    if (percent === running.percent) return;
    running.percent = percent;
    post({ type: 'progress', id: running.id, percent });
  } catch {
    // A progress message that cannot be posted is only a readout lost.
  }
}

self.addEventListener('message', async (event: MessageEvent<ToWorker>) => {
  const m = event.data;
  if (m.type === 'init') {
    abortOnFirstTask = m.abortOnFirstTask === true;
    engine = instantiateEngine(m.module, { ...wasmOptions(), onExportProgress: exportProgress });
    engine.then(
      () => post({ type: 'ready' }),
      (e) => post({ type: 'failed', message: String(e?.message ?? e) }),
    );
    return;
  }
  try {
    if (!engine) throw new Error('the worker got a task before its engine');
    const ready = await engine;
    current = ready;
    running = { id: m.id, percent: -1 };
    if (abortOnFirstTask) {
      abortOnFirstTask = false;
      try {
        ready.abortForTest();
      } catch {
        // The engine is broken now, as after any failure inside WebAssembly: the task below says so.
      }
    }
    await prepareTask(ready, m.task);
    const value = runTask(ready, m.task, m.args as never);
    post({ type: 'result', id: m.id, ok: true, value, broken: ready.broken }, transferablesOf(value));
  } catch (e) {
    // `broken`: the page replaces this worker (background.ts); any error but the engine's counts too.
    post({ type: 'result', id: m.id, ok: false, error: errorData(e), broken: current?.broken ?? false });
  }
});
