#pragma once
// The ranks an engine may advance next (simulate.cpp, reference.cpp): every rank at the start, then
// each rank again when the input it parked on arrives. A rank is in it at most once (it is taken out
// before it runs, and it parks at most once before it is woken), so room for every rank is reserved up
// front and adding one is a store: std::vector's push_back, with its growth path, was a call per wake
// (256,000 calls, 2.4% of the CLI's instructions on DualPipe 64 x 8192).
#include <cassert>
#include <vector>

namespace pipesim::detail {

class ReadyRanks {
 public:
  /// Every rank of `ranks`, rank 0 to be taken first.
  explicit ReadyRanks(int ranks) : ranks_(static_cast<std::size_t>(ranks)), count_(ranks) {
    for (int k = 0; k < ranks; ++k) ranks_[static_cast<std::size_t>(k)] = ranks - 1 - k;
  }
  [[nodiscard]] auto empty() const -> bool { return count_ == 0; }
  /// The rank added last.
  auto take() -> int { return ranks_[static_cast<std::size_t>(--count_)]; }
  /// `rank` must not be in the list already.
  void add(int rank) {
    assert(count_ < static_cast<int>(ranks_.size()) && "a rank added twice: an engine woke a rank that was not parked");
    ranks_[static_cast<std::size_t>(count_++)] = rank;
  }

 private:
  std::vector<int> ranks_;
  int count_;
};

}  // namespace pipesim::detail
