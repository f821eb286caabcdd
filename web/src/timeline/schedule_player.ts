// The schedule in motion, beside a TimelineView: play the ops in time order (play, pause, step,
// speed), each rank's warm-up, steady and cool-down phases with the idle time of each, and one
// micro-batch's path across the ranks with its dependency arrows (click or tap a cell).
// It draws over the view's canvas from the canvas's published layout (data-t0, data-px0, ...), and
// feeds the view a copy of the run cut at the play time; the engine's run itself is never changed.
// With prefers-reduced-motion, playing moves from op to op in steps instead of flowing.
import { clear, el } from '../base/dom';
import { num } from '../base/format';
import type { SimulateValue } from '../engine/engine';
import { t } from '../i18n';
import type { TimelineGroup, TimelineView } from './timeline_view';

/** Above this many ops, a frame's copy of the run would not keep up: the player is off. */
export const PLAYABLE_OPS = 20000;
const SVG = 'http://www.w3.org/2000/svg';
const SPEEDS = [0.5, 1, 2, 4];
/** Time units played per second at speed 1: a small schedule plays in about ten seconds. */
const UNITS_PER_SECOND_OF = (makespan: number) => Math.max(1, makespan / 10);

export interface RankPhases {
  rank: number;
  start: number;
  /** Warm-up until the first backward starts; cool-down after the last forward ends. */
  steadyFrom: number;
  steadyTo: number;
  end: number;
  /** Idle time inside each phase (from the rank's first op to the makespan). */
  idle: [number, number, number];
}

/** One phase of a rank as core measures it (summary.per_rank[r].bubble_split.phases, in the order of
 *  idle_phase_names in core/engine/include/pipesim/bubble_terms.h: fill, warm-up, steady, cool-down, drain). */
interface CorePhase { phase: string; from: number; to: number; idle: number }
const WARM_UP = 1, STEADY = 2, COOL_DOWN = 3, DRAIN = 4;

/** Each rank's phases and where its idle time falls, as core split the run's bubble: the player's
 *  cool-down runs to the makespan, so it is core's cool-down and drain together (the fill, before the
 *  rank's first op, is not shown). Ranks without ops, or a summary without the split, give none. */
export function rankPhases(run: SimulateValue): RankPhases[] {
  const perRank = (run.summary.per_rank ?? []) as { rank: number; bubble_split?: { phases: CorePhase[] } }[];
  const out: RankPhases[] = [];
  for (const entry of perRank) {
    const phases = entry.bubble_split?.phases;
    if (!phases || phases.length <= DRAIN) continue;
    if (run.rankBegin[entry.rank + 1] <= run.rankBegin[entry.rank]) continue;
    out.push({
      rank: entry.rank,
      start: phases[WARM_UP].from,
      steadyFrom: phases[STEADY].from,
      steadyTo: phases[COOL_DOWN].from,
      end: phases[DRAIN].to,
      idle: [phases[WARM_UP].idle, phases[STEADY].idle, phases[COOL_DOWN].idle + phases[DRAIN].idle],
    });
  }
  return out;
}

/** The ops one micro-batch passes through, in time order: its forwards down the pipeline and its
 *  backwards back (W, which nothing waits for, is left out). Where phases are directions (DualPipe,
 *  Chimera), micro-batch numbers are per direction, so `phase` picks the direction. */
export function microBatchPath(run: SimulateValue, mb: number, phase: number | null): number[] {
  const ops = run.ops;
  const path: number[] = [];
  const mine = (m: number, p: number) => m === mb && (phase === null || p === phase);
  for (let i = 0; i < ops.count; i++) {
    const k = ops.kind[i];
    if (k === 3) continue;
    if (mine(ops.mb[i], ops.phase[i]) || (k === 4 && mine(ops.bMb[i], ops.bPhase[i]))) path.push(i);
  }
  return path.sort((a, b) => ops.start[a] - ops.start[b]);
}

