// "Learn": a guided lesson in eight short steps, from the bubble of 1F1B through Zero Bubble's split
// backward, DualPipe's two directions and F&B pair, to a bubble that does not grow with micro-batches
// and DualPipeV's halving of the GPUs. Each step sets the page's state (so the controls and the other
// tabs follow), asks one prediction, and only then shows the timeline and the engine's numbers.
// Every answer is computed by the engine at the step's settings, never written here.
// The step is in the URL (?view=learn&step=3; ?view=learn opens step 1); predictions are kept in
// localStorage so a returning student sees what they answered.
import { clear, el } from '../base/dom';
import { num, percent } from '../base/format';
import { store } from '../base/storage';
import type { RunRequest, SimulateValue } from '../engine/engine';
import { t, type Key } from '../i18n';
import { describeIdle, describeOp } from '../model/describe';
import type { LearnSource, LessonStep } from '../model/learn_source';
import { forwardShareOf } from '../model/run';
import { TimelineView } from '../timeline/timeline_view';
import { LEARN_STORAGE_KEY as STORAGE_KEY, lessonStarted, loadSaved } from './learn_progress';

export { stepFromUrl } from './learn_progress';


/** What a step needs from the engine: its own run, and the runs it compares with. */
interface StepContext {
  run: SimulateValue;
  /** The runs of the step's `compared`, in core's order (core/engine/src/presets.cpp). */
  compared: SimulateValue[];
  /** Their schedules' display names, from the engine's catalogue. */
  comparedTitles: string[];
}

/** How a step asks and answers; which runs it uses is core's (LessonStep). */
interface StepLogic {
  /** A number to predict (right within 0.01), or options of which the engine's answer is one. */
  options?: (ctx: StepContext) => string[];
  answer: (ctx: StepContext) => number;
  /** The reveal's numbers, all from the engine. */
  facts: (ctx: StepContext) => Record<string, string | number>;
}

const rankBubble = (run: SimulateValue, rank: number): number => run.summary.per_rank[rank].bubble;
const maxBubble = (run: SimulateValue): number => run.summary.max_bubble;
const same = (a: number, b: number) => Math.abs(a - b) < 1e-9;
/** 0 grows, 1 stays, 2 shrinks: the options of a "what happens when ..." step. */
const trend = (before: number, after: number): number => (same(before, after) ? 1 : after > before ? 0 : 2);
const trendOptions = (): string[] => [t('learn.grows'), t('learn.stays'), t('learn.shrinks')];

/** The ranks whose first op starts at time 0. */
function startingRanks(run: SimulateValue): number[] {
  const ranks = new Set<number>();
  for (let i = 0; i < run.ops.count; i++) if (run.ops.start[i] === 0) ranks.add(run.ops.rank[i]);
  return [...ranks].sort((a, b) => a - b);
}

