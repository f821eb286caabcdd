// What the page needs of the lesson before the lesson's own code is downloaded (learn_panel.ts is
// loaded when its tab is first opened): the step a URL names, and whether the student has started.
import { load } from '../base/storage';

/** Where the student's predictions are kept (localStorage). */
export const LEARN_STORAGE_KEY = 'pipesim:learn:v1';

export interface Saved {
  /** Per step id: the prediction committed (a number, or an option's index). */
  predictions: Record<string, number>;
}

export function loadSaved(): Saved {
  try {
    const saved = JSON.parse(load(LEARN_STORAGE_KEY) ?? 'null');
    if (saved && typeof saved.predictions === 'object' && saved.predictions) return saved;
  } catch {
    // replaced below
  }
  return { predictions: {} };
}

/** The step number (1-based) that `text` names among `count` steps, or 1. */
export function stepFromUrl(text: string | null, count: number): number {
  const n = Number(text);
  return Number.isInteger(n) && n >= 1 && n <= count ? n : 1;
}

/** Whether the student has committed a prediction in the lesson (the newcomer's offer is then not made). */
export function lessonStarted(): boolean {
  return Object.keys(loadSaved().predictions).length > 0;
}
