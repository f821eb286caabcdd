// The rest of the schedule family: interleaved 1F1B, ZB-V and Chimera. Orders are compared with the
// action text PyTorch's own generators print (torch/distributed/pipelining/schedules.py @ 00722e64,
// `_calculate_single_rank_operations` with the None slots dropped) and with the Chimera authors' runtime.
#include <catch2/catch.hpp>
#include <map>
#include <tuple>

#include "helpers.h"
#include "pipesim/custom.h"
#include "pipesim/error.h"
#include "pipesim/registry.h"

using namespace pipesim;
using pipesim::test::run_unit;

TEST_CASE("interleaved 1F1B follows torch ScheduleInterleaved1F1B op for op") {
  // 2 ranks, 4 micro-batches, 2 chunks: two rounds of 2 micro-batches; stages 0 and 2 on rank 0.
  CHECK(format_actions(build_schedule("interleaved-1f1b", {2, 4, 2})) ==
        "0F0,0F1,2F0,2F1,0F2,2B0,0F3,2B1,2F2,0B0,2F3,0B1,2B2,2B3,0B2,0B3\n"
        "1F0,1F1,3F0,3B0,3F1,3B1,1F2,1B0,1F3,1B1,3F2,3B2,3F3,3B3,1B2,1B3\n");
  // 3 micro-batches on 2 ranks: torch's flex rounds (1 round of 3), which Megatron would refuse.
  CHECK(format_actions(build_schedule("interleaved-1f1b", {2, 3, 2})) ==
        "0F0,0F1,0F2,2F0,2F1,2F2,2B0,2B1,2B2,0B0,0B1,0B2\n"
        "1F0,1F1,1F2,3F0,3B0,3F1,3B1,3F2,3B2,1B0,1B1,1B2\n");
}

TEST_CASE("interleaved 1F1B: phase is the virtual chunk and stage the global stage r + chunk x ranks") {
  const Schedule s = build_schedule("interleaved-1f1b", {4, 8, 3});
  for (int r = 0; r < 4; ++r)
    for (const Op& op : s.ops_of(r)) CHECK(op.chunk.stage == op.chunk.phase * 4 + r);
  CHECK(s.layout.stages == 12);
  CHECK(s.stages_held(2) == 3);
}

TEST_CASE("interleaved 1F1B at unit costs: 57 and peak 11 chunks, 117, 165, and 105 with 4 chunks") {
  const Run v2 = run_unit("interleaved-1f1b", 4, 8, 2);
  CHECK(v2.metrics.makespan == 57);
  CHECK(v2.metrics.peak_activations == 11);  // 5.5 stage shares of 2 chunks each, on rank 0
  CHECK(v2.formula.value == 9);              // (4-1)(1+2)
  CHECK(v2.metrics.max_bubble == 9);
  CHECK(v2.formula.exact);
  CHECK(run_unit("interleaved-1f1b", 8, 16, 2).metrics.makespan == 117);
  CHECK(run_unit("interleaved-1f1b", 8, 24, 2).metrics.makespan == 165);
  const Run v4 = run_unit("interleaved-1f1b", 4, 8, 4);
  CHECK(v4.metrics.makespan == 105);
  CHECK(v4.metrics.peak_activations == 19);  // 4.75 stage shares of 4 chunks
}

TEST_CASE("interleaved 1F1B refuses one chunk per rank and micro-batches that are not a multiple of the rounds") {
  CHECK_THROWS_WITH(build_schedule("interleaved-1f1b", {4, 8, 1}),
                    "interleaved-1f1b needs at least 2 virtual stages per rank (with 1 it is plain 1f1b) "
                    "(got 1 virtual stage)");
  CHECK_THROWS_WITH(build_schedule("interleaved-1f1b", {4, 9, 2}),
                    "interleaved-1f1b needs micro-batches to be a multiple of the rounds max(1, micro-batches / "
                    "ranks) = 2, as PyTorch's ScheduleInterleaved1F1B requires (got 9 micro-batches with 4 ranks)");
  CHECK_NOTHROW(build_schedule("interleaved-1f1b", {4, 10, 2}));  // 2 rounds of 5, as torch accepts
  CHECK_NOTHROW(build_schedule("interleaved-1f1b", {4, 3, 2}));
}

