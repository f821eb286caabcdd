#include "pipesim/simulate.h"

#include <algorithm>
#include <string>
#include <vector>

#include "detail/chunk_index.h"
#include "detail/huge_pages.h"
#include "pipesim/error.h"

namespace pipesim {

namespace {

constexpr int none = detail::no_op;

// One input of an op: the op that produces it and the rank that runs that op.
using Input = detail::Producer;

// Each op waits for at most two inputs besides its rank predecessor.
struct Inputs {
  Input first;
  Input second;
};

// An op's chunks located in the chunk index, once per op: its own and, for FB, its backward half's.
struct Located {
  detail::ChunkIndex::Place chunk;
  detail::ChunkIndex::Place backward;
};

[[nodiscard, gnu::always_inline]] inline auto locate(const detail::ChunkIndex& index, const Op& op) -> Located {
  const auto chunk = index.place(op.chunk);
  return {chunk, op.kind == OpKind::FB ? index.place(op.backward) : chunk};
}

// The inputs of an op on `rank`, from the chunk index alone: the producer's rank follows from the
// consumer's own chunk (inputs come from the neighbouring stage of the same path, or from the same
// rank), so finding it never reads the producer's op.
[[nodiscard, gnu::always_inline]] inline auto inputs_of(const detail::ChunkIndex& index, OpKind kind,
                                                       const Located& at, int rank) -> Inputs {
  switch (kind) {
    case OpKind::F: return {index.forward_input(at.chunk), {}};
    case OpKind::B:
    case OpKind::I: return {index.backward_input(at.chunk, rank), {}};
    case OpKind::W: return {index.weight_input(at.chunk, rank), {}};
    case OpKind::FB: return {index.forward_input(at.chunk), index.backward_input(at.backward, rank)};
  }
  return {};
}

[[nodiscard]] inline auto inputs_of(const detail::ChunkIndex& index, const Op& op, int rank) -> Inputs {
  return inputs_of(index, op.kind, locate(index, op), rank);
}

// The engine keeps the producer tables (two ints and a flag byte per chunk) and a few values per rank
// besides the Timeline it returns: which op a rank runs next, when it is free, and what it waits for.
// An op is done when its index is below its rank's next op, so no per-op flags or input lists exist;
// a parked rank looks its head op's inputs up again when it resumes.
class Engine {
 public:
  Engine(const Schedule& s, const Costs& costs)
      : s_(s), comm_(costs.comm), index_(s),
        durations_{costs.duration(OpKind::F), costs.duration(OpKind::B), costs.duration(OpKind::I),
                   costs.duration(OpKind::W), costs.duration(OpKind::FB)} {
    const auto n = s.ops.size();
    const auto ranks = static_cast<std::size_t>(s.ranks());
    detail::assign_large(timeline_.start, n, 0.0);
    detail::assign_large(timeline_.end, n, 0.0);
    detail::assign_large(timeline_.waited_for, n, none);
    next_op_.assign(s.rank_begin.begin(), s.rank_begin.end() - 1);
    free_at_.assign(ranks, 0);
    waiting_on_.assign(ranks, none);
  }

  auto run() -> Timeline {
    std::vector<int> ready;
    ready.reserve(static_cast<std::size_t>(s_.ranks()));
    for (int r = s_.ranks() - 1; r >= 0; --r) ready.push_back(r);
    while (!ready.empty()) {
      const int r = ready.back();
      ready.pop_back();
      advance(r, ready);
    }
    for (int r = 0; r < s_.ranks(); ++r)
      if (next_op_[static_cast<std::size_t>(r)] < s_.rank_begin[r + 1]) report_deadlock();
    return std::move(timeline_);
  }

 private:
  [[nodiscard]] auto done(Input in) const -> bool { return in.op < next_op_[static_cast<std::size_t>(in.rank)]; }

  // Runs rank r's ops until one waits for an input; then parks r on that input's producer.
  void advance(int r, std::vector<int>& ready) {
    int& next = next_op_[static_cast<std::size_t>(r)];
    const int last = s_.rank_begin[r + 1];
    double free_at = free_at_[static_cast<std::size_t>(r)];
    while (next < last) {
      const int i = next;
      const Op& op = s_.ops[static_cast<std::size_t>(i)];
      const Located at = locate(index_, op);
      const Inputs in = inputs_of(index_, op.kind, at, r);
      const Input blocker = in.first.op != none && !done(in.first)     ? in.first
                            : in.second.op != none && !done(in.second) ? in.second
                                                                       : Input{};
      if (blocker.op != none) {
        waiting_on_[static_cast<std::size_t>(r)] = blocker.op;
        break;
      }
      free_at = execute(i, r, op, in, free_at);
      ++next;
      if (op.kind != OpKind::W) wake_consumers(op.kind, at, i, ready);  // a W's output stays on its rank
    }
    free_at_[static_cast<std::size_t>(r)] = free_at;
  }

