// Every schedule: its reference numbers, its invariants, and its formula where the theory is exact.
#include <catch2/catch.hpp>
#include <map>
#include <random>
#include <tuple>

#include "helpers.h"
#include "pipesim/error.h"
#include "pipesim/limits.h"
#include "pipesim/registry.h"

using namespace pipesim;
using pipesim::test::run_unit;

TEST_CASE("unit costs, 4 ranks, 8 micro-batches: GPipe and 1F1B 33, ZB-H1 27") {
  const Run gpipe = run_unit("gpipe", 4, 8);
  CHECK(gpipe.metrics.makespan == 33);
  CHECK(gpipe.metrics.peak_activations == 8);  // every micro-batch alive at once

  const Run one_f_one_b = run_unit("1f1b", 4, 8);
  CHECK(one_f_one_b.metrics.makespan == 33);
  CHECK(one_f_one_b.metrics.peak_activations == 4);  // p on rank 0 ...
  for (int r = 0; r < 4; ++r) CHECK(one_f_one_b.metrics.per_rank[static_cast<std::size_t>(r)].peak_activations == 4 - r);

  const Run zb_h1 = run_unit("zb-h1", 4, 8);
  CHECK(zb_h1.metrics.makespan == 27);
  for (const RankMetrics& rank : zb_h1.metrics.per_rank) CHECK(rank.peak_activations == 4);  // ... on every rank
}

TEST_CASE("ZB-H2 has no bubble inside the span: makespan 27, span 24, peak 2p-1") {
  const Run run = run_unit("zb-h2", 4, 8);
  CHECK(run.metrics.makespan == 27);
  CHECK(run.metrics.span == 24);
  CHECK(run.metrics.span_bubble_fraction == 0);
  CHECK(run.metrics.peak_activations == 7);
  CHECK(run.formula.over_span);
  CHECK(run.formula.value == 0);
}

TEST_CASE("reference makespan / span / peak at unit costs (schedules.md §8)") {
  // schedule, p, m, makespan, span, peak activations (stages, or half-stages for DualPipeV)
  const std::tuple<const char*, int, int, double, double, int> table[] = {
      {"gpipe", 8, 16, 69, 69, 16},     {"gpipe", 8, 24, 93, 93, 24},     {"1f1b", 8, 16, 69, 69, 8},
      {"1f1b", 8, 24, 93, 93, 8},       {"zb-h1", 8, 16, 55, 55, 8},      {"zb-h1", 8, 24, 79, 79, 8},
      {"zb-h2", 8, 16, 55, 48, 15},     {"zb-h2", 8, 24, 79, 72, 15},     {"dualpipev", 4, 8, 54, 54, 9},
      {"dualpipev", 8, 16, 110, 110, 17}, {"dualpipev", 8, 24, 158, 158, 17}, {"dualpipe", 4, 8, 26, 26, 5},
      {"dualpipe", 8, 16, 54, 54, 9},   {"dualpipe", 8, 24, 78, 78, 9},
  };
  for (const auto& [name, p, m, makespan, span, peak] : table) {
    INFO(name << " p=" << p << " m=" << m);
    const Run run = run_unit(name, p, m);
    CHECK(run.metrics.makespan == makespan);
    CHECK(run.metrics.span == span);
    CHECK(run.metrics.peak_activations == peak);
  }
}

TEST_CASE("every schedule runs each micro-batch's forward and backward exactly once per stage") {
  for (const ScheduleSpec* spec : schedules())
    for (int p : {1, 2, 3, 4, 6, 8})
      for (int m : {1, 2, 5, 8, 16, 17, 24}) {
        const ScheduleParams params{p, m, 1};
        Schedule s;
        try {
          s = build_schedule(spec->name, params);
        } catch (const Error&) {
          continue;  // a configuration this schedule does not accept
        }
        INFO(spec->name << " p=" << p << " m=" << m);
        std::map<std::tuple<int, int, int>, int> forwards, backwards, weights, splits;
        for (const Op& op : s.ops) {
          const auto key = [&](const Chunk& c) { return std::tuple{s.path_of(c), c.stage, c.mb}; };
          if (has_forward(op.kind)) ++forwards[key(op.chunk)];
          if (const auto bc = backward_chunk(op)) ++backwards[key(*bc)];
          if (op.kind == OpKind::I) ++splits[key(op.chunk)];
          if (op.kind == OpKind::W) ++weights[key(op.chunk)];
        }
        const std::size_t chunks = static_cast<std::size_t>(s.layout.directions * s.layout.stages * s.micro_batches_per_path());
        CHECK(forwards.size() == chunks);
        CHECK(backwards.size() == chunks);
        for (const auto& [k, n] : forwards) CHECK(n == 1);
        for (const auto& [k, n] : backwards) CHECK(n == 1);
        CHECK(weights == splits);
        CHECK_NOTHROW(validate_schedule(s));
      }
}

