// The colour key of the timeline, drawn with the same CSS variables as the canvas.
import { el } from '../base/dom';
import { t } from '../i18n';
import { phaseMeaning } from '../model/run';

export function legend(summary: any): HTMLElement {
  const item = (cls: string, text: string) => el('span', { class: 'item' }, [el('span', { class: `cell ${cls}` }), text]);
  const meaning = phaseMeaning(summary);
  const items = [
    item('cell-forward', t('legend.forward')),
    item('cell-backward', t('legend.backward')),
    item('cell-weight', t('legend.weight')),
    item('fb', t('legend.fb')),
    item('idle', t('legend.idle')),
  ];
  if (meaning === 'direction' || meaning === 'leg')
    items.push(item('cell-forward-light', t(meaning === 'direction' ? 'legend.lightDirection' : 'legend.lightLeg')));
  return el('div', { class: 'legend' }, items);
}
