#pragma once
// Emits one rank's ops in run order. Its helpers are named like DualPipe's `_forward_chunk`,
// `_backward_chunk` and `_weight_chunk`, and it keeps the same FIFO of parked weight gradients
// (DualPipe's WeightGradStore): every I parks its chunk, every W runs the oldest parked one.
#include <algorithm>
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
    park(c);
  }
  /// A backward that is split into I + W when `split` (zero-bubble style), else a full B.
  void backward(Chunk c, bool split) { split ? input_backward(c) : full_backward(c); }
  void weight() {
    if (parked() == 0) throw Error(ErrorCode::internal, "internal: W with no parked I (pop of an empty weight-gradient queue)");
    out_.push_back({OpKind::W, parked_[oldest_++], {}});
  }
  /// The W of the oldest parked I of one phase (ZB-V keeps one queue per leg of its V).
  void weight_of_phase(int phase) {
    const auto it = std::find_if(parked_.begin() + static_cast<std::ptrdiff_t>(oldest_), parked_.end(),
                                 [phase](const Chunk& c) { return c.phase == phase; });
    if (it == parked_.end()) throw Error(ErrorCode::internal, "internal: W with no parked I of phase " + std::to_string(phase));
    out_.push_back({OpKind::W, *it, {}});
    if (it == parked_.begin() + static_cast<std::ptrdiff_t>(oldest_)) ++oldest_;  // the common case
    else parked_.erase(it);  // the queue holds a few chunks: a short shift
  }
  void overlapped(Chunk forward_chunk, Chunk backward_chunk) {
    out_.push_back({OpKind::FB, forward_chunk, backward_chunk});
  }
  [[nodiscard]] auto parked() const -> std::size_t { return parked_.size() - oldest_; }

 private:
  // The queue in one vector, the chunks before oldest_ already taken: their room is reclaimed once they
  // are half of it, so it stays about the size of the queue. (A std::deque did the same with several
  // times the code: issue 14, the course module's size.)
  void park(Chunk c) {
    if (oldest_ > 0 && 2 * oldest_ >= parked_.size()) {
      parked_.erase(parked_.begin(), parked_.begin() + static_cast<std::ptrdiff_t>(oldest_));
      oldest_ = 0;
    }
    parked_.push_back(c);
  }

  RankOps out_;
  std::vector<Chunk> parked_;
  std::size_t oldest_ = 0;  // the oldest parked chunk not yet taken
};

}  // namespace pipesim::detail
