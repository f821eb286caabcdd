// The planner's form: the cluster and the model as labelled inputs over the planner's JSON (as
// `pipesim plan --input` reads it), which stays the advanced input. Both show the same input: a form
// edit rewrites that field of the JSON, and a JSON edit refills the form. The core checks the values
// (a refusal names the JSON field); the form only moves them.
import { el } from '../base/dom';
import { t, type Key } from '../i18n';

/** One input of the form: where its value sits in the planner's JSON, and its label. */
export interface FormField {
  path: string[];
  label: Key;
  /** Whole numbers only (the planner's integer fields). */
  whole: boolean;
}

export const PLANNER_FORM: { legend: Key; fields: FormField[] }[] = [
  {
    legend: 'planner.form.cluster',
    fields: [
      { path: ['cluster', 'gpus'], label: 'planner.form.gpus', whole: true },
      { path: ['cluster', 'gpus_per_node'], label: 'planner.form.gpusPerNode', whole: true },
      { path: ['cluster', 'gpu', 'memory_gb'], label: 'planner.form.memoryGb', whole: false },
      { path: ['cluster', 'gpu', 'tflops'], label: 'planner.form.tflops', whole: false },
      { path: ['cluster', 'nvlink_gb_s'], label: 'planner.form.nvlink', whole: false },
      { path: ['cluster', 'ib_gb_s'], label: 'planner.form.ib', whole: false },
    ],
  },
  {
    legend: 'planner.form.model',
    fields: [
      { path: ['model', 'layers'], label: 'planner.form.layers', whole: true },
      { path: ['model', 'hidden'], label: 'planner.form.hidden', whole: true },
      { path: ['model', 'ffn_hidden'], label: 'planner.form.ffnHidden', whole: true },
      { path: ['model', 'vocab'], label: 'planner.form.vocab', whole: true },
      { path: ['model', 'experts'], label: 'planner.form.experts', whole: true },
      { path: ['model', 'top_k'], label: 'planner.form.topK', whole: true },
      { path: ['model', 'seq_len'], label: 'planner.form.seqLen', whole: true },
      { path: ['model', 'micro_batch_size'], label: 'planner.form.microBatchSize', whole: true },
      { path: ['model', 'micro_batches'], label: 'planner.form.microBatches', whole: true },
      { path: ['model', 'pp'], label: 'planner.form.pp', whole: true },
    ],
  },
];

/** The value at `path` of a parsed input, or undefined. */
export function valueAt(input: unknown, path: string[]): unknown {
  let at: unknown = input;
  for (const key of path) at = at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined;
  return at;
}

/** `json` with the field at `path` set to `value` (a number when it reads as one, else the text, so
 *  the core names the field it refuses; '' removes the field, leaving the core's default). Null when
 *  `json` does not parse to an object: the JSON's own error is what the page shows then. */
export function withValue(json: string, path: string[], value: string): string | null {
  let root: unknown;
  try {
    root = JSON.parse(json);
  } catch {
    return null;
  }
  if (root === null || typeof root !== 'object' || Array.isArray(root)) return null;
  let at = root as Record<string, unknown>;
  for (const key of path.slice(0, -1)) {
    if (at[key] === null || typeof at[key] !== 'object' || Array.isArray(at[key])) at[key] = {};
    at = at[key] as Record<string, unknown>;
  }
  const last = path[path.length - 1];
  const text = value.trim();
  if (text === '') delete at[last];
  else at[last] = Number.isFinite(Number(text)) ? Number(text) : text;
  return JSON.stringify(root, null, 2);
}

/** The form's inputs, filled from the JSON and writing into it through `onEdit`. */
export class PlannerForm {
  readonly element: HTMLElement;
  private readonly inputs: { field: FormField; input: HTMLInputElement }[] = [];

  constructor(private readonly onEdit: (path: string[], value: string) => void) {
    const sets = PLANNER_FORM.map((group) =>
      el('fieldset', { class: 'planner-form' }, [
        el('legend', { text: t(group.legend) }),
        ...group.fields.map((field) => {
          const id = `planner-${field.path.join('-')}`;
          const input = el('input', { type: 'number', id, min: '0', step: field.whole ? '1' : 'any', 'data-testid': id });
          input.addEventListener('input', () => this.onEdit(field.path, input.value));
          this.inputs.push({ field, input });
          return el('div', { class: 'field' }, [el('label', { for: id, text: t(field.label) }), input]);
        }),
      ]),
    );
    this.element = el('div', { class: 'planner-form-groups' }, sets);
  }

  /** Shows the values of `json` (a field it lacks or that is not a number shows empty); leaves the
   *  form as it is while `json` does not parse. The input being typed in keeps its text. */
  show(json: string): void {
    let root: unknown;
    try {
      root = JSON.parse(json);
    } catch {
      return;
    }
    for (const { field, input } of this.inputs) {
      if (document.activeElement === input) continue;
      const v = valueAt(root, field.path);
      input.value = typeof v === 'number' ? String(v) : '';
    }
  }
}
