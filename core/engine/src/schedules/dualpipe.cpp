// DualPipe and DualPipeV, the twins of deepseek-ai/DualPipe (`dualpipe.py`, `dualpipev.py`), whose
// step() this file runs call for call.
//
// DualPipe (DeepSeek-V3 report §3.2.1): two copies of the model fed from both ends. Rank r holds stage
// r of direction 0 and stage N-1-r of direction 1; ranks r and N-1-r run the same program with the
// directions swapped.
//
// DualPipeV (Sea AI Lab's "cut-in-half" of DualPipe): one copy of a 2N-stage model folded into a V.
// Rank r holds stage r (leg 0, going down) and stage 2N-1-r (leg 1, coming back); every micro-batch
// enters at rank 0 and turns on rank N-1.
//
// DualPipeV is DualPipe's step() with these substitutions (dualpipe_rank / dualpipev_rank below):
//   half rank  h = min(r, N-1-r)  ->  r          (no mirrored second half: the phase is never swapped)
//   half ranks H = N/2            ->  N
//   chunks per phase M = C/2      ->  C          (every micro-batch runs both legs)
//   stages {r, N-1-r} of N        ->  {r, 2N-1-r} of 2N
//   the middle ranks (h = H-1)    ->  the last rank, where the V turns without P2P
// so DualPipeV(N, C) is the first N ranks of DualPipe(2N, 2C), op for op.
#include <algorithm>
#include <array>
#include <cstddef>
#include <string>
#include <utility>

#include "detail/formulas.h"
#include "detail/rank_program.h"
#include "detail/spec_helpers.h"
#include "detail/specs.h"
#include "pipesim/comm.h"
#include "pipesim/error.h"

namespace pipesim::detail {

namespace {

// ---- one rank's program: what step() reads from its object ----------------------------------------

struct DualPipeRank {
  int half_rank = 0;          ///< h
  int num_half_ranks = 0;     ///< H
  int chunks_per_phase = 0;   ///< M: micro-batches per phase
  bool swap_phases = false;   ///< DualPipe's second half: local phase 0 is direction 1
  std::array<int, 2> stage_of_phase{};  ///< the stage this rank runs for phase 0 and phase 1
  int stages = 0;             ///< stages along one path
  bool turns_locally = false; ///< DualPipeV's last rank: its phase-0 output is its own phase-1 input
  bool v_shape = false;       ///< dualpipev.py, whose few comm calls differ from dualpipe.py's
  /// dualpipe.py's is_middle_rank, dualpipev.py's is_last_rank (h = H-1 in both).
  [[nodiscard]] auto middle() const -> bool { return half_rank == num_half_ranks - 1; }
};

auto dualpipe_rank(const ScheduleParams& p, int r) -> DualPipeRank {
  const int n = p.ranks;
  return {std::min(r, n - 1 - r), n / 2, p.micro_batches / 2, r >= n / 2, {r, n - 1 - r}, n, false, false};
}

// The substitution stated at the top of the file.
auto dualpipev_rank(const ScheduleParams& p, int r) -> DualPipeRank {
  const int n = p.ranks;
  return {r, n, p.micro_batches, false, {r, 2 * n - 1 - r}, 2 * n, r == n - 1, true};
}

// ---- the reference object's methods ------------------------------------------------------------

// Hands out the next micro-batch per phase, FIFO like the reference's chunk counters. A rank's
// "local phase" is XOR-ed with swap_phases exactly as `phase ^= self.is_in_second_half`.
class PhaseCounters {
 public:
  explicit PhaseCounters(const DualPipeRank& r) : r_(r) {}
  auto next(int local_phase, std::array<int, 2>& counters) -> Chunk {
    const int phase = actual_phase(local_phase);
    return Chunk{counters[static_cast<std::size_t>(phase)]++, phase, r_.stage_of_phase[static_cast<std::size_t>(phase)]};
  }
  [[nodiscard]] auto actual_phase(int local_phase) const -> int { return local_phase ^ static_cast<int>(r_.swap_phases); }

