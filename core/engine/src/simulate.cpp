#include "pipesim/simulate.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "detail/activation_steps.h"
#include "detail/chunk_index.h"
#include "detail/chunk_rules.h"
#include "detail/once_per_run.h"
#include "detail/prefetch.h"
#include "detail/ready_ranks.h"
#include "pipesim/error.h"
#include "pipesim/stage_costs.h"

namespace pipesim {

namespace {

using detail::ChunkGrid;
using detail::ChunkProgress;

constexpr int none = detail::no_op;

// One input of an op: the op that produces it and the rank that runs that op.
using Input = detail::Producer;

// Each op waits for at most two inputs besides its rank predecessor (see OpProducers).
using Inputs = detail::OpProducers;

// The writes each op makes (start, end and its chunk's row) are prefetched a line ahead
// (detail/prefetch.h): DualPipe at 64 ranks x 8192 went from 35 to 21 ns per op. The op list is read
// two lines ahead: it is one stream per rank, not one the hardware follows once 64 ranks interleave
// (perf: a third of simulate()'s samples at 64 x 8192 waited on the op's load; simulate() of DualPipe
// 64 x 8192 took 12.0 ms instead of 16.5, fastest of 15). The inputs' rows and end times were
// prefetched too in a trial, without a measurable gain.
using detail::prefetch_for_reading;
using detail::prefetch_for_writing;

// What a rank parked on: one output of one chunk. Its consumer is the only thing that asks for it, so
// the op that produces it wakes the rank by comparing this key.
enum class Output : std::uint8_t { forward, backward };
[[nodiscard]] constexpr auto key_of(std::size_t row, Output output) -> std::size_t {
  return 2 * row + static_cast<std::size_t>(output);
}
constexpr std::size_t no_key = static_cast<std::size_t>(-1);

// What became of a rank's next op.
enum class Step : std::uint8_t {
  ran,          // it ran: on to the rank's next op
  waits,        // an input has not run yet: the rank is parked on it
  breaks_rule,  // it breaks a rule of chunk_rules.h: the run stops and explains
};

// The engine validates as it runs. Each rank runs its own ops in list order and a chunk's entry is
// written only by the rank that owns its stage, so when one of rank r's ops runs, the table holds
// exactly what validation sees at that op, and the rules of chunk_rules.h are checked against it
// there. Only the yes/no is made here. On any failure, a schedule that breaks a rule or deadlocks,
// the engine builds the ChunkIndex, which names the first offending op in rank order as
// validate_schedule does, or finds the deadlock's cycle; messages never depend on the engine's order.
//
// What it keeps is a template argument, so the timed walk is written once: `Keep::timeline` records
// every op's start, end and wait (simulate); `Keep::metrics` records only each op's end, which its
// consumers read, and measures busy time and live activations per rank as the ops run
// (simulate_metrics). Each instantiation is linked only where it is called.
enum class Keep : std::uint8_t { timeline, metrics };

// What a rank's live activations hold: chunks, and their weight when stage weights are given. The
// two change at the same times (an op's start and end), so one tally keeps both: two tallies each
// tested every op's times again (in WebAssembly the tallies were most of execute(), a sixth of a
// planner search's time).
struct Held {
  int chunks = 0;
  double weight = 0;
  auto operator+=(const Held& d) -> Held& {
    chunks += d.chunks;
    weight += d.weight;
    return *this;
  }
  friend auto operator-(const Held& h) -> Held { return {-h.chunks, -h.weight}; }
};

template <Keep keep>
class Engine {
 public:
  Engine(const Schedule& s, const StageCosts& costs) : s_(s), costs_(costs), uniform_(costs.uniform()), grid_(s) {
    build_duration_table();
    const auto n = s.ops.size();
    // Zeroed by one memset before the engine reads it: fresh pages read first fault twice (once to map
    // the shared zero page, again on the first write), written first they fault once.
    progress_.resize(grid_.chunks());
    std::memset(static_cast<void*>(progress_.data()), 0, grid_.chunks() * sizeof(ChunkProgress));
    // Left unwritten (see OpColumn): the run writes each entry once, or throws.
    timeline_.end.resize(n);
    if constexpr (keep == Keep::timeline) {
      timeline_.start.resize(n);
      timeline_.waited_for.resize(n);
    } else {
      tallies_.resize(static_cast<std::size_t>(s.ranks()));
      summary_.per_rank.resize(static_cast<std::size_t>(s.ranks()));
    }
    next_op_.assign(s.rank_begin.begin(), s.rank_begin.end() - 1);
    free_at_.assign(static_cast<std::size_t>(s.ranks()), 0);
    waiting_for_.assign(static_cast<std::size_t>(s.ranks()), no_key);
  }

