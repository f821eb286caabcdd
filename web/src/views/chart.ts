// Small SVG charts (line and grouped bars) built with DOM calls, accessible through <title>s.
import { svg } from '../base/dom';
import { niceStep } from '../base/time_scale';

export interface Series {
  name: string;
  color: string;
  x: ArrayLike<number>;
  y: ArrayLike<number>; // NaN: no point there (the line joins the points on either side)
}

export interface ChartSpec {
  label: string;
  xLabel: string;
  yLabel: string;
  series: Series[];
  marker?: number; // a vertical line at this x (the current setting)
  yFormat?: (v: number) => string;
  xFormat?: (v: number) => string;
  /** A point's exact value, for hover and the data table (the axis's ticks round, this does not). */
  valueFormat?: (v: number) => string;
  yMin?: number;
}

const W = 560;
const H = 260;
const M = { left: 52, right: 14, top: 14, bottom: 42 };

function extent(values: number[], fallback: [number, number]): [number, number] {
  const finite = values.filter(Number.isFinite);
  if (finite.length === 0) return fallback;
  return [Math.min(...finite), Math.max(...finite)];
}

function axes(root: SVGSVGElement, spec: ChartSpec, x0: number, x1: number, y0: number, y1: number) {
  const sx = (x: number) => M.left + ((x - x0) / (x1 - x0 || 1)) * (W - M.left - M.right);
  const sy = (y: number) => H - M.bottom - ((y - y0) / (y1 - y0 || 1)) * (H - M.top - M.bottom);
  const yFormat = spec.yFormat ?? String;
  const xFormat = spec.xFormat ?? String;
  const yStep = niceStep(y1 - y0 || 1, 5);
  for (let y = Math.ceil(y0 / yStep) * yStep; y <= y1 + 1e-12; y += yStep) {
    root.append(svg('line', { class: 'gridline', x1: M.left, x2: W - M.right, y1: sy(y).toFixed(1), y2: sy(y).toFixed(1) }));
    root.append(svg('text', { x: M.left - 6, y: sy(y).toFixed(1), 'text-anchor': 'end', 'dominant-baseline': 'middle', text: yFormat(y) }));
  }
  const xStep = Math.max(1, niceStep(x1 - x0 || 1, 8));
  for (let x = Math.ceil(x0 / xStep) * xStep; x <= x1 + 1e-12; x += xStep)
    root.append(svg('text', { x: sx(x).toFixed(1), y: H - M.bottom + 16, 'text-anchor': 'middle', text: xFormat(x) }));
  root.append(
    svg('line', { class: 'axis-line', stroke: 'currentColor', 'stroke-opacity': 0.3, x1: M.left, x2: W - M.right, y1: H - M.bottom, y2: H - M.bottom }),
    svg('text', { x: (M.left + W - M.right) / 2, y: H - 6, 'text-anchor': 'middle', text: spec.xLabel }),
    svg('text', { x: 12, y: (M.top + H - M.bottom) / 2, transform: `rotate(-90 12 ${(M.top + H - M.bottom) / 2})`, 'text-anchor': 'middle', text: spec.yLabel }),
  );
  return { sx, sy };
}

/** Shows the exact value of the point under the pointer (or finger) at the chart's top right. */
function hoverReadout(root: SVGSVGElement): (text: string | null) => void {
  const readout = svg('text', { class: 'chart-hover', x: W - M.right, y: M.top + 2, 'text-anchor': 'end', 'dominant-baseline': 'hanging', 'data-testid': 'chart-hover' });
  root.append(readout);
  return (text) => (readout.textContent = text ?? '');
}

