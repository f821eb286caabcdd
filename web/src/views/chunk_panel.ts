// Inside one F&B pair (DeepSeek-V3 §3.2.1, Fig. 4): a forward chunk and a backward chunk of two
// micro-batches split into attention, all-to-all dispatch, MLP and all-to-all combine, run on a GPU's
// compute SMs and communication SMs. Three two-lane views (forward alone, backward alone, the pair)
// share one time axis and play as an animation; idle compute in the pair (exposed communication) is
// hatched. Every number comes from the engine's chunk model. "Load a profile" reads a PyTorch profiler
// trace of one pair in the background worker and draws the measured lanes under the model's.
import { clear, el, svg } from '../base/dom';
import { readPalette, textFor, type Palette } from '../base/colors';
import { cssVar, tokenValue, type Token } from '../base/tokens';
import { num, percent } from '../base/format';
import type { LaneSchedule, MeasuredSegment, OverlapResult, OverlapSlot, Wording } from '../engine/engine';
import { t, type Key } from '../i18n';
import { wordRefusal } from '../i18n/refusals';
import { DEFAULT_INPUTS, type ChunkInputs } from '../state/page_state';
import { Store, type Slice } from '../state/store';

const W = 960;
const LANE = 26;
const LEFT = 150;
const RIGHT = 12;
const SECTION_GAP = 22;

/** Workload fields shown as knobs (the rest keep DeepSeek-V3's values). */
const WORKLOAD_FIELDS: { key: string; label: Key; step: number }[] = [
  { key: 'tokens', label: 'chunk.field.tokens', step: 256 },
  { key: 'hidden', label: 'chunk.field.hidden', step: 256 },
  { key: 'experts', label: 'chunk.field.experts', step: 1 },
  { key: 'top_k', label: 'chunk.field.topK', step: 1 },
  { key: 'expert_hidden', label: 'chunk.field.expertHidden', step: 128 },
  { key: 'nodes_per_token', label: 'chunk.field.nodes', step: 1 },
  { key: 'bytes_per_element', label: 'chunk.field.bytes', step: 1 },
  { key: 'gpu_tflops', label: 'chunk.field.tflops', step: 10 },
  { key: 'nvlink_gbps', label: 'chunk.field.nvlink', step: 10 },
  { key: 'ib_gbps', label: 'chunk.field.ib', step: 5 },
];

/** A component drawn on a lane: the model's slots and the measured stretches alike. */
type Drawable = Pick<OverlapSlot, 'label' | 'start' | 'end'> & { chunk: 'F' | 'B' | null; component: string | null };

/** Fig. 4's colour of a component: forward orange, backward-for-input green, weights blue, PP purple;
 *  kernels no component claims in grey. */
function tokenOf(slot: Drawable): Token {
  if (slot.component === null) return 'pipesim-grid';
  if (slot.component === 'pp') return 'pipesim-pp';
  if (slot.chunk === 'F') return 'pipesim-forward';
  if (slot.component === 'mlp_w' || slot.component === 'attn_w') return 'pipesim-weight';
  return 'pipesim-backward';
}

interface Drawn {
  slot: Drawable;
  x0: number;
  width: number;
  progress: SVGRectElement;
}

/** What the panel is handed to draw: the engine's default workload and the chunk model's answers,
 *  computed outside the view (model/chunk_source.ts) from the inputs the panel keeps. */
export interface ChunkSource {
  /** The engine's default workload: what a field left empty stands for. */
  readonly defaults: Readonly<Record<string, number | string>>;
  /** The chunk model at these inputs, or the engine's refusal of them. */
  overlap(inputs: Readonly<ChunkInputs>): { value: OverlapResult } | { error: { message: string; wording?: Wording } };
  /** A profiler trace of one F&B pair, read (`onRead`: bytes so far) and measured; null when a newer
   *  load or a return to the model superseded it. Rejects with the engine's refusal. */
  measureTrace(file: File, onRead: (done: number) => void): Promise<OverlapResult | null>;
  /** Drops a trace still being read or measured (back to the model). */
  dropTrace(): void;
  /** A result's F, B, W, F&B as the pipeline's cost text ("Use these costs"). */
  costsOf(result: { costs: OverlapResult['costs'] }): string;
}

