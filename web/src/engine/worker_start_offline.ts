// The offline single file has no worker: opened from disk its origin is opaque, so Chromium refuses
// to start a worker from a file (and a blob: worker would be a second copy of the engine's code inside
// the one file). Its long work runs on the main thread instead, cut into pieces that yield between
// them (background.ts), so it still shows progress; a very large run does freeze it while it runs.
export function startWorker(): Worker {
  throw new Error('no worker in the offline file');
}
