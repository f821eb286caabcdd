// Words for ops and idle gaps, shared by tooltips, keyboard announcements and the data table.
import { num } from '../base/format';
import { KINDS, type KindName } from '../engine/engine';
import { lang, t, type Key, type Lang } from '../i18n';
import type { ColumnWaits, IdleRef, TimelineGroup } from '../timeline/timeline_view';
import { phaseMeaning } from './run';

/** A schedule's display name in the page's language, as the registry writes it (`name` for a
 *  schedule the engine does not know). */
export function scheduleTitle(info: { texts: Record<Lang, { title: string }> } | undefined, name = ''): string {
  return info ? info.texts[lang()].title : name;
}

/** The sizes a schedule accepts, in words in the page's language, as the registry writes them. */
export function scheduleConstraints(info: { texts: Record<Lang, { constraints: string }> } | undefined): string {
  return info ? info.texts[lang()].constraints : '';
}

export function kindLabel(kind: KindName): string {
  return t(`kind.${kind}` as 'kind.F');
}

export function phaseLabel(summary: any, phase: number): string {
  switch (phaseMeaning(summary)) {
    case 'direction':
      return t(phase === 0 ? 'phase.direction0' : 'phase.direction1');
    case 'leg':
      return t(phase === 0 ? 'phase.leg0' : 'phase.leg1');
    case 'chunk':
      return t('phase.chunk', { n: phase });
    default:
      return '';
  }
}

function part(summary: any, mb: number, phase: number, stage: number): string {
  const bits = [t('op.mb', { n: mb }), phaseLabel(summary, phase), t('op.stage', { n: stage })];
  return bits.filter(Boolean).join(' · ');
}

/** The kind of op `i` of a run's op columns, by name. */
export function kindAt(ops: { kind: ArrayLike<number> }, i: number): KindName {
  return KINDS[ops.kind[i]];
}

/** "F3", "B2'" style short name used in explanations. */
export function shortName(g: TimelineGroup, i: number): string {
  const ops = g.result.ops;
  const kind = KINDS[ops.kind[i]];
  const mark = (phase: number) => (phase % 2 === 1 ? "'" : '');
  if (kind === 'FB') return `F${ops.mb[i]}${mark(ops.phase[i])}&B${ops.bMb[i]}${mark(ops.bPhase[i])}`;
  return `${kind}${ops.mb[i]}${mark(ops.phase[i])}`;
}

export function describeOp(g: TimelineGroup, i: number): string[] {
  const ops = g.result.ops;
  const s = g.result.summary;
  const kind = KINDS[ops.kind[i]] as KindName;
  const time = t('op.time', { start: num(ops.start[i]), end: num(ops.end[i]), duration: num(ops.end[i] - ops.start[i]) });
  const where = t('op.rank', { n: ops.rank[i] });
  if (kind === 'FB') {
    return [
      kindLabel('FB'),
      t('op.forwardHalf', { part: part(s, ops.mb[i], ops.phase[i], ops.stage[i]) }),
      t('op.backwardHalf', { part: part(s, ops.bMb[i], ops.bPhase[i], ops.bStage[i]) }),
      `${where} · ${time}`,
    ];
  }
  return [kindLabel(kind), part(s, ops.mb[i], ops.phase[i], ops.stage[i]), `${where} · ${time}`];
}

/** In reference timing, what the next op waited for in the gap: its layers and the request it ended on. */
function describeWait(g: TimelineGroup, next: number): string[] {
  const ops = g.result.ops;
  if (!ops.waitUsedReceive || !ops.waitUnusedReceive || !ops.waitSend) return [];
  const layers: [number, Key][] = [
    [ops.waitUsedReceive[next], 'wait.used'],
    [ops.waitUnusedReceive[next], 'wait.unused'],
    [ops.waitSend[next], 'wait.send'],
  ];
  const lines = layers.filter(([length]) => length > 0).map(([length, key]) => t(key, { t: num(length) }));
  if (lines.length === 0) return [];
  const action = ops.waitOnAction![next];
  if (action !== 0) {
    const on = `${ops.waitOnStage![next]}${COMM_ACTIONS[action]}${ops.waitOnMb![next]}`;
    lines.push(t('wait.on', { on, peer: ops.waitPeer![next] }));
  }
  return [t('wait.title', { op: shortName(g, next) }), ...lines];
}

/** The reasons of wait layers 0, 1, 2 (aggregate.ts's WAIT_LAYERS order), said of many ops. */
const COLUMN_REASONS: Key[] = ['wait.reason.used', 'wait.reason.unused', 'wait.reason.send'];

/** An aggregated pixel column's waits: its window and total, and the dominant reason with its time. */
export function describeColumnWaits(_g: TimelineGroup, w: ColumnWaits): string[] {
  return [
    t('wait.columnTitle', { from: num(w.from), to: num(w.to), rank: w.rank, total: num(w.total) }),
    t('wait.columnMostly', { t: num(w.layers[w.dominant]), reason: t(COLUMN_REASONS[w.dominant]) }),
  ];
}

/** pipesim::CommAction names in its order, as torch writes them. */
const COMM_ACTIONS = ['', 'RECV_F', 'RECV_B', 'SEND_F', 'SEND_B', 'POST', 'WAIT_ALL'];

/** Why a rank is idle: the gap's bounds and the op whose arrival ends it. */
export function describeIdle(g: TimelineGroup, idle: IdleRef): string[] {
  const ops = g.result.ops;
  const begin = g.result.rankBegin[idle.rank];
  const end = g.result.rankBegin[idle.rank + 1];
  const next = idle.nextOp;
  const gapStart = next === -1 ? (end > begin ? ops.end[end - 1] : 0) : next > begin ? ops.end[next - 1] : 0;
  const gapEnd = next === -1 ? g.result.summary.makespan : ops.start[next];
  const lines = [t('idle.title'), t('idle.span', { rank: idle.rank, from: num(gapStart), to: num(gapEnd), length: num(gapEnd - gapStart) })];
  if (next === -1) {
    lines.push(t('idle.afterLast'));
    return lines;
  }
  lines.push(...describeWait(g, next));
  const waited = ops.waitedFor[next];
  if (waited < 0) return lines;
  const sameRank = ops.rank[waited] === idle.rank;
  lines.push(
    t(sameRank ? 'idle.waitsSameRank' : 'idle.waitsFor', {
      next: shortName(g, next),
      input: shortName(g, waited),
      rank: ops.rank[waited],
      at: num(ops.end[waited]),
    }),
  );
  return lines;
}
