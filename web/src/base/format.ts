// Number formatting shared by the views, in the page's language (pt-BR writes a decimal comma, as the
// engine's translated texts do).
import { lang } from '../i18n';

function localise(text: string): string {
  return lang() === 'pt-BR' ? text.replace('.', ',') : text;
}

/** Shortest readable form: integers as is, others with up to 3 decimals. */
export function num(value: number): string {
  if (!Number.isFinite(value)) return '–';
  if (Number.isInteger(value)) return String(value);
  return localise(String(Number(value.toFixed(3))));
}

export function percent(fraction: number, digits = 1): string {
  if (!Number.isFinite(fraction)) return '–';
  return `${localise((fraction * 100).toFixed(digits))}%`;
}
