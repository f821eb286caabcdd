// Number formatting shared by the views.

/** Shortest readable form: integers as is, others with up to 3 decimals. */
export function num(value: number): string {
  if (!Number.isFinite(value)) return '–';
  if (Number.isInteger(value)) return String(value);
  return String(Number(value.toFixed(3)));
}

export function percent(fraction: number, digits = 1): string {
  if (!Number.isFinite(fraction)) return '–';
  return `${(fraction * 100).toFixed(digits)}%`;
}
