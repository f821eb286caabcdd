#include "pipesim/simulate.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "detail/chunk_index.h"
#include "detail/huge_pages.h"
#include "detail/zeroed_array.h"
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

// What the engine knows of one chunk (one micro-batch at one stage) while it runs: the ops that ran its
// forward and its backward, stored as op index + 1 so that the zero-filled table a run starts from
// reads "not run yet"; and whether its backward was split, an I still owing its W. Packed into 8 bytes
// because a large run has millions of chunks.
struct ChunkProgress {
  std::uint32_t forward = 0;        // 1 + the F or FB that ran the forward; 0 = not yet
  std::uint32_t backward : 30 = 0;  // 1 + the B, I or FB that ran the backward; 0 = not yet
  std::uint32_t split : 1 = 0;      // the backward was an I: its W must follow on the same rank
  std::uint32_t weighted : 1 = 0;   // that W has run
};
static_assert(sizeof(ChunkProgress) == 8);

// Op indices must fit ChunkProgress::backward. The request limits allow about 6.3 M ops; an imported
// schedule is checked here, before anything is allocated.
constexpr std::size_t max_engine_ops = (std::size_t{1} << 30) - 2;

// A rank runs its ops in order, so each per-op array and its own rows of the chunk table are streams
// it walks forward; but 64 ranks interleave, far more streams than the hardware prefetchers follow.
// Asking for the next cache line of the stream as each one is written keeps those writes from
// stalling on memory: DualPipe at 64 ranks x 8192 went from 35 to 21 ns per op (start, end and the
// chunk's own row). Prefetching the op list too was slower: its single stream is one the hardware
// follows. WebAssembly has no prefetch; the builtin compiles to nothing there.
template <typename T>
[[gnu::always_inline]] inline void prefetch_for_writing(T* at) {
  __builtin_prefetch(reinterpret_cast<const char*>(at) + 64, 1);
}

// A column of n entries that nothing has touched yet, so the huge-page hint can still apply to it.
template <typename T>
void resize_unwritten(OpColumn<T>& column, std::size_t n) {
  column.resize(n);
  detail::prefer_huge_pages(column.data(), n * sizeof(T));
}

// What a rank parked on: one output of one chunk. Its consumer is the only thing that asks for it, so
// the op that produces it wakes the rank by comparing this key.
enum class Output : std::uint8_t { forward, backward };
[[nodiscard]] constexpr auto key_of(std::size_t row, Output output) -> std::size_t {
  return 2 * row + static_cast<std::size_t>(output);
}
constexpr std::size_t no_key = static_cast<std::size_t>(-1);

// The engine validates as it runs. Each rank runs its own ops in list order and a chunk's entries are
// written only by the rank that owns its stage, so when one of rank r's ops runs, the table holds
// exactly what validate_schedule's rules see at that op: the test per op below is ChunkIndex's
// try_record(). Only the cheap yes/no is made here. On any failure, a schedule that breaks a rule or
// deadlocks, the engine builds the ChunkIndex, which names the first offending op in rank order as
// validate_schedule does, or finds the deadlock's cycle; messages never depend on the engine's order.
class Engine {
 public:
  Engine(const Schedule& s, const Costs& costs)
      : s_(s), comm_(costs.comm),
        durations_{costs.duration(OpKind::F), costs.duration(OpKind::B), costs.duration(OpKind::I),
                   costs.duration(OpKind::W), costs.duration(OpKind::FB)},
        two_way_(s.layout.directions == 2), stages_(s.layout.stages), last_stage_(s.layout.stages - 1),
        per_path_(std::max(s.micro_batches_per_path(), 0)), rank_of_slot_(s.layout.rank_of_stage.data()),
        progress_(checked_chunk_count(s)) {
    const auto n = s.ops.size();
    // Left unwritten: the run writes each entry once (a deadlock or a broken rule throws instead).
    resize_unwritten(timeline_.start, n);
    resize_unwritten(timeline_.end, n);
    resize_unwritten(timeline_.waited_for, n);
    next_op_.assign(s.rank_begin.begin(), s.rank_begin.end() - 1);
    free_at_.assign(static_cast<std::size_t>(s.ranks()), 0);
    waiting_for_.assign(static_cast<std::size_t>(s.ranks()), no_key);
  }

