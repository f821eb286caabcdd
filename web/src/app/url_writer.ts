// Writes the page's state into its address as settings change. Browsers limit history updates
// (Safari throws after 100 in 30 seconds, Chromium ignores them past about 200 in 10), and each one
// costs the main thread a few milliseconds, while a dragged slider changes the settings on every
// frame. So the first change after a quiet spell is written at once (a click or a typed value shows
// in the address immediately) and later ones within the interval fold into one trailing write.

/** How often, at most, the address is rewritten while settings keep changing (ms). */
export const URL_WRITE_INTERVAL_MS = 250;

export class UrlWriter {
  private pending: string | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastWrite = -Infinity;

  constructor(private readonly intervalMs = URL_WRITE_INTERVAL_MS) {
    // Leaving the page, or handing its address to another page, takes the newest settings along.
    addEventListener('pagehide', () => this.flush());
  }

  write(url: string): void {
    const sinceLast = performance.now() - this.lastWrite;
    if (this.timer === undefined && sinceLast >= this.intervalMs) {
      this.commit(url);
      return;
    }
    this.pending = url;
    this.timer ??= setTimeout(() => this.flush(), Math.max(this.intervalMs - sinceLast, 0));
  }

  /** Writes a change still waiting for its turn, now. Call before reading location. */
  flush(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    const url = this.pending;
    this.pending = null;
    if (url !== null) this.commit(url);
  }

  private commit(url: string): void {
    history.replaceState(null, '', url);
    this.lastWrite = performance.now();
  }
}
