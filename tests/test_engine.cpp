// The engine on hand-built schedules: timing rules, memory counting, validation and deadlocks.
#include <catch2/catch.hpp>

#include "helpers.h"
#include "pipesim/error.h"
#include "pipesim/measure.h"
#include "pipesim/simulate.h"

using namespace pipesim;

namespace {

auto F(int mb, int stage, int phase = 0) -> Op { return {OpKind::F, {mb, phase, stage}, {}}; }
auto B(int mb, int stage, int phase = 0) -> Op { return {OpKind::B, {mb, phase, stage}, {}}; }
auto I(int mb, int stage) -> Op { return {OpKind::I, {mb, 0, stage}, {}}; }
auto W(int mb, int stage) -> Op { return {OpKind::W, {mb, 0, stage}, {}}; }

auto two_ranks(int micro_batches, std::vector<Op> rank0, std::vector<Op> rank1) -> Schedule {
  ScheduleBuilder builder("hand", {2, micro_batches, 1}, straight_layout(2));
  builder.rank(0).append(rank0);
  builder.rank(1).append(rank1);
  return std::move(builder).build();
}

}  // namespace

TEST_CASE("an op starts when its rank is free and its input has arrived, comm later across ranks") {
  const Schedule s = two_ranks(1, {F(0, 0), B(0, 0)}, {F(0, 1), B(0, 1)});
  const Timeline t = simulate(s, test::costs(1, 2, 1, 3, 0.5));
  // Rank 0: F0 at 0, B0 after rank 1's B0 (ends 4.5) + 0.5. Rank 1: F0 after rank 0's F0 (1) + 0.5;
  // the last stage's backward follows its own forward with no send.
  CHECK(t.start == std::vector<double>{0, 5, 1.5, 2.5});
  CHECK(t.end == std::vector<double>{1, 7, 2.5, 4.5});
  CHECK(measure(s, t).makespan == 7);
}

TEST_CASE("an I costs B - W and its W waits for it on the same rank") {
  const Schedule s = two_ranks(1, {F(0, 0), I(0, 0), W(0, 0)}, {F(0, 1), B(0, 1)});
  const Timeline t = simulate(s, test::costs(1, 3, 1, 4));
  CHECK(t.start[1] == 5);  // rank 1: F0 [1, 2], B0 [2, 5]
  CHECK(t.end[1] == 7);    // I = B - W = 2
  CHECK(t.start[2] == 7);
  CHECK(t.end[2] == 8);
}

TEST_CASE("the turn of a V stays on its rank: no send between stages N-1 and N") {
  RunRequest request{"dualpipev", {1, 2, 1}, test::costs(1, 2, 1, 3, 5)};
  const Run run = pipesim::run(request);  // one rank holds both legs: comm never applies
  CHECK(run.metrics.makespan == 12);
}

TEST_CASE("an overlapped pair waits for both of its inputs and takes the FB cost") {
  RunRequest request;  // Fig. 5 with F&B = 2.5
  request.costs = test::costs(1, 2, 1, 2.5);
  const Run run = pipesim::run(request);
  for (std::size_t i = 0; i < run.schedule.ops.size(); ++i)
    if (run.schedule.ops[i].kind == OpKind::FB) CHECK(run.timeline.end[i] - run.timeline.start[i] == 2.5);
}

TEST_CASE("activations are counted from a forward's start to the end of its B, or of its W when split") {
  const Schedule s = two_ranks(2, {F(0, 0), F(1, 0), I(0, 0), I(1, 0), W(0, 0), W(1, 0)},
                               {F(0, 1), B(0, 1), F(1, 1), B(1, 1)});
  const Timeline t = simulate(s, test::costs(1, 2, 1, 3));
  const auto rank0 = activation_curve(s, t, 0);
  const auto rank1 = activation_curve(s, t, 1);
  int peak0 = 0, peak1 = 0;
  for (const auto& step : rank0) peak0 = std::max(peak0, step.alive);
  for (const auto& step : rank1) peak1 = std::max(peak1, step.alive);
  CHECK(peak0 == 2);
  CHECK(peak1 == 1);  // B0 frees at the instant F1 starts: frees come first
  CHECK(rank0.back().alive == 0);
  CHECK(rank0.back().time == 10);  // rank 0's last W: I0 [4,5], I1 [7,8], W0 [8,9], W1 [9,10]
}

TEST_CASE("a schedule whose ranks wait on each other is a deadlock naming the cycle, not a hang") {
  // Rank 0 wants B0 before running F1; rank 1 wants F1 before reaching B0.
  const Schedule s = two_ranks(2, {F(0, 0), B(0, 0), F(1, 0), B(1, 0)}, {F(1, 1), B(1, 1), F(0, 1), B(0, 1)});
  CHECK_THROWS_WITH(simulate(s, default_costs()),
                    "deadlock: rank 0 waits at op 1 (B0) for B0 (rank 1, op 3); "
                    "rank 1 waits at op 0 (F1) for F1 (rank 0, op 2); no op in this cycle can start");
}

TEST_CASE("validation names the first op that breaks a rule") {
  CHECK_THROWS_WITH(validate_schedule(two_ranks(1, {F(0, 0), F(0, 0), B(0, 0)}, {F(0, 1), B(0, 1)})),
                    "rank 0, op 1 (F0): forward F0 runs twice");
  CHECK_THROWS_WITH(validate_schedule(two_ranks(1, {F(0, 0)}, {F(0, 1), B(0, 1)})),
                    "no backward for micro-batch 0 at stage 0 (rank 0)");
  CHECK_THROWS_WITH(validate_schedule(two_ranks(1, {F(0, 0), W(0, 0), I(0, 0)}, {F(0, 1), B(0, 1)})),
                    "rank 0, op 1 (W0): W must come after the I of the same chunk on this rank");
  CHECK_THROWS_WITH(validate_schedule(two_ranks(1, {F(0, 1), B(0, 0)}, {F(0, 0), B(0, 1)})),
                    "rank 0, op 0 (F0): stage 1 lives on rank 1, not on rank 0");
  CHECK_THROWS_WITH(validate_schedule(two_ranks(1, {B(0, 0), F(0, 0)}, {F(0, 1), B(0, 1)})),
                    "rank 0, op 0 (B0): a backward runs before the forward of its chunk on this rank");
  CHECK_THROWS_WITH(validate_schedule(two_ranks(1, {F(0, 0), I(0, 0)}, {F(0, 1), B(0, 1)})),
                    "I without its W for micro-batch 0 at stage 0 (rank 0)");
  CHECK_THROWS_WITH(validate_schedule(two_ranks(1, {F(3, 0), B(3, 0)}, {F(0, 1), B(0, 1)})),
                    "rank 0, op 0 (F3): micro-batch 3 is outside 0..0");
}

TEST_CASE("simulation time and memory grow linearly: 256 ranks x 3900 micro-batches of 1F1B") {
  const Schedule s = build_schedule("1f1b", {256, 3900, 1});
  const Timeline t = simulate(s, default_costs());
  const Metrics m = measure(s, t);
  CHECK(s.ops.size() == 2u * 256 * 3900);
  CHECK(m.makespan == (3900 + 255) * 3.0);  // (m + p - 1)(F + B)
}

TEST_CASE("each op that follows idle time names the input it waited for") {
  const Schedule s = two_ranks(1, {F(0, 0), B(0, 0)}, {F(0, 1), B(0, 1)});
  const Timeline t = simulate(s, test::costs(1, 2, 1, 3, 0.5));
  CHECK(t.waited_for == std::vector<int>{-1, 3, 0, -1});  // rank 0's B0 waited for rank 1's B0 (op 3)
}
