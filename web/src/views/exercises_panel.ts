// The lesson's four exercises, worked by the engine in the page's language: every step is data from
// `pipesim lesson`, so changing a cost in the side panel changes the answers. Each exercise asks for
// the student's answer first and checks it against the engine's number; the worked solution opens
// once the answer is right, or when the student asks for it after a try.
import { clear, el } from '../base/dom';
import { num } from '../base/format';
import { lang, t, type Key } from '../i18n';
import { wordRefusal } from '../i18n/refusals';
import { describeIdle, describeOp } from '../model/describe';
import type { SimulateValue } from '../engine/engine';
import type { ExerciseSource } from '../model/exercise_source';
import { forwardShareOf } from '../model/run';
import { TimelineView } from '../timeline/timeline_view';
import { DEFAULT_INPUTS, type ExerciseInputs } from '../state/page_state';
import { Store, type Slice } from '../state/store';

/** What an exercise asks the student for, read from the engine's worked result. */
interface Ask {
  label: Key;
  /** A number to type, right within `tolerance`, or options of which `correct` is right. */
  value?: number;
  tolerance?: number;
  options?: Key[];
  correct?: number;
}

function askFor(x: any): Ask | null {
  if (x.exercise === 1) return { label: 'exercises.ask1', value: 100 * x.result.utilisation_dualpipe, tolerance: 0.5 };
  if (x.exercise === 2) return x.first_two_directions ? { label: 'exercises.ask2', value: x.first_two_directions.start, tolerance: 1e-6 } : null;
  if (x.exercise === 3) return { label: 'exercises.ask3', value: x.result.ratio, tolerance: 0.1 };
  if (x.exercise === 4) return { label: 'exercises.ask4', options: ['exercises.ask4a', 'exercises.ask4b', 'exercises.ask4c'], correct: 0 };
  return null;
}

/** A typed number in either decimal mark ("71,4" in pt-BR), or NaN. */
function typedNumber(text: string): number {
  const cleaned = text.trim().replace('%', '').replace(',', '.');
  return cleaned === '' ? NaN : Number(cleaned);
}

export class ExercisesPanel {
  /** Per exercise: whether its solution is open (answered right, or asked for). Kept across redraws. */
  private readonly opened = new Map<number, 'solved' | 'shown'>();
  /** Per exercise: the student's last attempt, kept across redraws, and whether it was checked. */
  private readonly attempts = new Map<number, { text: string; checked: boolean }>();
  readonly element: HTMLElement;
  private readonly list = el('div', { class: 'exercises' });
  private readonly bytes: HTMLInputElement;
  private readonly memory: HTMLInputElement;
  private cost = 'F=1,B=2,W=1,FB=3';

  constructor(
    /** Core's worked exercises (model/exercise_source.ts): this view only draws them. */
    private readonly source: ExerciseSource,
    /** Exercise 3's inputs, kept in the page's store (its inputs show them). */
    private readonly inputs: Slice<ExerciseInputs> = new Store(DEFAULT_INPUTS).slice('exercises'),
  ) {
    const { bytesPerParam, gpuMemoryGb } = inputs.get();
    this.bytes = el('input', { type: 'number', min: 0.5, step: 0.5, value: bytesPerParam, id: 'ex3-bytes', 'data-testid': 'ex3-bytes' });
    this.memory = el('input', { type: 'number', min: 1, step: 1, value: gpuMemoryGb, id: 'ex3-memory', 'data-testid': 'ex3-memory' });
    this.bytes.addEventListener('input', () => this.inputs.set({ bytesPerParam: this.bytes.value }));
    this.memory.addEventListener('input', () => this.inputs.set({ gpuMemoryGb: this.memory.value }));
    inputs.subscribe(() => this.render());
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
    if (!this.source.isReady()) {
      // The engine gets the lesson's text on first need (course_data.ts): render once it has it.
      this.source.ready().then(
        () => this.render(),
        (e: unknown) => this.list.replaceChildren(el('div', { class: 'error', role: 'alert', text: `${t('error.refused')} ${String(e)}` })),
      );
      return;
    }
    const typing = document.activeElement === this.bytes || document.activeElement === this.memory ? (document.activeElement as HTMLInputElement) : null;
    clear(this.list);
    const { bytesPerParam, gpuMemoryGb } = this.inputs.get();
    for (const outcome of this.source.exercises({ lang: lang(), cost: this.cost, bytesPerParam: Number(bytesPerParam), gpuMemoryGb: Number(gpuMemoryGb) })) {
      if ('worked' in outcome) this.list.append(this.card(outcome.worked, outcome.run));
      else
        this.list.append(
          el('article', { class: 'exercise', 'data-testid': `exercise-${outcome.exercise}` }, [
            el('div', { class: 'error', role: 'alert', text: `${t('error.refused')} ${wordRefusal(outcome.refusal.message, outcome.refusal.wording)}` }),
          ]),
        );
    }
    // Rebuilding moved the input being typed in, which blurs it: keep typing where the user was.
    typing?.focus();
  }

