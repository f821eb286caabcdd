// DualPipe and DualPipeV as DeepSeek's reference `step()` runs them (deepseek-ai/DualPipe @3da1bbe).
#include <algorithm>
#include <catch2/catch.hpp>
#include <tuple>

#include "helpers.h"
#include "pipesim/error.h"
#include "pipesim/registry.h"

using namespace pipesim;
using pipesim::test::program;
using pipesim::test::run_unit;

TEST_CASE("DeepSeek-V3 Fig. 5: DualPipe, 8 ranks, 20 micro-batches, F=1 B=2 W=1 F&B=3") {
  const Run run = run_unit("dualpipe", 8, 20);
  CHECK(run.metrics.makespan == 66);
  for (const RankMetrics& rank : run.metrics.per_rank) {
    CHECK(rank.busy == 60);
    CHECK(rank.bubble == 6);  // the same on every rank ...
    CHECK(rank.stages_held == 2);
  }
  CHECK(run.formula.text == "(PP/2-1)(F&B+B-3W)");
  CHECK(run.formula.value == 6);  // ... and equal to the README formula
  CHECK(run.formula.exact);
  CHECK(run.metrics.peak_activations == 9);  // PP + 1
  CHECK(run.metrics.bubble_fraction == Approx(6.0 / 66));
}

TEST_CASE("the DualPipe README's DualPipeV figure: 4 ranks, 10 micro-batches, makespan 66") {
  const Run run = run_unit("dualpipev", 4, 10);
  CHECK(run.metrics.makespan == 66);
  CHECK(run.schedule.layout.stages == 8);
  for (const RankMetrics& rank : run.metrics.per_rank) CHECK(rank.bubble == 6);
  CHECK(run.formula.value == 6);
  CHECK(run.metrics.peak_activations == 9);  // PP + 1 half-size stages with PP = 8
}

TEST_CASE("DualPipe(4 ranks, 8 micro-batches) runs the reference's eight steps on each rank") {
  const Schedule s = build_schedule("dualpipe", {4, 8, 1});
  // Rank 0 (h = 0): 2 x F0 | F0 F1 | I1 W F1 | FB(0,1) FB(1,0) | B1 FB(1,0) | B1 I0 | W I0 | W
  CHECK(program(s, 0) == "F0 F1 F2 F0.1 I0.1 W0.1 F1.1 FB(F3,B1.1) FB(F2.1,B0) B2.1 FB(F3.1,B1) B3.1 I2 W2 I3 W3");
  // Rank 1 is a middle rank: its first main-step pair runs as a separate F and a full B.
  CHECK(program(s, 1) == "F0 F0.1 F1 F1.1 F2 B0.1 FB(F2.1,B0) FB(F3,B1.1) FB(F3.1,B1) B2.1 B2 I3.1 I3 W3.1 W3");
  // Ranks 2 and 3 mirror ranks 1 and 0 with the directions swapped.
  CHECK(program(s, 2) == "F0.1 F0 F1.1 F1 F2.1 B0 FB(F2,B0.1) FB(F3.1,B1) FB(F3,B1.1) B2 B2.1 I3 I3.1 W3 W3.1");
  CHECK(program(s, 3) == "F0.1 F1.1 F2.1 F0 I0 W0 F1 FB(F3.1,B1) FB(F2,B0.1) B2 FB(F3,B1.1) B3 I2.1 W2.1 I3.1 W3.1");
}

TEST_CASE("rank r and rank N-1-r of DualPipe run the same program with the directions swapped") {
  for (int n : {2, 4, 6, 8, 12, 16})
    for (int c : {2 * n, 2 * n + 2, 2 * n + 6, 4 * n}) {
      const Schedule s = build_schedule("dualpipe", {n, c, 1});
      for (int r = 0; r < n / 2; ++r) {
        const auto a = s.ops_of(r);
        const auto b = s.ops_of(n - 1 - r);
        REQUIRE(a.size() == b.size());
        for (std::size_t k = 0; k < a.size(); ++k) {
          INFO("N=" << n << " C=" << c << " rank " << r << " op " << k);
          CHECK(a[k].kind == b[k].kind);
          CHECK(a[k].chunk.mb == b[k].chunk.mb);
          CHECK(a[k].chunk.phase == 1 - b[k].chunk.phase);
        }
      }
    }
}

TEST_CASE("DualPipeV(N, C) is the first N ranks of DualPipe(2N, 2C), op for op (cut in half)") {
  for (int n = 1; n <= 8; ++n)
    for (int c = 2 * n; c <= 2 * n + 9; ++c) {
      const Schedule v = build_schedule("dualpipev", {n, c, 1});
      const Schedule d = build_schedule("dualpipe", {2 * n, 2 * c, 1});
      for (int r = 0; r < n; ++r) {
        INFO("N=" << n << " C=" << c << " rank " << r);
        const auto a = v.ops_of(r);
        const auto b = d.ops_of(r);
        REQUIRE(std::equal(a.begin(), a.end(), b.begin(), b.end()));
      }
    }
}

TEST_CASE("figure costs give makespan 3C + N - 2 and a bubble of N - 2 on every DualPipe rank") {
  // Makespans of the reference order timed under the figure costs (dualpipe.md §6.1).
  const std::tuple<int, int, double> table[] = {
      {2, 4, 12},  {2, 6, 18},  {4, 8, 26},   {4, 10, 32},  {4, 12, 38},  {4, 16, 50},
      {4, 20, 62}, {6, 12, 40}, {6, 16, 52},  {8, 16, 54},  {8, 18, 60},  {8, 20, 66},
      {8, 24, 78}, {8, 32, 102}, {16, 32, 110}, {16, 40, 134}, {16, 64, 206}};
  for (const auto& [n, c, makespan] : table) {
    INFO("N=" << n << " C=" << c);
    const Run run = run_unit("dualpipe", n, c);
    CHECK(run.metrics.makespan == makespan);
    for (const RankMetrics& rank : run.metrics.per_rank) CHECK(rank.bubble == n - 2);
    CHECK(run.formula.value == n - 2);
    CHECK(run.metrics.peak_activations == n + 1);
  }
}

