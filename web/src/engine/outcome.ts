// One run's result or the engine's refusal of it, as every caller of the engine keeps it: the engine
// client (a run simulated on the page's thread) and the worker's tasks (runs simulated there) make
// it with the same function, so a refusal carries the same fields wherever it was made.
//
// It imports only types, so that it runs in Node's unit tests with stand-in errors.
import type { Wording } from './engine';

/** What a refusal of the engine keeps: its message, its code and, when the engine gave them, the
 *  page's wording of it and the field it is about. */
export interface Refusal {
  message: string;
  code: string;
  wording?: Wording;
  field?: string;
}

/** One run's result or the engine's refusal of it, so that one refused schedule does not fail the
 *  others of a comparison. */
export type Outcome<T> = { value: T } | { error: Refusal };

/** An error the engine refused with, known by its shape (an Error carrying a string `code`: an
 *  EngineError here, one rebuilt from the worker, or a test's stand-in), not by its class. */
export function isRefusal(e: unknown): e is Error & { code: string } {
  return e instanceof Error && typeof (e as { code?: unknown }).code === 'string';
}

/** The outcome of `call`: its value, or the refusal it threw. Any other error (a bug, not a refusal)
 *  is thrown on. */
export function outcomeOf<T>(call: () => T): Outcome<T> {
  try {
    return { value: call() };
  } catch (e) {
    if (!isRefusal(e)) throw e;
    const { wording, field } = e as { wording?: Wording; field?: string };
    return { error: { message: e.message, code: e.code, ...(wording ? { wording } : {}), ...(field ? { field } : {}) } };
  }
}