/** Each step's question and answer, by the step's id in core's lesson. */
const LOGIC: Record<string, StepLogic> = {
  // 1F1B: rank 0's idle time.
  s1: {
    answer: ({ run }) => rankBubble(run, 0),
    facts: ({ run }) => ({ idle: num(rankBubble(run, 0)), makespan: num(run.summary.makespan), busy: num(run.summary.makespan - rankBubble(run, 0)), fraction: percent(run.summary.bubble_fraction, 1) }),
  },
  // Twice the micro-batches (compared: step 1's run): rank 0's idle time stays.
  s2: {
    options: trendOptions,
    answer: ({ run, compared: [before] }) => trend(rankBubble(before, 0), rankBubble(run, 0)),
    facts: ({ run, compared: [before] }) => ({ before: num(rankBubble(before, 0)), idle: num(rankBubble(run, 0)), fractionBefore: percent(before.summary.bubble_fraction, 1), fraction: percent(run.summary.bubble_fraction, 1) }),
  },
  // Zero Bubble's split backward (compared: 1F1B at the same size).
  s3: {
    answer: ({ run }) => rankBubble(run, 0),
    facts: ({ run, compared: [oneFOneB] }) => ({ idle: num(rankBubble(run, 0)), idle1f1b: num(rankBubble(oneFOneB, 0)), makespan: num(run.summary.makespan) }),
  },
  // Two directions: which ranks start at time 0.
  s4: {
    options: ({ run }) => [t('learn.s4.optionOne'), t('learn.s4.optionEnds', { last: run.summary.ranks - 1 }), t('learn.s4.optionAll')],
    answer: ({ run }) => {
      const first = startingRanks(run);
      const last = run.summary.ranks - 1;
      return first.length === 1 ? 0 : first.length === 2 && first[0] === 0 && first[1] === last ? 1 : 2;
    },
    facts: ({ run }) => ({ ranks: startingRanks(run).join(', '), last: run.summary.ranks - 1 }),
  },
  // The largest bubble of a rank.
  s5: {
    answer: ({ run }) => maxBubble(run),
    facts: ({ run }) => ({ max: num(maxBubble(run)), worked: run.summary.formula.worked, fb: num(run.summary.cost.FB), fplusb: num(run.summary.cost.F + run.summary.cost.B) }),
  },
  // Twice the micro-batches (compared: step 5's run): the bubble does not grow.
  s6: {
    options: trendOptions,
    answer: ({ run, compared: [before] }) => trend(maxBubble(before), maxBubble(run)),
    facts: ({ run, compared: [before] }) => ({ before: num(maxBubble(before)), max: num(maxBubble(run)), fractionBefore: percent(before.summary.bubble_fraction, 1), fraction: percent(run.summary.bubble_fraction, 1) }),
  },
  // DualPipeV: how many GPUs hold its stages (compared: DualPipe on the same stages).
  s7: {
    options: ({ run }) => [run.summary.stages / 2, run.summary.stages, 2 * run.summary.stages].map(String),
    answer: ({ run }) => [run.summary.stages / 2, run.summary.stages, 2 * run.summary.stages].indexOf(run.summary.ranks),
    facts: ({ run, compared: [dualPipe] }) => ({ stages: run.summary.stages, ranks: run.summary.ranks, max: num(maxBubble(run)), maxDualPipe: num(maxBubble(dualPipe)) }),
  },
  // The compared schedules on the same stages: which idles least.
  s8: {
    options: ({ comparedTitles }) => comparedTitles,
    answer: ({ compared }) => {
      const fractions = compared.map((r) => r.summary.bubble_fraction);
      return fractions.indexOf(Math.min(...fractions));
    },
    facts: ({ compared, comparedTitles }) => ({
      list: compared.map((r, k) => `${comparedTitles[k]} ${percent(r.summary.bubble_fraction, 1)}`).join(' · '),
    }),
  },
};

/** A step as the view draws it: core's runs and the page's logic. */
type Step = LessonStep & StepLogic;

function stepsOf(lesson: readonly LessonStep[]): Step[] {
  return lesson.map((step) => {
    const logic = LOGIC[step.id];
    if (!logic) throw new Error(`the guided lesson's step ${step.id} has no question on the page (learn_panel.ts LOGIC)`);
    return { ...step, ...logic };
  });
}

/** The costs as a person reads them: "F=1, B=2, W=1, F&B=3". */
const costWords = (cost: string | undefined): string => (cost ?? '').split(',').join(', ').replace('FB=', 'F&B=');

export class LearnPanel {
  readonly element: HTMLElement;
  private readonly body = el('div', { class: 'learn-body' });
  private readonly nav = el('ol', { class: 'learn-steps', 'data-testid': 'learn-steps' });
  private saved = loadSaved();
  private step = 1;
  private readonly steps: Step[];