TEST_CASE("where a closed form is marked exact it equals the simulated largest bubble") {
  std::mt19937 rng(20241227);
  const auto pick = [&](std::initializer_list<double> values) {
    return *(values.begin() + std::uniform_int_distribution<std::size_t>(0, values.size() - 1)(rng));
  };
  int exact_cases = 0;
  for (int trial = 0; trial < 1000; ++trial) {  // more draws: custom and some sizes of the newer specs refuse
    const ScheduleSpec* spec = schedules()[std::uniform_int_distribution<std::size_t>(0, schedules().size() - 1)(rng)];
    const int p = static_cast<int>(pick({2, 4, 6, 8}));
    const int m = static_cast<int>(pick({1, p - 1.0, p + 1.0, 2.0 * p, 2.0 * p + 2, 3.0 * p, 4.0 * p}));
    Costs c{pick({0.5, 1, 1.5, 2}), pick({1, 2, 3, 4}), 0, 0, pick({0, 0, 0.25, 0.5})};
    c.w = std::min(c.b, pick({0, 0.25, 0.5, 1, 1.5}));
    c.fb = pick({std::max(c.f, c.b), c.f + c.b, (std::max(c.f, c.b) + c.f + c.b) / 2});
    RunRequest request{std::string(spec->name), {p, std::max(m, 1), spec->uses_virtual_stages ? 2 : 1}, c};
    Run run;
    try {
      run = pipesim::run(request);
    } catch (const Error&) {
      continue;  // e.g. DualPipe with too few micro-batches
    }
    if (!run.formula.exact) continue;
    ++exact_cases;
    INFO(spec->name << " p=" << p << " m=" << m << " " << format_costs(c));
    CHECK(run.formula.value == Approx(run.formula.over_span ? run.metrics.max_span_bubble : run.metrics.max_bubble));
  }
  CHECK(exact_cases > 150);
}

TEST_CASE("the zero-bubble closed forms are flagged inexact outside their conditions") {
  const Run h1 = pipesim::run({"zb-h1", {4, 8, 1}, test::costs(1, 3, 2, 4)});  // F = I = 1, W = 2
  CHECK_FALSE(h1.formula.exact);
  CHECK(h1.formula.value != h1.metrics.max_bubble);
  const Run h2 = pipesim::run({"zb-h2", {4, 12, 1}, test::costs(1, 4, 1.5, 5)});  // W > F
  CHECK_FALSE(h2.formula.exact);
  CHECK(h2.formula.value == 1.5);
  CHECK(h2.metrics.max_span_bubble == 4.5);
  const Run short_run = pipesim::run({"zb-h2", {8, 8, 1}, test::costs(1, 2, 1, 3)});  // m < 2p - 1
  CHECK_FALSE(short_run.formula.exact);
}

TEST_CASE("GPipe pays the send latency twice per hop, exactly") {
  RunRequest request{"gpipe", {4, 8, 1}, test::costs(1, 2, 1, 3, 0.5)};
  const Run run = pipesim::run(request);
  CHECK(run.metrics.max_bubble == 3 * (1 + 2 + 2 * 0.5));
  CHECK(run.formula.exact);
}

TEST_CASE("parameters held per rank: 1 stage for single-pipe schedules, 2 for DualPipe and DualPipeV") {
  CHECK(run_unit("1f1b", 4, 8).metrics.per_rank[0].stages_held == 1);
  CHECK(run_unit("zb-h1", 4, 8).metrics.per_rank[3].stages_held == 1);
  CHECK(run_unit("dualpipe", 4, 8).metrics.per_rank[1].stages_held == 2);
  CHECK(run_unit("dualpipev", 4, 8).metrics.per_rank[2].stages_held == 2);
}

TEST_CASE("the catalogue refuses unknown names and out-of-range sizes, naming what is allowed") {
  CHECK_THROWS_WITH(find_schedule("dualpipe2"), Catch::StartsWith("unknown schedule 'dualpipe2'; known schedules: gpipe, 1f1b"));
  CHECK_THROWS_MATCHES(find_schedule("dualpipe2"), Error, test::RefusedAs(ErrorCode::unknown_name));
  CHECK_THROWS_MATCHES(build_schedule("1f1b", {0, 8, 1}), Error,
                       test::Refused(ErrorCode::bad_value, "ranks must be at least 1 (got 0)"));
  CHECK_THROWS_MATCHES(build_schedule("1f1b", {4, 0, 1}), Error,
                       test::Refused(ErrorCode::bad_value, "micro-batches must be at least 1 (got 0)"));
  CHECK_THROWS_MATCHES(build_schedule("1f1b", {4, 8, 2}), Error,
                       test::Refused(ErrorCode::schedule_rule,
                                     "1f1b has one stage per rank; --virtual-stages applies only to interleaved schedules"));
  CHECK_THROWS_MATCHES(build_schedule("dualpipe", {3, 12, 1}), Error, test::RefusedAs(ErrorCode::schedule_rule));
}

