// The background worker: its own instance of the engine, made from the module the page compiled (sent
// in the first message), running the tasks of tasks.ts one message at a time.
import { instantiateEngine, type Engine } from './engine';
import { errorData, prepareTask, runTask, transferablesOf, type TaskName } from './tasks';
import { wasmOptions } from './wasm_source';

export type ToWorker = { type: 'init'; module: WebAssembly.Module } | { type: 'task'; id: number; task: TaskName; args: unknown };
export type FromWorker =
  | { type: 'ready' }
  | { type: 'failed'; message: string }
  | { type: 'result'; id: number; ok: true; value: unknown; broken: boolean }
  | { type: 'result'; id: number; ok: false; error: ReturnType<typeof errorData>; broken: boolean };

let engine: Promise<Engine> | null = null;
let current: Engine | null = null;

function post(message: FromWorker, transfer: Transferable[] = []): void {
  self.postMessage(message, { transfer });
}

self.addEventListener('message', async (event: MessageEvent<ToWorker>) => {
  const m = event.data;
  if (m.type === 'init') {
    engine = instantiateEngine(m.module, wasmOptions());
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
    await prepareTask(ready, m.task);
    const value = runTask(ready, m.task, m.args as never);
    post({ type: 'result', id: m.id, ok: true, value, broken: ready.broken }, transferablesOf(value));
  } catch (e) {
    // `broken`: the page replaces this worker (background.ts); any error but the engine's counts too.
    post({ type: 'result', id: m.id, ok: false, error: errorData(e), broken: current?.broken ?? false });
  }
});
