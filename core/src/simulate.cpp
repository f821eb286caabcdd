#include "pipesim/simulate.h"

#include <algorithm>
#include <string>
#include <vector>

#include "pipesim/error.h"

namespace pipesim {

namespace {

constexpr int none = -1;

// Flat tables from a chunk to the op that produces its forward output or its input gradient.
class Producers {
 public:
  explicit Producers(const Schedule& s)
      : s_(s), per_path_(s.micro_batches_per_path()),
        forward_(static_cast<std::size_t>(s.layout.directions * s.layout.stages * per_path_), none),
        backward_(forward_.size(), none) {
    for (int i = 0; i < static_cast<int>(s.ops.size()); ++i) {
      const Op& op = s.ops[static_cast<std::size_t>(i)];
      if (has_forward(op.kind)) forward_[index(op.chunk)] = i;
      if (const auto bc = backward_chunk(op)) backward_[index(*bc)] = i;
    }
  }

  // The op whose output a forward of `c` consumes, or none at the path's first stage.
  [[nodiscard]] auto forward_input(const Chunk& c) const -> int {
    return c.stage == 0 ? none : forward_[index({c.mb, c.phase, c.stage - 1})];
  }
  // The op whose gradient a backward of `c` consumes; the last stage starts from its own forward.
  [[nodiscard]] auto backward_input(const Chunk& c) const -> int {
    if (c.stage == s_.layout.stages - 1) return forward_[index(c)];
    return backward_[index({c.mb, c.phase, c.stage + 1})];
  }
  [[nodiscard]] auto backward_of(const Chunk& c) const -> int { return backward_[index(c)]; }

 private:
  [[nodiscard]] auto index(const Chunk& c) const -> std::size_t {
    return static_cast<std::size_t>((s_.path_of(c) * s_.layout.stages + c.stage) * per_path_ + c.mb);
  }
  const Schedule& s_;
  int per_path_;
  std::vector<int> forward_;
  std::vector<int> backward_;
};

// Each op waits for at most two inputs besides its rank predecessor.
struct Inputs {
  int first = none;
  int second = none;
};

auto inputs_of(const Op& op, const Producers& p) -> Inputs {
  switch (op.kind) {
    case OpKind::F: return {p.forward_input(op.chunk), none};
    case OpKind::B:
    case OpKind::I: return {p.backward_input(op.chunk), none};
    case OpKind::W: return {p.backward_of(op.chunk), none};
    case OpKind::FB: return {p.forward_input(op.chunk), p.backward_input(op.backward)};
  }
  return {};
}

class Engine {
 public:
  Engine(const Schedule& s, const Costs& costs) : s_(s), costs_(costs), producers_(s) {
    const auto n = s.ops.size();
    inputs_.reserve(n);
    rank_.reserve(n);
    for (int r = 0; r < s.ranks(); ++r)
      for (int i = s.rank_begin[r]; i < s.rank_begin[r + 1]; ++i) rank_.push_back(r);
    for (const Op& op : s.ops) inputs_.push_back(inputs_of(op, producers_));
    timeline_.start.assign(n, 0);
    timeline_.end.assign(n, 0);
    timeline_.waited_for.assign(n, none);
    done_.assign(n, false);
    first_waiter_.assign(n, none);
    next_waiter_.assign(static_cast<std::size_t>(s.ranks()), none);
    next_op_.assign(s.rank_begin.begin(), s.rank_begin.end() - 1);
    free_at_.assign(static_cast<std::size_t>(s.ranks()), 0);
  }

