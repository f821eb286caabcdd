// The quiz: the lesson's sourced question bank (core/data/quiz_bank.json, three languages) and
// questions computed live by the engine for the current settings, one at a time, with score,
// explanation, source and a link to the view that shows the answer. Progress lives in localStorage.
// The bank (60 KB of text) is fetched when the quiz is first shown, not with the page: see loadBank().
import { clear, el } from '../base/dom';
import { load, store } from '../base/storage';
import { num, percent } from '../base/format';
import { courseText } from '../engine/course_data';
import { EngineError, type Engine, type RunRequest } from '../engine/engine';
import { lang, t, type Key } from '../i18n';
import { describeOp, scheduleTitle } from '../model/describe';
import { forwardShareOf } from '../model/run';
import { TimelineView } from '../timeline/timeline_view';

type Localised = Record<string, string>;

interface BankQuestion {
  id: number;
  stage: string;
  view: string;
  source: string;
  correct: number;
  question: Localised;
  options: Localised[];
  explanation: Localised;
}

/** One question as shown: options already in display order. */
interface Shown {
  key: string; // stable id for progress: "bank-7" or "live-idles-8-20-F=1,..."
  text: string;
  options: string[];
  correct: number; // index into options
  explanation: string;
  source: string;
  view?: string;
  /** Live timeline questions are answered by clicking the timeline instead of an option. */
  timeline?: { request: RunRequest; isAnswer: (op: number) => boolean; prompt: string };
}

interface Progress {
  seed: number;
  answers: Record<string, { choice: number; correct: boolean; revealed?: boolean }>;
  /** Questions answered wrong at least once: a retry may find the answer, but it never scores. */
  missed?: Record<string, true>;
}

export interface QuizOptions {
  /** localStorage key for progress */
  storageKey: string;
  /** the settings live questions are computed for */
  settings?: () => RunRequest;
  /** opens the view that shows a question's answer (the page's tabs) */
  showView?: (view: string) => void;
  /** runs each drawing in the owner's language (an embedded element has its own; see i18n inLang) */
  speak?: (draw: () => void) => void;
}

interface Bank {
  questions: BankQuestion[];
}

let bank: Bank | null = null;
let bankLoading: Promise<void> | null = null;

/** Loads the question bank once, as a separate chunk, so the page's first load does not carry it;
 *  the engine gets the same text for courseQuiz() (course_data.ts). */
function loadBank(): Promise<void> {
  bankLoading ??= courseText('quiz_bank').then(
    (text) => {
      bank = JSON.parse(text) as Bank;
    },
    (e: unknown) => {
      bankLoading = null; // a failed fetch (offline, redeployed) is tried again on the next render
      throw e;
    },
  );
  return bankLoading;
}

function pick(text: Localised): string {
  return text[lang()] ?? text.en;
}

/** A small deterministic generator, so a stored seed reproduces the same option order. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let r = Math.imul(a ^ (a >>> 15), 1 | a);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffled<T>(items: T[], seed: number): T[] {
  const out = [...items];
  const random = mulberry32(seed);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** Options in a shuffled order, the correct one tracked. */
function arrange(options: string[], correct: number, seed: number): { options: string[]; correct: number } {
  const order = shuffled(options.map((_, i) => i), seed);
  return { options: order.map((i) => options[i]), correct: order.indexOf(correct) };
}

export class QuizCard {
  readonly element: HTMLElement;
  private readonly head = el('div', { class: 'quiz-head' });
  private readonly body = el('div', { class: 'quiz-body' });
  private set: 'bank' | 'live' = 'bank';
  private index = 0;
  private progress: Progress;

  constructor(
    private readonly engine: Engine,
    private readonly options: QuizOptions,
  ) {
    this.progress = this.load();
    this.element = el('section', { class: 'quiz', 'data-testid': 'quiz' }, [this.head, this.body]);
    // Not rendered yet: its owner calls render() when the quiz is shown, which loads the bank.
  }

  // ---- progress ----------------------------------------------------------------------------------

