// Maps a time window onto a pixel range. Nothing else converts between time and pixels.
export class TimeScale {
  constructor(
    readonly t0: number,
    readonly t1: number,
    readonly px0: number,
    readonly px1: number,
  ) {}

  timeToPx(t: number): number {
    return this.px0 + ((t - this.t0) / (this.t1 - this.t0)) * (this.px1 - this.px0);
  }

  pxToTime(px: number): number {
    return this.t0 + ((px - this.px0) / (this.px1 - this.px0)) * (this.t1 - this.t0);
  }

  durationToPx(d: number): number {
    return (d / (this.t1 - this.t0)) * (this.px1 - this.px0);
  }
}

/** A "nice" tick step (1, 2 or 5 times a power of ten) giving about `target` ticks over `span`. */
export function niceStep(span: number, target: number): number {
  const raw = span / Math.max(1, target);
  const power = Math.pow(10, Math.floor(Math.log10(raw)));
  for (const m of [1, 2, 5, 10]) if (m * power >= raw) return m * power;
  return 10 * power;
}
