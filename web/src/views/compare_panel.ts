// Two or more schedules on one shared time axis, with the numbers that decide between them.
import { clear, el } from '../base/dom';
import { seriesColor } from '../base/colors';
import { num, percent } from '../base/format';
import type { ScheduleInfo } from '../engine/engine';
import { t } from '../i18n';
import { describeColumnWaits, describeIdle, describeOp, scheduleTitle } from '../model/describe';
import { forwardShare, type RunView } from '../model/run';
import type { BothTimings, TimingCell } from '../model/timings';
import { TimelineView, type TimelineGroup } from '../timeline/timeline_view';
import type { CostBasis } from '../state/page_state';
import { basisBlock, type BasisShown } from './basis';

export interface CompareEntry {
  name: string;
  title: string;
  run?: RunView;
  error?: string;
  /** With both timings shown: the makespan under dataflow and under the reference runtime (the app
   *  asks the engine for the run under the other timing than the page's; model/timings.ts pairs them). */
  timings?: BothTimings;
}

export class ComparePanel {
  readonly element: HTMLElement;
  readonly view: TimelineView;
  private readonly picker = el('div', { class: 'compare-list', 'data-testid': 'compare-picker' });
  private readonly table = el('div', { class: 'table-scroll' });
  private readonly basis = el('div');
  /** "Both timings": the table gains the makespan under each timing model and their gap. */
  private readonly both = el('input', { type: 'checkbox', id: 'compare-both-timings', 'data-testid': 'compare-both-timings' });
  private groups: TimelineGroup[] = [];
  private pickerFor = '';

  constructor(
    /** The schedules the picker offers (the engine's registry, as the app read it). */
    private readonly schedules: readonly ScheduleInfo[],
    private readonly onPick: (names: string[]) => void,
    private readonly onBasis: (basis: CostBasis) => void,
    private readonly onBothTimings: (both: boolean) => void,
  ) {
    this.both.addEventListener('change', () => this.onBothTimings(this.both.checked));
    this.view = new TimelineView({
      describeOp,
      describeIdle,
      describeColumnWaits,
      rankLabel: (r) => t('timeline.rank', { n: r }),
      ariaLabel: t('compare.aria'),
    });
    this.element = el('section', { class: 'panel', id: 'panel-compare', role: 'tabpanel', hidden: true }, [
      el('h3', { text: t('compare.title') }),
      el('p', { class: 'hint', text: t('compare.hint') }),
      this.basis,
      this.picker,
      el('label', { class: 'compare-timings' }, [this.both, ' ', t('compare.bothTimings')]),
      this.table,
      this.view.element,
    ]);
  }

  private buildPicker(primary: string): void {
    this.pickerFor = primary;
    clear(this.picker);
    for (const s of this.schedules) {
      if (s.name === primary || s.takes_text) continue;
      const box = el('input', { type: 'checkbox', value: s.name, 'data-testid': `compare-${s.name}` });
      box.addEventListener('change', () => {
        const picked = [...this.picker.querySelectorAll<HTMLInputElement>('input:checked')].map((b) => b.value);
        this.onPick(picked);
      });
      const swatch = el('span', { class: 'swatch', 'data-color': s.name });
      swatch.style.background = seriesColor(s);
      this.picker.append(el('label', {}, [box, swatch, scheduleTitle(s)]));
    }
  }

  update(primary: string, chosen: string[], entries: CompareEntry[], basis: BasisShown, bothTimings = false): void {
    this.both.checked = bothTimings;
    this.basis.replaceChildren(basisBlock('compare', basis, this.onBasis));
    if (this.pickerFor !== primary) this.buildPicker(primary);
    this.picker.querySelectorAll<HTMLInputElement>('input').forEach((box) => (box.checked = chosen.includes(box.value)));
    this.groups = entries
      .filter((e) => e.run)
      .map((e) => ({
        key: e.name,
        title: t('compare.groupTitle', { title: e.title, makespan: num(e.run!.result.summary.makespan) }),
        result: e.run!.result,
        forwardShare: forwardShare(e.run!),
      }));
    // The table first: the drawing reads the page's styles, which is cheaper once the DOM is final.
    clear(this.table);
    this.table.append(compareTable(entries, (name) => this.schedules.find((s) => s.name === name), bothTimings));
    this.view.setGroups(this.groups);
  }
}