  auto run() -> Timeline {
    std::vector<int> ready;
    ready.reserve(static_cast<std::size_t>(s_.ranks()));
    for (int r = s_.ranks() - 1; r >= 0; --r) ready.push_back(r);
    while (!ready.empty()) {
      const int r = ready.back();
      ready.pop_back();
      if (!advance(r, ready)) [[unlikely]]
        explain_failure();
    }
    for (int r = 0; r < s_.ranks(); ++r)
      if (next_op_[static_cast<std::size_t>(r)] < s_.rank_begin[r + 1]) [[unlikely]]
        explain_failure();
    // Every chunk needs one forward, one backward and, after an I, one W. Each record above was checked
    // to be the first of its kind for its chunk, so counting them checks the table without reading it.
    if (forwards_ != progress_.size() || backwards_ != progress_.size() || splits_ != weights_) [[unlikely]]
      explain_failure();
    return std::move(timeline_);
  }

 private:
  // Where an op's chunk is: its slot (one stage of one path), its stage, and its row in progress_.
  struct Place {
    int slot;
    int stage;
    std::size_t row;
  };

  // The place of chunk c if it is a chunk of this schedule whose stage lives on `rank`; else false.
  [[nodiscard]] auto place_on(int rank, const Chunk& c, Place& out) const -> bool {
    const bool phase_ok = two_way_ ? static_cast<unsigned>(c.phase) < 2U : c.phase >= 0;
    if (!phase_ok || static_cast<unsigned>(c.mb) >= static_cast<unsigned>(per_path_) ||
        static_cast<unsigned>(c.stage) >= static_cast<unsigned>(stages_))
      return false;
    const int slot = (two_way_ ? c.phase : 0) * stages_ + c.stage;
    out = {slot, c.stage, static_cast<std::size_t>(slot) * static_cast<std::size_t>(per_path_) +
                              static_cast<std::size_t>(c.mb)};
    return rank_of_slot_[slot] == rank;
  }

  [[nodiscard]] auto upstream(const Place& p) const -> std::size_t { return p.row - static_cast<std::size_t>(per_path_); }
  [[nodiscard]] auto downstream(const Place& p) const -> std::size_t { return p.row + static_cast<std::size_t>(per_path_); }

  // An op's forward input: the previous stage's forward of its micro-batch (none at the first stage).
  // Returns false, with `wait` set, when that forward has not run yet.
  [[nodiscard]] auto forward_input(const Place& p, Input& in, std::size_t& wait) const -> bool {
    if (p.stage == 0) return true;
    const std::uint32_t producer = progress_[upstream(p)].forward;
    if (producer == 0) {
      wait = key_of(upstream(p), Output::forward);
      return false;
    }
    in = {static_cast<int>(producer - 1), rank_of_slot_[p.slot - 1]};
    return true;
  }

  // A backward's input on `rank`: the next stage's backward, or at the last stage the chunk's own
  // forward (already run on this rank: the rules checked it).
  [[nodiscard]] auto backward_input(const Place& p, int rank, Input& in, std::size_t& wait) const -> bool {
    if (p.stage == last_stage_) {
      in = {static_cast<int>(progress_[p.row].forward - 1), rank};
      return true;
    }
    const std::uint32_t producer = progress_[downstream(p)].backward;
    if (producer == 0) {
      wait = key_of(downstream(p), Output::backward);
      return false;
    }
    in = {static_cast<int>(producer - 1), rank_of_slot_[p.slot + 1]};
    return true;
  }