  // One row per slot (a stage of a path, on one rank): its ops' durations at that rank's speed and the
  // latencies of the boundaries on either side, so the hot path does one indexed load per op and
  // never looks a stage's costs up. A path's stage s uses stage s's costs whichever direction runs it.
  void build_duration_table() {
    const int slots = s_.layout.directions * s_.layout.stages;
    slot_table_.resize(static_cast<std::size_t>(slots));
    for (int slot = 0; slot < slots; ++slot) {
      const int stage = slot % s_.layout.stages;
      const Costs& c = costs_.stages[static_cast<std::size_t>(stage)];
      const double speed = costs_.rank_speed[static_cast<std::size_t>(s_.layout.rank_of_stage[static_cast<std::size_t>(slot)])];
      SlotTiming& t = slot_table_[static_cast<std::size_t>(slot)];
      for (int k = 0; k < op_kind_count; ++k) t.duration[k] = c.duration(static_cast<OpKind>(k)) / speed;
      t.forward_comm = stage > 0 ? costs_.stages[static_cast<std::size_t>(stage - 1)].comm : 0;
      t.backward_comm = c.comm;
    }
    slots_ = slot_table_.data();
  }

  [[nodiscard]] auto duration(int slot, OpKind kind) const -> double {
    return slots_[slot].duration[static_cast<int>(kind)];
  }

  // An F&B of the forward at `f` and the backward at `b` (both on rank r): the pairing rule of
  // stage_costs.h, which is the slot's own FB when every stage costs the same.
  [[nodiscard]] auto pair_time(int r, const ChunkGrid::Place& f, const ChunkGrid::Place& b) const -> double {
    if (uniform_) return duration(f.slot, OpKind::FB);
    return pair_duration(costs_.stages[static_cast<std::size_t>(f.stage)], costs_.stages[static_cast<std::size_t>(b.stage)]) /
           costs_.rank_speed[static_cast<std::size_t>(r)];
  }

  auto run() -> Timeline {
    detail::ReadyRanks ready(s_.ranks());
    while (!ready.empty()) {
      const int r = ready.take();
      if (!advance(r, ready)) [[unlikely]]
        explain_failure();
    }
    for (int r = 0; r < s_.ranks(); ++r)
      if (next_op_[static_cast<std::size_t>(r)] < s_.rank_begin[r + 1]) [[unlikely]]
        explain_failure();
    // Every chunk needs one forward, one backward and, after an I, one W (detail::complete). Each
    // record was checked to be the first of its kind for its chunk, so counting them checks the table
    // without reading it again.
    if (forwards_ != grid_.chunks() || backwards_ != grid_.chunks() || splits_ != weights_) [[unlikely]]
      explain_failure();
    return std::move(timeline_);
  }

  // After run(), in Keep::metrics: the summary, as measure() computes it from a kept timeline.
  auto summary() -> RunSummary {
    double total_busy = 0;
    for (int r = 0; r < s_.ranks(); ++r) {
      const auto ur = static_cast<std::size_t>(r);
      RankSummary& rs = summary_.per_rank[ur];
      tallies_[ur].finish([&](double, Held alive) { note_peaks(rs, alive); });
      // A rank's last op ends last: it is free from then on (measure()'s last_end).
      if (s_.rank_begin[r + 1] > s_.rank_begin[r]) summary_.makespan = std::max(summary_.makespan, free_at_[ur]);
      summary_.peak_activations = std::max(summary_.peak_activations, rs.peak_activations);
      total_busy += rs.busy;
    }
    const double capacity = s_.ranks() * summary_.makespan;
    if (summary_.makespan > 0) summary_.bubble_fraction = (capacity - total_busy) / capacity;
    return std::move(summary_);
  }

