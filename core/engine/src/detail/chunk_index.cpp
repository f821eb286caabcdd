#include "detail/chunk_index.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "pipesim/error.h"

namespace pipesim::detail {

namespace {

using Params = std::vector<std::pair<std::string, std::string>>;

/// Where an op that breaks a rule is, as its refusal's message starts: "rank 2, op 5 (1F0): ".
PIPESIM_ONCE_PER_RUN auto op_place(int rank, int k, const Op& op) -> std::string {
  return "rank " + std::to_string(rank) + ", op " + std::to_string(k) + " (" + describe(op) + "): ";
}

/// The wording of rule `key` with its values, said at that op (PLACES' rank_op_named in
/// web/src/i18n/refusals.ts): the op is written in its notation (1F0), which every language keeps.
PIPESIM_ONCE_PER_RUN auto at_op(int rank, int k, const Op& op, std::string key, Params values = {}) -> Wording {
  values.insert(values.end(), {{"at_kind", "rank_op_named"}, {"at", std::to_string(rank)}, {"op", std::to_string(k)}, {"op_text", describe(op)}});
  return {std::move(key), std::move(values)};
}

// The schedule, once check_shape() has passed it: the ChunkIndex reads nothing before that.
auto checked(const Schedule& s) -> const Schedule& {
  check_shape(s);
  return s;
}

}  // namespace

void check_shape(const Schedule& s) {
  if (s.params.ranks < 1) throw Error(ErrorCode::invalid_schedule, "a schedule needs at least 1 rank", {"shape.no_rank", {}});
  if (static_cast<long long>(s.rank_begin.size()) != static_cast<long long>(s.params.ranks) + 1)
    throw Error(ErrorCode::invalid_schedule,
                "schedule lists " + std::to_string(static_cast<long long>(s.rank_begin.size()) - 1) + " ranks but declares " +
                    std::to_string(s.params.ranks),
                {"shape.ranks_mismatch",
                 {{"listed", std::to_string(static_cast<long long>(s.rank_begin.size()) - 1)}, {"ranks", std::to_string(s.params.ranks)}}});
  const bool ranges_ok = s.rank_begin.front() == 0 && std::is_sorted(s.rank_begin.begin(), s.rank_begin.end()) &&
                         static_cast<std::size_t>(s.rank_begin.back()) == s.ops.size();
  if (!ranges_ok)
    throw Error(ErrorCode::invalid_schedule,
                "the schedule's rank_begin does not split its " + std::to_string(s.ops.size()) + " ops into one range per rank",
                {"shape.rank_ranges", {{"ops", std::to_string(s.ops.size())}}});
  const Layout& l = s.layout;
  if (l.directions < 1 || l.stages < 1 ||
      static_cast<long long>(l.rank_of_stage.size()) != static_cast<long long>(l.directions) * l.stages)
    throw Error(ErrorCode::invalid_schedule, "the schedule's layout does not place every stage on a rank", {"shape.layout", {}});
  for (const int r : l.rank_of_stage)
    if (r < 0 || r >= s.params.ranks)
      throw Error(ErrorCode::invalid_schedule,
                  "the schedule's layout places a stage on rank " + std::to_string(r) + ", outside 0.." + std::to_string(s.params.ranks - 1),
                  {"shape.layout_rank", {{"rank", std::to_string(r)}, {"max", std::to_string(s.params.ranks - 1)}}});
  // Only a hand-built schedule gets here (requests and imports have lower limits), but an index past
  // these would wrap, on a 32-bit WebAssembly size_t first.
  const long double chunks = static_cast<long double>(l.directions) * l.stages * std::max(s.micro_batches_per_path(), 0);
  if (chunks > static_cast<long double>(max_indexed_ops) || s.ops.size() > max_indexed_ops)
    throw Error(ErrorCode::limit_exceeded, "a schedule of " + std::to_string(s.ops.size()) + " ops over " +
                                               std::to_string(static_cast<unsigned long long>(chunks)) +
                                               " chunks is more than pipesim can index (at most " +
                                               std::to_string(max_indexed_ops) + " of each)",
                {"shape.too_large_to_index", {{"ops", std::to_string(s.ops.size())},
                                              {"chunks", std::to_string(static_cast<unsigned long long>(chunks))},
                                              {"max", std::to_string(max_indexed_ops)}}});
}

ChunkIndex::ChunkIndex(const Schedule& s) : s_(checked(s)), grid_(s) {
  progress_.assign(grid_.chunks(), ChunkProgress{});
  for (int r = 0; r < s.ranks(); ++r)
    for (int i = s.rank_begin[r]; i < s.rank_begin[r + 1]; ++i) {
      const Op& op = s.ops[static_cast<std::size_t>(i)];
      if (!try_record(r, i, op)) [[unlikely]]
        explain(r, i - s.rank_begin[r], op);
    }
  check_totals();
}

// The rules as one cheap test per op, which records the op only if it passes and otherwise changes
// nothing: every op of every valid schedule passes here, so messages are built only by explain(), on
// failure, from the state before the op. A forward or backward recorded earlier ran earlier on this
// same rank, since place_on() pins each chunk to the one rank that owns its stage.
auto ChunkIndex::try_record(int rank, int i, const Op& op) -> bool {
  ChunkGrid::Place at{};
  if (!grid_.place_on(rank, op.chunk, at)) return false;
  ChunkProgress& chunk = progress_[at.row];
  switch (op.kind) {
    case OpKind::F:
      if (!may_run_forward(chunk)) return false;
      record_forward(chunk, i);
      return true;
    case OpKind::B:
    case OpKind::I:
      if (!may_run_backward(chunk)) return false;
      record_backward(chunk, i, op.kind == OpKind::I);
      return true;
    case OpKind::W:
      if (!may_run_weight(chunk)) return false;
      record_weight(chunk);
      return true;
    case OpKind::FB: {
      ChunkGrid::Place back{};
      if (!grid_.place_on(rank, op.backward, back) || back.row == at.row) return false;
      ChunkProgress& backward = progress_[back.row];
      if (!may_run_forward(chunk) || !may_run_backward(backward)) return false;
      record_forward(chunk, i);
      record_backward(backward, i, false);
      return true;
    }
  }
  return false;
}

auto ChunkIndex::forward_input(const Chunk& c) const -> Producer {
  const ChunkGrid::Place p = grid_.place(c);
  if (grid_.first_stage(p)) return {};
  return {op_of(progress_[grid_.upstream(p)].forward), grid_.rank_upstream(p)};
}

// The last stage's backward starts from its own forward, on its own rank.
auto ChunkIndex::backward_input(const Chunk& c, int rank) const -> Producer {
  const ChunkGrid::Place p = grid_.place(c);
  if (grid_.last_stage(p)) return {op_of(progress_[p.row].forward), rank};
  return {op_of(progress_[grid_.downstream(p)].backward), grid_.rank_downstream(p)};
}

auto ChunkIndex::inputs_of(const Op& op, int rank) const -> OpProducers {
  switch (op.kind) {
    case OpKind::F: return {forward_input(op.chunk), {}};
    case OpKind::B:
    case OpKind::I: return {backward_input(op.chunk, rank), {}};
    case OpKind::W: return {{op_of(progress_[grid_.place(op.chunk).row].backward), rank}, {}};
    case OpKind::FB: return {forward_input(op.chunk), backward_input(op.backward, rank)};
  }
  return {};
}

void ChunkIndex::explain_chunk(int rank, int k, const Op& op, const Chunk& c) const {
  const int directions = s_.layout.directions;
  const std::string at = op_place(rank, k, op);
  if (directions == 2 && (c.phase < 0 || c.phase > 1))
    throw Error(ErrorCode::invalid_schedule, at + "phase must be 0 or 1 (the direction) in a two-direction schedule",
                at_op(rank, k, op, "op.phase_direction"));
  if (c.phase < 0) throw Error(ErrorCode::invalid_schedule, at + "phase must be >= 0", at_op(rank, k, op, "op.phase_negative"));
  if (c.mb < 0 || c.mb >= grid_.per_path())
    throw Error(ErrorCode::invalid_schedule,
                at + "micro-batch " + std::to_string(c.mb) + " is outside 0.." + std::to_string(grid_.per_path() - 1),
                at_op(rank, k, op, "op.mb_range", {{"mb", std::to_string(c.mb)}, {"max", std::to_string(grid_.per_path() - 1)}}));
  if (c.stage < 0 || c.stage >= grid_.stages())
    throw Error(ErrorCode::invalid_schedule,
                at + "stage " + std::to_string(c.stage) + " is outside 0.." + std::to_string(grid_.stages() - 1),
                at_op(rank, k, op, "op.stage_range", {{"stage", std::to_string(c.stage)}, {"max", std::to_string(grid_.stages() - 1)}}));
  const int owner = s_.layout.rank_of(directions == 2 ? c.phase : 0, c.stage);
  if (owner != rank)
    throw Error(ErrorCode::invalid_schedule,
                at + "stage " + std::to_string(c.stage) + " lives on rank " + std::to_string(owner) + ", not on rank " + std::to_string(rank),
                at_op(rank, k, op, "op.stage_owner",
                      {{"stage", std::to_string(c.stage)}, {"owner", std::to_string(owner)}, {"rank", std::to_string(rank)}}));
}

// The slow twin of try_record(): finds the first rule op breaks and throws it as a sentence.
void ChunkIndex::explain(int rank, int k, const Op& op) const {
  const std::string at = op_place(rank, k, op);
  explain_chunk(rank, k, op, op.chunk);
  const ChunkProgress& chunk = progress_[grid_.place(op.chunk).row];
  if (op.kind == OpKind::FB) {
    explain_chunk(rank, k, op, op.backward);
    if (grid_.place(op.chunk).row == grid_.place(op.backward).row)
      throw Error(ErrorCode::invalid_schedule, at + "an overlapped pair needs two different chunks", at_op(rank, k, op, "op.pair_same_chunk"));
  }
  if (has_forward(op.kind) && !may_run_forward(chunk)) {
    const std::string forward = describe(Op{OpKind::F, op.chunk, {}});
    throw Error(ErrorCode::invalid_schedule, at + "forward " + forward + " runs twice",
                at_op(rank, k, op, "op.forward_twice", {{"forward", forward}}));
  }
  if (op.kind == OpKind::B || op.kind == OpKind::I || op.kind == OpKind::FB) {
    const ChunkProgress& c = progress_[grid_.place(op.kind == OpKind::FB ? op.backward : op.chunk).row];
    if (c.backward != 0)
      throw Error(ErrorCode::invalid_schedule, at + "the backward of this chunk runs twice", at_op(rank, k, op, "op.backward_twice"));
    if (c.forward == 0)
      throw Error(ErrorCode::invalid_schedule, at + "a backward runs before the forward of its chunk on this rank",
                  at_op(rank, k, op, "op.backward_before_forward"));
  }
  if (op.kind == OpKind::W) {
    if (chunk.backward == 0 || chunk.split == 0)
      throw Error(ErrorCode::invalid_schedule, at + "W must come after the I of the same chunk on this rank",
                  at_op(rank, k, op, "op.w_before_i"));
    if (chunk.weighted != 0) throw Error(ErrorCode::invalid_schedule, at + "W runs twice for this chunk", at_op(rank, k, op, "op.w_twice"));
  }
  // An op kind outside the IR's five.
  throw Error(ErrorCode::invalid_schedule, at + "breaks a rule of the engine", at_op(rank, k, op, "op.breaks_rule"));
}

void ChunkIndex::check_totals() const {
  for (std::size_t row = 0; row < progress_.size(); ++row)
    if (!complete(progress_[row])) [[unlikely]]
      explain_missing(row);
}

void ChunkIndex::explain_missing(std::size_t row) const {
  const auto per_path = static_cast<std::size_t>(grid_.per_path());
  const int mb = static_cast<int>(row % per_path);
  const int stage = static_cast<int>(row / per_path) % grid_.stages();
  const int path = static_cast<int>(row / per_path / static_cast<std::size_t>(grid_.stages()));
  const std::string where = "micro-batch " + std::to_string(mb) +
                            (s_.layout.directions == 2 ? " of direction " + std::to_string(path) : "") + " at stage " +
                            std::to_string(stage) + " (rank " + std::to_string(s_.layout.rank_of(path, stage)) + ")";
  const ChunkProgress& c = progress_[row];
  const bool two = s_.layout.directions == 2;
  const Params values{{"mb", std::to_string(mb)}, {"direction", std::to_string(path)}, {"stage", std::to_string(stage)},
                      {"rank", std::to_string(s_.layout.rank_of(path, stage))}};
  if (c.forward == 0)
    throw Error(ErrorCode::invalid_schedule, "no forward for " + where,
                {two ? "missing.forward_direction" : "missing.forward", values});
  if (c.backward == 0)
    throw Error(ErrorCode::invalid_schedule, "no backward for " + where,
                {two ? "missing.backward_direction" : "missing.backward", values});
  throw Error(ErrorCode::invalid_schedule, "I without its W for " + where, {two ? "missing.weight_direction" : "missing.weight", values});
}

}  // namespace pipesim::detail