  // Runs rank r's ops until one waits for an input, then parks r on that input. Returns false when an
  // op breaks a rule (the caller explains it).
  auto advance(int r, std::vector<int>& ready) -> bool {
    int& next = next_op_[static_cast<std::size_t>(r)];
    const int last = s_.rank_begin[r + 1];
    double free_at = free_at_[static_cast<std::size_t>(r)];
    bool ok = true;
    while (next < last) {
      const int i = next;
      const Op& op = s_.ops[static_cast<std::size_t>(i)];
      Place at{};
      if (!place_on(r, op.chunk, at)) {
        ok = false;
        break;
      }
      ChunkProgress& chunk = progress_[at.row];
      prefetch_for_writing(&chunk);
      Inputs in;
      std::size_t wait = no_key;
      switch (op.kind) {
        case OpKind::F:
          if (chunk.forward != 0) ok = false;
          else if (forward_input(at, in.first, wait)) {
            free_at = execute(i, r, op.kind, in, free_at);
            chunk.forward = static_cast<std::uint32_t>(i + 1);
            ++forwards_;
            wake(at.stage < last_stage_ ? rank_of_slot_[at.slot + 1] : none, key_of(at.row, Output::forward), ready);
          }
          break;
        case OpKind::B:
        case OpKind::I:
          if (chunk.backward != 0 || chunk.forward == 0) ok = false;
          else if (backward_input(at, r, in.first, wait)) {
            free_at = execute(i, r, op.kind, in, free_at);
            chunk.backward = static_cast<std::uint32_t>(i + 1);
            chunk.split = op.kind == OpKind::I;
            ++backwards_;
            splits_ += chunk.split;
            wake(at.stage > 0 ? rank_of_slot_[at.slot - 1] : none, key_of(at.row, Output::backward), ready);
          }
          break;
        case OpKind::W:
          // A W's only input is its own chunk's I on this rank, which the rules require to have run.
          if (chunk.backward == 0 || !chunk.split || chunk.weighted) ok = false;
          else {
            in.first = {static_cast<int>(chunk.backward - 1), r};
            free_at = execute(i, r, op.kind, in, free_at);
            chunk.weighted = 1;
            ++weights_;
          }
          break;
        case OpKind::FB: {
          Place back{};
          if (!place_on(r, op.backward, back) || back.row == at.row) {
            ok = false;
            break;
          }
          ChunkProgress& backward = progress_[back.row];
          if (chunk.forward != 0 || backward.backward != 0 || backward.forward == 0) ok = false;
          else if (forward_input(at, in.first, wait) && backward_input(back, r, in.second, wait)) {
            free_at = execute(i, r, op.kind, in, free_at);
            chunk.forward = static_cast<std::uint32_t>(i + 1);
            backward.backward = static_cast<std::uint32_t>(i + 1);
            ++forwards_;
            ++backwards_;
            wake(at.stage < last_stage_ ? rank_of_slot_[at.slot + 1] : none, key_of(at.row, Output::forward), ready);
            wake(back.stage > 0 ? rank_of_slot_[back.slot - 1] : none, key_of(back.row, Output::backward), ready);
          }
          break;
        }
        default: ok = false;
      }
      if (!ok) break;
      if (wait != no_key) {
        waiting_for_[static_cast<std::size_t>(r)] = wait;
        break;
      }
      ++next;
    }
    free_at_[static_cast<std::size_t>(r)] = free_at;
    return ok;
  }

  // Outputs go to the neighbouring stage along the path (a forward's to the next, a backward's to the
  // previous); a consumer on the producing rank itself runs later in that rank's own list.
  void wake(int rank, std::size_t key, std::vector<int>& ready) {
    if (rank == none || waiting_for_[static_cast<std::size_t>(rank)] != key) return;
    waiting_for_[static_cast<std::size_t>(rank)] = no_key;
    ready.push_back(rank);
  }

  [[nodiscard]] auto arrival(Input in, int consumer_rank) const -> double {
    if (in.op == none) return 0;
    const double ready_at = timeline_.end[static_cast<std::size_t>(in.op)];
    return in.rank == consumer_rank ? ready_at : ready_at + comm_;
  }

