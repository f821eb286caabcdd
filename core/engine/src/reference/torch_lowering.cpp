// torch.distributed.pipelining's lowering of a compute-only schedule into sends and receives
// (`_add_send_recv` in torch/distributed/pipelining/schedules.py), and the way its runtime
// (`_PipelineScheduleRuntime._step_microbatches`) issues them: see lower_send_recv in reference.h.
#include <string>
#include <vector>

#include "detail/chunk_rules.h"
#include "pipesim/error.h"
#include "pipesim/reference.h"

namespace pipesim {

namespace {

using detail::ChunkGrid;

class Lowering {
 public:
  explicit Lowering(const Schedule& s)
      : s_(s), grid_(s), lists_(static_cast<std::size_t>(s.ranks())), next_(s.rank_begin.begin(), s.rank_begin.end() - 1),
        placed_(2 * grid_.chunks(), 0), received_(2 * grid_.chunks(), 0) {}

  auto run() -> CommProgram {
    // `while compute_actions:` one pass over the ranks in order, each placing at most its next op.
    int left = static_cast<int>(s_.ops.size());
    while (left > 0) {
      bool progress = false;
      for (int r = 0; r < s_.ranks(); ++r) {
        const int i = next_[static_cast<std::size_t>(r)];
        if (i == s_.rank_begin[static_cast<std::size_t>(r) + 1] || !ready(r, s_.ops[static_cast<std::size_t>(i)])) continue;
        place(r, s_.ops[static_cast<std::size_t>(i)]);
        ++next_[static_cast<std::size_t>(r)];
        --left;
        progress = true;
      }
      if (!progress) stuck();
    }
    CommProgram out;
    CommWriter writer(out);
    for (int r = 0; r < s_.ranks(); ++r) {
      writer.begin_rank(r);
      for (const CommStep& step : lists_[static_cast<std::size_t>(r)]) writer.add(step.action, step.chunk);
      writer.add(CommAction::wait_all);  // the step's end waits for the sends (`_wait_batch_p2p` of send_ops)
    }
    writer.finish(s_.ranks());
    return out;
  }

 private:
  // `_ready_to_schedule`: a forward needs its RECV_F on this rank's list or the previous stage's F done
  // here; a backward its RECV_B or the next stage's backward done here; an overlapped pair both.
  [[nodiscard]] auto ready(int r, const Op& op) const -> bool {
    if (has_forward(op.kind) && !input_ready(r, op.chunk, false)) return false;
    if (op.kind != OpKind::W) {
      if (const auto back = backward_chunk(op); back && !input_ready(r, *back, true)) return false;
    }
    return true;
  }
  [[nodiscard]] auto input_ready(int r, const Chunk& c, bool gradient) const -> bool {
    ChunkGrid::Place at{};
    if (!grid_.place_on(r, c, at)) return true;  // validate_schedule names it
    if (gradient ? grid_.last_stage(at) : grid_.first_stage(at)) return true;
    const std::size_t key = 2 * at.row + (gradient ? 1 : 0);
    if (received_[key] != 0) return true;
    const int from = gradient ? grid_.rank_downstream(at) : grid_.rank_upstream(at);
    const std::size_t producer = gradient ? grid_.downstream(at) : grid_.upstream(at);
    return from == r && placed_[2 * producer + (gradient ? 1 : 0)] != 0;
  }

  void place(int r, const Op& op) {
    lists_[static_cast<std::size_t>(r)].push_back({CommAction::compute, {}});
    if (has_forward(op.kind)) sends_after(r, op.chunk, false);
    if (op.kind != OpKind::W)
      if (const auto back = backward_chunk(op)) sends_after(r, *back, true);
  }

  // `_has_comms` / `_get_comms`: a forward's output goes to the next stage, a backward's input gradient
  // to the previous one, unless that stage is on this rank. The SEND goes on this rank's list and the
  // RECV at once on the receiver's, each launched on its own (`_batch_p2p` per action).
  void sends_after(int r, const Chunk& c, bool gradient) {
    ChunkGrid::Place at{};
    if (!grid_.place_on(r, c, at)) return;
    placed_[2 * at.row + (gradient ? 1 : 0)] = 1;
    if (gradient ? grid_.first_stage(at) : grid_.last_stage(at)) return;
    const int to = gradient ? grid_.rank_upstream(at) : grid_.rank_downstream(at);
    if (to == r) return;
    const std::size_t consumer = gradient ? grid_.upstream(at) : grid_.downstream(at);
    Chunk theirs = c;
    theirs.stage = c.stage + (gradient ? -1 : 1);
    auto& mine = lists_[static_cast<std::size_t>(r)];
    mine.push_back({gradient ? CommAction::send_backward : CommAction::send_forward, c});
    mine.push_back({CommAction::post, {}});
    auto& other = lists_[static_cast<std::size_t>(to)];
    other.push_back({gradient ? CommAction::recv_backward : CommAction::recv_forward, theirs});
    other.push_back({CommAction::post, {}});
    received_[2 * consumer + (gradient ? 1 : 0)] = 1;
  }

  [[noreturn]] void stuck() const {
    std::string message = "torch's send/receive lowering cannot place any next op (\"Malformed compute schedule\"): ";
    std::string stuck;  // "rank op op_text" per waiting rank, ';' between: the page words the list

    for (int r = 0; r < s_.ranks(); ++r) {
      const int i = next_[static_cast<std::size_t>(r)];
      if (i == s_.rank_begin[static_cast<std::size_t>(r) + 1]) continue;
      message += "rank " + std::to_string(r) + " waits at op " + std::to_string(i - s_.rank_begin[static_cast<std::size_t>(r)]) +
                 " (" + describe(s_.ops[static_cast<std::size_t>(i)]) + "); ";
      stuck += (stuck.empty() ? "" : ";") + std::to_string(r) + " " + std::to_string(i - s_.rank_begin[static_cast<std::size_t>(r)]) + " " +
               describe(s_.ops[static_cast<std::size_t>(i)]);
    }
    message.resize(message.size() - 2);
    throw Error(ErrorCode::deadlock, message, {"deadlock.lowering", {{"stuck", stuck}}});
  }

  const Schedule& s_;
  ChunkGrid grid_;
  std::vector<std::vector<CommStep>> lists_;  // per rank, in order
  std::vector<int> next_;                     // per rank: its next op not placed
  std::vector<char> placed_;                  // per chunk x (forward, backward): its op is placed
  std::vector<char> received_;                // per chunk x (input, output gradient): its RECV is placed
};

}  // namespace

auto lower_send_recv(const Schedule& schedule) -> CommProgram {
  validate_schedule(schedule);
  return Lowering(schedule).run();
}

}  // namespace pipesim