  private load(): Progress {
    try {
      const saved = JSON.parse(load(this.options.storageKey) ?? 'null');
      if (saved && Number.isInteger(saved.seed) && saved.seed >= 0 && saved.answers && typeof saved.answers === 'object') return saved;
    } catch {
      // A corrupt entry is replaced below.
    }
    return { seed: Math.floor(Math.random() * 2 ** 31), answers: {} };
  }

  private save(): void {
    store(this.options.storageKey, JSON.stringify(this.progress));
  }

  /** Forgets every answer and reshuffles the options. */
  reset(): void {
    this.progress = { seed: Math.floor(Math.random() * 2 ** 31), answers: {} };
    this.save();
    this.index = 0;
    this.render();
  }

  // ---- questions ---------------------------------------------------------------------------------

  private bankQuestions(): Shown[] {
    if (!bank) return [];
    return bank.questions.map((q) => {
      const { options, correct } = arrange(q.options.map(pick), q.correct, this.progress.seed + q.id * 7919);
      return {
        key: `bank-${q.id}`,
        text: pick(q.question),
        options,
        correct,
        explanation: pick(q.explanation),
        source: q.source,
        view: q.view,
      };
    });
  }

  private liveQuestions(): Shown[] {
    const settings = this.options.settings?.() ?? { schedule: 'dualpipe', ranks: 8, microBatches: 20, cost: 'F=1,B=2,W=1,FB=3' };
    const out: Shown[] = [];
    for (const make of [() => this.idlesLeast(settings), () => this.dualPipeBubble(settings), () => this.firstTwoDirections(settings), () => this.peakActivations(settings)]) {
      try {
        const q = make();
        if (q) out.push(q);
      } catch (e) {
        if (!(e instanceof EngineError)) throw e; // a question that does not apply here is left out
      }
    }
    return out;
  }

  private signature(s: RunRequest): string {
    return `${s.ranks}-${s.microBatches}-${s.cost}`;
  }

  /** "Which schedule idles least?": four schedules that accept these sizes, ranked by the engine. */
  private idlesLeast(s: RunRequest): Shown | null {
    // The usual suspects first; the others stand in when one refuses these sizes.
    const candidates = ['dualpipe', '1f1b', 'zb-h1', 'gpipe', 'dualpipev', 'zb-h2', 'zb-v', 'chimera'];
    const results: { name: string; title: string; fraction: number }[] = [];
    for (const name of candidates) {
      if (results.length === 4) break;
      try {
        // The same model on the same GPUs, as Compare shows by default: the costs on screen are one
        // rank's share, and each schedule cuts the model into its own stages.
        const ranks = Number(s.ranks);
        const sameModel = Number.isInteger(ranks) && ranks > 0 ? { modelStages: ranks } : {};
        const r = this.engine.simulate({ ...s, schedule: name, virtualStages: 1, ...sameModel });
        results.push({ name, title: scheduleTitle(this.engine.schedule(name), name), fraction: r.summary.bubble_fraction });
      } catch (e) {
        if (!(e instanceof EngineError)) throw e;
      }
    }
    if (results.length < 4) return null;
    const best = results.reduce((a, b) => (b.fraction < a.fraction ? b : a));
    if (results.filter((r) => Math.abs(r.fraction - best.fraction) < 1e-12).length > 1) return null; // no single answer
    const key = `live-idles-${this.signature(s)}`;
    const { options, correct } = arrange(results.map((r) => r.title), results.indexOf(best), hash(key) + this.progress.seed);
    return {
      key,
      text: t('quiz.live.idles', { ranks: s.ranks, micro: s.microBatches, cost: s.cost }),
      options,
      correct,
      explanation: t('quiz.live.idlesWhy', { list: results.map((r) => `${r.title} ${percent(r.fraction, 1)}`).join(', '), best: best.title }),
      source: t('quiz.sourceEngine'),
      view: 'compare',
    };
  }