TEST_CASE("a request over a limit is refused up front with the limit named, before anything is built") {
  CHECK_THROWS_MATCHES(build_schedule("1f1b", {limits::max_ranks + 1, 8, 1}), Error,
                       test::Refused(ErrorCode::limit_exceeded, "ranks must be at most 4096, the limit of one run (got 4097)"));
  CHECK_THROWS_MATCHES(build_schedule("1f1b", {1, limits::max_micro_batches + 1, 1}), Error,
                       test::Refused(ErrorCode::limit_exceeded,
                                     "micro-batches must be at most 1048576, the limit of one run (got 1048577)"));
  CHECK_THROWS_MATCHES(build_schedule("interleaved-1f1b", {4, 8, limits::max_virtual_stages + 1}), Error,
                       test::Refused(ErrorCode::limit_exceeded,
                                     "virtual stages must be at most 16, the limit of one run (got 17)"));
  // Every size is within its own bound but together they would be 4 billion ops: refused at once,
  // before a single op is generated (generating them would exhaust memory rather than fail).
  CHECK_THROWS_MATCHES(build_schedule("gpipe", {limits::max_ranks, limits::max_micro_batches, 1}), Error,
                       test::Refused(ErrorCode::limit_exceeded,
                                     "gpipe at 4096 ranks x 1048576 micro-batches would have 8589934592 ops, over the "
                                     "6291456 ops one run may have"));
}

TEST_CASE("the op limit counts ops: both stages per rank of a V, every virtual stage, two or three ops a chunk") {
  // ZB-V 2048 x 1024 is 12,582,912 ops (two stages per rank, F, I, W each): over the limit of 6,291,456.
  CHECK_THROWS_MATCHES(build_schedule("zb-v", {2048, 1024, 1}), Error,
                       test::Refused(ErrorCode::limit_exceeded,
                                     "zb-v at 2048 ranks x 1024 micro-batches would have 12582912 ops, over the 6291456 ops "
                                     "one run may have"));
  CHECK_THROWS_MATCHES(build_schedule("dualpipev", {1024, 2048, 1}), Error, test::RefusedAs(ErrorCode::limit_exceeded));
  // DualPipe's ops are mostly F&B pairs, counted by running its step(). From the step lengths of
  // dualpipe.md §3 a rank has 3H + 2M + 2(H-h-1) ops, one more on each middle rank: summed, N(3H + 2M)
  // + 2H(H-1) + 2. At N = 4096 (H = 2048), C = 2^20 (M = 2^19): 4,328,517,634. DualPipeV substitutes
  // H -> N, M -> C, h -> r and has one middle rank: N(3N + 2C) + N(N-1) + 1 = 8,657,039,361.
  CHECK_THROWS_MATCHES(build_schedule("dualpipe", {4096, 1048576, 1}), Error,
                       test::Refused(ErrorCode::limit_exceeded,
                                     "dualpipe at 4096 ranks x 1048576 micro-batches would have 4328517634 ops, over the "
                                     "6291456 ops one run may have"));
  CHECK_THROWS_MATCHES(build_schedule("dualpipev", {4096, 1048576, 1}), Error,
                       test::Refused(ErrorCode::limit_exceeded,
                                     "dualpipev at 4096 ranks x 1048576 micro-batches would have 8657039361 ops, over the "
                                     "6291456 ops one run may have"));
  CHECK_THROWS_MATCHES(build_schedule("interleaved-1f1b", {2048, 1024, 2}), Error,
                       test::Refused(ErrorCode::limit_exceeded,
                                     "interleaved-1f1b at 2048 ranks x 1024 micro-batches x 2 virtual stages would have "
                                     "8388608 ops, over the 6291456 ops one run may have"));
  // No generated run has more ops than the count the limit is checked on: three ops (F, I, W) per
  // chunk of the layout the schedule itself reports (two stages per rank on a V, v when looped).
  for (const ScheduleSpec* spec : schedules()) {
    if (spec->given_as_text) continue;
    INFO(spec->name);
    const Schedule s = build_schedule(spec->name, {8, 32, spec->uses_virtual_stages ? 2 : 1});
    const auto chunks = static_cast<std::size_t>(s.layout.directions * s.layout.stages * s.micro_batches_per_path());
    CHECK(s.ops.size() <= 3 * chunks);
  }
}

// The largest runs allowed are built, each with exactly the limit's op count: the limit is where it says
// it is. Tagged [at-limit]: four builds of 6,291,456 ops take most of the sanitized suite's time, so
// the sanitized build leaves them out (tests/CMakeLists.txt). What they check is the limit's arithmetic
// and the generators' op counts, the same code in both builds; the sanitizers still run every
// generator (the case above and tests of every schedule) and the refusals over the limit.
TEST_CASE("at the op limit exactly, the largest runs are accepted with that many ops", "[at-limit]") {
  CHECK(build_schedule("1f1b", {64, static_cast<int>(limits::max_ops / 2 / 64), 1}).ops.size() ==
        static_cast<std::size_t>(limits::max_ops));
  CHECK(build_schedule("zb-v", {2048, 512, 1}).ops.size() == 6291456);
  CHECK(build_schedule("zb-h1", {2048, 1024, 1}).ops.size() == 6291456);
  CHECK(build_schedule("interleaved-1f1b", {512, 3072, 2}).ops.size() == 6291456);
}
