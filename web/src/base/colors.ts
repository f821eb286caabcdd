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

/** sRGB channels of a CSS colour: #rgb, #rrggbb, or rgb()/rgba() as getComputedStyle writes them. */
function channels(colour: string): [number, number, number] | null {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(colour.trim());
  if (hex) {
    const h = hex[1].length === 3 ? [...hex[1]].map((c) => c + c).join('') : hex[1];
    const n = parseInt(h, 16);
    return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  }
  const rgb = /^rgba?\(\s*([\d.]+)[ ,]+([\d.]+)[ ,]+([\d.]+)/i.exec(colour.trim());
  return rgb ? [Number(rgb[1]), Number(rgb[2]), Number(rgb[3])] : null;
}

/** WCAG relative luminance. */
function luminance([r, g, b]: [number, number, number]): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

function contrast(a: number, b: number): number {
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}

/** Dark or light text, whichever has the higher WCAG contrast on `fill`. */
export function textFor(p: Palette, fill: string): string {
  const c = channels(fill);
  if (!c) return p.textOnLight;
  const l = luminance(c);
  const dark = channels(p.textOnLight)!;
  const light = channels(p.textOnDark)!;
  return contrast(l, luminance(light)) > contrast(l, luminance(dark)) ? p.textOnDark : p.textOnLight;
}

/** A schedule's colour for chart series, compare headers and swatches: the one its registry entry
 *  gives for the page's theme (`engine.schedule(name)`; grey for a name the engine does not know). */
export function seriesColor(
  info: { colour: { light: string; dark: string } } | undefined,
  theme: string | undefined = document.documentElement.dataset.theme,
): string {
  if (!info) return '#555555';
  return theme === 'dark' ? info.colour.dark : info.colour.light;
}
