// The lesson's four exercises, worked by the engine in the page's language: every step is data from
// `pipesim lesson`, so changing a cost in the side panel changes the answers.
import { clear, el } from '../base/dom';
import { num } from '../base/format';
import { EngineError, type Engine } from '../engine/engine';
import { lang, t } from '../i18n';
import { describeIdle, describeOp } from '../app/describe';
import { forwardShareOf } from '../app/run';
import { TimelineView } from '../timeline/timeline_view';

export class ExercisesPanel {
  readonly element: HTMLElement;
  private readonly list = el('div', { class: 'exercises' });
  private readonly bytes = el('input', { type: 'number', min: 0.5, step: 0.5, value: 2, id: 'ex3-bytes', 'data-testid': 'ex3-bytes' });
  private readonly memory = el('input', { type: 'number', min: 1, step: 1, value: 80, id: 'ex3-memory', 'data-testid': 'ex3-memory' });
  private cost = 'F=1,B=2,W=1,FB=3';
  private courseReady = false;

  constructor(private readonly engine: Engine) {
    for (const input of [this.bytes, this.memory]) input.addEventListener('input', () => this.render());
    this.element = el('section', { class: 'panel', id: 'panel-exercises', role: 'tabpanel', hidden: true }, [
      el('h3', { text: t('exercises.title') }),
      el('p', { class: 'hint', text: t('exercises.hint') }),
      this.list,
    ]);
  }

  /** `cost` is the page's cost setting: exercises 1, 2 and 4 use it. */
  update(cost: string): void {
    this.cost = cost;
    this.render();
  }

  private render(): void {
    if (!this.courseReady) {
      // The engine gets the lesson's text on first need (course_data.ts): render once it has it.
      this.engine.courseData().then(
        () => {
          this.courseReady = true;
          this.render();
        },
        (e: unknown) => this.list.replaceChildren(el('div', { class: 'error', role: 'alert', text: `${t('error.refused')} ${String(e)}` })),
      );
      return;
    }
    const typing = document.activeElement === this.bytes || document.activeElement === this.memory ? (document.activeElement as HTMLInputElement) : null;
    clear(this.list);
    for (const exercise of [1, 2, 3, 4]) {
      try {
        const request =
          exercise === 3
            ? { exercise, lang: lang(), bytesPerParam: Number(this.bytes.value), gpuMemoryGb: Number(this.memory.value) }
            : { exercise, lang: lang(), cost: this.cost };
        this.list.append(this.card(this.engine.lesson(request)));
      } catch (e) {
        if (!(e instanceof EngineError)) throw e;
        this.list.append(el('article', { class: 'exercise', 'data-testid': `exercise-${exercise}` }, [el('div', { class: 'error', role: 'alert', text: `${t('error.refused')} ${e.message}` })]));
      }
    }
    // Rebuilding moved the input being typed in, which blurs it: keep typing where the user was.
    typing?.focus();
  }

  private card(x: any): HTMLElement {
    const card = el('article', { class: 'exercise', 'data-testid': `exercise-${x.exercise}` }, [
      el('h4', { text: `${x.exercise}. ${x.title}` }),
      el('p', { class: 'exercise-question', text: x.question }),
    ]);
    if (x.exercise === 3)
      card.append(
        el('div', { class: 'toolbar' }, [
          el('label', { for: 'ex3-bytes', text: t('exercises.bytes') }),
          this.bytes,
          el('label', { for: 'ex3-memory', text: t('exercises.memory') }),
          this.memory,
        ]),
      );
    if (x.quote) card.append(el('blockquote', { text: x.quote }));
    if (Array.isArray(x.steps) && x.steps.length) card.append(stepsTable(x.steps));
    if (x.exercise === 2) card.append(...this.slotTable(x));
    if (Array.isArray(x.statements)) card.append(el('ul', { class: 'statements' }, x.statements.map((s: any) => el('li', {}, [s.text, el('span', { class: 'hint', text: ` (${s.source})` })]))));
    if (Array.isArray(x.engine_text)) card.append(el('div', { class: 'engine-lines' }, x.engine_text.map((line: string) => el('p', { text: line }))));
    card.append(el('p', { class: 'exercise-answer', 'data-testid': `exercise-${x.exercise}-answer`, text: x.answer }));
    const details: HTMLElement[] = [];
    if (x.assumptions?.length) details.push(el('h5', { text: t('exercises.assumptions') }), el('ul', {}, x.assumptions.map((a: string) => el('li', { text: a }))));
    if (x.sources?.length) details.push(el('h5', { text: t('exercises.sources') }), el('ul', {}, x.sources.map((s: string) => el('li', { text: s }))));
    if (details.length) card.append(el('details', {}, [el('summary', { text: t('exercises.more') }), ...details]));
    return card;
  }

  /** Exercise 2: the DualPipe timeline with the first slot running both directions outlined. */
  private slotTable(x: any): HTMLElement[] {
    const first = x.first_two_directions;
    const inputs = x.inputs;
    const result = this.engine.simulate({ schedule: 'dualpipe', ranks: inputs.ranks, microBatches: inputs.micro_batches, cost: inputs.cost });
    const view = new TimelineView({ describeOp, describeIdle, rankLabel: (n) => t('timeline.rank', { n }), ariaLabel: x.question });
    view.setGroups([{ key: 'exercise-2', title: '', result, forwardShare: forwardShareOf(result.summary) }]);
    const ops = result.ops;
    view.setHighlight((_, i) => first && ops.rank[i] === first.rank && ops.start[i] === first.start && ops.kind[i] === 4);
    const table = el('table', { class: 'data slots', 'data-testid': 'slot-table' }, [
      el('thead', {}, [el('tr', {}, [el('th', { text: t('table.rank') }), el('th', { text: t('exercises.slots') })])]),
      el(
        'tbody',
        {},
        x.table.map((row: any) =>
          el('tr', {}, [
            el('td', { text: t('timeline.rank', { n: row.rank }) }),
            el(
              'td',
              { class: 'slot-cells' },
              row.slots.map((slot: any) =>
                el('span', {
                  class: `slot ${first && row.rank === first.rank && slot.start === first.start ? 'is-first' : ''}`,
                  title: `${num(slot.start)}–${num(slot.end)}`,
                  text: slot.label,
                }),
              ),
            ),
          ]),
        ),
      ),
    ]);
    return [view.element, el('div', { class: 'table-scroll' }, [table])];
  }
}

function stepsTable(steps: any[]): HTMLElement {
  return el('table', { class: 'data steps' }, [
    el('thead', {}, [el('tr', {}, [el('th', { text: t('exercises.step') }), el('th', { text: t('exercises.formula') }), el('th', { text: t('exercises.value') })])]),
    el(
      'tbody',
      {},
      steps.map((s) =>
        el('tr', { 'data-key': s.key }, [el('td', { text: s.label }), el('td', {}, [el('code', { text: s.formula })]), el('td', {}, [s.display, s.unit ? el('span', { class: 'unit', text: ` ${s.unit}` }) : null])]),
      ),
    ),
  ]);
}