export class ChunkPanel {
  readonly element: HTMLElement;
  private readonly figure = el('div', { class: 'chunk-figure' });
  private readonly sentence = el('p', { class: 'chunk-sentence', 'data-testid': 'overlap-sentence', 'aria-live': 'polite' });
  private readonly numbers = el('div', { class: 'readouts chunk-numbers' });
  private readonly derivation = el('div', { class: 'table-scroll' });
  private readonly error = el('div', { class: 'error', role: 'alert', hidden: true, 'data-testid': 'chunk-error' });
  private readonly ratio = el('input', { type: 'range', min: -2, max: 2, step: 0.25, value: 0, 'data-testid': 'chunk-ratio', 'aria-labelledby': 'chunk-ratio-label' });
  private readonly ratioValue = el('output', { 'data-testid': 'chunk-ratio-value' });
  private readonly commSms = el('input', { type: 'number', min: 1, max: 131, step: 1, value: 20, 'data-testid': 'chunk-comm-sms', id: 'chunk-comm-sms' });
  private readonly commSmsRange = el('input', { type: 'range', min: 1, max: 66, step: 1, value: 20, 'aria-labelledby': 'chunk-comm-sms-label' });
  private readonly workloadInputs = new Map<string, HTMLInputElement>();
  private readonly play = el('button', { type: 'button', 'data-testid': 'chunk-play' });
  private readonly scrub = el('input', { type: 'range', min: 0, max: 1000, step: 1, value: 1000, 'data-testid': 'chunk-scrub', 'aria-label': t('chunk.scrub') });
  private readonly clock = el('output', { 'data-testid': 'chunk-time' });
  private readonly profileInput = el('input', { type: 'file', accept: '.json,application/json', hidden: true, 'data-testid': 'chunk-profile-file' });
  private readonly profileStatus = el('p', { class: 'hint', 'aria-live': 'polite', 'data-testid': 'chunk-profile-status' });
  private readonly profileRule = el('p', { class: 'hint', hidden: true, 'data-testid': 'chunk-profile-rule', text: t('chunk.profileRule') });
  private readonly profileBack = el('button', { type: 'button', class: 'ghost', hidden: true, 'data-testid': 'chunk-profile-back', text: t('chunk.profileBack') });
  private result: OverlapResult | null = null;
  private palette: Palette | null = null;
  private drawn: Drawn[] = [];
  private playhead: SVGLineElement | null = null;
  private time = 0;
  private span = 1;
  private playing = false;
  /** Profile loads begun: a reply to an older one is not shown. */
  private loads = 0;
  private frame = 0;
  private last = 0;

