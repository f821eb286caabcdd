// The storage adapter: what the page keeps between visits, in localStorage, which must never break
// the page (sandboxed frames and blocked cookies make it throw: the setting then lasts this visit).
import type { Store } from './store';

/** The part of the Web Storage API the page uses (tests give a Map-backed one). */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

function browserStorage(): KeyValueStorage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

export class StorageAdapter {
  constructor(private readonly storage: () => KeyValueStorage | null = browserStorage) {}

  load(key: string): string | null {
    try {
      return this.storage()?.getItem(key) ?? null;
    } catch {
      return null;
    }
  }

  save(key: string, value: string): void {
    try {
      this.storage()?.setItem(key, value);
    } catch {
      // Nothing to keep it in: the setting lasts for this visit only.
    }
  }

  /** Reads the stored value of each field of `keys` into `store` (those that were stored and that
   *  `accept` takes), then saves each of those fields whenever it is set. */
  connect<T extends object>(store: Store<T>, keys: Partial<Record<keyof T, string>>, accept: (field: keyof T, value: string) => boolean = () => true): () => void {
    const fields = Object.keys(keys) as (keyof T)[];
    const stored: Partial<T> = {};
    for (const field of fields) {
      const value = this.load(keys[field]!);
      if (value !== null && accept(field, value)) stored[field] = value as T[keyof T];
    }
    if (Object.keys(stored).length) store.set(stored);
    return store.subscribe((state, changed) => {
      for (const field of fields) if (changed.has(field)) this.save(keys[field]!, String(state[field]));
    });
  }
}

/** The page's one adapter over localStorage. */
export const storage = new StorageAdapter();