  constructor(
    /** The steps' runs (model/learn_source.ts): this view only draws them. */
    private readonly source: LearnSource,
    /** Sets the page to a step: its settings, the learn view and the step in the URL. */
    private readonly goTo: (step: number, request: RunRequest) => void,
    private readonly leave: () => void,
  ) {
    this.steps = stepsOf(source.steps);
    const skip = el('button', { type: 'button', class: 'ghost', 'data-testid': 'learn-skip', text: t('learn.skip') });
    skip.addEventListener('click', () => this.leave());
    this.element = el('section', { class: 'panel learn', id: 'panel-learn', role: 'tabpanel', hidden: true, 'data-testid': 'learn' }, [
      el('div', { class: 'learn-head' }, [el('h3', { text: t('learn.title') }), el('span', { class: 'spacer' }), skip]),
      el('p', { class: 'hint', text: t('learn.intro') }),
      el('nav', { 'aria-label': t('learn.stepsLabel') }, [this.nav]),
      this.body,
    ]);
  }

  /** Opens step `step` (1-based) as the page's state says. */
  update(step: number): void {
    this.step = step;
    this.render();
  }


  private render(): void {
    const step = this.steps[this.step - 1];
    const ctx: StepContext = {
      run: this.source.simulate(step.request),
      compared: step.compared.map((r) => this.source.simulate(r)),
      comparedTitles: step.compared.map((r) => this.source.title(r.schedule)),
    };
    this.renderNav();
    clear(this.body);
    const prediction = this.saved.predictions[step.id];
    const committed = prediction !== undefined;
    const prefix = `learn.${step.id}`;
    this.body.append(
      el('p', { class: 'learn-count', text: t('learn.count', { n: this.step, total: this.steps.length }) }),
      el('h4', { class: 'learn-title', 'data-testid': 'learn-title', tabindex: -1, text: t(`${prefix}.title` as Key) }),
      el('p', { class: 'learn-text', text: t(`${prefix}.text` as Key, this.setting(step)) }),
      this.askBlock(step, ctx, prediction),
    );
    if (committed) this.body.append(this.revealBlock(step, ctx, prediction));
    this.body.append(this.navButtons(committed));
  }

  /** The step's settings in words: "1F1B, 4 ranks, 8 micro-batches, F=1, B=2, W=1, F&B=3". */
  private setting(step: Step): Record<string, string | number> {
    const r = step.request;
    return { ranks: Number(r.ranks), micro: Number(r.microBatches), cost: costWords(r.cost) };
  }

  private renderNav(): void {
    clear(this.nav);
    this.steps.forEach((s, k) => {
      const done = this.saved.predictions[s.id] !== undefined;
      const button = el('button', {
        type: 'button',
        class: `ghost learn-step ${done ? 'is-done' : ''}`,
        'aria-current': k + 1 === this.step ? 'step' : 'false',
        'data-testid': `learn-step-${k + 1}`,
        'aria-label': t(done ? 'learn.stepDone' : 'learn.stepTodo', { n: k + 1, title: t(`learn.${s.id}.title` as Key) }),
        text: done ? `✓ ${k + 1}` : String(k + 1),
      });
      button.addEventListener('click', () => this.open(k + 1));
      this.nav.append(el('li', {}, [button]));
    });
  }

