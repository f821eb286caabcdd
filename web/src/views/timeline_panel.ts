// The main view: the per-rank timeline of the chosen schedule, its legend, what it shows in words,
// a per-rank table, and "explain this bubble" on click.
import { clear, el } from '../base/dom';
import { num, percent } from '../base/format';
import { t } from '../i18n';
import { describeIdle, describeOp } from '../app/describe';
import { forwardShare, type RunView } from '../app/run';
import { TimelineView, type TimelineGroup } from '../timeline/timeline_view';
import { legend } from './legend';

export class TimelinePanel {
  readonly element: HTMLElement;
  readonly view: TimelineView;
  private readonly legendHost = el('div');
  private readonly caption = el('p', { class: 'caption' });
  private readonly explain = el('div', { class: 'explain', 'data-testid': 'explain', hidden: true, 'aria-live': 'polite' });
  private readonly table = el('div', { class: 'table-scroll' });
  private group: TimelineGroup | null = null;

  constructor() {
    this.view = new TimelineView({
      describeOp,
      describeIdle,
      rankLabel: (r) => t('timeline.rank', { n: r }),
      ariaLabel: t('timeline.aria'),
      onIdleClick: (idle) => this.showExplanation(describeIdle(this.group!, idle)),
      onCellClick: (cell) => this.showExplanation(describeOp(this.group!, cell.op)),
    });
    const zoomIn = el('button', { class: 'ghost', type: 'button', text: '+', 'aria-label': t('timeline.zoomIn') });
    const zoomOut = el('button', { class: 'ghost', type: 'button', text: '−', 'aria-label': t('timeline.zoomOut') });
    const fit = el('button', { class: 'ghost', type: 'button', text: t('timeline.fit') });
    zoomIn.addEventListener('click', () => this.view.zoom(1.5));
    zoomOut.addEventListener('click', () => this.view.zoom(1 / 1.5));
    fit.addEventListener('click', () => this.view.fit());
    this.element = el('section', { class: 'panel', id: 'panel-timeline', role: 'tabpanel' }, [
      el('div', { class: 'toolbar' }, [this.legendHost, el('span', { class: 'spacer' }), zoomOut, zoomIn, fit]),
      this.view.element,
      el('p', { class: 'hint', text: t('timeline.howTo') }),
      this.explain,
      this.caption,
      this.table,
    ]);
  }

  private showExplanation(lines: string[]): void {
    clear(this.explain);
    lines.forEach((line, k) => this.explain.append(el(k === 0 ? 'strong' : 'div', { text: line })));
    this.explain.hidden = false;
  }

  update(run: RunView): void {
    this.group = { key: run.info.name, title: run.info.title, result: run.result, forwardShare: forwardShare(run) };
    this.view.setGroups([this.group]);
    this.explain.hidden = true;
    clear(this.legendHost);
    this.legendHost.append(legend(run.result.summary));
    this.caption.textContent = captionFor(run);
    clear(this.table);
    this.table.append(perRankTable(run));
  }
}

function captionFor(run: RunView): string {
  const s = run.result.summary;
  const params = { ranks: s.ranks, micro: s.micro_batches, last: s.ranks - 1, stages: s.stages, half: s.micro_batches / 2, vs: s.virtual_stages, vlast: 2 * s.ranks - 1 };
  const key = `caption.${run.info.name}`;
  const specific = t(key as 'caption.generic', params);
  return specific === key ? t('caption.generic', params) : specific;
}

function perRankTable(run: RunView): HTMLElement {
  const s = run.result.summary;
  const head = el('tr', {}, [
    el('th', { text: t('table.rank') }),
    el('th', { text: t('table.busy') }),
    el('th', { text: t('table.bubble') }),
    el('th', { text: t('table.utilisation') }),
    el('th', { text: t('table.peak') }),
    el('th', { text: t('table.stagesHeld') }),
  ]);
  const body = s.per_rank.map((r: any) =>
    el('tr', {}, [
      el('td', { text: t('timeline.rank', { n: r.rank }) }),
      el('td', { text: num(r.busy) }),
      el('td', { text: num(r.bubble) }),
      el('td', { text: percent(r.busy / s.makespan, 1) }),
      el('td', { text: num(r.peak_activations) }),
      el('td', { text: num(r.stages_held) }),
    ]),
  );
  return el('table', { class: 'data', 'data-testid': 'per-rank-table' }, [
    el('caption', { class: 'visually-hidden', text: t('table.perRankCaption') }),
    el('thead', {}, [head]),
    el('tbody', {}, body),
  ]);
}
