// The headline numbers, each with a stable data-testid hook for tests and course authors.
import { clear, el } from '../base/dom';
import { num, percent } from '../base/format';
import { lang, t, type Key } from '../i18n';
import type { RunView } from '../model/run';
import { renderBubbleTerms } from '../views/bubble_terms';

function card(testid: string, labelKey: Key, value: string, meta: (Node | string)[] = [], extraClass = ''): HTMLElement {
  return el('div', { class: `readout ${extraClass}` }, [
    el('div', { class: 'label', text: t(labelKey) }),
    el('div', { class: 'value', 'data-testid': testid, text: value }),
    el('div', { class: 'meta' }, meta),
  ]);
}

/** Reference timing only: how much later the reference program ends than the dataflow ideal, and the
 *  waits the dataflow never has (receives an op does not use, sends), summed over ranks. */
function gapCard(run: RunView): HTMLElement[] {
  const s = run.result.summary;
  if (s.timing !== 'reference' || run.dataflowMakespan === undefined) return [];
  // The run's wait totals are core's (summary.waits, the sums over ranks), not summed again here.
  const waits = s.waits;
  const gap = s.makespan - run.dataflowMakespan;
  return [
    card('timing-gap', 'readout.gap', num(gap), [
      el('div', { 'data-testid': 'timing-gap-line', text: t('readout.gapLine', { x: num(gap), y: num(waits.unused_receive), z: num(waits.send) }) }),
      t('readout.gapNote', { dataflow: num(run.dataflowMakespan) }),
    ]),
  ];
}

/** The rank whose bubble is derived under the readouts; kept across runs while it exists. */
let bubbleRank = 0;

/** The bubble derived for the chosen rank, under the readouts (its own box, so a rank pick redraws it alone). */
function bubbleTerms(run: RunView): HTMLElement {
  const box = el('div', { class: 'readout-bubble-terms' });
  const draw = () => renderBubbleTerms(box, { result: run.result, rank: bubbleRank, onRank: (rank) => { bubbleRank = rank; draw(); } });
  if (bubbleRank >= run.result.summary.per_rank.length) bubbleRank = 0;
  draw();
  return box;
}

export function renderReadouts(host: HTMLElement, run: RunView): void {
  const s = run.result.summary;
  const f = s.formula;
  const perRank: number[] = s.per_rank.map((r: any) => r.bubble);
  const lo = Math.min(...perRank);
  const hi = Math.max(...perRank);
  // The engine compares closed form and simulation (formula.simulated on the formula's basis, agrees).
  const simulated: number = f.simulated;
  const verdict = f.exact
    ? el('span', { class: f.agrees ? 'ok' : 'warn', text: f.agrees ? t('readout.formulaHolds') : t('readout.formulaDiffers') })
    : el('span', { class: 'warn', text: t('readout.formulaInexact') });
  const stages = s.per_rank[0]?.stages_held ?? 1;
  const modelStages = s.stages;
  clear(host);
  host.append(
    card('makespan', 'readout.makespan', num(s.makespan), [
      s.span !== s.makespan ? t('readout.spanNote', { span: num(s.span) }) : t('readout.makespanNote'),
    ]),
    card('bubble-fraction', 'readout.bubbleFraction', percent(s.bubble_fraction, 2), [
      s.span !== s.makespan
        ? t('readout.spanFraction', { value: percent(s.span_bubble_fraction, 2) })
        : t('readout.bubbleFractionNote'),
      // Sea AI Lab's "zero bubble" is measured over the span: say which number a source uses.
      f.basis === 'span' ? el('div', { class: 'basis', text: t('readout.spanPublished') }) : null,
    ].filter(Boolean) as (Node | string)[]),
    card('bubble-per-rank', 'readout.bubblePerRank', lo === hi ? num(hi) : `${num(lo)}–${num(hi)}`, !f.text ? [] : [
      f.basis === 'span'
        ? t('readout.formulaSpanLine', { value: num(f.value), simulated: num(simulated) })
        : t('readout.formulaLine', { value: num(f.value) }),
      ' ',
      verdict,
    ]),
    card('formula', 'readout.formula', f.text || t('readout.noFormula'), [
      f.worked,
      // The engine words the caveat in every language (formula.condition_in).
      el('div', { class: 'condition', 'data-testid': 'formula-condition', text: f.condition_in?.[lang()] ?? f.condition }),
    ], 'formula'),
    ...gapCard(run),
    card('peak-activations', 'readout.peak', num(s.peak_activations), [t('readout.peakNote')]),
    card('parameters', 'readout.parameters', num(stages), [
      t('readout.parametersNote', { held: stages, total: modelStages }),
    ]),
    bubbleTerms(run),
  );
}
