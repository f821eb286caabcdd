// A small typed store: the one place a piece of the page's state lives. Controls write to it with
// set(); whatever depends on it (the app's controller, the URL and storage adapters) subscribes.
// Every set() notifies, with the keys it set, even when a value is unchanged: a control set to its
// own value still asks for a redraw, as a click on the open tab does.

export type Listener<T> = (state: Readonly<T>, keys: ReadonlySet<keyof T>) => void;

export class Store<T extends object> {
  #state: T;
  readonly #listeners = new Set<Listener<T>>();

  constructor(initial: T) {
    this.#state = { ...initial };
  }

  get(): Readonly<T> {
    return this.#state;
  }

  /** Merges `patch` into the state (a new object: a state read before stays as it was) and tells
   *  every listener, in the order they subscribed. */
  set(patch: Partial<T>): void {
    this.#state = { ...this.#state, ...patch };
    const keys = new Set(Object.keys(patch) as (keyof T)[]);
    for (const listener of [...this.#listeners]) listener(this.#state, keys);
  }

  /** Calls `listener` after every set(); returns the function that unsubscribes it. */
  subscribe(listener: Listener<T>): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** One field of the state as a store of its own (a panel's inputs): reads and writes go to this
   *  store, so that there is still one state. */
  slice<K extends keyof T>(key: K): Slice<T[K]> {
    return {
      get: () => this.get()[key],
      set: (patch) => {
        const current = this.get()[key];
        const next = (typeof current === 'object' && current !== null ? { ...current, ...patch } : patch) as T[K];
        this.set({ [key]: next } as unknown as Partial<T>);
      },
      subscribe: (listener) => this.subscribe((state, keys) => keys.has(key) && listener(state[key])),
    };
  }
}

/** A part of a store, as the panel that owns it sees it. */
export interface Slice<V> {
  get(): Readonly<V>;
  set(patch: Partial<V>): void;
  subscribe(listener: (value: Readonly<V>) => void): () => void;
}