  constructor(
    private readonly source: ChunkSource,
    private readonly onUseCosts: (cost: string) => void,
    /** The model's inputs, kept in the page's store (the inputs show them; a workload field not set
     *  is the engine's default). */
    private readonly inputs: Slice<ChunkInputs> = new Store(DEFAULT_INPUTS).slice('chunk'),
  ) {
    const defaults = source.defaults;
    const kept = inputs.get();
    this.ratio.value = kept.ratio;
    this.commSms.value = this.commSmsRange.value = kept.commSms;
    const fields = WORKLOAD_FIELDS.map(({ key, label, step }) => {
      const input = el('input', { type: 'number', step, value: kept.workload[key] ?? String(defaults[key]), 'data-testid': `chunk-${key}`, id: `chunk-${key}` });
      this.workloadInputs.set(key, input);
      input.addEventListener('input', () => this.edit({ workload: { ...this.inputs.get().workload, [key]: input.value } }));
      return el('label', { class: 'chunk-field', for: `chunk-${key}` }, [el('span', { text: t(label) }), input]);
    });
    const useCosts = el('button', { type: 'button', class: 'ghost', 'data-testid': 'chunk-use-costs', text: t('chunk.useCosts') });
    useCosts.addEventListener('click', () => {
      if (!this.result) return;
      // A loaded profile hands its measured costs (the measured span as F&B), the model its own.
      const measured = this.result.measured?.source === 'trace' ? this.result.measured : undefined;
      this.onUseCosts(this.source.costsOf(measured ?? this.result));
    });
    const loadProfile = el('button', { type: 'button', class: 'ghost', 'data-testid': 'chunk-load-profile', text: t('chunk.loadProfile') });
    loadProfile.addEventListener('click', () => this.profileInput.click());
    this.profileInput.addEventListener('change', () => {
      const file = this.profileInput.files?.[0];
      this.profileInput.value = '';
      if (file) void this.loadProfile(file);
    });
    this.profileBack.addEventListener('click', () => this.recompute());
    this.play.addEventListener('click', () => (this.playing ? this.pause() : this.start()));
    this.scrub.addEventListener('input', () => {
      this.pause();
      this.setTime((Number(this.scrub.value) / 1000) * this.span);
    });
    this.ratio.addEventListener('input', () => this.edit({ ratio: this.ratio.value }));
    this.commSms.addEventListener('input', () => {
      this.commSmsRange.value = this.commSms.value;
      this.edit({ commSms: this.commSms.value });
    });
    this.commSmsRange.addEventListener('input', () => {
      this.commSms.value = this.commSmsRange.value;
      this.edit({ commSms: this.commSmsRange.value });
    });
    const knobs = el('div', { class: 'chunk-knobs' }, [
      el('div', { class: 'field' }, [
        el('span', { class: 'label', id: 'chunk-ratio-label', text: t('chunk.ratio') }),
        el('div', { class: 'row' }, [this.ratio, this.ratioValue]),
        el('div', { class: 'hint', text: t('chunk.ratioHint') }),
      ]),
      el('div', { class: 'field' }, [
        el('label', { id: 'chunk-comm-sms-label', for: 'chunk-comm-sms', text: t('chunk.commSms') }),
        el('div', { class: 'row' }, [this.commSmsRange, this.commSms]),
        el('div', { class: 'hint', text: t('chunk.commSmsHint') }),
      ]),
    ]);
    this.element = el('section', { class: 'panel', id: 'panel-chunk', role: 'tabpanel', hidden: true }, [
      el('h3', { text: t('chunk.title') }),
      el('p', { class: 'hint', text: t('chunk.hint') }),
      knobs,
      el('div', { class: 'chunk-profile' }, [
        el('div', { class: 'toolbar' }, [loadProfile, this.profileInput, this.profileBack]),
        el('p', { class: 'hint', text: t('chunk.loadProfileHint') }),
        this.profileStatus,
        this.profileRule,
      ]),
      el('details', { class: 'chunk-workload' }, [el('summary', { text: t('chunk.workload') }), el('div', { class: 'chunk-fields' }, fields)]),
      this.error,
      el('div', { class: 'toolbar' }, [this.play, this.scrub, this.clock, el('span', { class: 'spacer' }), useCosts]),
      this.figure,
      this.legend(),
      this.sentence,
      this.numbers,
      el('details', {}, [el('summary', { text: t('chunk.derivation') }), this.derivation]),
    ]);
    this.setPlaying(false);
  }

  /** Called when the panel becomes visible. */
  update(): void {
    if (!this.result) this.recompute();
  }

  /** An input changed: into the store, and the model recomputed from it. */
  private edit(patch: Partial<ChunkInputs>): void {
    this.inputs.set(patch);
    this.recompute();
  }

  private recompute(): void {
    this.source.dropTrace(); // back to the model: a profile still loading is dropped
    this.showProfile(null);
    const ratio = Math.pow(2, Number(this.inputs.get().ratio));
    this.ratioValue.textContent = ratio >= 1 ? `${num(ratio)} : 1` : `1 : ${num(1 / ratio)}`;
    this.ratio.setAttribute('aria-valuetext', this.ratioValue.textContent);
    const outcome = this.source.overlap(this.inputs.get());
    if ('value' in outcome) {
      this.result = outcome.value;
      this.error.hidden = true;
      this.figure.classList.remove('is-stale');
      this.render(this.result);
    } else {
      this.error.hidden = false;
      this.error.textContent = `${t('error.refused')} ${wordRefusal(outcome.error.message, outcome.error.wording)}`;
      this.figure.classList.add('is-stale');
    }
  }

  /** Reads `file` (showing how much), measures it in the background worker, and draws it under the
   *  model. A refusal is shown and the drawing kept as it was. */
  private async loadProfile(file: File): Promise<void> {
    const name = file.name;
    const loads = ++this.loads;
    const mb = (bytes: number) => num(Math.round((bytes / 1e6) * 10) / 10);
    this.profileStatus.textContent = t('chunk.profileReading', { name, done: mb(0), total: mb(file.size) });
    try {
      const result = await this.source.measureTrace(file, (done) => {
        if (loads !== this.loads) return;
        // Every byte read: what is left is the measuring.
        this.profileStatus.textContent =
          done < file.size ? t('chunk.profileReading', { name, done: mb(done), total: mb(file.size) }) : t('chunk.profileMeasuring', { name });
      });
      if (result === null) return;
      this.pause();
      this.result = result;
      this.error.hidden = true;
      this.figure.classList.remove('is-stale');
      this.showProfile(name);
      this.render(result);
    } catch (e) {
      if (loads !== this.loads) return;
      this.profileStatus.textContent = '';
      this.error.hidden = false;
      this.error.textContent = `${t('error.refused')} ${e instanceof Error ? wordRefusal(e.message, (e as { wording?: Wording }).wording) : String(e)}`;
    }
  }