  /** "What is DualPipe's bubble per rank?": the simulated value against the classic formulas. */
  private dualPipeBubble(s: RunRequest): Shown | null {
    const r = this.engine.simulate({ ...s, schedule: 'dualpipe', virtualStages: 1 });
    const c = r.summary.cost;
    const pp = r.summary.ranks;
    const answer = r.summary.max_bubble as number;
    const distractors = [(pp - 1) * (c.F + c.B), (pp - 1) * (c.F + c.B - 2 * c.W), (pp / 2) * (c.F + c.B), answer + pp / 2, answer * 2 + 1]
      .map((v) => Number(v.toFixed(6)))
      .filter((v, i, all) => v !== answer && v >= 0 && all.indexOf(v) === i)
      .slice(0, 3);
    if (distractors.length < 3) return null;
    const key = `live-bubble-${this.signature(s)}`;
    const { options, correct } = arrange([num(answer), ...distractors.map(num)], 0, hash(key) + this.progress.seed);
    const f = r.summary.formula;
    return {
      key,
      text: t('quiz.live.bubble', { ranks: pp, micro: r.summary.micro_batches, cost: s.cost }),
      options,
      correct,
      explanation: t(f.exact ? 'quiz.live.bubbleWhyExact' : 'quiz.live.bubbleWhyInexact', { answer: num(answer), formula: f.text, worked: f.worked }),
      source: t('quiz.sourceEngine'),
      view: 'timeline',
    };
  }

  /** "Click the first slot where rank 0 runs both directions at once": answered on a timeline. */
  private firstTwoDirections(s: RunRequest): Shown | null {
    let request: RunRequest = { ...s, schedule: 'dualpipe', virtualStages: 1 };
    try {
      this.engine.simulate(request);
    } catch {
      request = { schedule: 'dualpipe', ranks: 4, microBatches: 8, cost: s.cost, virtualStages: 1 };
    }
    const r = this.engine.simulate(request);
    const ops = r.ops;
    let first = -1;
    for (let i = r.rankBegin[0]; i < r.rankBegin[1]; i++)
      if (ops.kind[i] === 4 && ops.phase[i] !== ops.bPhase[i]) {
        first = i;
        break;
      }
    if (first < 0) return null;
    const key = `live-slot-${this.signature(request)}`;
    return {
      key,
      text: t('quiz.live.slot', { ranks: r.summary.ranks, micro: r.summary.micro_batches }),
      options: [],
      correct: first,
      explanation: t('quiz.live.slotWhy', { start: num(ops.start[first]), end: num(ops.end[first]), f: ops.mb[first], b: ops.bMb[first] }),
      source: t('quiz.sourceSlot'),
      view: 'timeline',
      timeline: { request, isAnswer: (op) => op === first, prompt: t('quiz.live.slotPrompt') },
    };
  }

  /** "How many activations at peak?": PP + 1 from the engine against PP, 2PP and PP/2 + 1. */
  private peakActivations(s: RunRequest): Shown | null {
    const r = this.engine.simulate({ ...s, schedule: 'dualpipe', virtualStages: 1 });
    const pp = r.summary.ranks as number;
    const answer = r.summary.peak_activations as number;
    const distractors = [pp, 2 * pp, pp / 2 + 1, pp - 1, pp + 2].filter((v, i, all) => v !== answer && Number.isInteger(v) && all.indexOf(v) === i).slice(0, 3);
    const key = `live-peak-${this.signature(s)}`;
    const { options, correct } = arrange([answer, ...distractors].map(String), 0, hash(key) + this.progress.seed);
    return {
      key,
      text: t('quiz.live.peak', { ranks: pp, micro: r.summary.micro_batches }),
      options,
      correct,
      explanation: t('quiz.live.peakWhy', { answer, pp }),
      source: t('quiz.sourcePeak'),
      view: 'memory',
    };
  }

  private questions(): Shown[] {
    return this.set === 'bank' ? this.bankQuestions() : this.liveQuestions();
  }

  // ---- rendering ---------------------------------------------------------------------------------

  /** Draws the card, in the owner's language when it has one: also after the bank has loaded. */
  render(): void {
    if (this.options.speak) this.options.speak(() => this.draw());
    else this.draw();
  }

