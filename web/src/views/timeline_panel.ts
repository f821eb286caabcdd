// The main view: the per-rank timeline of the chosen schedule, its legend, what it shows in words,
// a per-rank table, and "explain this bubble" on click.
import { clear, el } from '../base/dom';
import { download, downloadChoices } from '../base/download';
import { num, percent } from '../base/format';
import type { ExportFormat, ExportFormatInfo, RunRequest } from '../engine/engine';
import { fill, lang, t } from '../i18n';
import { describeColumnWaits, describeIdle, describeOp, kindAt, phaseLabel } from '../model/describe';
import { forwardShare, type RunView } from '../model/run';
import { SchedulePlayer } from '../timeline/schedule_player';
import { TimelineView, type TimelineGroup } from '../timeline/timeline_view';
import { legend } from './legend';

export class TimelinePanel {
  readonly element: HTMLElement;
  readonly view: TimelineView;
  private readonly legendHost = el('div');
  private readonly caption = el('p', { class: 'caption' });
  private readonly explain = el('div', { class: 'explain', 'data-testid': 'explain', hidden: true, 'aria-live': 'polite' });
  private readonly table = el('div', { class: 'table-scroll' });
  private readonly exportError = el('div', { class: 'error', role: 'alert', hidden: true, 'data-testid': 'export-error' });
  /** While a large download is written in the worker. */
  private readonly exportStatus = el('p', { class: 'hint', role: 'status', hidden: true, 'data-testid': 'export-status' });
  private readonly tableToggle = el('button', { type: 'button', class: 'ghost', 'aria-expanded': 'false', 'data-testid': 'table-toggle' });
  private readonly opsTable = el('div', { class: 'table-scroll ops-table', hidden: true });
  private group: TimelineGroup | null = null;
  private run: RunView | null = null;
  /** Play, phases and a micro-batch's path (schedule_player.ts). */
  private readonly player: SchedulePlayer;

  constructor(
    /** Writes a download (the app, through its engine client: here for a small run, in the worker
     *  for a large one, calling `away` then); null when a newer download superseded it. The view
     *  itself has no engine. */
    private readonly write: (
      request: RunRequest,
      format: ExportFormat,
      away: () => void,
      progress: (percent: number) => void,
    ) => Promise<string | null>,
    /** The engine's table of export formats: one download button each. */
    private readonly formats: readonly ExportFormatInfo[],
  ) {
    this.view = new TimelineView({
      describeOp,
      describeIdle,
      describeColumnWaits,
      rankLabel: (r) => t('timeline.rank', { n: r }),
      ariaLabel: t('timeline.aria'),
      onIdleClick: (idle) => this.showExplanation(describeIdle(this.group!, idle)),
      onCellClick: (cell) => {
        this.showExplanation(describeOp(this.group!, cell.op));
        this.player.showPath(cell.op);
      },
    });
    this.player = new SchedulePlayer(this.view);
    const zoomIn = el('button', { class: 'ghost', type: 'button', text: '+', 'aria-label': t('timeline.zoomIn') });
    const zoomOut = el('button', { class: 'ghost', type: 'button', text: '−', 'aria-label': t('timeline.zoomOut') });
    const fit = el('button', { class: 'ghost', type: 'button', text: t('timeline.fit') });
    zoomIn.addEventListener('click', () => this.view.zoom(1.5));
    zoomOut.addEventListener('click', () => this.view.zoom(1 / 1.5));
    fit.addEventListener('click', () => this.view.fit());
    this.tableToggle.textContent = t('timeline.showTable');
    this.tableToggle.addEventListener('click', () => this.toggleTable());
    this.element = el('section', { class: 'panel', id: 'panel-timeline', role: 'tabpanel' }, [
      el('div', { class: 'toolbar' }, [this.legendHost, el('span', { class: 'spacer' }), zoomOut, zoomIn, fit]),
      this.view.element,
      this.player.element,
      // A touch screen has no hover or wheel: its hint names the tap and the pinch.
      el('p', { class: 'hint', 'data-testid': 'timeline-how-to', text: t(matchMedia('(pointer: coarse)').matches ? 'timeline.howToTouch' : 'timeline.howTo') }),
      this.explain,
      this.exportBar(),
      this.exportStatus,
      this.exportError,
      this.caption,
      el('div', { class: 'toolbar' }, [this.tableToggle]),
      this.opsTable,
      this.table,
    ]);
  }

  private showExplanation(lines: string[]): void {
    clear(this.explain);
    lines.forEach((line, k) => this.explain.append(el(k === 0 ? 'strong' : 'div', { text: line })));
    this.explain.hidden = false;
  }

  /** Downloads of what is on screen: one button per format of the engine's table, and PNG (the
   *  canvas, the page's own) beside SVG, the other picture. */
  private exportBar(): HTMLElement {
    const buttons = downloadChoices(this.formats).map(({ label, format, extension, type }) => {
      const b = el('button', { type: 'button', class: 'ghost', 'data-testid': `export-${format}`, text: label });
      b.addEventListener('click', () => void this.export(format, extension, type));
      return b;
    });
    return el('div', { class: 'toolbar export-bar' }, [el('span', { class: 'hint', text: t('timeline.export') }), ...buttons]);
  }