  private askBlock(step: Step, ctx: StepContext, prediction: number | undefined): HTMLElement {
    const committed = prediction !== undefined;
    const id = `learn-${step.id}-answer`;
    const box = el('form', { class: 'learn-ask', 'data-testid': 'learn-ask' });
    const question = el('p', { class: 'learn-question', id: `${id}-q`, text: t(`learn.${step.id}.ask` as Key, this.setting(step)) });
    box.append(question);
    const commit = el('button', { type: 'submit', 'data-testid': 'learn-commit', disabled: committed, text: t('learn.commit') });
    let read: () => number | null;
    if (step.options) {
      const options = step.options(ctx);
      const group = el('div', { class: 'learn-options', role: 'radiogroup', 'aria-labelledby': `${id}-q` });
      options.forEach((text, k) => {
        const input = el('input', { type: 'radio', name: id, value: String(k), id: `${id}-${k}`, 'data-testid': 'learn-option', disabled: committed });
        if (prediction === k) input.checked = true;
        group.append(el('label', { for: `${id}-${k}`, class: 'learn-option' }, [input, ` ${text}`]));
      });
      box.append(group);
      read = () => {
        const checked = group.querySelector<HTMLInputElement>('input:checked');
        return checked ? Number(checked.value) : null;
      };
    } else {
      const input = el('input', { type: 'text', inputmode: 'decimal', id, 'data-testid': 'learn-number', 'aria-labelledby': `${id}-q`, autocomplete: 'off', disabled: committed, size: 8 });
      if (committed) input.value = num(prediction!);
      box.append(el('div', { class: 'toolbar' }, [input, el('span', { class: 'hint', text: t('learn.units') })]));
      read = () => {
        const v = Number(input.value.trim().replace(',', '.'));
        return input.value.trim() !== '' && Number.isFinite(v) ? v : null;
      };
    }
    const note = el('p', { class: 'hint', role: 'status', 'data-testid': 'learn-note' });
    box.append(el('div', { class: 'toolbar' }, [commit]), note);
    box.addEventListener('submit', (e) => {
      e.preventDefault();
      const value = read();
      if (value === null) {
        note.textContent = t('learn.needPrediction');
        return;
      }
      this.saved.predictions[step.id] = value;
      store(STORAGE_KEY, JSON.stringify(this.saved));
      this.render();
      this.body.querySelector<HTMLElement>('[data-testid=learn-reveal]')?.focus();
    });
    return box;
  }

  /** The engine's answer against the prediction, the explanation, and the timeline it comes from. */
  private revealBlock(step: Step, ctx: StepContext, prediction: number): HTMLElement {
    const answer = step.answer(ctx);
    const right = Math.abs(prediction - answer) < 0.01;
    const shown = step.options ? step.options(ctx)[answer] : num(answer);
    const view = new TimelineView({ describeOp, describeIdle, rankLabel: (n) => t('timeline.rank', { n }), ariaLabel: t('learn.timelineAria') });
    view.setGroups([{ key: `learn-${step.id}`, title: '', result: ctx.run, forwardShare: forwardShareOf(ctx.run.summary) }]);
    return el('div', { class: `learn-reveal ${right ? 'is-right' : 'is-wrong'}`, 'data-testid': 'learn-reveal', tabindex: -1, role: 'status' }, [
      el('strong', { 'data-testid': 'learn-verdict', text: t(right ? 'learn.right' : 'learn.wrong', { answer: shown }) }),
      el('p', { 'data-testid': 'learn-explain', text: t(`learn.${step.id}.reveal` as Key, step.facts(ctx)) }),
      view.element,
    ]);
  }

  private navButtons(committed: boolean): HTMLElement {
    const prev = el('button', { type: 'button', class: 'ghost', 'data-testid': 'learn-prev', disabled: this.step === 1, text: t('learn.previous') });
    const last = this.step === this.steps.length;
    const next = el('button', { type: 'button', class: committed ? '' : 'ghost', 'data-testid': 'learn-next', text: t(last ? 'learn.finish' : 'learn.next') });
    prev.addEventListener('click', () => this.open(this.step - 1));
    next.addEventListener('click', () => (last ? this.leave() : this.open(this.step + 1)));
    return el('div', { class: 'learn-nav' }, [prev, next]);
  }

  private open(step: number): void {
    this.goTo(step, this.steps[step - 1].request);
    this.element.querySelector<HTMLElement>('[data-testid=learn-title]')?.focus();
  }

  /** Forgets every prediction. */
  reset(): void {
    this.saved = { predictions: {} };
    store(STORAGE_KEY, JSON.stringify(this.saved));
    this.render();
  }

  /** Whether the student has started the lesson (the newcomer's offer is for those who have not). */
  static started(): boolean {
    return lessonStarted();
  }
}
