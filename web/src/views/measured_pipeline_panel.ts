// A measured pipeline next to its model, under the Timeline: one PyTorch profiler trace per rank, read
// and measured in the background worker (the CLI's `pipesim simulate --measured`), drawn as two rows
// per rank in the timeline's colours, the model (the measured order with costs fitted to the measured
// durations) above what was measured, with each rank's busy and bubble and the ops that started late.
// The app measures (app/measured_pipeline.ts); this panel asks for it and draws what it is given.
import { clear, el, svg } from '../base/dom';
import { fillFor, readPalette } from '../base/colors';
import { cssVar } from '../base/tokens';
import { num } from '../base/format';
import type { MeasuredPipelineResult } from '../engine/engine';
import { t, type Key } from '../i18n';

const W = 960;
const ROW = 16;
const LEFT = 130;
const RIGHT = 12;
const RANK_GAP = 8;

type Kind = 'F' | 'B' | 'I' | 'W' | 'FB';

const HEADINGS: Key[] = ['measured.rank', 'measured.busy', 'measured.bubble', 'measured.modelBusy', 'measured.modelBubble', 'measured.late'];

/** How to line the ranks' clocks up: the profiler's, or each rank's first op where the model starts it. */
export type Align = 'profiler' | 'first-ops';

/** Where a measurement is: its files being read, measured, shown, or refused. */
export type MeasuredState =
  | { step: 'reading' | 'measuring'; count: number }
  | { step: 'shown'; count: number; result: MeasuredPipelineResult }
  | { step: 'refused'; message: string };

export class MeasuredPipelinePanel {
  readonly element: HTMLElement;
  private readonly files = el('input', { type: 'file', multiple: true, accept: '.json,application/json', hidden: true, 'data-testid': 'measured-files' });
  private readonly align = el('select', { 'data-testid': 'measured-align', 'aria-label': t('measured.align') }, [
    el('option', { value: 'profiler', text: t('measured.alignProfiler') }),
    el('option', { value: 'first-ops', text: t('measured.alignFirstOps') }),
  ]);
  private readonly status = el('p', { class: 'hint', 'aria-live': 'polite', 'data-testid': 'measured-status' });
  private readonly error = el('div', { class: 'error', role: 'alert', hidden: true, 'data-testid': 'measured-error' });
  private readonly sentence = el('p', { class: 'chunk-sentence', 'data-testid': 'measured-sentence' });
  private readonly figure = el('div', { class: 'chunk-figure' });
  private readonly table = el('div', { class: 'table-scroll' });
  private chosen: File[] = [];

  /** `measure` is asked for the chosen files each time they or the alignment change; it answers
   *  through render(). */
  constructor(private readonly measure: (files: File[], align: Align) => void) {
    const load = el('button', { type: 'button', class: 'ghost', 'data-testid': 'measured-load', text: t('measured.load') });
    load.addEventListener('click', () => this.files.click());
    this.files.addEventListener('change', () => {
      this.chosen = [...(this.files.files ?? [])];
      this.files.value = '';
      if (this.chosen.length) this.ask();
    });
    this.align.addEventListener('change', () => this.chosen.length && this.ask());
    this.element = el('details', { class: 'measured-pipeline', 'data-testid': 'measured-pipeline' }, [
      el('summary', { text: t('measured.title') }),
      el('p', { class: 'hint', text: t('measured.hint') }),
      el('div', { class: 'toolbar' }, [load, this.files, this.align]),
      this.status,
      this.error,
      this.sentence,
      this.figure,
      this.table,
    ]);
  }

  private ask(): void {
    this.measure(this.chosen, this.align.value === 'first-ops' ? 'first-ops' : 'profiler');
  }

  /** Shows where the measurement is, and its figure and table once it is done. */
  render(state: MeasuredState): void {
    if (state.step === 'refused') {
      this.status.textContent = '';
      this.error.hidden = false;
      this.error.textContent = `${t('error.refused')} ${state.message}`;
      return;
    }
    if (state.step !== 'shown') {
      this.status.textContent = t(state.step === 'reading' ? 'measured.reading' : 'measured.measuring', { count: state.count });
      return;
    }
    this.error.hidden = true;
    this.status.textContent = t('measured.shown', { count: state.count });
    this.draw(state.result);
  }

