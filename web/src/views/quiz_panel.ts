// The quiz tab: the QuizCard plus the course export.
import { el } from '../base/dom';
import { download } from '../base/download';
import type { Engine, RunRequest } from '../engine/engine';
import { t } from '../i18n';
import { QuizCard } from './quiz_card';

export class QuizPanel {
  readonly element: HTMLElement;
  private readonly card: QuizCard;

  constructor(engine: Engine, settings: () => RunRequest, showView: (view: string) => void) {
    this.card = new QuizCard(engine, { storageKey: 'pipesim:quiz:v1', settings, showView });
    const exportButton = el('button', { type: 'button', class: 'ghost', 'data-testid': 'quiz-export', text: t('quiz.export') });
    exportButton.addEventListener('click', () => download('quiz.json', this.card.courseExport(), 'application/json'));
    this.element = el('section', { class: 'panel', id: 'panel-quiz', role: 'tabpanel', hidden: true }, [
      el('h3', { text: t('quiz.title') }),
      el('p', { class: 'hint', text: t('quiz.hint') }),
      this.card.element,
      el('div', { class: 'toolbar quiz-export' }, [exportButton, el('span', { class: 'hint', text: t('quiz.exportHint') })]),
    ]);
  }

  /** Live questions follow the settings: redraw when they change. */
  update(): void {
    this.card.render();
  }
}