  // Only the ranks next to op i's chunks along their paths consume its outputs on another rank (a
  // consumer on rank r itself runs later in r's own list): wake those that wait for i.
  void wake_consumers(OpKind kind, const Located& at, int i, std::vector<int>& ready) {
    wake_neighbours(at.chunk, i, ready);
    if (kind == OpKind::FB) wake_neighbours(at.backward, i, ready);
  }

  void wake_neighbours(const detail::ChunkIndex::Place& p, int i, std::vector<int>& ready) {
    const auto [before, after] = index_.neighbour_ranks(p);
    wake_if_waiting(before, i, ready);
    wake_if_waiting(after, i, ready);
  }

  void wake_if_waiting(int rank, int i, std::vector<int>& ready) {
    if (rank == none || waiting_on_[static_cast<std::size_t>(rank)] != i) return;
    waiting_on_[static_cast<std::size_t>(rank)] = none;
    ready.push_back(rank);
  }

  [[nodiscard]] auto arrival(Input in, int consumer_rank) const -> double {
    if (in.op == none) return 0;
    const double ready_at = timeline_.end[static_cast<std::size_t>(in.op)];
    return in.rank == consumer_rank ? ready_at : ready_at + comm_;
  }

  // Times op i on rank r, free from `free_at`; returns when r is free again.
  auto execute(int i, int r, const Op& op, Inputs in, double free_at) -> double {
    const auto ui = static_cast<std::size_t>(i);
    const double first = arrival(in.first, r);
    const double second = arrival(in.second, r);
    const double start = std::max({free_at, first, second});
    const double end = start + durations_[static_cast<std::size_t>(op.kind)];
    timeline_.start[ui] = start;
    timeline_.end[ui] = end;
    if (start > free_at) timeline_.waited_for[ui] = second > first ? in.second.op : in.first.op;
    return end;
  }

  [[nodiscard]] auto blocker_of(int rank) const -> Input {
    const int head = next_op_[static_cast<std::size_t>(rank)];
    const Inputs in = inputs_of(index_, s_.ops[static_cast<std::size_t>(head)], rank);
    return in.first.op != none && !done(in.first) ? in.first : in.second;
  }

  [[noreturn]] void report_deadlock() const {
    // Follow "rank r waits for an op of rank r'" until a rank repeats: that loop is the cycle.
    int r = 0;
    while (next_op_[static_cast<std::size_t>(r)] >= s_.rank_begin[r + 1]) ++r;
    std::vector<int> order;
    std::vector<int> seen_at(static_cast<std::size_t>(s_.ranks()), none);
    while (seen_at[static_cast<std::size_t>(r)] == none) {
      seen_at[static_cast<std::size_t>(r)] = static_cast<int>(order.size());
      order.push_back(r);
      r = blocker_of(r).rank;
    }
    std::string message = "deadlock: ";
    for (std::size_t k = static_cast<std::size_t>(seen_at[static_cast<std::size_t>(r)]); k < order.size(); ++k) {
      const int rank = order[k];
      const int head = next_op_[static_cast<std::size_t>(rank)];
      const Input blocker = blocker_of(rank);
      message += "rank " + std::to_string(rank) + " waits at op " + std::to_string(head - s_.rank_begin[rank]) + " (" +
                 describe(s_.ops[static_cast<std::size_t>(head)]) + ") for " +
                 describe(s_.ops[static_cast<std::size_t>(blocker.op)]) + " (rank " + std::to_string(blocker.rank) +
                 ", op " + std::to_string(blocker.op - s_.rank_begin[blocker.rank]) + "); ";
    }
    message += "no op in this cycle can start";
    throw Error(ErrorCode::deadlock, message);
  }

  const Schedule& s_;
  double comm_;
  detail::ChunkIndex index_;  // validates the schedule as it indexes it
  double durations_[op_kind_count];
  std::vector<int> next_op_;     // per rank: index of its next op to run
  std::vector<double> free_at_;  // per rank: when its last op ends
  std::vector<int> waiting_on_;  // per rank: the op it is parked on, or none
  Timeline timeline_;
};

}  // namespace

auto op_inputs(const Schedule& schedule) -> std::vector<OpInputs> {
  const detail::ChunkIndex index(schedule);
  std::vector<OpInputs> out;
  out.reserve(schedule.ops.size());
  for (int r = 0; r < schedule.ranks(); ++r)
    for (int i = schedule.rank_begin[r]; i < schedule.rank_begin[r + 1]; ++i) {
      const Inputs in = inputs_of(index, schedule.ops[static_cast<std::size_t>(i)], r);
      out.push_back({in.first.op, in.second.op});
    }
  return out;
}

auto simulate(const Schedule& schedule, const Costs& costs) -> Timeline {
  validate_costs(costs);
  return Engine(schedule, costs).run();
}

}  // namespace pipesim