TEST_CASE("interleaved 1F1B runs every chunk once for 2, 3 and 4 virtual stages") {
  for (int p : {1, 2, 3, 4, 8})
    for (int v : {2, 3, 4})
      for (int m : {1, 2, 3, 4, 6, 8, 10, 12, 16}) {
        Schedule s;
        try {
          s = build_schedule("interleaved-1f1b", {p, m, v});
        } catch (const Error&) {
          continue;  // m not a multiple of the rounds
        }
        INFO("p=" << p << " v=" << v << " m=" << m);
        CHECK(s.ops.size() == static_cast<std::size_t>(2 * p * v * m));
        CHECK_NOTHROW(simulate(s, default_costs()));  // valid and free of deadlock
      }
}

TEST_CASE("ZB-V follows torch ScheduleZBVZeroBubble op for op, dropping the padding micro-batches") {
  CHECK(format_actions(build_schedule("zb-v", {2, 4, 1})) ==
        "0F0,0F1,0F2,3F0,3I0,3W0,3F1,3I1,3W1,0F3,0I0,0W0,3F2,3I2,3W2,0I1,0W1,3F3,3I3,3W3,0I2,0W2,0I3,0W3\n"
        "1F0,2F0,1F1,2F1,2I0,2W0,1F2,1I0,1W0,2F2,2I1,2W1,1F3,1I1,1W1,2F3,2I2,2W2,1I2,2I3,1I3,1W2,2W3,1W3\n");
  // 2 micro-batches: planned as 2p-1 = 3, micro-batch 2's ops are idle slots in torch and gone here.
  CHECK(format_actions(build_schedule("zb-v", {2, 2, 1})) ==
        "0F0,0F1,3F0,3I0,3W0,3F1,3I1,3W1,0I0,0W0,0I1,0W1\n"
        "1F0,2F0,1F1,2F1,2I0,2W0,1I0,1W0,2I1,2W1,1I1,1W1\n");
}

TEST_CASE("ZB-V at unit costs: makespan 51, span 48 (no bubble inside the span), 8 chunks alive on every rank") {
  const Run run = run_unit("zb-v", 4, 8);
  CHECK(run.metrics.makespan == 51);
  CHECK(run.metrics.span == 48);
  CHECK(run.metrics.max_span_bubble == 0);
  for (const RankMetrics& rank : run.metrics.per_rank) {
    CHECK(rank.peak_activations == 8);  // 2p chunk activations = 1F1B's p stage shares
    CHECK(rank.stages_held == 2);
  }
  CHECK(run.formula.over_span);
  CHECK(run.formula.exact);
  const Run larger = run_unit("zb-v", 8, 16);
  CHECK(larger.metrics.makespan == 103);
  CHECK(larger.metrics.span == 96);
}

TEST_CASE("ZB-V's zero span bubble needs 2p-1 micro-batches and F = B-W = W") {
  const Run short_run = run_unit("zb-v", 4, 6);
  CHECK_FALSE(short_run.formula.exact);
  CHECK(short_run.metrics.max_span_bubble == 2);
  const Run enough = run_unit("zb-v", 4, 7);
  CHECK(enough.formula.exact);
  CHECK(enough.metrics.max_span_bubble == 0);
  const Run uneven = pipesim::run({"zb-v", {4, 8, 1}, test::costs(1, 3, 1, 4)});  // B-W = 2 != W
  CHECK_FALSE(uneven.formula.exact);
  CHECK(uneven.metrics.max_span_bubble > 0);
}

