// Starts the background worker as Vite bundles it: a module worker in a file next to the script. The
// offline single file swaps this module for worker_start_offline.ts (see vite.offline.config.ts).
export function startWorker(): Worker {
  return new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name: 'pipesim-engine' });
}