  /** The profile's status line, rule and way back, or none of them (name null: the model alone). */
  private showProfile(name: string | null): void {
    const m = name !== null && this.result?.measured?.source === 'trace' ? this.result.measured : undefined;
    this.profileRule.hidden = !m;
    this.profileBack.hidden = !m;
    this.element.toggleAttribute('data-measured', Boolean(m));
    this.profileStatus.textContent = m
      ? t('chunk.profileShown', { name: name!, rank: m.rank ?? '?', kernels: num(m.kernels), unattributed: num(m.unattributed.kernels) })
      : '';
  }

  private render(r: OverlapResult): void {
    this.palette = readPalette(this.element);
    const measured = r.measured?.source === 'trace' ? r.measured : undefined;
    this.span = Math.max(r.f, r.b, r.fb, measured?.span_us ?? 0);
    // Headings, symbols and lane labels are core's words in the page's language (`pipesim overlap --lang`).
    const h = r.headings;
    const sections: [string, LaneSchedule][] = [
      [h.forward, r.forward],
      [h.backward, r.backward],
      [h.pair, r.pair],
    ];
    const laneLabels = { compute: h.compute_lane, comm: h.comm_lane };
    const rows = sections.length + (measured ? 1 : 0);
    const height = rows * (2 * LANE + SECTION_GAP + 18) + 24;
    const root = svg('svg', { class: 'chart chunk-svg', viewBox: `0 0 ${W} ${height}`, role: 'img', 'aria-label': t('chunk.aria') });
    root.append(
      svg('defs', {}, [
        svg('pattern', { id: 'exposed-hatch', width: 6, height: 6, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' }, [
          svg('rect', { width: 6, height: 6, fill: cssVar('pipesim-idle') }),
          svg('line', { x1: 0, y1: 0, x2: 0, y2: 6, stroke: cssVar('error'), 'stroke-width': 2 }),
        ]),
      ]),
    );
    const sx = (time: number) => LEFT + (time / this.span) * (W - LEFT - RIGHT);
    this.drawn = [];
    let y = 8;
    for (const [title, lanes] of sections) {
      root.append(svg('text', { x: 4, y: y + 10, class: 'chunk-section', text: `${title} = ${num(round(lanes.makespan))}${unitLabel(r.unit)}` }));
      y += 18;
      (['compute', 'comm'] as const).forEach((lane, k) => {
        const top = y + k * LANE;
        laneBackdrop(root, laneLabels[lane], top, sx(lanes.makespan));
        if (lane === 'compute' && lanes === r.pair) this.hatchIdle(root, lanes, top, sx);
        for (const slot of lanes.timeline.filter((s) => s.lane === lane)) this.drawSlot(root, slot, top, sx);
      });
      y += 2 * LANE + SECTION_GAP;
    }
    if (measured) {
      // The measured pair on the same axis, under the model's pair: its kernels' busy stretches.
      root.append(svg('text', { x: 4, y: y + 10, class: 'chunk-section', 'data-testid': 'chunk-measured-title', text: `${t('chunk.measuredPair')} = ${num(round(measured.span_us))} µs` }));
      y += 18;
      (['compute', 'comm'] as const).forEach((lane, k) => {
        const top = y + k * LANE;
        laneBackdrop(root, laneLabels[lane], top, sx(measured.span_us));
        const g = svg('g', { 'data-measured-lane': lane });
        root.append(g);
        for (const segment of measured.timeline.filter((s: MeasuredSegment) => s.lane === lane)) this.drawSlot(g as unknown as SVGSVGElement, segment, top, sx);
      });
    }
    this.playhead = svg('line', { x1: LEFT, x2: LEFT, y1: 4, y2: height - 4, stroke: cssVar('ink'), 'stroke-width': 1.5, class: 'chunk-playhead' });
    root.append(this.playhead);
    clear(this.figure);
    this.figure.append(root);
    this.renderNumbers(r);
    this.setTime(this.playing ? this.time : this.span);
  }