  private async export(format: ExportFormat | 'png', ext: string, type: string): Promise<void> {
    if (!this.run) return;
    const name = `pipesim-${this.run.info.name}-${this.run.result.summary.ranks}x${this.run.result.summary.micro_batches}.${ext}`;
    this.exportError.hidden = true;
    try {
      if (format === 'png') download(name, await this.view.toPng(2), type);
      else {
        const text = await this.exportText(this.run.request, format);
        if (text !== null) download(name, text, type);
      }
    } catch (e) {
      // Every failure is said, a refusal in the engine's words: a download never fails silently.
      this.exportError.hidden = false;
      this.exportError.textContent = `${t('error.refused')} ${e instanceof Error ? e.message : String(e)}`;
    }
  }

  /** The engine's export, written where the engine client says (a large one in the worker, with a
   *  note while it is). */
  private async exportText(request: RunRequest, format: ExportFormat): Promise<string | null> {
    const words = { format: format.toUpperCase(), ops: (this.run?.result.ops.count ?? 0).toLocaleString(lang()) };
    const away = () => {
      this.exportStatus.hidden = false;
      this.exportStatus.textContent = t('timeline.exporting', words);
    };
    const progress = (done: number) => (this.exportStatus.textContent = t('timeline.exportProgress', { ...words, percent: percent(done / 100, 0) }));
    try {
      return await this.write(request, format, away, progress);
    } finally {
      this.exportStatus.hidden = true;
    }
  }

  private toggleTable(): void {
    const open = this.opsTable.hidden;
    this.opsTable.hidden = !open;
    this.tableToggle.setAttribute('aria-expanded', String(open));
    this.tableToggle.textContent = t(open ? 'timeline.hideTable' : 'timeline.showTable');
    if (open) this.fillOpsTable();
  }

  /** Every op as a row: the screen-reader (and spreadsheet-minded) alternative of the canvas. */
  private fillOpsTable(): void {
    clear(this.opsTable);
    if (!this.run) return;
    const r = this.run.result;
    const ops = r.ops;
    const limit = Math.min(ops.count, 3000);
    // Reference timing: each op's wait before it starts, in its three layers (what the timeline
    // hatches), so that the table says what the canvas shows.
    const waits = ops.waitUsedReceive && ops.waitUnusedReceive && ops.waitSend ? [ops.waitUsedReceive, ops.waitUnusedReceive, ops.waitSend] : null;
    const rows: HTMLElement[] = [];
    for (let i = 0; i < limit; i++) {
      const kind = kindAt(ops, i);
      const what =
        kind === 'FB'
          ? `F${ops.mb[i]} ${phaseLabel(r.summary, ops.phase[i])} + B${ops.bMb[i]} ${phaseLabel(r.summary, ops.bPhase[i])}`
          : `${kind}${ops.mb[i]} ${phaseLabel(r.summary, ops.phase[i])}`;
      rows.push(
        el('tr', {}, [
          el('td', { text: String(ops.rank[i]) }),
          el('td', { text: String(i - r.rankBegin[ops.rank[i]]) }),
          el('td', { text: what.trim() }),
          el('td', { text: kind === 'FB' ? `${ops.stage[i]} / ${ops.bStage[i]}` : String(ops.stage[i]) }),
          el('td', { text: num(ops.start[i]) }),
          el('td', { text: num(ops.end[i]) }),
          ...(waits ?? []).map((layer) => el('td', { text: num(layer[i]) })),
        ]),
      );
    }
    const head = ['table.rank', 'table.order', 'table.op', 'table.stage', 'table.start', 'table.end',
      ...(waits ? (['table.waitUsed', 'table.waitUnused', 'table.waitSend'] as const) : [])] as const;
    this.opsTable.append(
      el('table', { class: 'data', 'data-testid': 'ops-table' }, [
        el('caption', { text: t('table.opsCaption', { count: ops.count }) }),
        el('thead', {}, [el('tr', {}, head.map((k) => el('th', { scope: 'col', text: t(k) })))]),
        el('tbody', {}, rows),
      ]),
    );
    if (limit < ops.count) this.opsTable.append(el('p', { class: 'hint', text: t('table.truncated', { shown: limit, count: ops.count }) }));
  }

  update(run: RunView): void {
    this.run = run;
    if (!this.opsTable.hidden) this.fillOpsTable();
    this.group = { key: run.info.name, title: run.info.title, result: run.result, forwardShare: forwardShare(run) };
    this.view.setGroups([this.group]);
    this.view.setHighlight(null);
    this.player.update(this.group);
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
  const specific = run.info.texts[lang()].caption;
  return specific ? fill(specific, params) : t('caption.generic', params);
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
      el('td', { text: percent(r.utilisation, 1) }),
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