  void weigh_stages(const std::vector<double>& stage_weight) { stage_weight_ = stage_weight.empty() ? nullptr : stage_weight.data(); }

 private:
  // Runs rank r's ops until one waits for an input (r is then parked on it) or breaks a rule (false).
  auto advance(int r, detail::ReadyRanks& ready) -> bool {
    int& next = next_op_[static_cast<std::size_t>(r)];
    const int last = s_.rank_begin[r + 1];
    double free_at = free_at_[static_cast<std::size_t>(r)];
    Step step = Step::ran;
    while (next < last && (step = run_op(r, next, free_at, ready)) == Step::ran) ++next;
    free_at_[static_cast<std::size_t>(r)] = free_at;
    return step != Step::breaks_rule;
  }

  [[gnu::always_inline]] auto run_op(int r, int i, double& free_at, detail::ReadyRanks& ready) -> Step {
    const Op& op = s_.ops[static_cast<std::size_t>(i)];
    prefetch_for_reading(&op, 2);
    ChunkGrid::Place at{};
    if (!grid_.place_on(r, op.chunk, at)) return Step::breaks_rule;
    ChunkProgress& chunk = progress_[at.row];
    prefetch_for_writing(&chunk);
    switch (op.kind) {
      case OpKind::F: return run_forward(r, i, at, chunk, free_at, ready);
      case OpKind::B:
      case OpKind::I: return run_backward(r, i, op.kind, at, chunk, free_at, ready);
      case OpKind::W: return run_weight(r, i, at, chunk, free_at);
      case OpKind::FB: return run_pair(r, i, op, at, chunk, free_at, ready);
    }
    return Step::breaks_rule;
  }

  [[gnu::always_inline]] auto run_forward(int r, int i, const ChunkGrid::Place& at, ChunkProgress& chunk,
                                          double& free_at, detail::ReadyRanks& ready) -> Step {
    if (!detail::may_run_forward(chunk)) return Step::breaks_rule;
    Inputs in;
    if (!forward_input(r, at, in.first)) return Step::waits;
    free_at = execute(i, r, duration(at.slot, OpKind::F), in, {slots_[at.slot].forward_comm, 0}, free_at);
    detail::record_forward(chunk, i);
    ++forwards_;
    wake_downstream(at, ready);
    return Step::ran;
  }

  [[gnu::always_inline]] auto run_backward(int r, int i, OpKind kind, const ChunkGrid::Place& at,
                                           ChunkProgress& chunk, double& free_at, detail::ReadyRanks& ready) -> Step {
    if (!detail::may_run_backward(chunk)) return Step::breaks_rule;
    Inputs in;
    if (!backward_input(r, at, in.first)) return Step::waits;
    free_at = execute(i, r, duration(at.slot, kind), in, {slots_[at.slot].backward_comm, 0}, free_at);
    detail::record_backward(chunk, i, kind == OpKind::I);
    ++backwards_;
    splits_ += kind == OpKind::I ? 1 : 0;
    wake_upstream(at, ready);
    return Step::ran;
  }

  // A W's only input is its own chunk's I on this rank, which the rules require to have run; its
  // output (a weight gradient) stays on the rank, so it wakes no one.
  [[gnu::always_inline]] auto run_weight(int r, int i, const ChunkGrid::Place& at, ChunkProgress& chunk, double& free_at)
      -> Step {
    if (!detail::may_run_weight(chunk)) return Step::breaks_rule;
    free_at = execute(i, r, duration(at.slot, OpKind::W), {{detail::op_of(chunk.backward), r}, {}}, {0, 0}, free_at);
    detail::record_weight(chunk);
    ++weights_;
    return Step::ran;
  }

  [[gnu::always_inline]] auto run_pair(int r, int i, const Op& op, const ChunkGrid::Place& at, ChunkProgress& chunk,
                                       double& free_at, detail::ReadyRanks& ready) -> Step {
    ChunkGrid::Place back{};
    if (!grid_.place_on(r, op.backward, back) || back.row == at.row) return Step::breaks_rule;
    ChunkProgress& backward = progress_[back.row];
    if (!detail::may_run_forward(chunk) || !detail::may_run_backward(backward)) return Step::breaks_rule;
    Inputs in;
    if (!forward_input(r, at, in.first) || !backward_input(r, back, in.second)) return Step::waits;
    free_at = execute(i, r, pair_time(r, at, back), in, {slots_[at.slot].forward_comm, slots_[back.slot].backward_comm}, free_at);
    detail::record_forward(chunk, i);
    detail::record_backward(backward, i, false);
    ++forwards_;
    ++backwards_;
    wake_downstream(at, ready);
    wake_upstream(back, ready);
    return Step::ran;
  }

