// The quiz tab: the QuizCard plus the course export. The card's code and the course module (which
// makes the questions) are loaded when the tab is first shown, so the page's first load does not carry them.
import { el } from '../base/dom';
import { download } from '../base/download';
import { t } from '../i18n';
import type { QuizSettings, QuizSource } from '../model/quiz_source';
import type { QuizCard } from './quiz_card';

export class QuizPanel {
  readonly element: HTMLElement;
  /** Where the card goes once loaded. */
  private readonly slot = el('div', { class: 'quiz-slot' });
  private card: Promise<QuizCard> | null = null;

  constructor(
    private readonly source: QuizSource,
    private readonly settings: () => QuizSettings,
    private readonly showView: (view: string) => void,
  ) {
    const exportButton = el('button', { type: 'button', class: 'ghost', 'data-testid': 'quiz-export', text: t('quiz.export') });
    exportButton.addEventListener('click', () => {
      void this.loadCard()
        .then((card) => card.courseExport())
        .then((text) => download('quiz.json', text, 'application/json'));
    });
    this.element = el('section', { class: 'panel', id: 'panel-quiz', role: 'tabpanel', hidden: true }, [
      el('h3', { text: t('quiz.title') }),
      el('p', { class: 'hint', text: t('quiz.hint') }),
      this.slot,
      el('div', { class: 'toolbar quiz-export' }, [exportButton, el('span', { class: 'hint', text: t('quiz.exportHint') })]),
    ]);
  }

  private loadCard(): Promise<QuizCard> {
    this.card ??= Promise.all([
      import('./quiz_card'),
      this.source.ready(), // loaded alongside the card rather than after it
    ]).then(
      ([{ QuizCard }]) => {
        // v2: the options come in core's seeded order now, so an answer saved as a v1 option index
        // could point at another option.
        const card = new QuizCard(this.source, { storageKey: 'pipesim:quiz:v2', settings: this.settings, showView: this.showView });
        this.slot.replaceWith(card.element);
        return card;
      },
      (e: unknown) => {
        this.card = null; // a chunk that failed to load (offline, redeployed) is tried again next time
        throw e;
      },
    );
    return this.card;
  }

  /** Live questions follow the settings: redraw when they change (the first call loads the card). */
  update(): void {
    this.loadCard().then(
      (card) => card.render(),
      () => {}, // nothing to draw; the next update tries again
    );
  }
}
