#include "detail/dualpipe_steps.h"

#include <algorithm>

#include "detail/rank_program.h"
#include "pipesim/comm.h"
#include "pipesim/error.h"

namespace pipesim::detail {

namespace {

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

// How many times each of the reference's eight steps loops on a rank (its step_1 ... step_8): the
// op list follows from them, and so does its length.
struct StepLengths {
  int step_1, step_2, step_3, step_4, step_5, step_6, step_7, step_8;
};

auto step_lengths(const DualPipeRank& rank) -> StepLengths {
  const int h = rank.half_rank;
  const int half = rank.num_half_ranks;
  return {(half - h - 1) * 2, h + 1, half - h - 1, rank.chunks_per_phase - 2 * half + h + 1,
          half - h - 1,       h + 1, half - h - 1, h + 1};
}

// The reference does not overlap the middle rank(s)' first main-step pair, to shrink the bubble.
auto splits_first_main_pair(const DualPipeRank& rank) -> bool { return rank.half_rank == rank.num_half_ranks - 1; }

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

  void recv_forward(int phase) { transfer(phase, CommAction::recv_forward, forward_input_remote(phase), recv_f_); }
  void send_forward(int phase) { transfer(phase, CommAction::send_forward, forward_output_remote(phase), send_f_); }
  void recv_backward(int phase) { transfer(phase, CommAction::recv_backward, forward_output_remote(phase), recv_b_); }
  void send_backward(int phase) { transfer(phase, CommAction::send_backward, forward_input_remote(phase), send_b_); }

  void commit_and_wait_comm() {
    if (queued_ == 0) return;
    comm_->add(CommAction::post);
    comm_->add(CommAction::wait_all);
    queued_ = 0;
  }

  [[nodiscard]] auto parked() const -> std::size_t { return p_.parked(); }

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
    if (comm_ == nullptr || !remote) return;
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

}  // namespace

// The loops below are `step()` of dualpipe.py, call for call; dualpipev.py differs only where noted.
void dualpipe_steps(const DualPipeRank& rank, RankOps out, CommWriter* comm) {
  ReferenceRank d(rank, out, comm);
  const int h = rank.half_rank;
  const bool middle = splits_first_main_pair(rank);  // DualPipe: is_middle_rank; DualPipeV: is_last_rank
  // DualPipeV always defers step 2's F(0) send until after F(1); DualPipe only on its non-middle ranks.
  const bool defers_first_send = !middle || rank.v_shape;
  const StepLengths n = step_lengths(rank);

  // Step 1: nF0
  for (int i = 0; i < n.step_1; ++i) d.forward_chunk(0);

  // Step 2: nF0F1
  d.recv_forward(0);
  for (int i = 0; i < n.step_2; ++i) {
    d.forward_chunk(0, false, !defers_first_send);
    d.recv_forward(0);
    d.forward_chunk(1, true, !middle || i < n.step_2 - 1);
    if (defers_first_send) d.send_forward(0);
  }

  // Step 3: nB1W1F1 (zero bubble: the backward is split and a W fills the wait)
  for (int i = 0; i < n.step_3; ++i) {
    d.backward_chunk(1, true);
    d.recv_forward(1);
    d.weight_chunk();
    d.forward_chunk(1, false);
  }

  // Step 4 (main step): nF0B1F1B0
  for (int i = 0; i < n.step_4; ++i) {
    if (i == 0) {
      if (middle) {
        d.forward_chunk(0, false, false);
        d.send_forward(1);
        d.backward_chunk(1, false, true, false);
        d.send_forward(0);
        d.send_backward(1);
      } else {
        d.forward_backward_chunk(0, 1, false);
      }
    } else {
      d.forward_backward_chunk(0, 1);
    }
    d.forward_backward_chunk(1, 0);
  }

  // Step 5: nB1F1B0
  for (int i = 0; i < n.step_5; ++i) {
    d.backward_chunk(1);
    d.forward_backward_chunk(1, 0);
  }

  // Step 6: nB1B0 (the second half of these backwards is split into I + W)
  bool enable_zb = false;
  for (int i = 0; i < n.step_6; ++i) {
    if (i == n.step_6 / 2 && h % 2 == 1) enable_zb = true;
    d.backward_chunk(1, enable_zb);
    if (i == n.step_6 / 2 && h % 2 == 0) enable_zb = true;
    d.backward_chunk(0, enable_zb);
  }

  // Step 7: nWB0 (zero bubble)
  for (int i = 0; i < n.step_7; ++i) {
    d.weight_chunk();
    d.backward_chunk(0, true);
  }

  // Step 8: nW
  for (int i = 0; i < n.step_8; ++i) d.weight_chunk();
  if (d.parked() != 0) throw Error(ErrorCode::internal, "internal: weight-gradient queue not empty at the end of the step");
  d.commit_and_wait_comm();
}

auto dualpipe_op_count(const DualPipeRank& rank) -> std::size_t {
  const StepLengths n = step_lengths(rank);
  // Ops per iteration of each step as dualpipe_steps runs it (a split backward's W comes in steps 3,
  // 7 and 8); the middle rank's first main step runs F and B apart, one op more than a pair.
  const int ops = n.step_1 + 2 * n.step_2 + 3 * n.step_3 + 2 * n.step_4 +
                  (splits_first_main_pair(rank) && n.step_4 > 0 ? 1 : 0) + 2 * n.step_5 + 2 * n.step_6 +
                  2 * n.step_7 + n.step_8;
  return static_cast<std::size_t>(std::max(ops, 0));
}

}  // namespace pipesim::detail