  /** Compute-lane gaps of the pair: the time computation waits for communication. */
  private hatchIdle(root: SVGSVGElement, lanes: LaneSchedule, top: number, sx: (t: number) => number): void {
    const busy = lanes.timeline.filter((s) => s.lane === 'compute').sort((a, b) => a.start - b.start);
    let at = 0;
    for (const s of busy) {
      if (s.start > at + 1e-9)
        root.append(
          svg('rect', { x: sx(at), y: top + 2, width: sx(s.start) - sx(at), height: LANE - 4, fill: 'url(#exposed-hatch)', 'data-exposed': 'true' }, [
            svg('title', { text: t('chunk.exposedGap', { from: num(at), to: num(s.start) }) }),
          ]),
        );
      at = Math.max(at, s.end);
    }
  }

  private drawSlot(root: SVGSVGElement, slot: Drawable, top: number, sx: (t: number) => number): void {
    const x0 = sx(slot.start);
    const width = Math.max(0.5, sx(slot.end) - x0);
    const token = tokenOf(slot);
    const fill = cssVar(token);
    // The label takes whichever of dark or light text contrasts more with the component's colour.
    const ink = textFor(this.palette!, tokenValue(getComputedStyle(this.element), token));
    const ghost = svg('rect', { x: x0, y: top + 2, width, height: LANE - 4, fill, 'fill-opacity': 0.3 });
    const progress = svg('rect', { x: x0, y: top + 2, width, height: LANE - 4, fill, stroke: cssVar('panel'), 'stroke-width': 1 });
    const label = width > slot.label.length * 6.2 ? svg('text', { x: x0 + width / 2, y: top + LANE / 2, 'text-anchor': 'middle', 'dominant-baseline': 'middle', class: 'chunk-label', fill: ink, text: slot.label }) : null;
    root.append(svg('g', { 'data-component': slot.label }, [ghost, progress, label, svg('title', { text: `${slot.label}: ${num(slot.start)} → ${num(slot.end)}` })]));
    this.drawn.push({ slot, x0, width, progress });
  }

  private renderNumbers(r: OverlapResult): void {
    const unit = unitLabel(r.unit);
    const card = (label: Key, value: string, testid: string, meta = '') =>
      el('div', { class: 'readout' }, [el('div', { class: 'label', text: t(label) }), el('div', { class: 'value', 'data-testid': testid, text: value }), el('div', { class: 'meta', text: meta })]);
    clear(this.numbers);
    this.numbers.append(
      card('chunk.f', num(round(r.f)) + unit, 'chunk-f'),
      card('chunk.b', num(round(r.b)) + unit, 'chunk-b'),
      card('chunk.fb', num(round(r.fb)) + unit, 'chunk-fb', t('chunk.fbMeta', { seq: num(round(r.sequential)) + unit })),
      card('chunk.exposed', num(round(r.exposed_comm)) + unit, 'chunk-exposed'),
      card('chunk.hidden', percent(r.hidden_fraction, 1), 'hidden-fraction'),
    );
    const m = r.measured?.source === 'trace' ? r.measured : undefined;
    if (m)
      this.numbers.append(
        card('chunk.measuredSpan', num(round(m.span_us)) + ' µs', 'chunk-measured-span', t('chunk.measuredMeta', { model: num(round(m.model_fb_us)) + ' µs' })),
        card('chunk.measuredBusy', num(round(m.compute_busy_us)) + ' µs', 'chunk-measured-busy', t('chunk.measuredBusyMeta', { comm: num(round(m.communication_busy_us)) + ' µs' })),
        card('chunk.measuredHidden', percent(m.hidden_fraction, 1), 'chunk-measured-hidden'),
      );
    const commTotal = r.pair.comm;
    this.sentence.textContent = t(r.hidden_fraction >= 1 - 1e-12 ? 'chunk.sentenceHidden' : 'chunk.sentenceExposed', {
      hidden: percent(r.hidden_fraction, 0),
      exposed: num(round(r.exposed_comm)) + unit,
      comm: num(round(commTotal)) + unit,
      xf: num(Number((r.fb / r.f).toFixed(2))),
      xfb: num(Number((r.fb / r.sequential).toFixed(2))),
    });
    clear(this.derivation);
    this.derivation.append(
      el('table', { class: 'data' }, [
        el('thead', {}, [el('tr', {}, [el('th', { text: t('chunk.component') }), el('th', { text: t('chunk.formula') }), el('th', { text: t('chunk.worked') })])]),
        el('tbody', {}, r.derivation.map((d) => el('tr', {}, [el('td', { text: d.label }), el('td', {}, [el('code', { text: d.formula })]), el('td', { text: d.worked })]))),
      ]),
    );
  }

