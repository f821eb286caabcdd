// The bubble derived: one rank's idle time in the terms of the closed form, phase by phase, as the
// engine splits it (summary.per_rank[r].bubble_split, core/engine/include/pipesim/bubble_terms.h).
// Hovering, focusing or tapping a row marks the idle intervals it accounts for on the timeline: the
// gaps between that rank's ops that fall inside the phase's bounds the engine gives.
import { clear, el } from '../base/dom';
import { num } from '../base/format';
import type { SimulateValue } from '../engine/engine';
import { t, type Key } from '../i18n';

interface PhaseSplit { phase: string; from: number; to: number; idle: number; expected: number; agrees: boolean; in_range?: boolean }
/** A term of one phase, or (with phase_to) of the phases phase..phase_to, which the closed form sums. */
interface TermSplit { text: string; worked: string; value: number; phase: string; phase_to?: string }
/** Consecutive phases checked as one against the terms in them. */
interface RangeSplit { phase: string; phase_to: string; from: number; to: number; idle: number; expected: number; agrees: boolean }
interface BubbleSplit {
  phases: PhaseSplit[]; ranges?: RangeSplit[]; terms: TermSplit[]; stated: boolean; adds_up: boolean; idle: number; expected: number;
}

export interface BubbleTermsModel {
  result: SimulateValue;
  rank: number;
  /** A new rank was picked: the caller redraws with it. */
  onRank: (rank: number) => void;
}

const PHASE_KEYS: Record<string, Key> = {
  fill: 'bubble.phase.fill',
  'warm-up': 'bubble.phase.warmup',
  steady: 'bubble.phase.steady',
  'cool-down': 'bubble.phase.cooldown',
  drain: 'bubble.phase.drain',
};
const SHORT_PHASE_KEYS: Record<string, Key> = {
  fill: 'bubble.short.fill',
  'warm-up': 'bubble.short.warmup',
  steady: 'bubble.short.steady',
  'cool-down': 'bubble.short.cooldown',
  drain: 'bubble.short.drain',
};

/** One row of the table: a single phase, or a range of phases the closed form states only summed. */
interface SplitRow { id: string; label: string; phases: string[]; from: number; to: number; idle: number; expected: number; agrees: boolean }

/** The rows in phase order: each phase no range covers, and each range once, where its first phase is. */
function splitRows(split: BubbleSplit): SplitRow[] {
  const order = split.phases.map((p) => p.phase);
  const rows: SplitRow[] = [];
  for (const p of split.phases) {
    const range = split.ranges?.find((r) => r.phase === p.phase);
    if (range) {
      const phases = order.slice(order.indexOf(range.phase), order.indexOf(range.phase_to) + 1);
      rows.push({
        ...range, id: `${range.phase}-to-${range.phase_to}`, phases,
        label: t('bubble.range', { from: t(SHORT_PHASE_KEYS[range.phase]), to: t(SHORT_PHASE_KEYS[range.phase_to]) }),
      });
    } else if (!p.in_range) {
      rows.push({ ...p, id: p.phase, label: t(PHASE_KEYS[p.phase]), phases: [p.phase] });
    }
  }
  return rows;
}

/** The idle intervals of `rank` inside [from, to): the gaps between its ops, and before the first and
 *  after the last up to the bounds. */
export function gapsIn(result: SimulateValue, rank: number, from: number, to: number): [number, number][] {
  const { start, end } = result.ops;
  const gaps: [number, number][] = [];
  let free = 0;
  const note = (a: number, b: number) => {
    const lo = Math.max(a, from);
    const hi = Math.min(b, to);
    if (hi > lo) gaps.push([lo, hi]);
  };
  for (let i = result.rankBegin[rank]; i < result.rankBegin[rank + 1]; i++) {
    note(free, start[i]);
    free = Math.max(free, end[i]);
  }
  note(free, result.summary.makespan as number);
  return gaps;
}

