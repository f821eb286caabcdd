// "Learn": a guided lesson in eight short steps, from the bubble of 1F1B through Zero Bubble's split
// backward, DualPipe's two directions and F&B pair, to a bubble that does not grow with micro-batches
// and DualPipeV's halving of the GPUs. Each step sets the page's state (so the controls and the other
// tabs follow), asks one prediction, and only then shows the timeline and the engine's numbers.
// Every answer is computed by the engine at the step's settings, never written here.
// The step is in the URL (?view=learn&step=3; ?view=learn opens step 1); predictions are kept in
// localStorage so a returning student sees what they answered.
import { clear, el } from '../base/dom';
import { num, percent } from '../base/format';
import { load, store } from '../base/storage';
import type { RunRequest, SimulateValue } from '../engine/engine';
import { t, type Key } from '../i18n';
import { describeIdle, describeOp } from '../model/describe';
import type { LearnSource } from '../model/learn_source';
import { forwardShareOf } from '../model/run';
import { TimelineView } from '../timeline/timeline_view';

const UNIT_COSTS = 'F=1,B=2,W=1,FB=3';
const STORAGE_KEY = 'pipesim:learn:v1';

/** What a step needs from the engine: its own run, and any other run it compares with. */
interface StepContext {
  run: SimulateValue;
  simulate: (request: RunRequest) => SimulateValue;
  /** A schedule's display name, from the engine's catalogue. */
  title: (name: string) => string;
}

interface Step {
  /** i18n prefix: learn.<id>.title / .text / .ask / .reveal */
  id: string;
  request: RunRequest;
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

const request = (schedule: string, ranks: number, microBatches: number): RunRequest => ({ schedule, ranks, microBatches, cost: UNIT_COSTS });

export const STEPS: Step[] = [
  {
    id: 's1',
    request: request('1f1b', 4, 8),
    answer: ({ run }) => rankBubble(run, 0),
    facts: ({ run }) => ({ idle: num(rankBubble(run, 0)), makespan: num(run.summary.makespan), busy: num(run.summary.makespan - rankBubble(run, 0)), fraction: percent(run.summary.bubble_fraction, 1) }),
  },
  {
    id: 's2',
    request: request('1f1b', 4, 16),
    options: trendOptions,
    answer: ({ run, simulate }) => trend(rankBubble(simulate(request('1f1b', 4, 8)), 0), rankBubble(run, 0)),
    facts: ({ run, simulate }) => {
      const before = simulate(request('1f1b', 4, 8));
      return { before: num(rankBubble(before, 0)), idle: num(rankBubble(run, 0)), fractionBefore: percent(before.summary.bubble_fraction, 1), fraction: percent(run.summary.bubble_fraction, 1) };
    },
  },
  {
    id: 's3',
    request: request('zb-h1', 4, 8),
    answer: ({ run }) => rankBubble(run, 0),
    facts: ({ run, simulate }) => ({ idle: num(rankBubble(run, 0)), idle1f1b: num(rankBubble(simulate(request('1f1b', 4, 8)), 0)), makespan: num(run.summary.makespan) }),
  },
  {
    id: 's4',
    request: request('dualpipe', 8, 20),
    options: ({ run }) => [t('learn.s4.optionOne'), t('learn.s4.optionEnds', { last: run.summary.ranks - 1 }), t('learn.s4.optionAll')],
    answer: ({ run }) => {
      const first = startingRanks(run);
      const last = run.summary.ranks - 1;
      return first.length === 1 ? 0 : first.length === 2 && first[0] === 0 && first[1] === last ? 1 : 2;
    },
    facts: ({ run }) => ({ ranks: startingRanks(run).join(', '), last: run.summary.ranks - 1 }),
  },
  {
    id: 's5',
    request: request('dualpipe', 8, 20),
    answer: ({ run }) => maxBubble(run),
    facts: ({ run }) => ({ max: num(maxBubble(run)), worked: run.summary.formula.worked, fb: num(run.summary.cost.FB), fplusb: num(run.summary.cost.F + run.summary.cost.B) }),
  },
  {
    id: 's6',
    request: request('dualpipe', 8, 40),
    options: trendOptions,
    answer: ({ run, simulate }) => trend(maxBubble(simulate(request('dualpipe', 8, 20))), maxBubble(run)),
    facts: ({ run, simulate }) => {
      const before = simulate(request('dualpipe', 8, 20));
      return { before: num(maxBubble(before)), max: num(maxBubble(run)), fractionBefore: percent(before.summary.bubble_fraction, 1), fraction: percent(run.summary.bubble_fraction, 1) };
    },
  },
  {
    id: 's7',
    request: request('dualpipev', 4, 20),
    options: ({ run }) => [run.summary.stages / 2, run.summary.stages, 2 * run.summary.stages].map(String),
    answer: ({ run }) => [run.summary.stages / 2, run.summary.stages, 2 * run.summary.stages].indexOf(run.summary.ranks),
    facts: ({ run, simulate }) => ({ stages: run.summary.stages, ranks: run.summary.ranks, max: num(maxBubble(run)), maxDualPipe: num(maxBubble(simulate(request('dualpipe', 8, 20)))) }),
  },
  {
    id: 's8',
    request: request('dualpipe', 8, 20),
    options: ({ title }) => COMPARED.map(([name]) => title(name)),
    answer: ({ simulate }) => {
      const fractions = COMPARED.map(([name, ranks]) => simulate(request(name, ranks, 20)).summary.bubble_fraction);
      return fractions.indexOf(Math.min(...fractions));
    },
    facts: ({ simulate, title }) => ({
      list: COMPARED.map(([name, ranks]) => `${title(name)} ${percent(simulate(request(name, ranks, 20)).summary.bubble_fraction, 1)}`).join(' · '),
    }),
  },
];

/** The schedules of the last step, on the same 8 stages: DualPipeV folds them onto 4 GPUs. */
const COMPARED: [string, number][] = [
  ['1f1b', 8],
  ['zb-h1', 8],
  ['dualpipe', 8],
  ['dualpipev', 4],
];

interface Saved {
  /** Per step id: the prediction committed (a number, or an option's index). */
  predictions: Record<string, number>;
}

function loadSaved(): Saved {
  try {
    const saved = JSON.parse(load(STORAGE_KEY) ?? 'null');
    if (saved && typeof saved.predictions === 'object' && saved.predictions) return saved;
  } catch {
    // replaced below
  }
  return { predictions: {} };
}

/** The step number (1-based) that `text` names, or 1. */
export function stepFromUrl(text: string | null): number {
  const n = Number(text);
  return Number.isInteger(n) && n >= 1 && n <= STEPS.length ? n : 1;
}

export class LearnPanel {
  readonly element: HTMLElement;
  private readonly body = el('div', { class: 'learn-body' });
  private readonly nav = el('ol', { class: 'learn-steps', 'data-testid': 'learn-steps' });
  private saved = loadSaved();
  private step = 1;

