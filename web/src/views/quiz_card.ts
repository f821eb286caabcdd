// The quiz: the lesson's sourced question bank (core/data/quiz_bank.json, three languages) and
// questions computed live by the engine for the current settings, one at a time, with score,
// explanation, source and a link to the view that shows the answer. Core makes every question, its
// options already in display order (pipesim/quiz_questions.h); this card draws them, takes the
// student's choice and keeps the progress in localStorage. A retried question never scores.
import { clear, el } from '../base/dom';
import { load, store } from '../base/storage';
import { lang, t, type Key } from '../i18n';
import { describeOp } from '../model/describe';
import { liveRequest, type QuizQuestion, type QuizSettings, type QuizSource } from '../model/quiz_source';
import { forwardShareOf } from '../model/run';
import { TimelineView } from '../timeline/timeline_view';

interface Progress {
  /** The student's seed for core's option order: "start again" draws a new one. */
  seed: number;
  answers: Record<string, { choice: number; correct: boolean; revealed?: boolean }>;
  /** Questions answered wrong at least once: a retry may find the answer, but it never scores. */
  missed?: Record<string, true>;
}

export interface QuizOptions {
  /** localStorage key for progress */
  storageKey: string;
  /** the settings live questions are computed for */
  settings?: () => QuizSettings;
  /** opens the view that shows a question's answer (the page's tabs) */
  showView?: (view: string) => void;
  /** runs each drawing in the owner's language (an embedded element has its own; see i18n inLang) */
  speak?: (draw: () => void) => void;
}

export class QuizCard {
  readonly element: HTMLElement;
  private readonly head = el('div', { class: 'quiz-head' });
  private readonly body = el('div', { class: 'quiz-body' });
  private set: 'bank' | 'live' = 'bank';
  private index = 0;
  private progress: Progress;

  constructor(
    private readonly source: QuizSource,
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

  /** Forgets every answer and draws a new seed, so core orders the options anew. */
  reset(): void {
    this.progress = { seed: Math.floor(Math.random() * 2 ** 31), answers: {} };
    this.save();
    this.index = 0;
    this.render();
  }

  // ---- questions ----------------------------------------------------------------------------------

  /** The set on screen, as core makes it for the settings, the language and the student's seed. */
  private questions(): QuizQuestion[] {
    const seed = this.progress.seed;
    if (this.set === 'bank') return this.source.questions({ set: 'bank', lang: lang(), seed });
    return this.source.questions(liveRequest(this.options.settings?.() ?? {}, lang(), seed));
  }

  // ---- rendering ---------------------------------------------------------------------------------

  /** Draws the card, in the owner's language when it has one: also after the bank has loaded. */
  render(): void {
    if (this.options.speak) this.options.speak(() => this.draw());
    else this.draw();
  }

  private draw(): void {
    if (!this.source.isReady()) {
      // First showing: load the course module and its data, then draw. Until then the card stays as
      // it is (empty at first).
      this.element.setAttribute('aria-busy', 'true');
      this.source.ready().then(
        () => {
          this.element.removeAttribute('aria-busy');
          this.render();
        },
        () => {
          // The course module did not load (offline, redeployed): the next render tries again.
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

  private score(all: QuizQuestion[]): { right: number; answered: number } {
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

  private renderHead(all: QuizQuestion[]): void {
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

  private renderQuestion(q: QuizQuestion, total: number): HTMLElement {
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

  private renderFeedback(q: QuizQuestion, answer: { choice: number; correct: boolean; revealed?: boolean }, missed: boolean): HTMLElement {
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

  private renderTimelineAnswer(q: QuizQuestion, answer: { choice: number; correct: boolean; revealed?: boolean } | undefined): HTMLElement {
    const r = this.source.timelineRun(q.timeline!);
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

  private answer(q: QuizQuestion, choice: number): void {
    // For a timeline question `correct` is the op to click, otherwise the option's index.
    const correct = choice === q.correct;
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
  courseExport(): Promise<string> {
    return this.source.courseExport(lang());
  }
}