  private draw(): void {
    if (this.set === 'bank' && !bank) {
      // First showing: fetch the bank, then draw. Until then the card stays as it is (empty at first).
      this.element.setAttribute('aria-busy', 'true');
      loadBank().then(
        () => {
          this.element.removeAttribute('aria-busy');
          this.render();
        },
        () => {
          // The chunk did not load: the live questions stay reachable; the next render tries again.
          this.element.removeAttribute('aria-busy');
          this.renderHead([]);
          clear(this.body);
        },
      );
      return;
    }
    const all = this.questions();
    this.index = Math.min(this.index, Math.max(0, all.length - 1));
    this.renderHead(all);
    clear(this.body);
    if (all.length === 0) {
      this.body.append(el('p', { class: 'hint', text: t('quiz.none') }));
      return;
    }
    this.body.append(this.renderQuestion(all[this.index], all.length));
  }

  private score(all: Shown[]): { right: number; answered: number } {
    let right = 0;
    let answered = 0;
    for (const q of all) {
      const a = this.progress.answers[q.key];
      const missed = !!this.progress.missed?.[q.key];
      if (!a && !missed) continue;
      answered++;
      if (a?.correct && !missed) right++;
    }
    return { right, answered };
  }

  private renderHead(all: Shown[]): void {
    clear(this.head);
    const tab = (set: 'bank' | 'live', key: Key) => {
      const b = el('button', { type: 'button', class: set === this.set ? '' : 'ghost', 'aria-pressed': String(set === this.set), 'data-testid': `quiz-set-${set}`, text: t(key) });
      b.addEventListener('click', () => {
        this.set = set;
        this.index = 0;
        this.render();
      });
      return b;
    };
    const { right, answered } = this.score(all);
    const reset = el('button', { type: 'button', class: 'ghost', 'data-testid': 'quiz-reset', text: t('quiz.reset') });
    reset.addEventListener('click', () => this.reset());
    this.head.append(
      el('div', { class: 'quiz-sets' }, [tab('bank', 'quiz.setBank'), tab('live', 'quiz.setLive')]),
      el('div', { class: 'quiz-score', 'data-testid': 'quiz-score', text: t('quiz.score', { right, answered, total: all.length }) }),
      reset,
    );
  }

  private renderQuestion(q: Shown, total: number): HTMLElement {
    const answer = this.progress.answers[q.key];
    const card = el('div', { class: 'quiz-card', 'data-question': q.key });
    card.append(
      el('div', { class: 'quiz-count', text: t('quiz.count', { n: this.index + 1, total }) }),
      el('h4', { class: 'quiz-question', 'data-testid': 'quiz-question', tabindex: -1, text: q.text }),
    );
    // A wrong answer shows that it is wrong, not which one is right: the student may try again first.
    const shown = answer && (answer.correct || answer.revealed);
    if (q.timeline) card.append(this.renderTimelineAnswer(q, answer));
    else {
      const list = el('div', { class: 'quiz-options', role: 'group', 'aria-label': q.text });
      q.options.forEach((text, i) => {
        const state = !answer ? '' : i === q.correct && shown ? 'is-correct' : i === answer.choice ? 'is-wrong' : '';
        const button = el('button', { type: 'button', class: `quiz-option ${state}`, 'data-testid': 'quiz-option', 'data-index': i, disabled: !!answer, text });
        button.addEventListener('click', () => this.answer(q, i));
        list.append(button);
      });
      card.append(list);
    }
    if (answer) card.append(this.renderFeedback(q, answer, !!this.progress.missed?.[q.key]));
    const prev = el('button', { type: 'button', class: 'ghost', disabled: this.index === 0, text: t('quiz.previous') });
    const next = el('button', { type: 'button', class: 'ghost', disabled: this.index >= total - 1, 'data-testid': 'quiz-next', text: t('quiz.next') });
    const retry = el('button', { type: 'button', class: 'ghost', hidden: !answer, 'data-testid': 'quiz-retry', text: t('quiz.retry') });
    prev.addEventListener('click', () => this.go(-1));
    next.addEventListener('click', () => this.go(1));
    retry.addEventListener('click', () => {
      delete this.progress.answers[q.key];
      this.save();
      this.render();
      this.body.querySelector<HTMLElement>('[data-testid=quiz-question]')?.focus();
    });
    card.append(el('div', { class: 'quiz-nav' }, [prev, retry, next]));
    return card;
  }