  private card(x: any, run?: SimulateValue): HTMLElement {
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
    const ask = askFor(x);
    const solution = el('div', { class: 'exercise-solution', 'data-testid': `exercise-${x.exercise}-solution` });
    if (ask) {
      card.append(this.tryBlock(x.exercise, ask, solution));
      solution.hidden = !this.opened.has(x.exercise);
    }
    card.append(solution);
    this.fillSolution(x, solution, run);
    return card;
  }

  /** The student's answer, its check, and the way to the solution. */
  private tryBlock(exercise: number, ask: Ask, solution: HTMLElement): HTMLElement {
    const id = `exercise-${exercise}-try`;
    const attempt = this.attempts.get(exercise) ?? { text: '', checked: false };
    const feedback = el('p', { class: 'exercise-feedback', role: 'status', 'data-testid': `exercise-${exercise}-feedback` });
    const reveal = el('button', { type: 'button', class: 'ghost', 'data-testid': `exercise-${exercise}-reveal`, text: t('exercises.showSolution'), hidden: true });
    let field: HTMLInputElement | HTMLSelectElement;
    if (ask.options) {
      field = el('select', { id, 'data-testid': id }, [el('option', { value: '', text: t('exercises.choose') }), ...ask.options.map((key, k) => el('option', { value: String(k), text: t(key) }))]);
    } else {
      field = el('input', { type: 'text', id, 'data-testid': id, inputmode: 'decimal', autocomplete: 'off', size: 10 });
    }
    field.value = attempt.text;
    const check = el('button', { type: 'button', 'data-testid': `exercise-${exercise}-check`, text: t('exercises.check') });
    const verdict = () => {
      const text = field.value;
      if (ask.options) return text === '' ? null : Number(text) === ask.correct;
      const v = typedNumber(text);
      return Number.isFinite(v) ? Math.abs(v - ask.value!) <= ask.tolerance! + 1e-9 : null;
    };
    const showVerdict = () => {
      const right = verdict();
      const opened = this.opened.get(exercise);
      feedback.className = `exercise-feedback ${right ? 'is-right' : right === false ? 'is-wrong' : ''}`;
      feedback.textContent = right === null ? t('exercises.notANumber') : right ? t('exercises.right') : opened === 'shown' ? t('exercises.wrongShown') : t('exercises.wrong');
      if (right) this.opened.set(exercise, opened ?? 'solved');
      reveal.hidden = right !== false || this.opened.has(exercise);
      solution.hidden = !this.opened.has(exercise);
    };
    check.addEventListener('click', () => {
      this.attempts.set(exercise, { text: field.value, checked: true });
      showVerdict();
    });
    field.addEventListener('keydown', (e) => {
      if ((e as KeyboardEvent).key === 'Enter') check.click();
    });
    field.addEventListener('input', () => this.attempts.set(exercise, { text: field.value, checked: false }));
    reveal.addEventListener('click', () => {
      this.opened.set(exercise, 'shown');
      reveal.hidden = true;
      solution.hidden = false;
      solution.querySelector<HTMLElement>('.exercise-answer')?.focus();
    });
    if (attempt.checked) queueMicrotask(showVerdict);
    return el('div', { class: 'exercise-try' }, [
      el('label', { for: id, text: t(ask.label) }),
      el('div', { class: 'toolbar' }, [field, check, reveal]),
      feedback,
    ]);
  }

  private fillSolution(x: any, card: HTMLElement, run?: SimulateValue): void {
    if (x.quote) card.append(el('blockquote', { text: x.quote }));
    if (Array.isArray(x.steps) && x.steps.length) card.append(stepsTable(x.steps));
    if (x.exercise === 2 && run) card.append(...this.slotTable(x, run));
    if (Array.isArray(x.statements)) card.append(el('ul', { class: 'statements' }, x.statements.map((s: any) => el('li', {}, [s.text, el('span', { class: 'hint', text: ` (${s.source})` })]))));
    if (Array.isArray(x.engine_text)) card.append(el('div', { class: 'engine-lines' }, x.engine_text.map((line: string) => el('p', { text: line }))));
    card.append(el('p', { class: 'exercise-answer', 'data-testid': `exercise-${x.exercise}-answer`, tabindex: -1, text: x.answer }));
    const details: HTMLElement[] = [];
    if (x.assumptions?.length) details.push(el('h5', { text: t('exercises.assumptions') }), el('ul', {}, x.assumptions.map((a: string) => el('li', { text: a }))));
    if (x.sources?.length) details.push(el('h5', { text: t('exercises.sources') }), el('ul', {}, x.sources.map((s: string) => el('li', { text: s }))));
    if (details.length) card.append(el('details', {}, [el('summary', { text: t('exercises.more') }), ...details]));
  }

  /** Exercise 2: the DualPipe timeline with the first slot running both directions outlined. */
  private slotTable(x: any, result: SimulateValue): HTMLElement[] {
    const first = x.first_two_directions;
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
