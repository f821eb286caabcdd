#include "detail/zero_bubble.h"

#include <algorithm>

#include "detail/rank_program.h"

namespace pipesim::detail {

auto handcrafted_zero_bubble(const char* name, const ScheduleParams& p, int ahead) -> Schedule {
  ScheduleBuilder builder(name, p, straight_layout(p.ranks));
  const int m = p.micro_batches;
  for (int r = 0; r < p.ranks; ++r) {
    RankProgram prog(builder.rank(r));
    const auto chunk = [r](int mb) { return Chunk{mb, 0, r}; };
    const int warm_up = std::min(m, ahead * (p.ranks - 1 - r));
    const int deferred_weights = ahead * r;
    int forwards = 0;
    while (forwards < warm_up) prog.forward(chunk(forwards++));
    for (int i = 0; i < m; ++i) {
      if (forwards < m) prog.forward(chunk(forwards++));
      prog.input_backward(chunk(i));
      // The first `deferred_weights` gradients wait: their W's fill the cool-down instead.
      if (i >= deferred_weights) prog.weight();
    }
    while (prog.parked() > 0) prog.weight();
  }
  return std::move(builder).build();
}

}  // namespace pipesim::detail