  // A forward's input: the previous stage's forward of its micro-batch (none at the first stage). When
  // that has not run yet, parks rank r on it and returns false.
  [[gnu::always_inline]] auto forward_input(int r, const ChunkGrid::Place& p, Input& in) -> bool {
    if (grid_.first_stage(p)) return true;
    const std::uint32_t producer = progress_[grid_.upstream(p)].forward;
    if (producer == 0) return park(r, key_of(grid_.upstream(p), Output::forward));
    in = {detail::op_of(producer), grid_.rank_upstream(p)};
    return true;
  }

  // A backward's input: the next stage's backward, or at the last stage the chunk's own forward
  // (already run on this rank: the rules checked it). Parks rank r like forward_input().
  [[gnu::always_inline]] auto backward_input(int r, const ChunkGrid::Place& p, Input& in) -> bool {
    if (grid_.last_stage(p)) {
      in = {detail::op_of(progress_[p.row].forward), r};
      return true;
    }
    const std::uint32_t producer = progress_[grid_.downstream(p)].backward;
    if (producer == 0) return park(r, key_of(grid_.downstream(p), Output::backward));
    in = {detail::op_of(producer), grid_.rank_downstream(p)};
    return true;
  }

  [[gnu::always_inline]] auto park(int r, std::size_t key) -> bool {
    waiting_for_[static_cast<std::size_t>(r)] = key;
    return false;
  }

  // Outputs go to the neighbouring stage along the path, a forward's to the next and a backward's to
  // the previous; a consumer on the producing rank itself runs later in that rank's own list. (Forced
  // inline: left to itself, the WebAssembly build called wake() out of line, 8% slower.)
  [[gnu::always_inline]] void wake_downstream(const ChunkGrid::Place& p, detail::ReadyRanks& ready) {
    if (!grid_.last_stage(p)) wake(grid_.rank_downstream(p), key_of(p.row, Output::forward), ready);
  }
  [[gnu::always_inline]] void wake_upstream(const ChunkGrid::Place& p, detail::ReadyRanks& ready) {
    if (!grid_.first_stage(p)) wake(grid_.rank_upstream(p), key_of(p.row, Output::backward), ready);
  }
  [[gnu::always_inline]] void wake(int rank, std::size_t key, detail::ReadyRanks& ready) {
    if (waiting_for_[static_cast<std::size_t>(rank)] != key) return;
    waiting_for_[static_cast<std::size_t>(rank)] = no_key;
    ready.add(rank);
  }

  [[nodiscard]] auto arrival(Input in, int consumer_rank, double comm) const -> double {
    if (in.op == none) return 0;
    const double ready_at = timeline_.end[static_cast<std::size_t>(in.op)];
    return in.rank == consumer_rank ? ready_at : ready_at + comm;
  }

  // The latency of the boundary each input crosses, if it comes from another rank.
  struct Latencies {
    double first;
    double second;
  };

  // Times op i on rank r, free from `free_at`, for `duration`; returns when r is free again. (Forced
  // inline: the WebAssembly build kept the metrics-only instantiation out of line, a call per op with
  // its inputs through memory: the planner's search in the course module ran 1.3-1.4x faster inlined.
  // The timeline instantiation was inlined already: the engine module's size did not change.)
  [[gnu::always_inline]] auto execute(int i, int r, double duration, Inputs in, Latencies comm, double free_at) -> double {
    const auto ui = static_cast<std::size_t>(i);
    const double first = arrival(in.first, r, comm.first);
    const double second = arrival(in.second, r, comm.second);
    const double start = std::max({free_at, first, second});
    const double end = start + duration;
    prefetch_for_writing(&timeline_.end[ui]);
    timeline_.end[ui] = end;
    if constexpr (keep == Keep::timeline) {
      prefetch_for_writing(&timeline_.start[ui]);
      timeline_.start[ui] = start;
      timeline_.waited_for[ui] = start <= free_at ? none : second > first ? in.second.op : in.first.op;
    } else {
      tally(r, s_.ops[ui], start, end);
    }
    return end;
  }