  private renderFeedback(q: Shown, answer: { choice: number; correct: boolean; revealed?: boolean }, missed: boolean): HTMLElement {
    const correct = answer.correct;
    const verdict = correct ? (missed ? 'quiz.rightRetried' : 'quiz.right') : answer.revealed ? 'quiz.wrongRevealed' : 'quiz.wrongTryAgain';
    const box = el('div', { class: `quiz-feedback ${correct ? 'is-correct' : 'is-wrong'}`, 'data-testid': 'quiz-feedback', role: 'status', tabindex: -1 }, [
      el('strong', { text: t(verdict) }),
    ]);
    if (!correct && !answer.revealed) {
      // The explanation gives the answer away: it waits for the student to ask for it.
      const reveal = el('button', { type: 'button', class: 'ghost', 'data-testid': 'quiz-reveal', text: t('quiz.reveal') });
      reveal.addEventListener('click', () => {
        this.progress.answers[q.key] = { ...answer, revealed: true };
        this.save();
        this.render();
        this.body.querySelector<HTMLElement>('[data-testid=quiz-feedback]')?.focus();
      });
      box.append(el('div', { class: 'toolbar' }, [reveal]));
      return box;
    }
    box.append(el('p', { text: q.explanation }), el('p', { class: 'hint', text: t('quiz.source', { source: q.source }) }));
    if (q.view && this.options.showView) {
      // The bank's "placement" (which stages a rank holds) is shown on the Memory tab.
      const view = q.view === 'placement' ? 'memory' : q.view;
      const link = el('button', { type: 'button', class: 'ghost', 'data-testid': 'quiz-show', text: t('quiz.show', { view: t(`tab.${view}` as Key) }) });
      link.addEventListener('click', () => this.options.showView!(view));
      box.append(link);
    }
    return box;
  }

  private renderTimelineAnswer(q: Shown, answer: { choice: number; correct: boolean; revealed?: boolean } | undefined): HTMLElement {
    const r = this.engine.simulate(q.timeline!.request);
    const group = { key: 'quiz', title: '', result: r, forwardShare: forwardShareOf(r.summary) };
    const view = new TimelineView({
      describeOp,
      describeIdle: () => [t('idle.title')],
      rankLabel: (n) => t('timeline.rank', { n }),
      ariaLabel: q.timeline!.prompt,
      onCellClick: (cell) => {
        if (!this.progress.answers[q.key]) this.answer(q, cell.op);
      },
    });
    view.setGroups([group]);
    if (answer) view.setHighlight((_, op) => ((answer.correct || !!answer.revealed) && op === q.correct) || op === answer.choice);
    return el('div', { class: 'quiz-timeline' }, [el('p', { class: 'hint', text: q.timeline!.prompt }), view.element]);
  }

  private answer(q: Shown, choice: number): void {
    const correct = q.timeline ? q.timeline.isAnswer(choice) : choice === q.correct;
    this.progress.answers[q.key] = { choice, correct };
    if (!correct) this.progress.missed = { ...this.progress.missed, [q.key]: true };
    this.save();
    this.render();
    // The rebuilt card replaced the button that had focus: continue from the feedback.
    this.body.querySelector<HTMLElement>('[data-testid=quiz-feedback]')?.focus();
  }

  private go(step: number): void {
    this.index += step;
    this.render();
    this.body.querySelector<HTMLElement>('[data-testid=quiz-question]')?.focus();
  }

  /** The course's quiz.json (1 pre, 3 check, 2 post) in the current language, from the engine. */
  async courseExport(): Promise<string> {
    await this.engine.courseData();
    const quiz = this.engine.courseQuiz(lang());
    return JSON.stringify(quiz, null, 2) + '\n';
  }
}
