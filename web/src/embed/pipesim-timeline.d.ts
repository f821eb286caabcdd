// Types of the <pipesim-timeline> element (the package's "pipesim/element" export). Importing the
// module defines the element; these declarations describe its public surface, which is all of it.

/** What "pipesim-change" carries after each drawing: every property that reflects an attribute, as
 *  the element's own property reads it, and what was drawn (view, lang, summary). */
export interface PipesimChangeDetail {
  /** The view drawn ("compare" without schedules to compare draws the timeline). */
  view: 'timeline' | 'compare' | 'chunk' | 'quiz';
  schedule: string;
  ranks: number | null;
  microBatches: number | null;
  virtualStages: number | null;
  cost: string;
  compare: string[];
  /** "dataflow" or "reference". */
  timing: string;
  /** The sends attribute, null when absent. */
  sends: string | null;
  theme: string | null;
  palette: string | null;
  /** The language it is drawn in: "en", "pt-BR" or "zh-CN" (its lang, else the nearest above it). */
  lang: string;
  /** The engine's summary (`pipesim simulate --format summary`) of the first schedule drawn; null for
   *  the chunk and quiz views. */
  summary: unknown;
}

/** What "pipesim-error" carries when the engine refuses the settings: its ErrorCode name and message. */
export interface PipesimErrorDetail {
  code: string;
  message: string;
}

export declare class PipesimTimelineElement extends HTMLElement {
  static readonly observedAttributes: string[];
  /** Attribute `schedule` (default "dualpipe"). */
  schedule: string;
  /** Attribute `ranks` (default 8); null when absent or not a whole number. */
  get ranks(): number | null;
  set ranks(value: number | string | null);
  /** Attribute `micro-batches` (default 20). */
  get microBatches(): number | null;
  set microBatches(value: number | string | null);
  /** Attribute `virtual-stages` (schedules with virtual stages; default 2). */
  get virtualStages(): number | null;
  set virtualStages(value: number | string | null);
  /** Attribute `cost`, e.g. "F=1,B=2,W=1,FB=3". */
  cost: string;
  /** Attribute `compare` ("1f1b,zb-h1"): the schedules drawn under the first. */
  get compare(): string[];
  set compare(value: string | readonly string[] | null);
  /** Attribute `view`: "timeline", "compare", "chunk" or "quiz". */
  view: string;
  /** Attribute `theme`: "light", "dark", or null to follow the page's CSS variables. */
  theme: string | null;
  /** Attribute `palette`: "cb" for the colour-blind palette, or null. */
  palette: string | null;
  /** Attribute `timing`: "dataflow" (default: an op starts once its inputs have arrived) or
   *  "reference" (the reference runtime's send/receive structure, its waits hatched). */
  get timing(): string;
  set timing(value: string | null);
  /** Attribute `sends`, with timing "reference" only: "rendezvous" (default), "eager" or "async". */
  sends: string | null;
  /** The engine's summary of what is drawn; null before the first drawing and after a refusal. */
  readonly summary: unknown;
}

declare global {
  interface HTMLElementTagNameMap {
    'pipesim-timeline': PipesimTimelineElement;
  }
  interface HTMLElementEventMap {
    'pipesim-change': CustomEvent<PipesimChangeDetail>;
    'pipesim-error': CustomEvent<PipesimErrorDetail>;
  }
}