  // Keep::metrics: what measure() reads of this op, taken as it runs (a rank's ops run in list order,
  // as measure() reads them).
  void tally(int r, const Op& op, double start, double end) {
    const auto ur = static_cast<std::size_t>(r);
    RankSummary& rs = summary_.per_rank[ur];
    rs.busy += end - start;
    const auto held = [this](const Chunk& c) { return Held{1, stage_weight_ != nullptr ? stage_weight_[c.stage] : 0.0}; };
    tallies_[ur].add(op, start, end, held, [&](double, Held alive) { note_peaks(rs, alive); });
  }
  static void note_peaks(RankSummary& rs, const Held& alive) {
    rs.peak_activations = std::max(rs.peak_activations, alive.chunks);
    rs.peak_weight = std::max(rs.peak_weight, alive.weight);
  }

  // The slow path, on a schedule that breaks a rule or deadlocks: the ChunkIndex names the first
  // offending op in rank order; if every op keeps the rules, some ranks wait on each other. The index
  // is built next to the engine's own table, a few bytes per chunk more on this path only.
  [[noreturn, gnu::cold, gnu::noinline]] PIPESIM_ONCE_PER_RUN void explain_failure() const {
    const detail::ChunkIndex index(s_);  // throws invalid_schedule if any op breaks a rule
    for (int r = 0; r < s_.ranks(); ++r)
      if (next_op_[static_cast<std::size_t>(r)] < s_.rank_begin[r + 1]) report_deadlock(index);
    throw Error(ErrorCode::internal, "internal: the engine refused a schedule that validation accepts");
  }

  [[nodiscard]] PIPESIM_ONCE_PER_RUN auto blocker_of(const detail::ChunkIndex& index, int rank) const -> Input {
    const int head = next_op_[static_cast<std::size_t>(rank)];
    const Op& op = s_.ops[static_cast<std::size_t>(head)];
    const detail::OpProducers in = index.inputs_of(op, rank);
    const bool first_done = in.first.op == none || in.first.op < next_op_[static_cast<std::size_t>(in.first.rank)];
    return first_done ? in.second : in.first;
  }

  [[noreturn]] PIPESIM_ONCE_PER_RUN void report_deadlock(const detail::ChunkIndex& index) const {
    // Follow "rank r waits for an op of rank r'" until a rank repeats: that loop is the cycle.
    int r = 0;
    while (next_op_[static_cast<std::size_t>(r)] >= s_.rank_begin[r + 1]) ++r;
    std::vector<int> order;
    std::vector<int> seen_at(static_cast<std::size_t>(s_.ranks()), none);
    while (seen_at[static_cast<std::size_t>(r)] == none) {
      seen_at[static_cast<std::size_t>(r)] = static_cast<int>(order.size());
      order.push_back(r);
      r = blocker_of(index, r).rank;
    }
    std::string message = "deadlock: ";
    // The same links for any language: "rank op op_text for_text for_rank for_op" each, ';' between
    // (web/src/i18n/refusals.ts words the list); op notation (1F0, FB(F0,B1)) has neither space nor ';'.
    std::string cycle;
    // A message stays one readable line: a cycle through thousands of ranks names its first eight.
    constexpr std::size_t named = 8;
    const auto first = static_cast<std::size_t>(seen_at[static_cast<std::size_t>(r)]);
    const std::size_t shown = std::min(order.size(), first + named);
    for (std::size_t k = first; k < shown; ++k) {
      const int rank = order[k];
      const int head = next_op_[static_cast<std::size_t>(rank)];
      const Input blocker = blocker_of(index, rank);
      message += "rank " + std::to_string(rank) + " waits at op " + std::to_string(head - s_.rank_begin[rank]) + " (" +
                 describe(s_.ops[static_cast<std::size_t>(head)]) + ") for " +
                 describe(s_.ops[static_cast<std::size_t>(blocker.op)]) + " (rank " + std::to_string(blocker.rank) +
                 ", op " + std::to_string(blocker.op - s_.rank_begin[blocker.rank]) + "); ";
      cycle += (cycle.empty() ? "" : ";") + std::to_string(rank) + " " + std::to_string(head - s_.rank_begin[rank]) + " " +
               describe(s_.ops[static_cast<std::size_t>(head)]) + " " + describe(s_.ops[static_cast<std::size_t>(blocker.op)]) + " " +
               std::to_string(blocker.rank) + " " + std::to_string(blocker.op - s_.rank_begin[blocker.rank]);
    }
    if (shown < order.size()) message += "and " + std::to_string(order.size() - shown) + " more ranks of the cycle; ";
    message += "no op in this cycle can start";
    throw Error(ErrorCode::deadlock, message,
                {shown < order.size() ? "deadlock.cycle_more" : "deadlock.cycle",
                 {{"cycle", cycle}, {"more", std::to_string(order.size() - shown)}}});
  }