/** The run as it stands at time `time`: ops not started are left out, running ones cut at `time`. */
function cutAt(run: SimulateValue, time: number): SimulateValue {
  const ops = run.ops;
  const keep: number[] = [];
  const rankBegin = new Int32Array(run.rankBegin.length);
  for (let r = 0; r + 1 < run.rankBegin.length; r++) {
    rankBegin[r] = keep.length;
    for (let i = run.rankBegin[r]; i < run.rankBegin[r + 1]; i++) if (ops.start[i] < time) keep.push(i);
  }
  rankBegin[run.rankBegin.length - 1] = keep.length;
  const pick = <T extends Int32Array | Uint8Array | Float64Array>(column: T): T => {
    const out = new (column.constructor as new (n: number) => T)(keep.length);
    keep.forEach((i, k) => (out[k] = column[i]));
    return out;
  };
  const end = pick(ops.end);
  end.forEach((v, k) => (end[k] = Math.min(v, time)));
  return {
    ...run,
    rankBegin,
    ops: {
      count: keep.length,
      rank: pick(ops.rank), kind: pick(ops.kind), mb: pick(ops.mb), phase: pick(ops.phase), stage: pick(ops.stage),
      bMb: pick(ops.bMb), bPhase: pick(ops.bPhase), bStage: pick(ops.bStage),
      start: pick(ops.start), end, waitedFor: pick(ops.waitedFor).map(() => -1),
    },
  };
}

export class SchedulePlayer {
  readonly element: HTMLElement;
  private readonly overlay = document.createElementNS(SVG, 'svg');
  private readonly play = el('button', { type: 'button', 'data-testid': 'player-play', text: t('player.play') });
  private readonly step = el('button', { type: 'button', class: 'ghost', 'data-testid': 'player-step', text: t('player.step') });
  private readonly speed = el('select', { 'data-testid': 'player-speed', 'aria-label': t('player.speed') });
  private readonly clock = el('output', { class: 'player-clock', 'data-testid': 'player-time' });
  private readonly reason = el('p', { class: 'hint', 'data-testid': 'player-off', hidden: true });
  private readonly phasesTable = el('div', { class: 'table-scroll' });
  private readonly pathNote = el('p', { class: 'hint', 'data-testid': 'path-note', 'aria-live': 'polite' });
  private group: TimelineGroup | null = null;
  private time: number | null = null; // null: the whole run is shown
  private playing = false;
  private frame = 0;
  private last = 0;
  private path: number[] = [];
  private readonly reducedMotion = matchMedia('(prefers-reduced-motion: reduce)');

  constructor(private readonly view: TimelineView) {
    for (const s of SPEEDS) this.speed.append(el('option', { value: String(s), text: `${num(s)}×` }));
    this.speed.value = '1';
    this.overlay.setAttribute('class', 'player-overlay');
    this.overlay.setAttribute('aria-hidden', 'true');
    view.element.append(this.overlay);
    this.play.addEventListener('click', () => (this.playing ? this.pause() : this.start()));
    this.step.addEventListener('click', () => {
      this.pause();
      this.advanceToNextEvent();
    });
    new ResizeObserver(() => this.drawOverlay()).observe(view.element);
    view.element.addEventListener('pointerup', () => requestAnimationFrame(() => this.drawOverlay()));
    view.element.addEventListener('keydown', () => requestAnimationFrame(() => this.drawOverlay()));
    this.element = el('div', { class: 'player', 'data-testid': 'player' }, [
      el('div', { class: 'toolbar' }, [
        this.play,
        this.step,
        el('label', { class: 'inline-field' }, [t('player.speed'), this.speed]),
        this.clock,
        el('span', { class: 'spacer' }),
        ...(['warmup', 'steady', 'cooldown'] as const).map((name) => el('span', { class: 'player-key' }, [el('span', { class: `player-swatch is-${name}` }), t(`player.${name}`)])),
      ]),
      this.reason,
      this.pathNote,
      el('details', { class: 'player-phases' }, [el('summary', { text: t('player.phasesTitle') }), el('p', { class: 'hint', text: t('player.phasesHint') }), this.phasesTable]),
    ]);
  }

