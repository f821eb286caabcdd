// Memory per rank: live activations over time with the peak marked, and the parameters each rank
// holds (which stages, how many copies of the model). The engine's summary gives each rank's peak,
// when it is first reached, and the stages the rank holds: this panel only draws them.
import { clear, el, svg } from '../base/dom';
import { cssVar } from '../base/tokens';
import { num } from '../base/format';
import { t } from '../i18n';
import { phaseLabel } from '../model/describe';
import type { RunView } from '../model/run';

const W = 900;
const ROW = 36;
const LEFT = 62;
const RIGHT = 120;

export class MemoryPanel {
  readonly element: HTMLElement;
  private readonly chart = el('div');
  private readonly params = el('div', { class: 'table-scroll' });
  private readonly summary = el('p', { class: 'caption' });

  constructor() {
    this.element = el('section', { class: 'panel', id: 'panel-memory', role: 'tabpanel', hidden: true }, [
      el('h3', { text: t('memory.title') }),
      el('p', { class: 'hint', text: t('memory.hint') }),
      this.chart,
      this.summary,
      el('h3', { text: t('memory.parametersTitle') }),
      this.params,
    ]);
  }

  update(run: RunView): void {
    const s = run.result.summary;
    const curves = run.result.activations;
    const peak = Math.max(1, s.peak_activations);
    const makespan = s.makespan || 1;
    const height = ROW * s.ranks + 24;
    const root = svg('svg', { class: 'chart', viewBox: `0 0 ${W} ${height}`, role: 'img', 'aria-label': t('memory.aria') });
    const sx = (time: number) => LEFT + (time / makespan) * (W - LEFT - RIGHT);
    curves.forEach((curve, rank) => {
      const top = 8 + rank * ROW;
      const base = top + ROW - 6;
      const sy = (alive: number) => base - (alive / peak) * (ROW - 10);
      let d = `M${sx(0).toFixed(1)},${base}`;
      const rankPeak: number = s.per_rank[rank].peak_activations;
      const peakAt: number = s.per_rank[rank].peak_at;
      for (let i = 0; i < curve.time.length; i++) {
        const x = sx(curve.time[i]).toFixed(1);
        const prev = i > 0 ? curve.alive[i - 1] : 0;
        d += `L${x},${sy(prev).toFixed(1)}L${x},${sy(curve.alive[i]).toFixed(1)}`;
      }
      d += `L${sx(makespan).toFixed(1)},${base}Z`;
      root.append(
        svg('text', { x: LEFT - 8, y: top + ROW / 2, 'text-anchor': 'end', 'dominant-baseline': 'middle', text: t('timeline.rank', { n: rank }) }),
        svg('line', { x1: LEFT, x2: W - RIGHT, y1: base, y2: base, stroke: 'currentColor', 'stroke-opacity': 0.2 }),
        svg('path', { d, fill: cssVar('pipesim-forward'), 'fill-opacity': 0.45, stroke: cssVar('pipesim-forward'), 'stroke-width': 1 }),
        svg('circle', { cx: sx(peakAt).toFixed(1), cy: sy(rankPeak).toFixed(1), r: 3.5, fill: cssVar('pipesim-highlight') }, [
          svg('title', { text: t('memory.peakAt', { peak: rankPeak, time: num(peakAt) }) }),
        ]),
        svg('text', { x: W - RIGHT + 8, y: top + ROW / 2, 'dominant-baseline': 'middle', 'data-testid': `memory-peak-${rank}`, text: t('memory.peakLabel', { peak: rankPeak }) }),
      );
    });
    clear(this.chart);
    this.chart.append(root);
    this.summary.textContent = t('memory.summary', { peak: s.peak_activations, ranks: s.ranks });
    clear(this.params);
    this.params.append(parametersTable(run));
  }
}

/** A stage a rank holds (summary.per_rank[r].stages), in words: "stage 3 (direction 1)". */
function stageName(summary: any, held: { phase: number; stage: number }): string {
  const where = phaseLabel(summary, held.phase);
  return where ? `${t('op.stage', { n: held.stage })} (${where})` : t('op.stage', { n: held.stage });
}

function parametersTable(run: RunView): HTMLElement {
  const s = run.result.summary;
  const rows = s.per_rank.map((r: any) =>
    el('tr', {}, [
      el('td', { text: t('timeline.rank', { n: r.rank }) }),
      el('td', { text: r.stages.map((held: { phase: number; stage: number }) => stageName(s, held)).join(', ') }),
      el('td', { text: t('compare.stagesOf', { held: r.stages_held, total: s.stages }) }),
      el('td', { text: num(r.peak_activations) }),
    ]),
  );
  return el('table', { class: 'data', 'data-testid': 'parameters-table' }, [
    el('thead', {}, [
      el('tr', {}, [el('th', { text: t('table.rank') }), el('th', { text: t('memory.stages') }), el('th', { text: t('compare.parameters') }), el('th', { text: t('table.peak') })]),
    ]),
    el('tbody', {}, rows),
  ]);
}