  private legend(): HTMLElement {
    const item = (cls: string, key: Key) => el('span', { class: 'item' }, [el('span', { class: `cell ${cls}` }), t(key)]);
    return el('div', { class: 'legend' }, [
      item('cell-forward', 'chunk.legendForward'),
      item('cell-backward', 'chunk.legendInput'),
      item('cell-weight', 'chunk.legendWeight'),
      item('cell-pp', 'chunk.legendPP'),
      item('cell-exposed', 'chunk.legendExposed'),
      item('cell-unattributed', 'chunk.legendUnattributed'),
    ]);
  }

  // ---- animation ---------------------------------------------------------------------------------

  private setTime(time: number): void {
    this.time = Math.max(0, Math.min(this.span, time));
    for (const d of this.drawn) {
      const done = (this.time - d.slot.start) / Math.max(1e-12, d.slot.end - d.slot.start);
      d.progress.setAttribute('width', String(Math.max(0, Math.min(1, done)) * d.width));
    }
    const x = LEFT + (this.time / this.span) * (W - LEFT - RIGHT);
    this.playhead?.setAttribute('x1', String(x));
    this.playhead?.setAttribute('x2', String(x));
    this.scrub.value = String(Math.round((this.time / this.span) * 1000));
    const unit = unitLabel(this.result?.unit ?? '');
    this.clock.textContent = `t = ${num(round(this.time))}${unit}`;
  }

  private reducedMotion(): boolean {
    return matchMedia('(prefers-reduced-motion: reduce)').matches;
  }

  private start(): void {
    if (this.time >= this.span) this.setTime(0);
    this.setPlaying(true);
    this.last = performance.now();
    const seconds = 6;
    const tick = (now: number) => {
      if (!this.playing) return;
      if (this.reducedMotion()) {
        // No smooth motion: jump from one component boundary to the next, a second apart.
        if (now - this.last >= 1000) {
          this.last = now;
          const next = this.nextBoundary(this.time);
          this.setTime(next);
        }
      } else {
        this.setTime(this.time + ((now - this.last) / 1000 / seconds) * this.span);
        this.last = now;
      }
      if (this.time >= this.span) return this.pause();
      this.frame = requestAnimationFrame(tick);
    };
    this.frame = requestAnimationFrame(tick);
  }

  private nextBoundary(time: number): number {
    let next = this.span;
    for (const d of this.drawn) for (const b of [d.slot.start, d.slot.end]) if (b > time + 1e-9 && b < next) next = b;
    return next;
  }

  private pause(): void {
    cancelAnimationFrame(this.frame);
    this.setPlaying(false);
  }

  private setPlaying(playing: boolean): void {
    this.playing = playing;
    this.play.textContent = t(playing ? 'chunk.pause' : 'chunk.play');
    this.play.setAttribute('aria-pressed', String(playing));
  }

  /** Stops the animation when the panel is hidden. */
  hide(): void {
    this.pause();
  }
}

/** " µs" for the engine's "us"; nothing for unitless durations. */
/** One lane of a chunk figure, model or measured alike: its name and its idle backdrop up to `end` (px). */
function laneBackdrop(root: SVGElement, label: string, top: number, end: number): void {
  root.append(
    svg('text', { x: LEFT - 8, y: top + LANE / 2, 'text-anchor': 'end', 'dominant-baseline': 'middle', text: label }),
    svg('rect', { x: LEFT, y: top + 2, width: end - LEFT, height: LANE - 4, fill: cssVar('pipesim-idle'), stroke: cssVar('rule-soft') }),
  );
}

function unitLabel(unit: string): string {
  return unit ? ` ${unit === 'us' ? 'µs' : unit}` : '';
}

function round(value: number): number {
  return Math.abs(value) >= 100 ? Math.round(value) : Number(value.toPrecision(4));
}