/** Marks `gaps` of `rank` over the timeline's canvas (from its published layout), or clears them. */
export function markGaps(rank: number, gaps: [number, number][]): void {
  const canvas = document.querySelector<HTMLCanvasElement>('#panel-timeline canvas.timeline-canvas');
  const host = canvas?.parentElement;  // the timeline's element, which the schedule player's overlay shares
  host?.querySelector('.bubble-gap-overlay')?.remove();
  if (!host || !canvas || !canvas.dataset.t1 || gaps.length === 0) return;
  const d = canvas.dataset;
  const t0 = Number(d.t0), t1 = Number(d.t1), px0 = Number(d.px0), px1 = Number(d.px1);
  const x = (time: number) => px0 + ((time - t0) / (t1 - t0)) * (px1 - px0);
  const top = Number(d.axis) + rank * Number(d.rowHeight);
  const overlay = el('div', { class: 'bubble-gap-overlay', 'aria-hidden': 'true', 'data-testid': 'bubble-gap-overlay' });
  for (const [a, b] of gaps) {
    const mark = el('div', { class: 'bubble-gap', 'data-gap': `${num(a)}-${num(b)}` });
    Object.assign(mark.style, { left: `${x(a)}px`, width: `${Math.max(2, x(b) - x(a))}px`, top: `${top}px`, height: `${d.rowHeight}px` });
    overlay.append(mark);
  }
  host.append(overlay);
}

export function renderBubbleTerms(host: HTMLElement, model: BubbleTermsModel): void {
  clear(host);
  const perRank = model.result.summary.per_rank as { rank: number; bubble_split?: BubbleSplit }[];
  const rank = Math.min(Math.max(0, model.rank), perRank.length - 1);
  const split = perRank[rank]?.bubble_split;
  if (!split) return;
  const picker = el('select', { 'data-testid': 'bubble-rank', 'aria-label': t('bubble.rank') },
    perRank.map((r) => el('option', { value: String(r.rank), text: t('bubble.rankOption', { rank: r.rank }), selected: r.rank === rank })));
  picker.addEventListener('change', () => model.onRank(Number((picker as HTMLSelectElement).value)));
  const rows = splitRows(split).filter((p) => p.idle > 0 || p.expected !== 0).map((p) => {
    const terms = split.terms.filter((term) => p.phases.includes(term.phase));
    const gaps = gapsIn(model.result, rank, p.from, p.to);
    const row = el('tr', {
      tabindex: 0,
      class: p.agrees || !split.stated ? '' : 'is-off',
      'data-testid': `bubble-phase-${p.id}`,
      'data-gaps': gaps.map(([a, b]) => `${num(a)}-${num(b)}`).join(' '),
    }, [
      el('th', { scope: 'row', text: p.label }),
      el('td', { class: 'mono', text: terms.map((term) => term.text).join(' + ') || '—' }),
      el('td', { class: 'mono', text: terms.map((term) => term.worked).join('; ') || '—' }),
      el('td', { class: 'num', text: split.stated ? num(p.expected) : '—' }),
      el('td', { class: 'num', 'data-testid': `bubble-idle-${p.id}`, text: num(p.idle) }),
      el('td', { text: !split.stated ? '' : p.agrees ? '✓' : t('bubble.off', { diff: num(p.idle - p.expected) }) }),
    ]);
    const show = () => markGaps(rank, gaps);
    row.addEventListener('pointerenter', show);
    row.addEventListener('focus', show);
    row.addEventListener('click', show);  // a tap shows what hover shows
    row.addEventListener('pointerleave', () => markGaps(rank, []));
    row.addEventListener('blur', () => markGaps(rank, []));
    return row;
  });
  const verdict = !split.stated ? t('bubble.noTerms') : split.adds_up ? t('bubble.addsUp') : t('bubble.stopsAddingUp');
  host.append(
    el('div', { class: 'bubble-terms', 'data-testid': 'bubble-terms' }, [
      el('div', { class: 'bubble-terms-head' }, [el('h3', { text: t('bubble.title') }), picker]),
      el('p', { class: 'hint', text: t('bubble.hint') }),
      el('div', { class: 'table-scroll' }, [
        el('table', { class: 'data' }, [
          el('thead', {}, [el('tr', {}, (['bubble.phase', 'bubble.term', 'bubble.worked', 'bubble.expected', 'bubble.simulated', 'bubble.check'] as const).map((k) => el('th', { scope: 'col', text: t(k) })))]),
          el('tbody', {}, rows),
          el('tfoot', {}, [el('tr', { 'data-testid': 'bubble-total' }, [
            el('th', { scope: 'row', text: t('bubble.total') }), el('td', {}), el('td', {}),
            el('td', { class: 'num', text: split.stated ? num(split.expected) : '—' }),
            el('td', { class: 'num', text: num(split.idle) }),
            el('td', {}),
          ])]),
        ]),
      ]),
      ...(split.ranges?.length ? [el('p', { class: 'hint', 'data-testid': 'bubble-range-note', text: t('bubble.rangeNote') })] : []),
      el('p', { class: split.adds_up ? 'ok' : 'warn', 'data-testid': 'bubble-verdict', text: verdict }),
    ]),
  );
}
