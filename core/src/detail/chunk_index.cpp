#include "detail/chunk_index.h"

#include <algorithm>
#include <string>

#include "detail/huge_pages.h"
#include "pipesim/error.h"

namespace pipesim::detail {

namespace {

constexpr std::uint8_t split = 1;     // the chunk's backward was an I: a W must follow
constexpr std::uint8_t weighted = 2;  // the chunk's W has run

}  // namespace

void check_shape(const Schedule& s) {
  if (s.params.ranks < 1) throw Error(ErrorCode::invalid_schedule, "a schedule needs at least 1 rank");
  if (static_cast<int>(s.rank_begin.size()) != s.params.ranks + 1)
    throw Error(ErrorCode::invalid_schedule, "schedule lists " + std::to_string(static_cast<int>(s.rank_begin.size()) - 1) +
                                                 " ranks but declares " + std::to_string(s.params.ranks));
  const bool ranges_ok = s.rank_begin.front() == 0 && std::is_sorted(s.rank_begin.begin(), s.rank_begin.end()) &&
                         static_cast<std::size_t>(s.rank_begin.back()) == s.ops.size();
  if (!ranges_ok)
    throw Error(ErrorCode::invalid_schedule, "the schedule's rank_begin does not split its " +
                                                 std::to_string(s.ops.size()) + " ops into one range per rank");
  const long long stages = std::max(s.layout.stages, 0);
  if (s.layout.directions < 1 || static_cast<long long>(s.layout.rank_of_stage.size()) != s.layout.directions * stages)
    throw Error(ErrorCode::invalid_schedule, "the schedule's layout does not place every stage on a rank");
  for (const int r : s.layout.rank_of_stage)
    if (r < 0 || r >= s.params.ranks)
      throw Error(ErrorCode::invalid_schedule, "the schedule's layout places a stage on rank " + std::to_string(r) +
                                                   ", outside 0.." + std::to_string(s.params.ranks - 1));
}

ChunkIndex::ChunkIndex(const Schedule& s)
    : s_((check_shape(s), s)), directions_(s.layout.directions), two_way_(s.layout.directions == 2), stages_(s.layout.stages),
      last_stage_(s.layout.stages - 1), per_path_(std::max(s.micro_batches_per_path(), 0)),
      rank_of_slot_(s.layout.rank_of_stage.data()) {
  const auto chunks = static_cast<std::size_t>(directions_) * static_cast<std::size_t>(std::max(stages_, 0)) *
                      static_cast<std::size_t>(per_path_);
  assign_large(forward_, chunks, no_op);
  assign_large(backward_, chunks, no_op);
  assign_large(flags_, chunks, std::uint8_t{0});
  for (int r = 0; r < s.ranks(); ++r)
    for (int i = s.rank_begin[r]; i < s.rank_begin[r + 1]; ++i) {
      const Op& op = s.ops[static_cast<std::size_t>(i)];
      if (!try_record(r, i, op)) [[unlikely]]
        explain(r, i - s.rank_begin[r], op);
    }
  check_totals();
}

// The row of `c` if it is a chunk of this schedule whose stage lives on `rank`, else `no_row`.
auto ChunkIndex::row_on(int rank, const Chunk& c) const -> std::size_t {
  const bool phase_ok = two_way_ ? static_cast<unsigned>(c.phase) < 2U : c.phase >= 0;
  if (!phase_ok || static_cast<unsigned>(c.mb) >= static_cast<unsigned>(per_path_) ||
      static_cast<unsigned>(c.stage) >= static_cast<unsigned>(stages_))
    return no_row;
  const int slot = slot_of(c);
  return rank_of_slot_[slot] == rank ? row(slot, c.mb) : no_row;
}

// The rules of validate_schedule as one cheap test per op, which records the op only if it passes
// and otherwise changes nothing: every op of every valid schedule passes here, so messages are built
// only by explain(), on failure, from the state before the op. A forward or backward recorded earlier
// ran earlier on this same rank, since row_on() pins each chunk to the one rank that owns its stage.
auto ChunkIndex::try_record(int rank, int i, const Op& op) -> bool {
  const std::size_t c = row_on(rank, op.chunk);
  if (c == no_row) return false;
  switch (op.kind) {
    case OpKind::F:
      if (forward_[c] != no_op) return false;
      forward_[c] = i;
      return true;
    case OpKind::B:
    case OpKind::I:
      if (backward_[c] != no_op || forward_[c] == no_op) return false;
      backward_[c] = i;
      if (op.kind == OpKind::I) flags_[c] |= split;
      return true;
    case OpKind::W:
      if (backward_[c] == no_op || (flags_[c] & (split | weighted)) != split) return false;
      flags_[c] |= weighted;
      return true;
    case OpKind::FB: {
      const std::size_t b = row_on(rank, op.backward);
      if (b == no_row || b == c || forward_[c] != no_op || backward_[b] != no_op || forward_[b] == no_op) return false;
      forward_[c] = i;
      backward_[b] = i;
      return true;
    }
  }
  return false;
}

void ChunkIndex::fail(int rank, int k, const Op& op, const std::string& why) const {
  throw Error(ErrorCode::invalid_schedule,
              "rank " + std::to_string(rank) + ", op " + std::to_string(k) + " (" + describe(op) + "): " + why);
}

void ChunkIndex::explain_chunk(int rank, int k, const Op& op, const Chunk& c) const {
  if (directions_ == 2 && (c.phase < 0 || c.phase > 1))
    fail(rank, k, op, "phase must be 0 or 1 (the direction) in a two-direction schedule");
  if (c.phase < 0) fail(rank, k, op, "phase must be >= 0");
  if (c.mb < 0 || c.mb >= per_path_)
    fail(rank, k, op, "micro-batch " + std::to_string(c.mb) + " is outside 0.." + std::to_string(per_path_ - 1));
  if (c.stage < 0 || c.stage >= stages_)
    fail(rank, k, op, "stage " + std::to_string(c.stage) + " is outside 0.." + std::to_string(stages_ - 1));
  const int owner = s_.layout.rank_of(directions_ == 2 ? c.phase : 0, c.stage);
  if (owner != rank)
    fail(rank, k, op, "stage " + std::to_string(c.stage) + " lives on rank " + std::to_string(owner) + ", not on rank " +
                          std::to_string(rank));
}

// The slow twin of try_record(): finds the first rule op breaks and throws it as a sentence.
void ChunkIndex::explain(int rank, int k, const Op& op) const {
  explain_chunk(rank, k, op, op.chunk);
  if (op.kind == OpKind::FB) {
    explain_chunk(rank, k, op, op.backward);
    if (index(op.chunk) == index(op.backward)) fail(rank, k, op, "an overlapped pair needs two different chunks");
  }
  if (has_forward(op.kind) && forward_[index(op.chunk)] != no_op)
    fail(rank, k, op, "forward " + describe(Op{OpKind::F, op.chunk, {}}) + " runs twice");
  if (op.kind == OpKind::B || op.kind == OpKind::I || op.kind == OpKind::FB) {
    const std::size_t c = index(op.kind == OpKind::FB ? op.backward : op.chunk);
    if (backward_[c] != no_op) fail(rank, k, op, "the backward of this chunk runs twice");
    if (forward_[c] == no_op) fail(rank, k, op, "a backward runs before the forward of its chunk on this rank");
  }
  if (op.kind == OpKind::W) {
    const std::size_t c = index(op.chunk);
    if (backward_[c] == no_op || (flags_[c] & split) == 0)
      fail(rank, k, op, "W must come after the I of the same chunk on this rank");
    if ((flags_[c] & weighted) != 0) fail(rank, k, op, "W runs twice for this chunk");
  }
  fail(rank, k, op, "breaks a rule of the engine");  // unreachable while explain() mirrors try_record()
}

void ChunkIndex::check_totals() const {
  const std::size_t chunks = forward_.size();
  for (std::size_t c = 0; c < chunks; ++c)
    if (forward_[c] == no_op || backward_[c] == no_op || (flags_[c] & (split | weighted)) == split) [[unlikely]]
      explain_missing(c);
}

void ChunkIndex::explain_missing(std::size_t c) const {
  const int mb = static_cast<int>(c % static_cast<std::size_t>(per_path_));
  const int stage = static_cast<int>(c / static_cast<std::size_t>(per_path_)) % stages_;
  const int path = static_cast<int>(c / static_cast<std::size_t>(per_path_) / static_cast<std::size_t>(stages_));
  const std::string where = "micro-batch " + std::to_string(mb) +
                            (directions_ == 2 ? " of direction " + std::to_string(path) : "") + " at stage " +
                            std::to_string(stage) + " (rank " + std::to_string(s_.layout.rank_of(path, stage)) + ")";
  if (forward_[c] == no_op) throw Error(ErrorCode::invalid_schedule, "no forward for " + where);
  if (backward_[c] == no_op) throw Error(ErrorCode::invalid_schedule, "no backward for " + where);
  throw Error(ErrorCode::invalid_schedule, "I without its W for " + where);
}

}  // namespace pipesim::detail