TEST_CASE("Chimera orders a basic unit as the authors' runtime does") {
  // Ids 0-3 are the down pipeline's stages, 4-7 the up pipeline's (4 + stage): rank r holds r and 7-r;
  // the up pipeline's micro-batches 0 and 1 are written 2 and 3 (2 + micro-batch).
  CHECK(format_actions(build_schedule("chimera", {4, 4, 1})) ==
        "0F0,0F1,7F2,7B2,7F3,7B3,0B0,0B1\n"
        "1F0,6F2,1F1,6F3,6B2,1B0,6B3,1B1\n"
        "5F2,2F0,5F3,2F1,2B0,5B2,2B1,5B3\n"
        "4F2,4F3,3F0,3B0,3F1,3B1,4B2,4B3\n");
}

TEST_CASE("Chimera concatenates units: a unit's last primary backwards open the next unit") {
  const Schedule s = build_schedule("chimera", {4, 8, 1});
  CHECK(test::program(s, 0) == "F0 F1 F0.1 B0.1 F1.1 B1.1 B0 F2 B1 F3 F2.1 B2.1 F3.1 B3.1 B2 B3");
  CHECK(s.layout.directions == 2);
  CHECK(s.micro_batches_per_path() == 4);
}

TEST_CASE("Chimera's bubble is the paper's (D/2-1)(F+B) when F = B, for any number of units") {
  for (int d : {2, 4, 6, 8})
    for (int units : {1, 2, 3}) {
      INFO("D=" << d << " units=" << units);
      const Run run = pipesim::run({"chimera", {d, d * units, 1}, test::costs(1, 1, 0.5, 2)});
      CHECK(run.formula.exact);
      CHECK(run.formula.value == d - 2);
      for (const RankMetrics& rank : run.metrics.per_rank) CHECK(rank.bubble == d - 2);
    }
  // B = 2F: a unit idles (D-2)B and each further unit (D-2)(B-F) more, so the closed form is flagged.
  const Run one_unit = run_unit("chimera", 4, 4);
  CHECK_FALSE(one_unit.formula.exact);
  CHECK(one_unit.metrics.max_bubble == 4);
  CHECK(run_unit("chimera", 4, 8).metrics.max_bubble == 6);
}

TEST_CASE("Chimera holds between D/2+1 and D stage activations, as the paper says") {
  const Run run = run_unit("chimera", 8, 16);
  const std::vector<int> expected{5, 6, 7, 8, 8, 7, 6, 5};
  for (std::size_t r = 0; r < expected.size(); ++r) CHECK(run.metrics.per_rank[r].peak_activations == expected[r]);
  CHECK(run.metrics.per_rank[0].stages_held == 2);
}

TEST_CASE("Chimera refuses an odd stage count and micro-batches that are not a multiple of it") {
  CHECK_THROWS_WITH(build_schedule("chimera", {3, 6, 1}),
                    "chimera needs an even number of ranks (stages), at least 2: the two pipelines meet in the "
                    "middle (got 3 ranks)");
  CHECK_THROWS_WITH(build_schedule("chimera", {4, 6, 1}),
                    "chimera needs micro-batches to be a multiple of the stage count = 4: each basic unit is one "
                    "micro-batch per stage, half entering at each end (got 6 micro-batches with 4 ranks)");
}

TEST_CASE("ZB-H2 still orders as the handcrafted schedule of the Zero Bubble paper") {
  // schedules.md §5: warm-up 2(p-1-r) forwards; W withheld for the first 2r I's, then flushed at the end.
  const Schedule s = build_schedule("zb-h2", {2, 4, 1});
  CHECK(test::program(s, 0) == "F0 F1 F2 I0 W0 F3 I1 W1 I2 W2 I3 W3");
  CHECK(test::program(s, 1) == "F0 I0 F1 I1 F2 I2 W0 F3 I3 W1 W2 W3");
}
