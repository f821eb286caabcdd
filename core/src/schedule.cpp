#include "pipesim/schedule.h"

#include <algorithm>
#include <set>
#include <utility>

#include "pipesim/error.h"

namespace pipesim {

auto straight_layout(int ranks) -> Layout {
  Layout layout{1, ranks, {}};
  for (int s = 0; s < ranks; ++s) layout.rank_of_stage.push_back(s);
  return layout;
}

auto looped_layout(int ranks, int virtual_stages) -> Layout {
  Layout layout{1, ranks * virtual_stages, {}};
  for (int s = 0; s < layout.stages; ++s) layout.rank_of_stage.push_back(s % ranks);
  return layout;
}

auto v_layout(int ranks) -> Layout {
  Layout layout{1, 2 * ranks, {}};
  for (int s = 0; s < layout.stages; ++s) layout.rank_of_stage.push_back(s < ranks ? s : 2 * ranks - 1 - s);
  return layout;
}

auto two_way_layout(int ranks) -> Layout {
  Layout layout{2, ranks, {}};
  for (int s = 0; s < ranks; ++s) layout.rank_of_stage.push_back(s);
  for (int s = 0; s < ranks; ++s) layout.rank_of_stage.push_back(ranks - 1 - s);
  return layout;
}

auto Schedule::rank_of_op(int op_index) const -> int {
  const auto it = std::upper_bound(rank_begin.begin(), rank_begin.end(), op_index);
  return static_cast<int>(it - rank_begin.begin()) - 1;
}

auto Schedule::stages_held(int rank) const -> int {
  int held = 0;
  for (int r : layout.rank_of_stage) held += r == rank;
  return held;
}

ScheduleBuilder::ScheduleBuilder(std::string name, ScheduleParams params, Layout layout)
    : name_(std::move(name)), params_(params), layout_(std::move(layout)),
      per_rank_(static_cast<std::size_t>(params.ranks)) {}

auto ScheduleBuilder::build() && -> Schedule {
  Schedule s{std::move(name_), params_, std::move(layout_), {}, {}};
  std::size_t total = 0;
  for (const auto& ops : per_rank_) total += ops.size();
  s.ops.reserve(total);  // one allocation: large runs otherwise pay page faults on every regrowth
  s.rank_begin.reserve(per_rank_.size() + 1);
  s.rank_begin.push_back(0);
  for (auto& ops : per_rank_) {
    s.ops.insert(s.ops.end(), ops.begin(), ops.end());
    s.rank_begin.push_back(static_cast<int>(s.ops.size()));
  }
  return s;
}

namespace {

// Per-chunk bookkeeping for validation, indexed like the engine's tables.
struct ChunkState {
  int forwards = 0;
  int backwards = 0;     // B, I or an FB's backward half
  int weights = 0;
  bool split = false;    // its backward was an I
};

class Validator {
 public:
  explicit Validator(const Schedule& s)
      : s_(s), per_path_(s.micro_batches_per_path()),
        states_(static_cast<std::size_t>(s.layout.directions * s.layout.stages * std::max(per_path_, 0))) {}

  void run() {
    if (s_.params.ranks < 1) throw Error("a schedule needs at least 1 rank");
    if (static_cast<int>(s_.rank_begin.size()) != s_.params.ranks + 1)
      throw Error("schedule lists " + std::to_string(static_cast<int>(s_.rank_begin.size()) - 1) +
                  " ranks but declares " + std::to_string(s_.params.ranks));
    for (int r = 0; r < s_.ranks(); ++r) {
      const auto ops = s_.ops_of(r);
      for (std::size_t k = 0; k < ops.size(); ++k) visit(r, static_cast<int>(k), ops[k]);
    }
    check_totals();
  }

 private:
  [[noreturn]] void fail(int rank, int k, const Op& op, const std::string& why) const {
    throw Error("rank " + std::to_string(rank) + ", op " + std::to_string(k) + " (" + describe(op) + "): " + why);
  }

  auto state(const Chunk& c) -> ChunkState& {
    const int path = s_.path_of(c);
    return states_[static_cast<std::size_t>((path * s_.layout.stages + c.stage) * per_path_ + c.mb)];
  }

  void check_chunk(int rank, int k, const Op& op, const Chunk& c) const {
    if (s_.layout.directions == 2 && (c.phase < 0 || c.phase > 1))
      fail(rank, k, op, "phase must be 0 or 1 (the direction) in a two-direction schedule");
    if (c.phase < 0) fail(rank, k, op, "phase must be >= 0");
    if (c.mb < 0 || c.mb >= per_path_)
      fail(rank, k, op, "micro-batch " + std::to_string(c.mb) + " is outside 0.." + std::to_string(per_path_ - 1));
    if (c.stage < 0 || c.stage >= s_.layout.stages)
      fail(rank, k, op, "stage " + std::to_string(c.stage) + " is outside 0.." + std::to_string(s_.layout.stages - 1));
    const int owner = s_.layout.rank_of(s_.path_of(c), c.stage);
    if (owner != rank)
      fail(rank, k, op, "stage " + std::to_string(c.stage) + " lives on rank " + std::to_string(owner) +
                            ", not on rank " + std::to_string(rank));
  }

  void visit(int rank, int k, const Op& op) {
    check_chunk(rank, k, op, op.chunk);
    if (op.kind == OpKind::FB) {
      check_chunk(rank, k, op, op.backward);
      if (s_.path_of(op.chunk) == s_.path_of(op.backward) && op.chunk.mb == op.backward.mb &&
          op.chunk.stage == op.backward.stage)
        fail(rank, k, op, "an overlapped pair needs two different chunks");
    }
    if (has_forward(op.kind)) {
      auto& st = state(op.chunk);
      if (st.forwards++ > 0) fail(rank, k, op, "forward " + describe(Op{OpKind::F, op.chunk, {}}) + " runs twice");
    }
    if (const auto bc = backward_chunk(op)) {
      auto& st = state(*bc);
      if (st.backwards++ > 0) fail(rank, k, op, "the backward of this chunk runs twice");
      if (st.forwards == 0) fail(rank, k, op, "a backward runs before the forward of its chunk on this rank");
      st.split = op.kind == OpKind::I;
    }
    if (op.kind == OpKind::W) {
      auto& st = state(op.chunk);
      if (st.backwards == 0 || !st.split) fail(rank, k, op, "W must come after the I of the same chunk on this rank");
      if (st.weights++ > 0) fail(rank, k, op, "W runs twice for this chunk");
    }
  }

  void check_totals() const {
    for (int path = 0; path < s_.layout.directions; ++path)
      for (int stage = 0; stage < s_.layout.stages; ++stage)
        for (int mb = 0; mb < per_path_; ++mb) {
          const auto& st = states_[static_cast<std::size_t>((path * s_.layout.stages + stage) * per_path_ + mb)];
          // The message is built only on failure: this loop visits every chunk of every valid schedule.
          const auto where = [&] {
            return "micro-batch " + std::to_string(mb) +
                   (s_.layout.directions == 2 ? " of direction " + std::to_string(path) : "") + " at stage " +
                   std::to_string(stage) + " (rank " + std::to_string(s_.layout.rank_of(path, stage)) + ")";
          };
          if (st.forwards == 0) throw Error("no forward for " + where());
          if (st.backwards == 0) throw Error("no backward for " + where());
          if (st.split && st.weights == 0) throw Error("I without its W for " + where());
        }
  }

  const Schedule& s_;
  int per_path_;
  std::vector<ChunkState> states_;
};

}  // namespace

void validate_schedule(const Schedule& schedule) { Validator(schedule).run(); }

}  // namespace pipesim