  auto run() -> Timeline {
    std::vector<int> ready;
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
  // Runs rank r's ops until one waits for an input; then parks r on that input's producer.
  void advance(int r, std::vector<int>& ready) {
    auto& next = next_op_[static_cast<std::size_t>(r)];
    while (next < s_.rank_begin[r + 1]) {
      const int i = next;
      const int blocker = unmet_input(i);
      if (blocker != none) {
        next_waiter_[static_cast<std::size_t>(r)] = first_waiter_[static_cast<std::size_t>(blocker)];
        first_waiter_[static_cast<std::size_t>(blocker)] = r;
        return;
      }
      execute(i, r);
      ++next;
      for (int w = first_waiter_[static_cast<std::size_t>(i)]; w != none; w = next_waiter_[static_cast<std::size_t>(w)])
        ready.push_back(w);
      first_waiter_[static_cast<std::size_t>(i)] = none;
    }
  }

  [[nodiscard]] auto unmet_input(int i) const -> int {
    const Inputs in = inputs_[static_cast<std::size_t>(i)];
    if (in.first != none && !done_[static_cast<std::size_t>(in.first)]) return in.first;
    if (in.second != none && !done_[static_cast<std::size_t>(in.second)]) return in.second;
    return none;
  }

  [[nodiscard]] auto arrival(int producer, int consumer_rank) const -> double {
    if (producer == none) return 0;
    const double ready_at = timeline_.end[static_cast<std::size_t>(producer)];
    return rank_[static_cast<std::size_t>(producer)] == consumer_rank ? ready_at : ready_at + costs_.comm;
  }

  void execute(int i, int r) {
    const auto ui = static_cast<std::size_t>(i);
    const Inputs in = inputs_[ui];
    const double free_at = free_at_[static_cast<std::size_t>(r)];
    const double first = arrival(in.first, r);
    const double second = arrival(in.second, r);
    const double start = std::max({free_at, first, second});
    const double end = start + costs_.duration(s_.ops[ui].kind);
    timeline_.start[ui] = start;
    timeline_.end[ui] = end;
    if (start > free_at) timeline_.waited_for[ui] = second > first ? in.second : in.first;
    free_at_[static_cast<std::size_t>(r)] = end;
    done_[ui] = true;
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
      r = rank_[static_cast<std::size_t>(unmet_input(next_op_[static_cast<std::size_t>(r)]))];
    }
    std::string message = "deadlock: ";
    for (std::size_t k = static_cast<std::size_t>(seen_at[static_cast<std::size_t>(r)]); k < order.size(); ++k) {
      const int rank = order[k];
      const int head = next_op_[static_cast<std::size_t>(rank)];
      const int blocker = unmet_input(head);
      const int blocker_rank = rank_[static_cast<std::size_t>(blocker)];
      message += "rank " + std::to_string(rank) + " waits at op " + std::to_string(head - s_.rank_begin[rank]) + " (" +
                 describe(s_.ops[static_cast<std::size_t>(head)]) + ") for " +
                 describe(s_.ops[static_cast<std::size_t>(blocker)]) + " (rank " + std::to_string(blocker_rank) +
                 ", op " + std::to_string(blocker - s_.rank_begin[blocker_rank]) + "); ";
    }
    message += "no op in this cycle can start";
    throw Error(message);
  }

  const Schedule& s_;
  const Costs& costs_;
  Producers producers_;
  std::vector<Inputs> inputs_;
  std::vector<int> rank_;
  std::vector<bool> done_;
  std::vector<int> first_waiter_;  // per op: first rank parked on it
  std::vector<int> next_waiter_;   // per rank: next rank parked on the same op
  std::vector<int> next_op_;       // per rank: index of its next op to run
  std::vector<double> free_at_;
  Timeline timeline_;
};

}  // namespace

auto op_inputs(const Schedule& schedule) -> std::vector<OpInputs> {
  const Producers producers(schedule);
  std::vector<OpInputs> out;
  out.reserve(schedule.ops.size());
  for (const Op& op : schedule.ops) {
    const Inputs in = inputs_of(op, producers);
    out.push_back({in.first, in.second});
  }
  return out;
}

auto simulate(const Schedule& schedule, const Costs& costs) -> Timeline {
  validate_costs(costs);
  validate_schedule(schedule);
  return Engine(schedule, costs).run();
}

}  // namespace pipesim
