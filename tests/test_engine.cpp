// The engine on hand-built schedules: timing rules, memory counting, validation and deadlocks.
#include <limits>
#include <optional>
#include <random>
#include <utility>

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

// How a call ended: its error code and message, or nothing when it returned.
auto refusal(const auto& call) -> std::optional<std::pair<ErrorCode, std::string>> {
  try {
    call();
  } catch (const Error& e) {
    return std::pair{e.code(), std::string(e.what())};
  }
  return std::nullopt;
}

// One small random edit of one rank's op list, the kind a hand-written or imported schedule gets
// wrong: an op moved, dropped, doubled, or one field of it changed.
auto mutated(Schedule s, std::mt19937& random) -> Schedule {
  const auto pick = [&](int n) { return std::uniform_int_distribution<int>(0, n - 1)(random); };
  const int r = pick(s.ranks());
  std::vector<Op> ops(s.ops_of(r).begin(), s.ops_of(r).end());
  const auto k = static_cast<std::size_t>(pick(static_cast<int>(ops.size())));
  Op& op = ops[k];
  switch (pick(8)) {
    case 0: std::swap(op, ops[(k + 1) % ops.size()]); break;
    case 1: std::swap(op, ops[static_cast<std::size_t>(pick(static_cast<int>(ops.size())))]); break;
    case 2: ops.erase(ops.begin() + static_cast<long>(k)); break;
    case 3: ops.insert(ops.begin() + static_cast<long>(pick(static_cast<int>(ops.size()))), op); break;
    case 4: op.kind = static_cast<OpKind>(pick(op_kind_count)); break;
    case 5: op.chunk.mb += pick(3) - 1; break;
    case 6: op.chunk.stage += pick(3) - 1; break;
    default: op.backward.phase ^= 1; op.chunk.phase ^= pick(2); break;
  }
  ScheduleBuilder builder(s.name, s.params, s.layout);
  for (int q = 0; q < s.ranks(); ++q) builder.rank(q).append(q == r ? std::span<const Op>(ops) : s.ops_of(q));
  return std::move(builder).build();
}

}  // namespace