  /** A new run: stop, show it whole, and recompute its phases. */
  update(group: TimelineGroup): void {
    this.pause();
    this.group = group;
    this.time = null;
    this.path = [];
    this.pathNote.textContent = t('player.pathHint');
    const playable = group.result.ops.count <= PLAYABLE_OPS;
    this.play.disabled = this.step.disabled = !playable;
    this.reason.hidden = playable;
    this.reason.textContent = playable ? '' : t('player.tooLarge', { ops: group.result.ops.count.toLocaleString(), limit: PLAYABLE_OPS.toLocaleString() });
    this.clock.textContent = '';
    this.fillPhases(group.result);
    requestAnimationFrame(() => this.drawOverlay());
  }

  /** Clicking or tapping a cell highlights its micro-batch's path across the ranks. */
  showPath(op: number): void {
    if (!this.group) return;
    const run = this.group.result;
    const ops = run.ops;
    const byDirection = run.summary.phases === 'direction';
    // An F&B cell holds two micro-batches: its forward's is followed.
    this.path = microBatchPath(run, ops.mb[op], byDirection ? ops.phase[op] : null);
    const ranks = new Set(this.path.map((i) => ops.rank[i])).size;
    this.pathNote.textContent = t('player.path', { mb: ops.mb[op], ops: this.path.length, ranks });
    this.view.setHighlight((_, i) => this.path.includes(i));
    this.drawOverlay();
  }

  private start(): void {
    if (!this.group) return;
    const makespan = this.group.result.summary.makespan as number;
    if (this.time === null || this.time >= makespan) this.time = 0;
    this.playing = true;
    this.play.textContent = t('player.pause');
    this.last = performance.now();
    const tick = (now: number) => {
      if (!this.playing || !this.group) return;
      const elapsed = (now - this.last) / 1000;
      if (this.reducedMotion.matches) {
        // No flowing motion: one op boundary every 0.6 s, divided by the speed.
        if (elapsed < 0.6 / Number(this.speed.value)) return void (this.frame = requestAnimationFrame(tick));
        this.last = now;
        this.advanceToNextEvent();
      } else {
        this.last = now;
        this.setTime(Math.min(makespan, this.time! + elapsed * Number(this.speed.value) * UNITS_PER_SECOND_OF(makespan)));
      }
      if (this.time === null || this.time >= makespan) return this.pause(); // played to the end: the whole run is back
      this.frame = requestAnimationFrame(tick);
    };
    this.frame = requestAnimationFrame(tick);
  }

  private pause(): void {
    this.playing = false;
    cancelAnimationFrame(this.frame);
    this.play.textContent = t('player.play');
  }

  /** Moves to the next time an op starts or ends. */
  private advanceToNextEvent(): void {
    if (!this.group) return;
    const ops = this.group.result.ops;
    const now = this.time ?? 0; // the whole run shown: stepping starts from the beginning
    let next = this.group.result.summary.makespan as number;
    for (let i = 0; i < ops.count; i++) {
      if (ops.start[i] > now + 1e-9 && ops.start[i] < next) next = ops.start[i];
      if (ops.end[i] > now + 1e-9 && ops.end[i] < next) next = ops.end[i];
    }
    this.setTime(next);
  }

  private setTime(time: number): void {
    if (!this.group) return;
    const makespan = this.group.result.summary.makespan as number;
    this.time = time;
    const whole = time >= makespan;
    this.view.setGroups([whole ? this.group : { ...this.group, result: cutAt(this.group.result, time) }]);
    this.clock.textContent = t('player.time', { t: num(time), makespan: num(makespan) });
    if (whole) this.time = null;
    this.drawOverlay();
  }