  // Times op i on rank r, free from `free_at`; returns when r is free again.
  auto execute(int i, int r, OpKind kind, Inputs in, double free_at) -> double {
    const auto ui = static_cast<std::size_t>(i);
    const double first = arrival(in.first, r);
    const double second = arrival(in.second, r);
    const double start = std::max({free_at, first, second});
    const double end = start + durations_[static_cast<std::size_t>(kind)];
    prefetch_for_writing(&timeline_.start[ui]);
    prefetch_for_writing(&timeline_.end[ui]);
    timeline_.start[ui] = start;
    timeline_.end[ui] = end;
    timeline_.waited_for[ui] = start <= free_at ? none : second > first ? in.second.op : in.first.op;
    return end;
  }

  static auto checked_chunk_count(const Schedule& s) -> std::size_t {
    if (s.ops.size() > max_engine_ops)
      throw Error(ErrorCode::limit_exceeded, "a schedule of " + std::to_string(s.ops.size()) +
                                                 " ops is more than the engine can time (" +
                                                 std::to_string(max_engine_ops) + ")");
    // The table is as large as validation's; malformed shapes are refused by the ChunkIndex the
    // engine builds before it reads the table (see simulate()).
    return static_cast<std::size_t>(s.layout.directions) * static_cast<std::size_t>(std::max(s.layout.stages, 0)) *
           static_cast<std::size_t>(std::max(s.micro_batches_per_path(), 0));
  }

  // The slow path, on a schedule that breaks a rule or deadlocks: the ChunkIndex names the first
  // offending op in rank order; if every op keeps the rules, some ranks wait on each other.
  [[noreturn, gnu::cold, gnu::noinline]] void explain_failure() const {
    const detail::ChunkIndex index(s_);  // throws invalid_schedule if any op breaks a rule
    for (int r = 0; r < s_.ranks(); ++r)
      if (next_op_[static_cast<std::size_t>(r)] < s_.rank_begin[r + 1]) report_deadlock(index);
    throw Error(ErrorCode::internal, "internal: the engine refused a schedule that validation accepts");
  }

  [[nodiscard]] auto blocker_of(const detail::ChunkIndex& index, int rank) const -> Input {
    const int head = next_op_[static_cast<std::size_t>(rank)];
    const Op& op = s_.ops[static_cast<std::size_t>(head)];
    const detail::OpProducers in = index.inputs_of(op, rank);
    const bool first_done = in.first.op == none || in.first.op < next_op_[static_cast<std::size_t>(in.first.rank)];
    return first_done ? in.second : in.first;
  }

  [[noreturn]] void report_deadlock(const detail::ChunkIndex& index) const {
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
    for (std::size_t k = static_cast<std::size_t>(seen_at[static_cast<std::size_t>(r)]); k < order.size(); ++k) {
      const int rank = order[k];
      const int head = next_op_[static_cast<std::size_t>(rank)];
      const Input blocker = blocker_of(index, rank);
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
  double durations_[op_kind_count];
  bool two_way_;
  int stages_;
  int last_stage_;
  int per_path_;
  const int* rank_of_slot_;                  // the layout's rank_of_stage, read directly in the loop
  detail::ZeroedArray<ChunkProgress> progress_;  // per chunk, rows slot-major as the ChunkIndex's
  std::vector<int> next_op_;                 // per rank: index of its next op to run
  std::vector<double> free_at_;              // per rank: when its last op ends
  std::vector<std::size_t> waiting_for_;     // per rank: key_of the output it is parked on, or no_key
  std::size_t forwards_ = 0;                 // chunks whose forward has run
  std::size_t backwards_ = 0;                // chunks whose backward has run
  std::size_t splits_ = 0;                   // of those, backwards split into an I
  std::size_t weights_ = 0;                  // Ws run
  Timeline timeline_;
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
  detail::check_shape(schedule);
  return Engine(schedule, costs).run();
}

}  // namespace pipesim
