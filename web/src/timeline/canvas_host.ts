// The timeline's canvas host: the element and its canvas, the width the layout gives it (read by a
// ResizeObserver, not by forcing a layout mid-update), the device pixel ratio, sizing the canvas's
// pixels, and when to redraw (at most once per frame, or now).
import { el } from '../base/dom';

export class CanvasHost {
  readonly element: HTMLElement;
  readonly canvas: HTMLCanvasElement;
  readonly ctx: CanvasRenderingContext2D;
  private frame = 0;
  /** The element's width as the ResizeObserver last saw it (0: not laid out, or hidden). Reading
   *  clientWidth right after the page changed its DOM would force a layout in the middle of an update. */
  private width = 0;

  constructor(
    canvasAttributes: Record<string, string | number>,
    /** The rest of the element (tooltip, live region): after the canvas. */
    extras: HTMLElement[],
    private readonly draw: () => void,
  ) {
    this.canvas = el('canvas', canvasAttributes);
    this.element = el('div', { class: 'timeline' }, [this.canvas, ...extras]);
    const ctx = this.canvas.getContext('2d');
    if (!ctx) throw new Error('canvas 2D context unavailable');
    this.ctx = ctx;
    new ResizeObserver(() => {
      this.width = this.element.clientWidth; // laid out already when observers run: no extra layout
      this.requestRender();
    }).observe(this.element);
  }

  /** The width to draw at; read from the layout only before the observer has reported one. */
  knownWidth(): number {
    if (this.width === 0) this.width = this.element.clientWidth;
    return this.width;
  }

  get dpr(): number {
    return window.devicePixelRatio || 1;
  }

  /** Draws on the next frame (several requests in one frame draw once). */
  requestRender(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
    });
  }

  /** Draws now, dropping a drawing already requested for the next frame. */
  renderNow(): void {
    cancelAnimationFrame(this.frame);
    this.frame = 0;
    this.draw();
  }
}

/** Sizes `canvas` to `width` x `height` CSS pixels at `dpr` device pixels each, touching only what
 *  changed (resizing a canvas reallocates its pixels), and scales its context to CSS pixels. */
export function sizeCanvas(canvas: HTMLCanvasElement, ctx: CanvasRenderingContext2D, width: number, height: number, dpr: number): void {
  const styleWidth = `${width}px`;
  const styleHeight = `${height}px`;
  if (canvas.style.width !== styleWidth) canvas.style.width = styleWidth;
  if (canvas.style.height !== styleHeight) canvas.style.height = styleHeight;
  const pixelWidth = Math.round(width * dpr);
  const pixelHeight = Math.round(height * dpr);
  if (canvas.width !== pixelWidth) canvas.width = pixelWidth;
  if (canvas.height !== pixelHeight) canvas.height = pixelHeight;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
}