  constructor(
    /** The steps' runs (model/learn_source.ts): this view only draws them. */
    private readonly source: LearnSource,
    /** Sets the page to a step: its settings, the learn view and the step in the URL. */
    private readonly goTo: (step: number, request: RunRequest) => void,
    private readonly leave: () => void,
  ) {
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

  /** The settings of a step, for the page to apply when it opens the step from the URL. */
  static requestOf(step: number): RunRequest {
    return STEPS[step - 1].request;
  }

  private render(): void {
    const step = STEPS[this.step - 1];
    const simulate = (r: RunRequest) => this.source.simulate(r);
    const ctx: StepContext = { run: simulate(step.request), simulate, title: (name) => this.source.title(name) };
    this.renderNav();
    clear(this.body);
    const prediction = this.saved.predictions[step.id];
    const committed = prediction !== undefined;
    const prefix = `learn.${step.id}`;
    this.body.append(
      el('p', { class: 'learn-count', text: t('learn.count', { n: this.step, total: STEPS.length }) }),
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
    return { ranks: Number(r.ranks), micro: Number(r.microBatches), cost: 'F=1, B=2, W=1, F&B=3' };
  }

  private renderNav(): void {
    clear(this.nav);
    STEPS.forEach((s, k) => {
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
    const last = this.step === STEPS.length;
    const next = el('button', { type: 'button', class: committed ? '' : 'ghost', 'data-testid': 'learn-next', text: t(last ? 'learn.finish' : 'learn.next') });
    prev.addEventListener('click', () => this.open(this.step - 1));
    next.addEventListener('click', () => (last ? this.leave() : this.open(this.step + 1)));
    return el('div', { class: 'learn-nav' }, [prev, next]);
  }

  private open(step: number): void {
    this.goTo(step, STEPS[step - 1].request);
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
    return Object.keys(loadSaved().predictions).length > 0;
  }
}
