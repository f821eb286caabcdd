// CSS custom properties used from TypeScript (SVG attributes, canvas), with the same fallbacks as
// styles.css, so drawings work inside a Shadow DOM whose host page defines none of them.
const DEFAULTS = {
  bg: '#fafaf5',
  panel: '#ffffff',
  ink: '#1a1a1a',
  'ink-soft': '#555555',
  'rule-soft': '#dddddd',
  error: '#b3261e',
  'pipesim-forward': '#f28e2b',
  'pipesim-forward-light': '#fcc68e',
  'pipesim-backward': '#4f9a45',
  'pipesim-backward-light': '#a8d59d',
  'pipesim-weight': '#4e79a7',
  'pipesim-weight-light': '#a9c7e8',
  'pipesim-idle': '#ffffff',
  'pipesim-grid': '#e6e6e0',
  'pipesim-border': '#111111',
  'pipesim-highlight': '#d6246e',
  'pipesim-pp': '#8e6cbf',
} as const;

export type Token = keyof typeof DEFAULTS;

/** `var(--name, fallback)` for SVG presentation attributes. */
export function cssVar(name: Token): string {
  return `var(--${name}, ${DEFAULTS[name]})`;
}

/** The resolved value of a token on `element` (for canvas drawing). */
export function tokenValue(style: CSSStyleDeclaration, name: Token): string {
  return style.getPropertyValue(`--${name}`).trim() || DEFAULTS[name];
}
