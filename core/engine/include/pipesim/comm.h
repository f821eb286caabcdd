#pragma once
// The communication structure of a schedule as its reference runtime issues it: per rank, the order in
// which it queues receives and sends, launches them and waits for them, between its compute ops. It is
// data produced alongside the ops (like torch's SEND_F / RECV_B actions), read by the reference timing
// engine (reference.h); the dataflow engine ignores it.
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "pipesim/op.h"
#include "pipesim/op_column.h"

namespace pipesim {

/// One step of a rank's communication program.
enum class CommAction : std::uint8_t {
  compute,        ///< run the rank's next op; it first waits for the receives it consumes
  recv_forward,   ///< queue the receive of `chunk`'s forward input (from the previous stage's rank)
  recv_backward,  ///< queue the receive of `chunk`'s output gradient (from the next stage's rank)
  send_forward,   ///< queue the send of `chunk`'s forward output (to the next stage's rank)
  send_backward,  ///< queue the send of `chunk`'s input gradient (to the previous stage's rank)
  post,           ///< launch everything queued at once (torch's `_batch_p2p`, DeepSeek's batch_isend_irecv)
  wait_all,       ///< wait for every launched request not yet waited for (DeepSeek's `req.wait()` loop)
};

struct CommStep {
  CommAction action = CommAction::compute;
  Chunk chunk;  ///< the chunk on this rank whose input is received or whose output is sent
  friend bool operator==(const CommStep&, const CommStep&) = default;
};

/// Every rank's communication program, rank 0 first. Empty when the schedule has none (dataflow only).
/// The `compute` steps of rank r name its ops in list order, one each.
struct CommProgram {
  OpColumn<CommStep> steps;
  std::vector<int> rank_begin;  ///< rank r owns steps[rank_begin[r] .. rank_begin[r+1])

  [[nodiscard]] auto empty() const -> bool { return rank_begin.empty(); }
  [[nodiscard]] auto steps_of(int rank) const -> std::span<const CommStep> {
    return std::span<const CommStep>(steps).subspan(static_cast<std::size_t>(rank_begin[rank]),
                                                    static_cast<std::size_t>(rank_begin[rank + 1] - rank_begin[rank]));
  }
};

/// Appends one rank's steps; ranks are written in increasing order, as the ops are.
class CommWriter {
 public:
  explicit CommWriter(CommProgram& program) : p_(&program) {}
  /// Starts rank r's program (ranks in increasing order, each once).
  void begin_rank(int r) {
    while (static_cast<int>(p_->rank_begin.size()) <= r) p_->rank_begin.push_back(static_cast<int>(p_->steps.size()));
  }
  void add(CommAction action, Chunk chunk = {}) {
    // Field by field into the program's own slot, as RankOps writes an op: a step built in a temporary
    // and copied whole is read back with wide loads across the narrower stores that built its chunk,
    // which the CPU cannot forward from its store buffer.
    CommStep& slot = p_->steps.emplace_back();
    slot.action = action;
    slot.chunk = chunk;
  }
  /// Closes the program after the last of `ranks` ranks.
  void finish(int ranks) {
    begin_rank(ranks - 1);
    p_->rank_begin.push_back(static_cast<int>(p_->steps.size()));
  }

 private:
  CommProgram* p_;
};

/// Short name of a comm action as torch writes it (SEND_F, RECV_B), or COMPUTE / POST / WAIT_ALL.
[[nodiscard]] auto comm_action_name(CommAction action) -> std::string_view;

}  // namespace pipesim