export function lineChart(spec: ChartSpec): SVGSVGElement {
  const root = svg('svg', { class: 'chart', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': spec.label });
  root.append(svg('title', { text: spec.label }));
  const xs = spec.series.flatMap((s) => Array.from(s.x));
  const ys = spec.series.flatMap((s) => Array.from(s.y));
  const [x0, x1] = extent(xs, [0, 1]);
  const [, yMax] = extent(ys, [0, 1]);
  const { sx, sy } = axes(root, spec, x0, x1, spec.yMin ?? 0, yMax > 0 ? yMax * 1.08 : 1);
  if (spec.marker !== undefined && spec.marker >= x0 && spec.marker <= x1)
    root.append(svg('line', { x1: sx(spec.marker), x2: sx(spec.marker), y1: M.top, y2: H - M.bottom, stroke: 'currentColor', 'stroke-dasharray': '4 3', 'stroke-opacity': 0.5 }));
  for (const s of spec.series) {
    // Sizes a schedule refuses (DualPipe's odd counts) are skipped, not drawn as breaks.
    let d = '';
    const dots = svg('g', { fill: s.color });
    for (let i = 0; i < s.x.length; i++) {
      const y = s.y[i];
      if (!Number.isFinite(y)) continue;
      d += `${d ? 'L' : 'M'}${sx(s.x[i]).toFixed(1)},${sy(y).toFixed(1)}`;
      const exact = `${s.name}: ${spec.xLabel} ${(spec.xFormat ?? String)(s.x[i])} → ${(spec.valueFormat ?? spec.yFormat ?? String)(y)}`;
      dots.append(svg('circle', { cx: sx(s.x[i]).toFixed(1), cy: sy(y).toFixed(1), r: 2.2, 'data-value': exact }, [svg('title', { text: exact })]));
    }
    root.append(svg('path', { class: 'series', d, stroke: s.color, 'data-series': s.name }), dots);
  }
  // Hover (or tap) anywhere on the plot: the nearest point's exact value, not a rounded tooltip.
  const show = hoverReadout(root);
  const nearest = (e: PointerEvent) => {
    const box = root.getBoundingClientRect();
    const px = ((e.clientX - box.left) / box.width) * W;
    const py = ((e.clientY - box.top) / box.height) * H;
    let best: SVGCircleElement | null = null;
    let bestD = Infinity;
    root.querySelectorAll<SVGCircleElement>('circle[data-value]').forEach((c) => {
      const d = Math.hypot(Number(c.getAttribute('cx')) - px, Number(c.getAttribute('cy')) - py);
      if (d < bestD) [best, bestD] = [c, d];
    });
    root.querySelectorAll('circle.is-hovered').forEach((c) => c.classList.remove('is-hovered'));
    if (best && bestD < 30) {
      (best as SVGCircleElement).classList.add('is-hovered');
      show((best as SVGCircleElement).dataset.value!);
    } else show(null);
  };
  root.addEventListener('pointermove', nearest);
  root.addEventListener('pointerdown', nearest);
  root.addEventListener('pointerleave', () => show(null));
  return root;
}

/** The chart's numbers as a table: one row per x, one column per series, exact values. */
export function dataTable(spec: ChartSpec, caption: string): HTMLElement {
  const xs = [...new Set(spec.series.flatMap((s) => Array.from(s.x)))].sort((a, b) => a - b);
  const value = spec.valueFormat ?? spec.yFormat ?? String;
  const cell = (s: Series, x: number) => {
    for (let i = 0; i < s.x.length; i++) if (s.x[i] === x) return Number.isFinite(s.y[i]) ? value(s.y[i]) : '–';
    return '–';
  };
  const table = document.createElement('table');
  table.className = 'data';
  const cap = table.createCaption();
  cap.textContent = caption;
  const head = table.createTHead().insertRow();
  for (const text of [spec.xLabel, ...spec.series.map((s) => s.name)]) {
    const th = document.createElement('th');
    th.scope = 'col';
    th.textContent = text;
    head.append(th);
  }
  const body = table.createTBody();
  for (const x of xs) {
    const row = body.insertRow();
    row.insertCell().textContent = (spec.xFormat ?? String)(x);
    for (const s of spec.series) row.insertCell().textContent = cell(s, x);
  }
  const scroll = document.createElement('div');
  scroll.className = 'table-scroll chart-data';
  scroll.append(table);
  return scroll;
}

export function barChart(spec: ChartSpec): SVGSVGElement {
  const root = svg('svg', { class: 'chart', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': spec.label });
  root.append(svg('title', { text: spec.label }));
  const categories = spec.series[0] ? Array.from(spec.series[0].x) : [];
  const ys = spec.series.flatMap((s) => Array.from(s.y));
  const [, yMax] = extent(ys, [0, 1]);
  const { sy } = axes(root, { ...spec, xFormat: () => '' }, 0, 1, 0, Math.max(yMax, 1e-9));
  const band = (W - M.left - M.right) / Math.max(1, categories.length);
  const barW = (band * 0.8) / Math.max(1, spec.series.length);
  categories.forEach((c, ci) => {
    root.append(svg('text', { x: (M.left + band * (ci + 0.5)).toFixed(1), y: H - M.bottom + 16, 'text-anchor': 'middle', text: (spec.xFormat ?? String)(c) }));
    spec.series.forEach((s, si) => {
      const y = s.y[ci];
      if (!Number.isFinite(y)) return;
      const x = M.left + band * ci + band * 0.1 + si * barW;
      root.append(
        svg('rect', { x: x.toFixed(1), y: sy(y).toFixed(1), width: Math.max(1, barW - 1).toFixed(1), height: (H - M.bottom - sy(y)).toFixed(1), fill: s.color }, [
          svg('title', { text: `${s.name}, ${(spec.xFormat ?? String)(c)}: ${(spec.yFormat ?? String)(y)}` }),
        ]),
      );
    });
  });
  return root;
}

export interface ScatterPoint {
  label: string;
  color: string;
  x: number;
  y: number;
}

/** One labelled point per item, for trade-offs such as bubble against memory. */
export function scatterChart(spec: Omit<ChartSpec, 'series'> & { points: ScatterPoint[] }): SVGSVGElement {
  const root = svg('svg', { class: 'chart', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': spec.label });
  root.append(svg('title', { text: spec.label }));
  const xs = spec.points.map((p) => p.x);
  const ys = spec.points.map((p) => p.y);
  const [x0, x1] = extent(xs, [0, 1]);
  const [, yMax] = extent(ys, [0, 1]);
  const pad = (x1 - x0) * 0.08 || 0.5;
  const { sx, sy } = axes(root, { ...spec, series: [] }, Math.max(0, x0 - pad), x1 + pad, 0, yMax > 0 ? yMax * 1.15 : 1);
  // Labels go right of their point (left near the edge) and step down when they would cover one
  // already placed: schedules often land close together.
  const placed: { x0: number; x1: number; y: number }[] = [];
  for (const p of [...spec.points].sort((a, b) => b.y - a.y)) {
    const cx = sx(p.x);
    const cy = sy(p.y);
    const width = p.label.length * 6.2;
    const left = cx + 7 + width > W - M.right;
    const x0 = left ? cx - 7 - width : cx + 7;
    let y = cy - 7;
    while (placed.some((b) => Math.abs(b.y - y) < 12 && x0 < b.x1 && x0 + width > b.x0)) y += 12;
    placed.push({ x0, x1: x0 + width, y });
    root.append(
      svg('g', { 'data-point': p.label }, [
        svg('circle', { cx: cx.toFixed(1), cy: cy.toFixed(1), r: 5, fill: p.color }),
        svg('text', { x: (left ? cx - 7 : cx + 7).toFixed(1), y: y.toFixed(1), 'text-anchor': left ? 'end' : 'start', text: p.label }),
        svg('title', { text: `${p.label}: ${(spec.xFormat ?? String)(p.x)}, ${(spec.yFormat ?? String)(p.y)}` }),
      ]),
    );
  }
  return root;
}
