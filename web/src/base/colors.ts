// Op colours come from CSS custom properties (--pipesim-*), so themes, the colour-blind palette and
// embedding pages can restyle the canvas. Read once per frame from the element being drawn.
import type { KindName } from '../engine/engine';
import { tokenValue, type Token } from './tokens';

export interface Palette {
  forward: [string, string]; // [direction 0 / first leg, direction 1 / second leg]
  backward: [string, string];
  weight: [string, string];
  idle: string;
  grid: string;
  border: string;
  ink: string;
  inkSoft: string;
  highlight: string;
  textOnDark: string;
  textOnLight: string;
  /** Font families for canvas text (ctx.font cannot read CSS variables itself). */
  fontMono: string;
  fontBody: string;
}

export function readPalette(from: Element): Palette {
  const s = getComputedStyle(from);
  const v = (name: Token) => tokenValue(s, name);
  return {
    forward: [v('pipesim-forward'), v('pipesim-forward-light')],
    backward: [v('pipesim-backward'), v('pipesim-backward-light')],
    weight: [v('pipesim-weight'), v('pipesim-weight-light')],
    idle: v('pipesim-idle'),
    grid: v('pipesim-grid'),
    border: v('pipesim-border'),
    ink: v('ink'),
    inkSoft: v('ink-soft'),
    highlight: v('pipesim-highlight'),
    textOnDark: '#ffffff',
    textOnLight: '#1a1a1a',
    fontMono: s.getPropertyValue('--font-mono').trim() || 'ui-monospace, monospace',
    fontBody: s.getPropertyValue('--font-body').trim() || 'system-ui, sans-serif',
  };
}

export function fillFor(p: Palette, kind: KindName, phase: number): string {
  const shade = phase % 2 === 1 ? 1 : 0;
  if (kind === 'F') return p.forward[shade];
  if (kind === 'W') return p.weight[shade];
  return p.backward[shade];
}

/** Dark or light text, whichever reads better on `fill` (a #rrggbb colour). */
export function textFor(p: Palette, fill: string): string {
  const m = /^#?([0-9a-f]{6})$/i.exec(fill);
  if (!m) return p.textOnLight;
  const n = parseInt(m[1], 16);
  const lum = (0.2126 * ((n >> 16) & 255) + 0.7152 * ((n >> 8) & 255) + 0.0722 * (n & 255)) / 255;
  return lum < 0.55 ? p.textOnDark : p.textOnLight;
}

/** A fixed colour per schedule for chart series and compare headers. */
export function seriesColor(schedule: string): string {
  const table: Record<string, string> = {
    dualpipe: '#d6246e',
    dualpipev: '#8e44ad',
    '1f1b': '#4e79a7',
    gpipe: '#7f7f7f',
    'zb-h1': '#2a9d8f',
    'zb-h2': '#e76f51',
    'zb-v': '#b07aa1',
    'interleaved-1f1b': '#edc948',
    chimera: '#9c755f',
    custom: '#17becf',
  };
  return table[schedule] ?? '#555555';
}
