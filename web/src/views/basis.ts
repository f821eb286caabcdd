// Which basis Compare and Charts give their numbers on, said in the view and switched there: the same
// model on the same GPUs (each schedule cuts one model into its own stages) or the same stage costs
// (every stage of every schedule costs what the sliders say, the DualPipe README table's basis).
import { el } from '../base/dom';
import { t } from '../i18n';
import type { CostBasis } from '../state/page_state';

export interface BasisShown {
  basis: CostBasis;
  cost: string;
  ranks: string;
}

/** The switch and the sentence that says what the view's numbers assume. */
export function basisBlock(view: string, shown: BasisShown, onBasis: (basis: CostBasis) => void): HTMLElement {
  const option = (basis: CostBasis) => {
    const input = el('input', { type: 'radio', name: `basis-${view}`, value: basis, 'data-testid': `basis-${basis}`, checked: shown.basis === basis });
    input.addEventListener('change', () => onBasis(basis));
    return el('label', {}, [input, ' ', t(basis === 'model' ? 'basis.model' : 'basis.stage')]);
  };
  const note =
    shown.basis === 'model'
      ? t('basis.modelNote', { cost: shown.cost, ranks: shown.ranks })
      : t('basis.stageNote', { cost: shown.cost });
  return el('div', { class: 'basis', 'data-testid': `${view}-basis`, 'data-basis': shown.basis }, [
    el('fieldset', { class: 'basis-switch' }, [el('legend', { text: t('basis.legend') }), option('model'), option('stage')]),
    el('p', { class: 'hint', text: note }),
  ]);
}