  const Schedule& s_;
  const StageCosts& costs_;
  bool uniform_;                                 // every stage alike, every rank at speed 1
  // What an op of one slot takes: its durations at the slot's rank's speed, and the latencies of the
  // boundaries before and after its stage. One row per slot, read through a plain pointer.
  struct SlotTiming {
    double duration[op_kind_count];
    double forward_comm;
    double backward_comm;
  };
  std::vector<SlotTiming> slot_table_;
  const SlotTiming* slots_ = nullptr;
  ChunkGrid grid_;
  OpColumn<ChunkProgress> progress_;             // per chunk, by grid_ row
  std::vector<int> next_op_;                     // per rank: index of its next op to run
  std::vector<double> free_at_;                  // per rank: when its last op ends
  std::vector<std::size_t> waiting_for_;         // per rank: key_of the output it is parked on, or no_key
  std::size_t forwards_ = 0;                     // chunks whose forward has run
  std::size_t backwards_ = 0;                    // chunks whose backward has run
  std::size_t splits_ = 0;                       // of those, backwards split into an I
  std::size_t weights_ = 0;                      // Ws run
  Timeline timeline_;                            // Keep::metrics: only `end`
  std::vector<detail::ActivationTally<Held>> tallies_;  // Keep::metrics: per rank
  RunSummary summary_;                           // Keep::metrics
  const double* stage_weight_ = nullptr;         // Keep::metrics: per stage, or none
};

}  // namespace

auto op_inputs(const Schedule& schedule) -> std::vector<OpInputs> {
  const detail::ChunkIndex index(schedule);
  std::vector<OpInputs> out;
  out.reserve(schedule.ops.size());
  for (int r = 0; r < schedule.ranks(); ++r)
    for (int i = schedule.rank_begin[r]; i < schedule.rank_begin[r + 1]; ++i) {
      const detail::OpProducers in = index.inputs_of(schedule.ops[static_cast<std::size_t>(i)], r);
      out.push_back({in.first.op, in.second.op});
    }
  return out;
}

auto simulate(const Schedule& schedule, const Costs& costs) -> Timeline {
  validate_costs(costs);
  detail::check_shape(schedule);  // before the engine sizes anything from the schedule
  // One engine for both overloads: a second Engine(...).run() would be a second copy of the whole
  // inlined hot path (in WebAssembly, tens of KiB of the page's first download).
  return simulate(schedule, uniform_stage_costs(costs, schedule.layout.stages, schedule.ranks()));
}

auto simulate(const Schedule& schedule, const StageCosts& costs) -> Timeline {
  detail::check_shape(schedule);
  validate_stage_costs(costs, schedule);
  return Engine<Keep::timeline>(schedule, costs).run();
}

auto simulate_metrics(const Schedule& schedule, const StageCosts& costs, const std::vector<double>& stage_weight)
    -> RunSummary {
  detail::check_shape(schedule);
  validate_stage_costs(costs, schedule);
  if (!stage_weight.empty() && static_cast<int>(stage_weight.size()) != schedule.layout.stages)
    throw Error(ErrorCode::internal, "internal: simulate_metrics needs one stage weight per stage");
  Engine<Keep::metrics> engine(schedule, costs);
  engine.weigh_stages(stage_weight);
  (void)engine.run();
  return engine.summary();
}

}  // namespace pipesim
