// The per-stage cost table behind the cost sliders: one row per stage of the schedule on screen (the
// count is core's: the run's summary.stages), one column per cost. An empty cell takes the uniform
// cost (shown as its placeholder); an edit writes the same `stageCost` entries as the text field
// (model/stage_cost_cells.ts), which the engine checks. A refusal shows at the cell last edited, over
// the layout, so typing a refused value moves nothing.
import { clear, el } from '../base/dom';
import { num } from '../base/format';
import { t } from '../i18n';
import { STAGE_COST_KEYS, tableOf, withCell, type StageCostKey } from '../model/stage_cost_cells';

export class StageCostTable {
  readonly element: HTMLElement;
  private readonly body = el('tbody');
  private readonly hint = el('p', { class: 'hint' });
  private readonly refusal = el('div', { class: 'refusal', role: 'alert', 'data-testid': 'stage-table-refusal', hidden: true });
  private text = '';
  private stages = 0;
  private uniformText = '';
  /** The cell last edited, where a refusal shows. */
  private edited: HTMLTableCellElement | null = null;

  constructor(private readonly onEdit: (stageCost: string) => void) {
    const head = el('tr', {}, [el('th', { text: t('stageTable.stage') }), ...STAGE_COST_KEYS.map((k) => el('th', { text: k }))]);
    this.element = el('div', { class: 'stage-table', 'data-testid': 'stage-table' }, [
      this.hint,
      el('div', { class: 'table-scroll stage-table-scroll' }, [el('table', { class: 'data' }, [el('thead', {}, [head]), this.body])]),
      this.refusal,
    ]);
  }

  /** Shows `text`'s entries over `stages` rows, `uniform` the costs an empty cell takes. A cell being
   *  typed in keeps its text. */
  update(text: string, stages: number, uniform: Record<StageCostKey, number>): void {
    const uniformText = STAGE_COST_KEYS.map((k) => uniform[k]).join(',');
    this.hint.textContent = t('stageTable.hint', { cost: STAGE_COST_KEYS.map((k) => `${k}=${num(uniform[k])}`).join(', ') });
    if (text === this.text && stages === this.stages && uniformText === this.uniformText) return;
    const focused = document.activeElement instanceof HTMLInputElement && this.body.contains(document.activeElement) ? document.activeElement : null;
    if (focused && stages === this.stages) {
      // Keep the row being typed in; refresh the other cells from the text.
      this.text = text;
      this.uniformText = uniformText;
      this.fill(text, uniform, focused);
      return;
    }
    // Entries typed in the text field (or a preset): a refusal of them is not about a cell.
    if (text !== this.text) this.edited = null;
    this.text = text;
    this.stages = stages;
    this.uniformText = uniformText;
    clear(this.body);
    for (let stage = 0; stage < stages; stage++) {
      const row = el('tr', {}, [el('th', { scope: 'row', text: String(stage) })]);
      for (const key of STAGE_COST_KEYS) {
        const input = el('input', {
          type: 'text', inputmode: 'decimal', size: 4, 'data-stage': stage, 'data-key': key,
          'data-testid': `stage-cell-${stage}-${key}`, 'aria-label': t('stageTable.cell', { stage, key }),
        });
        const cell = el('td', {}, [input]);
        input.addEventListener('input', () => {
          this.edited = cell;
          this.text = withCell(this.text, this.stages, stage, key, input.value);
          this.onEdit(this.text);
        });
        row.append(cell);
      }
      this.body.append(row);
    }
    this.fill(text, uniform, null);
  }

  private fill(text: string, uniform: Record<StageCostKey, number>, skip: HTMLInputElement | null): void {
    const table = tableOf(text, this.stages);
    for (const input of this.body.querySelectorAll<HTMLInputElement>('input')) {
      const stage = Number(input.dataset.stage);
      const key = input.dataset.key as StageCostKey;
      input.placeholder = num(uniform[key]);
      if (input !== skip) input.value = table.rows[stage]?.[key] ?? '';
    }
  }

  /** The engine's refusal of the per-stage costs (worded), at the cell last edited; null clears it. */
  showRefusal(message: string | null): void {
    for (const input of this.body.querySelectorAll('input')) input.removeAttribute('aria-invalid');
    this.refusal.hidden = message === null;
    this.refusal.textContent = message ?? '';
    if (message === null) return;
    const input = this.edited?.isConnected ? this.edited.querySelector('input') : null;
    input?.setAttribute('aria-invalid', 'true');
    // Over the layout, under the cell: the table does not grow.
    const box = this.element.getBoundingClientRect();
    const cell = (this.edited?.isConnected ? this.edited : this.body).getBoundingClientRect();
    this.refusal.style.top = `${Math.round(cell.bottom - box.top + 2)}px`;
  }
}
