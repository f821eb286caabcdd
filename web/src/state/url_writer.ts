// Writes the page's state into its address as settings change. Browsers limit history updates
// (Safari throws after 100 in 30 seconds, Chromium ignores them past about 200 in 10), and each one
// costs the main thread a few milliseconds, while a dragged slider changes the settings on every
// frame. So the first change after a quiet spell is written at once (a click or a typed value shows
// in the address immediately) and later ones within the interval fold into one trailing write.

/** How often, at most, the address is rewritten while settings keep changing (ms). */
export const URL_WRITE_INTERVAL_MS = 250;

/** The browser's address as the writer uses it (tests give a fake one and a fake clock). */
export interface AddressBar {
  search(): string;
  replace(url: string): void;
  now(): number;
  /** Calls `flush` when the page is left (or handed to another page). */
  onLeave(flush: () => void): void;
  setTimer(run: () => void, ms: number): unknown;
  clearTimer(timer: unknown): void;
}

export function browserAddressBar(): AddressBar {
  return {
    search: () => location.search,
    replace: (url) => history.replaceState(null, '', url),
    now: () => performance.now(),
    onLeave: (flush) => addEventListener('pagehide', flush),
    setTimer: (run, ms) => setTimeout(run, ms),
    clearTimer: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
  };
}

export class UrlWriter {
  private pending: string | null = null;
  private timer: unknown = undefined;
  private lastWrite = -Infinity;

  constructor(
    private readonly address: AddressBar = browserAddressBar(),
    private readonly intervalMs = URL_WRITE_INTERVAL_MS,
  ) {
    // Leaving the page, or handing its address to another page, takes the newest settings along.
    address.onLeave(() => this.flush());
  }

  write(url: string): void {
    const sinceLast = this.address.now() - this.lastWrite;
    if (this.timer === undefined && sinceLast >= this.intervalMs) {
      this.commit(url);
      return;
    }
    this.pending = url;
    this.timer ??= this.address.setTimer(() => this.flush(), Math.max(this.intervalMs - sinceLast, 0));
  }

  /** Writes a change still waiting for its turn, now. Call before reading location. */
  flush(): void {
    if (this.timer !== undefined) this.address.clearTimer(this.timer);
    this.timer = undefined;
    const url = this.pending;
    this.pending = null;
    if (url !== null) this.commit(url);
  }

  private commit(url: string): void {
    this.address.replace(url);
    this.lastWrite = this.address.now();
  }
}