  private fillPhases(run: SimulateValue): void {
    clear(this.phasesTable);
    const head = ['table.rank', 'player.warmup', 'player.steady', 'player.cooldown', 'player.idleTotal'] as const;
    const span = (a: number, b: number, idle: number) => t('player.span', { from: num(a), to: num(b), idle: num(idle) });
    this.phasesTable.append(
      el('table', { class: 'data', 'data-testid': 'phases-table' }, [
        el('caption', { class: 'visually-hidden', text: t('player.phasesTitle') }),
        el('thead', {}, [el('tr', {}, head.map((k) => el('th', { scope: 'col', text: t(k) })))]),
        el(
          'tbody',
          {},
          rankPhases(run).map((p) =>
            el('tr', { 'data-rank': p.rank }, [
              el('td', { text: t('timeline.rank', { n: p.rank }) }),
              el('td', { text: span(p.start, p.steadyFrom, p.idle[0]) }),
              el('td', { text: span(p.steadyFrom, p.steadyTo, p.idle[1]) }),
              el('td', { text: span(p.steadyTo, p.end, p.idle[2]) }),
              el('td', { 'data-testid': `phase-idle-${p.rank}`, text: num(p.start + p.idle[0] + p.idle[1] + p.idle[2]) }),
            ]),
          ),
        ),
      ]),
    );
  }

  /** The play-time cursor, the phase bands above each row and the path's arrows, over the canvas. */
  private drawOverlay(): void {
    const canvas = this.view.element.querySelector('canvas');
    while (this.overlay.firstChild) this.overlay.firstChild.remove();
    if (!canvas || !this.group || !canvas.dataset.t1) return;
    const d = canvas.dataset;
    const t0 = Number(d.t0), t1 = Number(d.t1), px0 = Number(d.px0), px1 = Number(d.px1);
    const axis = Number(d.axis), rowHeight = Number(d.rowHeight);
    const x = (time: number) => px0 + ((time - t0) / (t1 - t0)) * (px1 - px0);
    const y = (rank: number) => axis + (rank + 0.5) * rowHeight;
    const shape = (name: string, attrs: Record<string, string | number>) => {
      const node = document.createElementNS(SVG, name);
      for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
      this.overlay.append(node);
      return node;
    };
    this.overlay.setAttribute('width', String(canvas.clientWidth));
    this.overlay.setAttribute('height', String(canvas.clientHeight));
    const defs = shape('defs', {});
    const marker = document.createElementNS(SVG, 'marker');
    for (const [k, v] of Object.entries({ id: 'player-arrow', viewBox: '0 0 8 8', refX: 7, refY: 4, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' })) marker.setAttribute(k, String(v));
    const head = document.createElementNS(SVG, 'path');
    head.setAttribute('d', 'M0,0 L8,4 L0,8 z');
    head.setAttribute('class', 'player-arrowhead');
    marker.append(head);
    defs.append(marker);
    // The phases: a thin band along the top of each row, labelled where it is wide enough.
    for (const p of rankPhases(this.group.result)) {
      const top = axis + p.rank * rowHeight + 1;
      [
        [p.start, p.steadyFrom, 'warmup'],
        [p.steadyFrom, p.steadyTo, 'steady'],
        [p.steadyTo, p.end, 'cooldown'],
      ].forEach(([a, b, name]) => {
        const xa = Math.max(px0, x(a as number)), xb = Math.min(px1, x(b as number));
        if (xb - xa < 1) return;
        shape('rect', { x: xa, y: top, width: xb - xa, height: 3, class: `player-band is-${name}` });
      });
    }
    const ops = this.group.result.ops;
    for (let k = 0; k + 1 < this.path.length; k++) {
      const a = this.path[k], b = this.path[k + 1];
      if (ops.rank[a] === ops.rank[b]) continue; // the same rank: its own order, not a message
      shape('line', { x1: x(ops.end[a]), y1: y(ops.rank[a]), x2: x(ops.start[b]), y2: y(ops.rank[b]), class: 'player-arrow', 'marker-end': 'url(#player-arrow)' });
    }
    if (this.time !== null && this.time >= t0 && this.time <= t1) shape('line', { x1: x(this.time), y1: axis - 4, x2: x(this.time), y2: canvas.clientHeight, class: 'player-cursor' });
  }
}
