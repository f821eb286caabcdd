// The timeline's input: pointer hover (tooltip), click or tap (select), drag to pan, ctrl/meta+wheel
// to zoom at the cursor, shift or sideways wheel to pan, two-finger pinch, and the keyboard (arrows
// between cells, Enter selects, + and - zoom, 0 fits). It turns events into calls on the view, so
// that every view showing a timeline behaves the same.
import type { CellRef, IdleRef } from './timeline_view';

/** What the input asks of the view it drives. */
export interface InputTarget {
  readonly canvas: HTMLCanvasElement;
  /** The cell or idle gap under a point (client coordinates), or null. */
  hit(clientX: number, clientY: number): { cell?: CellRef; idle?: IdleRef } | null;
  /** The time under canvas x (CSS pixels) for a canvas `width` wide. */
  timeAt(x: number, width: number): number;
  /** The window of time shown, and the run's whole span. */
  window(): [number, number];
  fullSpan(): number;
  /** Shows [t0, t1] (null: all of it), redrawn on the next frame. */
  setWindow(window: [number, number] | null): void;
  zoom(factor: number, anchor?: number): void;
  fit(): void;
  /** Whether a part of the run is zoomed into (only then does a sideways wheel pan). */
  zoomed(): boolean;
  /** The width of the gutter left of the cells (CSS pixels). */
  readonly gutter: number;
  describe(hit: { cell?: CellRef; idle?: IdleRef }): string[];
  showTooltip(lines: string[], clientX: number, clientY: number): void;
  hideTooltip(): void;
  /** A cell clicked or tapped (focus moves to it) or an idle gap. */
  select(hit: { cell?: CellRef; idle?: IdleRef }): void;
  /** Arrow keys, Home, End and Enter move the focus (the view knows its cells). */
  moveFocus(key: string): void;
  hasCells(): boolean;
}

const FOCUS_KEYS = ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Enter', 'Home', 'End'];

export function bindTimelineInput(view: InputTarget): void {
  const c = view.canvas;
  let drag: { x: number; window: [number, number]; moved: boolean } | null = null;
  /** Fingers on the canvas (pointer id -> x), and the spread of two of them while pinching. */
  const touches = new Map<number, number>();
  let pinchSpread = 0;

  /** Two fingers moving apart zoom in around their midpoint, and together zoom out. */
  const pinch = () => {
    const [a, b] = [...touches.values()];
    const spread = Math.abs(a - b);
    if (pinchSpread > 8 && spread > 8) {
      const rect = c.getBoundingClientRect();
      view.zoom(spread / pinchSpread, view.timeAt((a + b) / 2 - rect.left, rect.width));
    }
    pinchSpread = spread;
    view.hideTooltip();
  };

  c.addEventListener('pointermove', (e) => {
    if (touches.has(e.pointerId)) touches.set(e.pointerId, e.clientX);
    if (touches.size === 2) return pinch();
    if (drag) {
      const dx = e.clientX - drag.x;
      if (Math.abs(dx) > 3) drag.moved = true;
      if (drag.moved) {
        const [t0, t1] = drag.window;
        const dt = (dx / (c.clientWidth - view.gutter)) * (t1 - t0);
        const full = view.fullSpan();
        const n0 = Math.max(0, Math.min(full - (t1 - t0), t0 - dt));
        view.setWindow([n0, n0 + (t1 - t0)]);
      }
      return;
    }
    const hit = view.hit(e.clientX, e.clientY);
    if (!hit) return view.hideTooltip();
    view.showTooltip(view.describe(hit), e.clientX, e.clientY);
  });
  // A finger lifted from the screen also leaves the canvas (touch pointers end there): the tooltip a
  // tap showed stays until the next tap or a touch elsewhere.
  c.addEventListener('pointerleave', (e) => e.pointerType !== 'touch' && view.hideTooltip());
  c.addEventListener('pointerdown', (e) => {
    if (e.pointerType === 'touch') touches.set(e.pointerId, e.clientX);
    drag = touches.size > 1 ? null : { x: e.clientX, window: view.window(), moved: false };
    pinchSpread = 0;
    c.setPointerCapture(e.pointerId);
  });
  c.addEventListener('pointercancel', (e) => touches.delete(e.pointerId));
  c.addEventListener('pointerup', (e) => {
    const pinched = touches.size > 1 || pinchSpread > 0;
    touches.delete(e.pointerId);
    if (touches.size === 0) pinchSpread = 0;
    const wasDrag = drag?.moved || pinched;
    drag = null;
    if (wasDrag) return;
    const hit = view.hit(e.clientX, e.clientY);
    // A tap is a touch screen's hover: it shows what the pointer would.
    if (hit && e.pointerType !== 'mouse') view.showTooltip(view.describe(hit), e.clientX, e.clientY);
    if (hit) view.select(hit);
  });
  c.addEventListener(
    'wheel',
    (e) => {
      // Plain wheel scrolls the page; ctrl/meta + wheel zooms at the cursor; shift or a sideways wheel pans.
      const rect = c.getBoundingClientRect();
      if (e.ctrlKey || e.metaKey) {
        e.preventDefault();
        view.zoom(e.deltaY < 0 ? 1.25 : 0.8, view.timeAt(e.clientX - rect.left, rect.width));
      } else if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) {
        if (!view.zoomed()) return;
        e.preventDefault();
        const [t0, t1] = view.window();
        const dt = ((e.shiftKey ? e.deltaY : e.deltaX) / rect.width) * (t1 - t0);
        const full = view.fullSpan();
        const n0 = Math.max(0, Math.min(full - (t1 - t0), t0 + dt));
        view.setWindow([n0, n0 + (t1 - t0)]);
      }
    },
    { passive: false },
  );
  c.addEventListener('keydown', (e) => {
    if (!view.hasCells()) return;
    if (![...FOCUS_KEYS, '+', '=', '-', '0'].includes(e.key)) return;
    e.preventDefault();
    if (e.key === '+' || e.key === '=') return view.zoom(1.5);
    if (e.key === '-') return view.zoom(1 / 1.5);
    if (e.key === '0') return view.fit();
    view.moveFocus(e.key);
  });
}