/** A timing's makespan in its Compare cell: the number, the refusal, or that there is no reference. */
function timingCell(testid: string, value: TimingCell): HTMLElement {
  if ('makespan' in value) return el('td', { 'data-testid': testid, text: num(value.makespan) });
  if ('error' in value) return el('td', { 'data-testid': testid, class: 'error-cell', text: value.error });
  return el('td', { 'data-testid': testid, class: 'hint', text: t('compare.noReference') });
}

/** The three cells "both timings" adds to a schedule's row: dataflow, reference runtime, their gap. */
function timingCells(name: string, timings: BothTimings | undefined): HTMLElement[] {
  if (!timings) return [el('td', { text: '–' }), el('td', { text: '–' }), el('td', { text: '–' })];
  const gap = timings.gap === null ? '–' : `${timings.gap > 0 ? '+' : ''}${num(timings.gap)}`;
  return [
    timingCell(`compare-dataflow-${name}`, timings.dataflow),
    timingCell(`compare-reference-${name}`, timings.reference),
    el('td', { 'data-testid': `compare-gap-${name}`, text: gap }),
  ];
}

function compareTable(entries: CompareEntry[], schedule: (name: string) => ScheduleInfo | undefined, bothTimings: boolean): HTMLElement {
  const timingHeads = bothTimings ? [el('th', { text: t('compare.dataflow') }), el('th', { text: t('compare.reference') }), el('th', { text: t('compare.gap') })] : [];
  const head = el('tr', {}, [
    el('th', { text: t('compare.schedule') }),
    el('th', { text: t('readout.makespan') }),
    ...timingHeads,
    el('th', { text: t('readout.bubbleFraction') }),
    el('th', { text: t('compare.simulatedBubble') }),
    el('th', { text: t('compare.formula') }),
    el('th', { text: t('compare.parameters') }),
    el('th', { text: t('compare.peak') }),
    el('th', { text: t('compare.stageCost') }),
  ]);
  const rows = entries.map((e) => {
    const swatch = el('span', { class: 'swatch' });
    swatch.style.background = seriesColor(schedule(e.name));
    const name = el('td', {}, [swatch, ' ', e.title]);
    if (!e.run) return el('tr', {}, [name, el('td', { colspan: 7 + timingHeads.length, class: 'error-cell', text: e.error ?? '' })]);
    const s = e.run.result.summary;
    const f = s.formula;
    const simulated: number = f.simulated;
    const basis = f.basis === 'span' ? ` (${t('compare.spanBasis')})` : '';
    const stages = s.per_rank[0]?.stages_held ?? 1;
    return el('tr', { 'data-schedule': e.name }, [
      name,
      el('td', {
        'data-testid': `compare-makespan-${e.name}`,
        text: s.span !== s.makespan ? `${num(s.makespan)} (${t('compare.span')} ${num(s.span)})` : num(s.makespan),
      }),
      ...(bothTimings ? timingCells(e.name, e.timings) : []),
      el('td', { text: percent(s.bubble_fraction, 2) }),
      el('td', { text: num(simulated) + basis }),
      el('td', {}, f.text ? [
        el('code', { text: f.text }),
        ` = ${num(f.value)} `,
        el('span', { class: 'tag', text: f.exact ? t('compare.exact') : t('compare.inexact') }),
      ] : ['–']),
      el('td', { text: t('compare.stagesOf', { held: stages, total: s.stages }) }),
      el('td', { text: num(s.peak_activations) }),
      el('td', { text: t('compare.stageCostOf', { f: num(s.cost.F), b: num(s.cost.B), w: num(s.cost.W), fb: num(s.cost.FB), stages: s.stages }) }),
    ]);
  });
  return el('table', { class: 'data', 'data-testid': 'compare-table' }, [el('thead', {}, [head]), el('tbody', {}, rows)]);
}
