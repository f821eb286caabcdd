// The one rule of the modules loaded on first need (engine.ts: the course module and the tools
// module): started by the first call, shared by every call while it loads and after it has loaded,
// and started again by the next call after a failure (a download that failed is tried again when next
// needed, rather than leaving the page without the module for good).

/**
 * A function that runs `load` once and hands every caller its promise. When it fails, every caller
 * waiting on that attempt gets the failure (as `asFailure` makes it), and the next call starts again.
 * A `load` that throws rather than rejects fails the same way.
 */
export function loadOnce<T>(load: () => Promise<T>, asFailure: (e: unknown) => unknown = (e) => e): () => Promise<T> {
  let loading: Promise<T> | null = null;
  return () => {
    loading ??= new Promise<T>((resolve) => resolve(load())).catch((e: unknown) => {
      loading = null; // tried again on the next call
      throw asFailure(e);
    });
    return loading;
  };
}