 private:
  const DualPipeRank& r_;
};

// One rank of DeepSeek's DualPipe / DualPipeV object, method for method (dualpipe.py and dualpipev.py
// share them): `_forward_chunk`, `_backward_chunk`, `_forward_backward_chunk` and `_weight_chunk` emit
// the compute op between their comm calls; `_recv_*` / `_send_*` queue a transfer with their own chunk
// counters (current_recv_f_chunk_id, ...) and skip it where the neighbouring stage is absent or on this
// rank (the V's turn); `_commit_and_wait_comm` launches what is queued and waits, and does nothing when
// nothing is queued. Without a CommWriter only the ops are written.
class ReferenceRank {
 public:
  ReferenceRank(const DualPipeRank& rank, RankOps out, CommWriter* comm)
      : r_(rank), p_(out), counters_(rank), comm_(comm) {}

  void forward_chunk(int phase, bool recv = true, bool send = true) {
    if (recv) recv_forward(phase);
    commit_and_wait_comm();
    compute();
    p_.forward(counters_.next(phase, f_));
    if (send) send_forward(phase);
  }
  void backward_chunk(int phase, bool enable_zb = false, bool recv = true, bool send = true) {
    if (recv) recv_backward(phase);
    commit_and_wait_comm();
    compute();
    p_.backward(counters_.next(phase, b_), enable_zb);
    if (send) send_backward(phase);
  }
  void forward_backward_chunk(int phase0, int phase1, bool recv0 = true) {
    if (recv0) recv_forward(phase0);
    recv_backward(phase1);
    commit_and_wait_comm();
    compute();
    const Chunk f = counters_.next(phase0, f_);
    p_.overlapped(f, counters_.next(phase1, b_));
    send_forward(phase0);
    send_backward(phase1);
  }
  void weight_chunk() {
    commit_and_wait_comm();
    compute();
    p_.weight();
  }

  // Without a CommWriter (dataflow timing) these return before asking where the neighbour is: the
  // ops-only generation is on the CLI's hot path, and these calls are half of step()'s.
  void recv_forward(int phase) {
    if (comm_ != nullptr) transfer(phase, CommAction::recv_forward, forward_input_remote(phase), recv_f_);
  }
  void send_forward(int phase) {
    if (comm_ != nullptr) transfer(phase, CommAction::send_forward, forward_output_remote(phase), send_f_);
  }
  void recv_backward(int phase) {
    if (comm_ != nullptr) transfer(phase, CommAction::recv_backward, forward_output_remote(phase), recv_b_);
  }
  void send_backward(int phase) {
    if (comm_ != nullptr) transfer(phase, CommAction::send_backward, forward_input_remote(phase), send_b_);
  }

  void commit_and_wait_comm() {
    if (queued_ == 0) return;  // always so without a CommWriter
    comm_->add(CommAction::post);
    comm_->add(CommAction::wait_all);
    queued_ = 0;
  }

  void finish() {
    if (p_.parked() != 0) throw Error(ErrorCode::internal, "internal: weight-gradient queue not empty at the end of the step");
    commit_and_wait_comm();
  }

 private:
  // Whether the input of a forward (and the gradient a backward sends back) crosses to another rank.
  [[nodiscard]] auto forward_input_remote(int local_phase) const -> bool {
    const int phase = counters_.actual_phase(local_phase);
    return r_.stage_of_phase[static_cast<std::size_t>(phase)] > 0 && !(r_.turns_locally && phase == 1);
  }
  // Whether the output of a forward (and the gradient a backward receives) crosses to another rank.
  [[nodiscard]] auto forward_output_remote(int local_phase) const -> bool {
    const int phase = counters_.actual_phase(local_phase);
    return r_.stage_of_phase[static_cast<std::size_t>(phase)] < r_.stages - 1 && !(r_.turns_locally && phase == 0);
  }
  void transfer(int phase, CommAction action, bool remote, std::array<int, 2>& counter) {
    if (!remote) return;
    comm_->add(action, counters_.next(phase, counter));
    ++queued_;
  }
  void compute() {
    if (comm_ != nullptr) comm_->add(CommAction::compute);
  }

