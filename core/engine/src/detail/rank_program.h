#pragma once
// Emits one rank's ops in run order. Its helpers are named like DualPipe's `_forward_chunk`,
// `_backward_chunk` and `_weight_chunk`, and it keeps the same FIFO of parked weight gradients
// (DualPipe's WeightGradStore): every I parks its chunk, every W runs the oldest parked one.
#include <algorithm>
#include <deque>
#include <string>
#include <vector>

#include "pipesim/error.h"
#include "pipesim/op.h"
#include "pipesim/schedule.h"

namespace pipesim::detail {

class RankProgram {
 public:
  explicit RankProgram(RankOps out) : out_(out) {}

  void forward(Chunk c) { out_.push_back({OpKind::F, c, {}}); }
  void full_backward(Chunk c) { out_.push_back({OpKind::B, c, {}}); }
  void input_backward(Chunk c) {
    out_.push_back({OpKind::I, c, {}});
    parked_.push_back(c);
  }
  /// A backward that is split into I + W when `split` (zero-bubble style), else a full B.
  void backward(Chunk c, bool split) { split ? input_backward(c) : full_backward(c); }
  void weight() {
    if (parked_.empty()) throw Error(ErrorCode::internal, "internal: W with no parked I (pop of an empty weight-gradient queue)");
    out_.push_back({OpKind::W, parked_.front(), {}});
    parked_.pop_front();
  }
  /// The W of the oldest parked I of one phase (ZB-V keeps one queue per leg of its V).
  void weight_of_phase(int phase) {
    const auto it = std::find_if(parked_.begin(), parked_.end(), [phase](const Chunk& c) { return c.phase == phase; });
    if (it == parked_.end()) throw Error(ErrorCode::internal, "internal: W with no parked I of phase " + std::to_string(phase));
    out_.push_back({OpKind::W, *it, {}});
    if (it == parked_.begin()) parked_.pop_front();  // the common case, without deque's general erase
    else parked_.erase(it);
  }
  void overlapped(Chunk forward_chunk, Chunk backward_chunk) {
    out_.push_back({OpKind::FB, forward_chunk, backward_chunk});
  }
  [[nodiscard]] auto parked() const -> std::size_t { return parked_.size(); }

 private:
  RankOps out_;
  std::deque<Chunk> parked_;
};

}  // namespace pipesim::detail
