// The per-stage cost table's plain logic: the page's `stageCost` text ("first:F=2,B=4; 3:W=1", the
// entries --stage-cost takes, separated by ';') read as one row of cells per stage, and the cells
// written back as entries. The table and the text field are two views of the same entries: the
// engine reads and checks them (its refusal names the field), this only arranges them.

/** The columns, in --stage-cost's keys: a stage's forward, full backward, weight gradient, overlapped
 *  pair and the send to the next stage. */
export const STAGE_COST_KEYS = ['F', 'B', 'W', 'FB', 'comm'] as const;
export type StageCostKey = (typeof STAGE_COST_KEYS)[number];

/** One stage's cells: a value as typed, '' for the uniform cost. */
export type StageCells = Record<StageCostKey, string>;

export interface StageCostTable {
  rows: StageCells[];
  /** Entries the table cannot show as cells (a stage out of range, text that is not KEY=VALUE): kept
   *  as typed, so that the engine still refuses them in its words. */
  kept: string[];
}

const emptyRow = (): StageCells => ({ F: '', B: '', W: '', FB: '', comm: '' });

/** The key as the table names it (the engine takes f, fb, Comm... too). */
function keyOf(text: string): StageCostKey | undefined {
  const lower = text.trim().toLowerCase();
  return STAGE_COST_KEYS.find((k) => k.toLowerCase() === lower);
}

/** The stage an entry is about: an index, first (0) or last (stages - 1); undefined when it is none
 *  of these within the table. */
function stageOf(text: string, stages: number): number | undefined {
  const s = text.trim().toLowerCase();
  if (s === 'first') return stages > 0 ? 0 : undefined;
  if (s === 'last') return stages > 0 ? stages - 1 : undefined;
  if (!/^\d+$/.test(s)) return undefined;
  const index = Number(s);
  return index < stages ? index : undefined;
}

/** The `stageCost` text as a table of `stages` rows; a later entry for the same cell wins, as the
 *  engine applies the entries in order. */
export function tableOf(text: string, stages: number): StageCostTable {
  const rows = Array.from({ length: Math.max(0, stages) }, emptyRow);
  const kept: string[] = [];
  for (const entry of text.split(';').map((e) => e.trim()).filter(Boolean)) {
    const colon = entry.indexOf(':');
    const stage = colon < 0 ? undefined : stageOf(entry.slice(0, colon), stages);
    const pairs = colon < 0 ? [] : entry.slice(colon + 1).split(',').map((p) => p.trim()).filter(Boolean);
    const cells = pairs.map((p) => {
      const eq = p.indexOf('=');
      return eq < 0 ? undefined : { key: keyOf(p.slice(0, eq)), value: p.slice(eq + 1).trim() };
    });
    if (stage === undefined || cells.length === 0 || cells.some((c) => !c || !c.key || c.value === '')) {
      kept.push(entry);
      continue;
    }
    for (const c of cells) rows[stage][c!.key!] = c!.value;
  }
  return { rows, kept };
}

/** The table as `stageCost` text: one entry per stage with a cell set ("3:F=2,B=4"), stages in order,
 *  keys in the columns' order, then the entries the table kept as typed. */
export function textOf(table: StageCostTable): string {
  const entries = table.rows.flatMap((row, stage) => {
    const set = STAGE_COST_KEYS.filter((k) => row[k].trim() !== '').map((k) => `${k}=${row[k].trim()}`);
    return set.length ? [`${stage}:${set.join(',')}`] : [];
  });
  return [...entries, ...table.kept].join('; ');
}

/** The text after one cell is edited: the table read from `text`, the cell set, written back. */
export function withCell(text: string, stages: number, stage: number, key: StageCostKey, value: string): string {
  const table = tableOf(text, stages);
  if (stage < 0 || stage >= table.rows.length) return text;
  table.rows[stage][key] = value.trim();
  return textOf(table);
}