  const DualPipeRank& r_;
  RankProgram p_;
  PhaseCounters counters_;
  CommWriter* comm_;
  int queued_ = 0;  // transfers queued since the last commit
  std::array<int, 2> f_{}, b_{}, recv_f_{}, send_f_{}, recv_b_{}, send_b_{};
};

// The same methods, only counting the compute ops they would emit: step() run with it is the op count
// the builder needs before any op is written (see dualpipe_family_schedule).
class OpCounter {
 public:
  void forward_chunk(int, bool = true, bool = true) { ++ops; }
  void backward_chunk(int, bool = false, bool = true, bool = true) { ++ops; }
  void forward_backward_chunk(int, int, bool = true) { ++ops; }
  void weight_chunk() { ++ops; }
  void recv_forward(int) {}
  void send_forward(int) {}
  void recv_backward(int) {}
  void send_backward(int) {}
  void finish() {}
  std::size_t ops = 0;
};

// ---- step() ---------------------------------------------------------------------------------------

// dualpipe.py's step() for one rank, loop for loop; dualpipev.py differs only where noted.
template <typename Rank>
void step(const DualPipeRank& rank, Rank& d) {
  const int h = rank.half_rank;
  const int H = rank.num_half_ranks;
  const int M = rank.chunks_per_phase;
  const bool middle = rank.middle();
  // NOTE: dualpipev.py always defers step 2's F(0) send until after F(1); dualpipe.py only on its
  // non-middle ranks (the middle ones send F(0) at once and hold back their last F(1) instead).
  const bool defers_first_send = !middle || rank.v_shape;

  // Step 1: nF0
  const int step_1 = (H - h - 1) * 2;
  for (int i = 0; i < step_1; ++i) d.forward_chunk(0);

  // Step 2: nF0F1
  const int step_2 = h + 1;
  d.recv_forward(0);
  for (int i = 0; i < step_2; ++i) {
    d.forward_chunk(0, false, !defers_first_send);
    d.recv_forward(0);
    d.forward_chunk(1, true, !middle || i < step_2 - 1);
    if (defers_first_send) d.send_forward(0);
  }

  // Step 3: nB1W1F1 (zero bubble: the backward is split and a W fills the wait)
  const int step_3 = H - h - 1;
  for (int i = 0; i < step_3; ++i) {
    d.backward_chunk(1, true);
    d.recv_forward(1);
    d.weight_chunk();
    d.forward_chunk(1, false);
  }

  // Step 4 (main step): nF0B1F1B0
  const int step_4 = M - 2 * H + h + 1;
  // NOTE: iteration 0 is written before the loop (the reference tests `i == 0` inside it), so that
  // every loop repeats one body: OpCounter then counts each loop in one addition. Its F(0) input was
  // received in step 2, and the middle rank(s) run its F(0) and full B(1) apart, not overlapped, "to
  // further reduce bubble size" (dualpipe.py), the F(1) sends waiting until both are done.
  if (step_4 > 0) {
    if (middle) {
      d.forward_chunk(0, false, false);
      d.send_forward(1);
      d.backward_chunk(1, false, true, false);
      d.send_forward(0);
      d.send_backward(1);
    } else {
      d.forward_backward_chunk(0, 1, false);
    }
    d.forward_backward_chunk(1, 0);
  }
  for (int i = 1; i < step_4; ++i) {
    d.forward_backward_chunk(0, 1);
    d.forward_backward_chunk(1, 0);
  }

  // Step 5: nB1F1B0
  const int step_5 = H - h - 1;
  for (int i = 0; i < step_5; ++i) {
    d.backward_chunk(1);
    d.forward_backward_chunk(1, 0);
  }

  // Step 6: nB1B0 (the second half of these backwards is split into I + W)
  const int step_6 = h + 1;
  bool enable_zb = false;
  for (int i = 0; i < step_6; ++i) {
    // NOTE: the split starts at i = step_6 / 2, before that iteration's B(1) when h is odd and after
    // it when h is even, so exactly h + 1 of these 2(h + 1) backwards are I's.
    if (i == step_6 / 2 && h % 2 == 1) enable_zb = true;
    d.backward_chunk(1, enable_zb);
    if (i == step_6 / 2 && h % 2 == 0) enable_zb = true;
    d.backward_chunk(0, enable_zb);
  }

  // Step 7: nWB0 (zero bubble)
  const int step_7 = H - h - 1;
  for (int i = 0; i < step_7; ++i) {
    d.weight_chunk();
    d.backward_chunk(0, true);
  }

  // Step 8: nW
  const int step_8 = h + 1;
  for (int i = 0; i < step_8; ++i) d.weight_chunk();
  d.finish();  // the weight-gradient queue must be empty, and the last sends leave
}

// ---- the whole schedule ---------------------------------------------------------------------------

/// The ops step() emits on `rank`, from step() itself. Flattened, so that each loop of counts folds
/// into one addition: a refused request of billions of ops is counted in microseconds.
[[gnu::flatten]] auto op_count(const DualPipeRank& rank) -> std::size_t {
  OpCounter counter;
  step(rank, counter);
  return counter.ops;
}

/// Every rank's step() into one list. The builder refuses a run over the op limit before anything is
/// allocated, so it needs the exact count first: step() run with OpCounter, which counts the very
/// calls that emit ops (a DualPipe op is mostly an F&B pair, a third of the generic three per chunk).
/// With `with_comm`, also the communication program of the reference's step() (reference timing).
template <typename RankOf>
auto dualpipe_family_schedule(std::string name, const ScheduleParams& p, Layout layout, RankOf rank_of, bool with_comm)
    -> Schedule {
  std::size_t ops = 0;
  for (int r = 0; r < p.ranks; ++r) ops += op_count(rank_of(p, r));
  ScheduleBuilder builder(std::move(name), p, std::move(layout), ScheduleBuilder::ExactOps{ops});
  CommProgram comm;
  // Per op at most: two receives, a commit (post, wait_all), the compute and two sends.
  if (with_comm) comm.steps.reserve(7 * ops);
  CommWriter writer(comm);
  for (int r = 0; r < p.ranks; ++r) {
    if (with_comm) writer.begin_rank(r);
    const DualPipeRank rank = rank_of(p, r);
    ReferenceRank d(rank, builder.rank(r), with_comm ? &writer : nullptr);
    step(rank, d);
  }
  Schedule s = std::move(builder).build();
  if (with_comm) {
    writer.finish(p.ranks);
    s.comm = std::move(comm);
  }
  return s;
}

// ---- DualPipe -------------------------------------------------------------------------------------

PIPESIM_ONCE_PER_RUN void check_dualpipe(const ScheduleParams& p) {
  require(p.ranks >= 2 && p.ranks % 2 == 0, "dualpipe",
          "needs an even number of ranks, at least 2: rank r is paired with rank N-1-r", ranks_text(p),
          {"dualpipe.even_ranks", size_params(p)});
  require(p.micro_batches % 2 == 0 && p.micro_batches >= 2 * p.ranks, "dualpipe",
          "needs an even number of micro-batches (half enter at each end), at least 2 x ranks = " +
              std::to_string(2 * p.ranks),
          micro_batches_text(p), {"dualpipe.micro_batches", size_params(p)});
}

auto generate_dualpipe(const ScheduleParams& p) -> Schedule {
  return dualpipe_family_schedule("dualpipe", p, two_way_layout(p.ranks), dualpipe_rank, false);
}
auto generate_dualpipe_with_comm(const ScheduleParams& p) -> Schedule {
  return dualpipe_family_schedule("dualpipe", p, two_way_layout(p.ranks), dualpipe_rank, true);
}

// ---- DualPipeV ------------------------------------------------------------------------------------

PIPESIM_ONCE_PER_RUN void check_dualpipev(const ScheduleParams& p) {
  require(p.micro_batches >= 2 * p.ranks, "dualpipev",
          "needs at least 2 x ranks = " + std::to_string(2 * p.ranks) + " micro-batches (as many as stages)",
          micro_batches_text(p), {"dualpipev.micro_batches", size_params(p)});
}

auto generate_dualpipev(const ScheduleParams& p) -> Schedule {
  return dualpipe_family_schedule("dualpipev", p, v_layout(p.ranks), dualpipev_rank, false);
}
auto generate_dualpipev_with_comm(const ScheduleParams& p) -> Schedule {
  return dualpipe_family_schedule("dualpipev", p, v_layout(p.ranks), dualpipev_rank, true);
}

// ---- formulas -------------------------------------------------------------------------------------

// The README's bubble per rank, derived by timing step() when F = B-W = W and comm = 0 (then
// F&B+B-3W = F + (F&B-B)), with k = PP/2-1 and h the half rank: the fill waits h forwards; on the
// middle rank(s) (h = k) the cool-down then waits k times F&B-B, which is the README's maximum. The
// others wait in the steady state: one F before step 4's first FB(1,0), then F&B-B before k-1-h more
// of step 4's and the k-h FBs of step 5, and F&B-B before h backwards of steps 6-8.
auto dualpipe_rank_terms(int pp, const Costs& c, int h) -> std::vector<BubbleTerm> {
  const int k = pp / 2 - 1;
  std::vector<BubbleTerm> terms;
  add_term(terms, "hF", h, c.f, IdlePhase::fill);
  if (h < k) {
    add_term(terms, "F", 1, c.f, IdlePhase::steady);
    add_term(terms, "(PP-3-2h)(F&B-B)", 2 * k - 1 - 2 * h, c.fb - c.b, IdlePhase::steady);
  }
  add_term(terms, "h(F&B-B)", h, c.fb - c.b, IdlePhase::cool_down);
  return terms;
}

/// (PP/2-1)(F&B+B-3W) with PP stages: the DualPipe README's one row for both twins. `half_rank` maps
/// each of the `ranks` ranks to its h.
PIPESIM_ONCE_PER_RUN auto dualpipe_formula(int pp, const Costs& c, int ranks, int (*half_rank)(int ranks, int r)) -> Formula {
  const double k = pp / 2.0 - 1;
  const double value = k * (c.fb + c.b - 3 * c.w);
  Formula f{"(PP/2-1)(F&B+B-3W)",
            "(" + std::to_string(pp) + "/2-1)(" + num(c.fb) + "+" + num(c.b) + "-3*" + num(c.w) + ") = " + num(value),
            value,
            c.f == c.i() && c.i() == c.w && c.comm == 0,
            {.en = "exact, as the largest per-rank bubble, when F = B-W = W and comm = 0",
             .pt_br = "exata, como a maior bolha por rank, quando F = B-W = W e comm = 0",
             .zh_cn = "当 F = B-W = W 且 comm = 0 时精确，给出各 rank 中最大的气泡"},
            "DualPipe README; DeepSeek-V3 report Table 2"};
  for (int r = 0; r < ranks; ++r) f.rank_terms.push_back(dualpipe_rank_terms(pp, c, half_rank(ranks, r)));
  return f;
}

// DualPipe: PP = N stages along each direction; ranks r and N-1-r mirror each other.
PIPESIM_ONCE_PER_RUN auto dualpipe_bubble(const ScheduleParams& p, const Costs& c) -> Formula {
  return dualpipe_formula(p.ranks, c, p.ranks, [](int n, int r) { return std::min(r, n - 1 - r); });
}

// DualPipeV: the same formula with PP = 2N, the stages of the V, and h = r (the substitution above).
PIPESIM_ONCE_PER_RUN auto dualpipev_bubble(const ScheduleParams& p, const Costs& c) -> Formula {
  return dualpipe_formula(2 * p.ranks, c, p.ranks, [](int, int r) { return r; });
}

}  // namespace

// ---- specs ----------------------------------------------------------------------------------------

const ScheduleSpec dualpipe_spec{
    .name = "dualpipe",
    .texts =
        {
            .en =
                {
                    .title = "DualPipe",
                    .summary = "Bidirectional pipeline: micro-batches enter at both ends and a forward of one "
                               "direction overlaps a backward of the other (F&B).",
                    .constraints = "ranks even and ≥ 2; micro-batches even and ≥ 2 × ranks",
                    .caption = "DualPipe feeds micro-batches from both ends: {half} enter at rank 0 (direction 0) "
                               "and {half} at rank {last} (direction 1, in the second shade of each colour). After "
                               "the warm-up each rank pairs the forward of one direction with the backward of the "
                               "other in one bordered F&B cell, so the all-to-all of one chunk hides behind the "
                               "computation of the other (DeepSeek-V3 report §3.2.1). Each rank holds two stages, r "
                               "and {last}−r: two copies of the model.",
                },
            .pt_br =
                {
                    .title = "DualPipe",
                    .summary = "Pipeline bidirecional: os micro-batches entram pelas duas pontas, e o forward de uma "
                               "direção se sobrepõe ao backward da outra (F&B).",
                    .constraints = "ranks em número par e ≥ 2; micro-batches em número par e ≥ 2 × ranks",
                    .caption = "O DualPipe alimenta micro-batches pelas duas pontas: {half} entram pelo rank 0 "
                               "(direção 0) e {half} pelo rank {last} (direção 1, no segundo tom de cada cor). "
                               "Depois do warm-up, cada rank junta o forward de uma direção ao backward da outra "
                               "numa célula F&B com borda, de modo que o all-to-all de um chunk fica escondido "
                               "atrás da computação do outro (relatório do DeepSeek-V3, §3.2.1). Cada rank "
                               "guarda dois estágios, r e {last}−r: duas cópias do modelo.",
                },
            .zh_cn =
                {
                    .title = "DualPipe",
                    .summary = "双向流水线：微批次从两端进入，一个方向的前向与另一个方向的反向相互重叠（F&B）。",
                    .constraints = "rank 数为偶数且 ≥ 2；微批次数为偶数且 ≥ 2 × rank 数",
                    .caption = "DualPipe 从两端送入微批次：{half} 个从 rank 0 进入（方向 0），{half} 个从 rank {last} 进入（方向 "
                               "1，用每种颜色的第二色调）。预热之后，每个 rank "
                               "把一个方向的前向与另一个方向的反向放进同一个带边框的 F&B 格子，使一个 chunk 的 all-to-all "
                               "隐藏在另一个 chunk 的计算之后（DeepSeek-V3 报告 §3.2.1）。每个 rank 持有 r 和 {last}−r "
                               "两个阶段，即两份模型副本。",
                },
        },
    .source = "DeepSeek-V3 report §3.2.1 and Fig. 5; deepseek-ai/DualPipe dualpipe.py",
    .colour = {.light = "#d6246e", .dark = "#e2508d"},
    .defaults = {.ranks = 8, .micro_batches = 20, .virtual_stages = 1},
    .two_way = true,
    .check = check_dualpipe,
    .generate = generate_dualpipe,
    .formula = dualpipe_bubble,
    .generate_with_comm = generate_dualpipe_with_comm,
};

const ScheduleSpec dualpipev_spec{
    .name = "dualpipev",
    .texts =
        {
            .en =
                {
                    .title = "DualPipeV",
                    .summary = "DualPipe cut in half: one model copy folded into a V over N ranks (2N stages), same "
                               "bubble formula.",
                    .constraints = "ranks ≥ 1; micro-batches ≥ 2 × ranks",
                    .caption = "DualPipeV folds one copy of a {stages}-stage model into a V over {ranks} ranks: "
                               "every micro-batch enters at rank 0, goes down, turns on rank {last} and comes back "
                               "(in the second shade of each colour). It is DualPipe cut in half: the first {ranks} "
                               "ranks of DualPipe with twice the ranks and micro-batches.",
                },
            .pt_br =
                {
                    .title = "DualPipeV",
                    .summary = "O DualPipe cortado ao meio: uma única cópia do modelo dobrada em V sobre N ranks "
                               "(2N estágios), com a mesma fórmula de bolha.",
                    .constraints = "ranks ≥ 1; micro-batches ≥ 2 × ranks",
                    .caption = "O DualPipeV dobra uma cópia de um modelo de {stages} estágios em V sobre {ranks} "
                               "ranks: cada micro-batch entra pelo rank 0, desce, faz a volta no rank {last} e "
                               "retorna (no segundo tom de cada cor). É o DualPipe cortado ao meio: os {ranks} "
                               "primeiros ranks do DualPipe com o dobro de ranks e de micro-batches.",
                },
            .zh_cn =
                {
                    .title = "DualPipeV",
                    .summary = "对半切开的 DualPipe：一份模型副本在 N 个 rank 上折成 V 形（2N 个阶段），气泡公式相同。",
                    .constraints = "rank 数 ≥ 1；微批次数 ≥ 2 × rank 数",
                    .caption = "DualPipeV 把一个 {stages} 阶段模型的单份副本在 {ranks} 个 rank 上折成 V 形：每个微批次从 rank 0 "
                               "进入，向下走，在 rank {last} 折返后再回来（用每种颜色的第二色调）。它就是对半切开的 DualPipe：rank "
                               "数和微批次数都加倍的 DualPipe 的前 {ranks} 个 rank。",
                },
        },
    .source = "deepseek-ai/DualPipe dualpipev.py; Sea AI Lab, \"Cut-in-half\" (hackmd.io/@ufotalent/r1lVXsa9Jg)",
    .colour = {.light = "#8e44ad", .dark = "#ac6dc6"},
    .defaults = {.ranks = 8, .micro_batches = 20, .virtual_stages = 1},
    .check = check_dualpipev,
    .generate = generate_dualpipev,
    .formula = dualpipev_bubble,
    .generate_with_comm = generate_dualpipev_with_comm,
};

}  // namespace pipesim::detail