TEST_CASE("an op starts when its rank is free and its input has arrived, comm later across ranks") {
  const Schedule s = two_ranks(1, {F(0, 0), B(0, 0)}, {F(0, 1), B(0, 1)});
  const Timeline t = simulate(s, test::costs(1, 2, 1, 3, 0.5));
  // Rank 0: F0 at 0, B0 after rank 1's B0 (ends 4.5) + 0.5. Rank 1: F0 after rank 0's F0 (1) + 0.5;
  // the last stage's backward follows its own forward with no send.
  CHECK(t.start == OpColumn<double>{0, 5, 1.5, 2.5});
  CHECK(t.end == OpColumn<double>{1, 7, 2.5, 4.5});
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

TEST_CASE("the engine refuses a broken schedule with validation's words, wherever it meets the op") {
  // The engine checks the rules as it runs, in its own order; the message is always the one
  // validate_schedule gives, naming the first offending op in rank order.
  const std::vector<Schedule> broken = {
      two_ranks(1, {F(0, 0), F(0, 0), B(0, 0)}, {F(0, 1), B(0, 1)}),
      two_ranks(1, {F(0, 0)}, {F(0, 1), B(0, 1)}),
      two_ranks(1, {F(0, 0), W(0, 0), I(0, 0)}, {F(0, 1), B(0, 1)}),
      two_ranks(1, {F(0, 1), B(0, 0)}, {F(0, 0), B(0, 1)}),
      two_ranks(1, {B(0, 0), F(0, 0)}, {F(0, 1), B(0, 1)}),
      two_ranks(1, {F(0, 0), I(0, 0)}, {F(0, 1), B(0, 1)}),
      two_ranks(1, {F(3, 0), B(3, 0)}, {F(0, 1), B(0, 1)}),
      // Rank 0 would deadlock before its broken op; the broken op is still what is reported.
      two_ranks(2, {F(0, 0), B(0, 0), F(1, 0), B(1, 0), F(1, 0)}, {F(1, 1), B(1, 1), F(0, 1), B(0, 1)}),
  };
  for (const Schedule& s : broken) {
    const auto validated = refusal([&] { validate_schedule(s); });
    REQUIRE(validated);
    CHECK(validated->first == ErrorCode::invalid_schedule);
    CHECK(refusal([&] { (void)simulate(s, default_costs()); }) == validated);
  }
}

TEST_CASE("over thousands of random edits, the engine and validation agree on every schedule") {
  std::mt19937 random(2026);
  int refused = 0;
  int deadlocked = 0;
  for (const auto& [name, ranks, micro_batches] : {std::tuple{"dualpipe", 8, 20}, std::tuple{"zb-h1", 4, 8},
                                                   std::tuple{"dualpipev", 4, 8}, std::tuple{"interleaved-1f1b", 4, 8}}) {
    const Schedule original = build_schedule(name, {ranks, micro_batches, name == std::string("interleaved-1f1b") ? 2 : 1});
    for (int trial = 0; trial < 1500; ++trial) {
      const Schedule s = mutated(original, random);
      const auto validated = refusal([&] { validate_schedule(s); });
      const auto simulated = refusal([&] { (void)simulate(s, default_costs()); });
      if (validated) {
        ++refused;
        CHECK(simulated == validated);
      } else if (simulated) {
        ++deadlocked;
        CHECK(simulated->first == ErrorCode::deadlock);
      }
    }
  }
  CHECK(refused > 3000);  // the edits mostly break a rule, and some only reorder into a deadlock
  CHECK(deadlocked > 50);
}

TEST_CASE("a schedule whose shape does not hold together is refused before any op is read") {
  Schedule s = two_ranks(1, {F(0, 0), B(0, 0)}, {F(0, 1), B(0, 1)});
  Schedule overlapping = s;
  overlapping.rank_begin = {0, 3, 2};
  CHECK_THROWS_MATCHES(simulate(overlapping, default_costs()), Error,
                       test::Refused(ErrorCode::invalid_schedule,
                                     "the schedule's rank_begin does not split its 4 ops into one range per rank"));
  Schedule past_the_end = s;
  past_the_end.rank_begin = {0, 2, 9};
  CHECK_THROWS_MATCHES(simulate(past_the_end, default_costs()), Error,
                       test::Refused(ErrorCode::invalid_schedule,
                                     "the schedule's rank_begin does not split its 4 ops into one range per rank"));
  Schedule elsewhere = s;
  elsewhere.layout.rank_of_stage = {0, 7};
  CHECK_THROWS_MATCHES(simulate(elsewhere, default_costs()), Error,
                       test::Refused(ErrorCode::invalid_schedule,
                                     "the schedule's layout places a stage on rank 7, outside 0..1"));
  Schedule no_paths = s;
  no_paths.layout.directions = 0;
  no_paths.layout.rank_of_stage.clear();
  CHECK_THROWS_MATCHES(validate_schedule(no_paths), Error,
                       test::Refused(ErrorCode::invalid_schedule,
                                     "the schedule's layout does not place every stage on a rank"));
  Schedule negative_stages = s;
  negative_stages.layout.stages = -1;
  negative_stages.layout.rank_of_stage.clear();
  CHECK_THROWS_MATCHES(simulate(negative_stages, default_costs()), Error,
                       test::Refused(ErrorCode::invalid_schedule,
                                     "the schedule's layout does not place every stage on a rank"));
  Schedule too_many_ranks = s;
  too_many_ranks.params.ranks = std::numeric_limits<int>::max();
  CHECK_THROWS_MATCHES(simulate(too_many_ranks, default_costs()), Error,
                       test::Refused(ErrorCode::invalid_schedule, "schedule lists 2 ranks but declares 2147483647"));
  // Sizes no request reaches, whose table rows would wrap (first in WebAssembly's 32-bit size_t).
  Schedule vast = s;
  vast.params.micro_batches = std::numeric_limits<int>::max();
  vast.layout.stages = 4096;
  vast.layout.rank_of_stage.assign(4096, 0);
  CHECK_THROWS_MATCHES(simulate(vast, default_costs()), Error,
                       test::Refused(ErrorCode::limit_exceeded,
                                     "a schedule of 4 ops over 8796093018112 chunks is more than pipesim can index "
                                     "(at most 1073741822 of each)"));
}

TEST_CASE("an op whose kind is none of the five is refused and named, not read past the names") {
  Schedule s = two_ranks(1, {F(0, 0), B(0, 0)}, {F(0, 1), B(0, 1)});
  s.ops[1].kind = static_cast<OpKind>(7);
  CHECK(describe(s.ops[1]) == "?0");
  CHECK_THROWS_MATCHES(simulate(s, default_costs()), Error,
                       test::Refused(ErrorCode::invalid_schedule, "rank 0, op 1 (?0): breaks a rule of the engine"));
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
  CHECK(t.waited_for == OpColumn<int>{-1, 3, 0, -1});  // rank 0's B0 waited for rank 1's B0 (op 3)
}