  private draw(r: MeasuredPipelineResult): void {
    const palette = readPalette(this.element);
    const span = Math.max(r.makespan_us, r.model_makespan_us, 1e-9);
    const sx = (time: number) => LEFT + (time / span) * (W - LEFT - RIGHT);
    const height = r.ranks * (2 * ROW + RANK_GAP) + 8;
    const root = svg('svg', { class: 'chart', viewBox: `0 0 ${W} ${height}`, role: 'img', 'aria-label': t('measured.aria') });
    const box = (kind: Kind, phase: number, start: number, end: number, top: number, label: string) => {
      const x = sx(start);
      const width = Math.max(0.5, sx(end) - x);
      const title = svg('title', { text: `${label}: ${num(start)} → ${num(end)} µs` });
      if (kind !== 'FB')
        return svg('rect', { x, y: top + 1, width, height: ROW - 2, fill: fillFor(palette, kind, phase), stroke: cssVar('panel'), 'stroke-width': 0.5, 'data-kind': kind }, [title]);
      // An overlapped pair: its forward half above its backward half, as in the timeline.
      return svg('g', { 'data-kind': kind }, [
        svg('rect', { x, y: top + 1, width, height: (ROW - 2) / 2, fill: fillFor(palette, 'F', phase) }),
        svg('rect', { x, y: top + 1 + (ROW - 2) / 2, width, height: (ROW - 2) / 2, fill: fillFor(palette, 'B', phase) }),
        title,
      ]);
    };
    let y = 4;
    for (let rank = 0; rank < r.ranks; rank++) {
      const rows: [string, string][] = [
        ['model', t('measured.rowModel', { rank })],
        ['measured', t('measured.rowMeasured', { rank })],
      ];
      rows.forEach(([which, label], k) => {
        const top = y + k * ROW;
        const g = svg('g', { 'data-row': which, 'data-rank': rank });
        g.append(
          svg('text', { x: LEFT - 6, y: top + ROW / 2, 'text-anchor': 'end', 'dominant-baseline': 'middle', class: 'chunk-label', text: label }),
          svg('rect', { x: LEFT, y: top + 1, width: sx(span) - LEFT, height: ROW - 2, fill: cssVar('pipesim-idle'), stroke: cssVar('rule-soft') }),
        );
        if (which === 'model') for (const op of r.model.per_rank[rank].ops) g.append(box(op.op, op.phase, op.start, op.end, top, op.op));
        else for (const op of r.timeline[rank].ops) g.append(box(op.kind, 0, op.start, op.end, top, op.action));
        root.append(g);
      });
      y += 2 * ROW + RANK_GAP;
    }
    clear(this.figure);
    this.figure.append(root);
    this.sentence.textContent = t('measured.sentence', { model: num(round(r.model_makespan_us)), measured: num(round(r.makespan_us)) });
    const c = r.costs;
    clear(this.table);
    this.table.append(
      el('p', { class: 'hint', 'data-testid': 'measured-costs', text: t('measured.costs', { F: num(c.F), B: num(c.B), W: num(c.W), FB: num(c.FB) }) }),
      el('table', { class: 'data' }, [
        el('thead', {}, [
          el('tr', {}, HEADINGS.map((k) => el('th', { text: t(k) }))),
        ]),
        el('tbody', {}, r.per_rank.map((p) =>
          el('tr', {}, [p.rank, round(p.busy_us), round(p.bubble_us), round(p.model_busy_us), round(p.model_bubble_us)].map((v) => el('td', { text: num(v) })).concat(
            el('td', { text: p.late_ops ? t('measured.lateBy', { count: p.late_ops, latest: num(round(p.latest_by_us)) }) : '0' }),
          )),
        )),
      ]),
    );
  }
}

function round(value: number): number {
  return Math.abs(value) >= 100 ? Math.round(value * 10) / 10 : Number(value.toPrecision(4));
}