TEST_CASE("figure costs give DualPipeV makespan 6C + 2(N - 1) and a bubble of 2(N - 1) per rank") {
  const std::tuple<int, int, double> table[] = {
      {1, 2, 12}, {1, 4, 24}, {2, 4, 26}, {2, 5, 32}, {2, 8, 50},  {3, 6, 40},   {3, 10, 64},  {4, 8, 54},
      {4, 9, 60}, {4, 10, 66}, {4, 12, 78}, {4, 20, 126}, {8, 16, 110}, {8, 20, 134}, {8, 32, 206}};
  for (const auto& [n, c, makespan] : table) {
    INFO("N=" << n << " C=" << c);
    const Run run = run_unit("dualpipev", n, c);
    CHECK(run.metrics.makespan == makespan);
    for (const RankMetrics& rank : run.metrics.per_rank) CHECK(rank.bubble == 2 * (n - 1));
    CHECK(run.formula.value == 2 * (n - 1));
    CHECK(run.metrics.peak_activations == 2 * n + 1);
  }
}

TEST_CASE("Fig. 5 has 9, 10, 11, 11, 11, 11, 10, 9 overlapped F&B pairs per rank") {
  const Schedule s = build_schedule("dualpipe", {8, 20, 1});
  const int expected[] = {9, 10, 11, 11, 11, 11, 10, 9};
  for (int r = 0; r < 8; ++r) {
    const auto ops = s.ops_of(r);
    CHECK(std::count_if(ops.begin(), ops.end(), [](const Op& op) { return op.kind == OpKind::FB; }) == expected[r]);
  }
}

TEST_CASE("each DualPipe rank splits exactly N - h - 1 backwards into I + W; an FB never splits") {
  for (int n : {2, 4, 6, 8, 10, 16})
    for (int c : {2 * n, 2 * n + 4, 6 * n}) {
      const Schedule s = build_schedule("dualpipe", {n, c, 1});
      for (int r = 0; r < n; ++r) {
        const int h = std::min(r, n - 1 - r);
        const auto ops = s.ops_of(r);
        const auto count = [&](OpKind k) { return std::count_if(ops.begin(), ops.end(), [k](const Op& op) { return op.kind == k; }); };
        INFO("N=" << n << " C=" << c << " rank " << r);
        CHECK(count(OpKind::I) == n - h - 1);
        CHECK(count(OpKind::W) == n - h - 1);
        CHECK(count(OpKind::F) + count(OpKind::FB) == c);  // C/2 forwards per direction
      }
    }
}

TEST_CASE("with real overlap (F&B < F+B) the middle ranks carry the largest bubble, equal to the README formula") {
  RunRequest request;
  request.costs = test::costs(1, 2, 1, 2.5);
  const Run run = pipesim::run(request);
  const double expected[] = {3.5, 4, 4.5, 4.5, 4.5, 4.5, 4, 3.5};
  for (int r = 0; r < 8; ++r) CHECK(run.metrics.per_rank[static_cast<std::size_t>(r)].bubble == expected[r]);
  CHECK(run.formula.value == 4.5);
  CHECK(run.formula.exact);
  CHECK(run.metrics.max_bubble == 4.5);
}

TEST_CASE("when F, B-W and W differ the README formula is not exact and the simulation differs") {
  RunRequest request;
  request.costs = test::costs(1, 2, 0.5, 3);  // PP = 8: README gives 10.5, the reference order 9.5
  const Run run = pipesim::run(request);
  CHECK(run.formula.value == 10.5);
  CHECK_FALSE(run.formula.exact);
  CHECK(run.metrics.max_bubble == 9.5);

  request.schedule = "dualpipev";  // F=1, I=2, W=1, no overlap credit: 11 against the formula's 12
  request.params = {4, 12, 1};
  request.costs = test::costs(1, 3, 1, 4);
  const Run v = pipesim::run(request);
  CHECK(v.metrics.max_bubble == 11);
  CHECK(v.formula.value == 12);
  CHECK_FALSE(v.formula.exact);
}

TEST_CASE("DualPipe refuses what the reference asserts against, naming the rule") {
  CHECK_THROWS_WITH(build_schedule("dualpipe", {3, 12, 1}), Catch::Contains("even number of ranks") && Catch::Contains("got 3 ranks"));
  CHECK_THROWS_WITH(build_schedule("dualpipe", {8, 14, 1}),
                    Catch::Contains("at least 2 x ranks = 16") && Catch::Contains("got 14 micro-batches with 8 ranks"));
  CHECK_THROWS_WITH(build_schedule("dualpipe", {8, 17, 1}), Catch::Contains("even number of micro-batches"));
  CHECK_THROWS_AS(build_schedule("dualpipe", {8, 15, 1}), Error);
  CHECK_NOTHROW(build_schedule("dualpipe", {8, 18, 1}));  // C/2 need not be even
  CHECK_NOTHROW(build_schedule("dualpipe", {2, 4, 1}));   // the smallest valid DualPipe
  CHECK_THROWS_WITH(build_schedule("dualpipev", {4, 7, 1}), Catch::Contains("at least 2 x ranks = 8 micro-batches"));
  CHECK_NOTHROW(build_schedule("dualpipev", {3, 9, 1}));  // odd counts are fine for DualPipeV
}
