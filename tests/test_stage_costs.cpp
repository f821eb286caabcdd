// Costs per stage, speeds per rank, the whole-model basis and the F&B pairing rule (stage_costs.h).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "cli_run.h"
#include "helpers.h"
#include "pipesim/report.h"
#include "pipesim/run.h"
#include "pipesim/stage_costs.h"

using pipesim::Costs;
using pipesim::CostRequest;
using pipesim::Error;
using pipesim::ErrorCode;
using pipesim::PartialCosts;
using pipesim::Run;
using pipesim::RunRequest;
using pipesim::test::Refused;

namespace {

auto stage_request(const std::string& schedule, int ranks, int micro_batches, int virtual_stages = 1) -> RunRequest {
  RunRequest r;
  r.schedule = schedule;
  r.params = {ranks, micro_batches, virtual_stages};
  return r;
}

auto with_overrides(RunRequest r, const std::vector<std::string>& overrides) -> RunRequest {
  for (const std::string& o : overrides) r.per_stage.overrides.push_back(pipesim::parse_stage_cost(o));
  return r;
}

// "[start,end]" of every op of one rank, space separated, for exact comparisons against hand timings.
auto timings(const Run& run, int rank) -> std::string {
  std::string out;
  for (int i = run.schedule.rank_begin[rank]; i < run.schedule.rank_begin[rank + 1]; ++i) {
    const auto ui = static_cast<std::size_t>(i);
    out += (out.empty() ? "" : " ") + describe(run.schedule.ops[ui]) + "[" + pipesim::format_number(run.timeline.start[ui]) +
           "," + pipesim::format_number(run.timeline.end[ui]) + "]";
  }
  return out;
}

auto all_of(PartialCosts p) -> PartialCosts { return p; }

}  // namespace

TEST_CASE("per-stage costs that are all the same time every schedule exactly as the one --cost does") {
  const Costs c = pipesim::parse_costs("F=1,B=2,W=1,FB=2.5,comm=0.25");
  struct Case {
    const char* name;
    int ranks, micro_batches, virtual_stages;
  };
  for (const Case& k : {Case{"gpipe", 4, 8, 1}, Case{"1f1b", 4, 8, 1}, Case{"zb-h1", 4, 8, 1}, Case{"zb-h2", 4, 8, 1},
                        Case{"dualpipe", 4, 8, 1}, Case{"dualpipev", 4, 8, 1}, Case{"interleaved-1f1b", 4, 8, 2},
                        Case{"zb-v", 4, 8, 1}, Case{"chimera", 4, 8, 1}}) {
    CAPTURE(k.name);
    RunRequest one = stage_request(k.name, k.ranks, k.micro_batches, k.virtual_stages);
    one.costs = c;
    const Run reference = pipesim::run(one);

    RunRequest per_stage = stage_request(k.name, k.ranks, k.micro_batches, k.virtual_stages);
    per_stage.costs = pipesim::parse_costs("F=3,B=5,W=2,FB=7,comm=1");  // every stage overrides all of it
    per_stage.per_stage.table.assign(static_cast<std::size_t>(reference.schedule.layout.stages),
                                     all_of({c.f, c.b, c.w, c.fb, c.comm}));
    per_stage.per_stage.rank_speeds.push_back({0, 1.0});
    const Run same = pipesim::run(per_stage);
    CHECK(same.timeline.start == reference.timeline.start);
    CHECK(same.timeline.end == reference.timeline.end);
    CHECK(same.stage_costs.uniform());
    CHECK(same.formula.exact == reference.formula.exact);

    // The same through --stage-cost, stage by stage.
    std::vector<std::string> overrides;
    for (int s = 0; s < reference.schedule.layout.stages; ++s)
      overrides.push_back(std::to_string(s) + ":F=1,B=2,W=1,FB=2.5,comm=0.25");
    const Run by_override = pipesim::run(with_overrides(per_stage, overrides));
    CHECK(by_override.timeline.end == reference.timeline.end);
  }
}

TEST_CASE("1F1B 4x4 with a last stage twice as heavy: the hand-derived timeline, makespan 33") {
  // Stages 0-2 cost F=1 B=2, stage 3 F=2 B=4. Rank 3 is the bottleneck: once its first forward arrives
  // at t=3 it never waits (each of its forwards was computed upstream long before), so it ends at
  // 3 + 4 x (2 + 4) = 27, and the last backward walks back through ranks 2, 1, 0 in 2 each: 33.
  // In general m (F_last + B_last) + sum of the other stages' F + B = 4 x 6 + 3 x 3 = 33, against 21
  // when every stage costs the same.
  const Run r = pipesim::run(with_overrides(stage_request("1f1b", 4, 4), {"last:F=2,B=4,W=2"}));
  CHECK(timings(r, 3) == "F0[3,5] B0[5,9] F1[9,11] B1[11,15] F2[15,17] B2[17,21] F3[21,23] B3[23,27]");
  CHECK(timings(r, 2) == "F0[2,3] F1[3,4] B0[9,11] F2[11,12] B1[15,17] F3[17,18] B2[21,23] B3[27,29]");
  CHECK(timings(r, 1) == "F0[1,2] F1[2,3] F2[3,4] B0[11,13] F3[13,14] B1[17,19] B2[23,25] B3[29,31]");
  CHECK(timings(r, 0) == "F0[0,1] F1[1,2] F2[2,3] F3[3,4] B0[13,15] B1[19,21] B2[25,27] B3[31,33]");
  CHECK(r.metrics.makespan == 33);
  CHECK(r.metrics.per_rank[3].bubble == 33 - 24);
  CHECK(r.metrics.per_rank[0].bubble == 33 - 12);
  CHECK_FALSE(r.formula.exact);  // (p-1)(F+B) = 9 assumes uniform stages
  CHECK_THAT(r.formula.condition.en, Catch::Contains("assumes every stage costs the same"));
}

TEST_CASE("a rank at half speed times its ops like a stage that costs twice as much") {
  RunRequest slow = stage_request("1f1b", 4, 4);
  slow.per_stage.rank_speeds.push_back(pipesim::parse_rank_speed("3:0.5"));
  const Run straggler = pipesim::run(slow);
  const Run heavy = pipesim::run(with_overrides(stage_request("1f1b", 4, 4), {"3:F=2,B=4,W=2,FB=6"}));
  CHECK(straggler.timeline.start == heavy.timeline.start);
  CHECK(straggler.timeline.end == heavy.timeline.end);
  CHECK(straggler.metrics.makespan == 33);
  CHECK_FALSE(straggler.formula.exact);
}

TEST_CASE("each stage boundary has its own latency, paid only when the two stages are on different ranks") {
  // GPipe, 3 ranks, one micro-batch, F=1 B=2; boundary 0|1 costs 0.5, boundary 1|2 costs 0.25.
  // Forward: rank 0 [0,1], rank 1 [1.5,2.5], rank 2 [2.75,3.75]; backward: rank 2 [3.75,5.75],
  // rank 1 [6,8], rank 0 [8.5,10.5].
  const Run r = pipesim::run(with_overrides(stage_request("gpipe", 3, 1), {"0:comm=0.5", "1:comm=0.25"}));
  CHECK(timings(r, 0) == "F0[0,1] B0[8.5,10.5]");
  CHECK(timings(r, 1) == "F0[1.5,2.5] B0[6,8]");
  CHECK(timings(r, 2) == "F0[2.75,3.75] B0[3.75,5.75]");
}

TEST_CASE("DualPipe 4x8 with a heavy stage 0: both ends carry it, and rank 0 never waits") {
  // Stage 0 (the embedding) costs twice the others: F=2 B=4 W=2 FB=6; stages 1-3 F=1 B=2 W=1 FB=3.
  // DualPipe holds stage 0 on rank 0 (direction 0) and on rank 3 (direction 1), beside stage 3 of the
  // other direction. No stage gives an overlap gain (FB = F + B), so an F&B of stage 0's forward and
  // stage 3's backward costs 2 + 2 = 4 and one of stage 3's forward and stage 0's backward 1 + 4 = 5.
  // Rank 0's work is 4 micro-batches x (2 + 4) at stage 0 and 4 x (1 + 2) at stage 3 = 36, and the
  // derivation below shows it never idles: after its three stage-0 forwards [0,6], each op's input
  // has arrived when the previous one ends (F0.1 needs rank 1's, done at 4; F1.1 rank 1's at 6; the
  // second F&B's backward input is rank 1's F&B ending at 13). So the makespan is 36 (26 uniform).
  const Run r = pipesim::run(with_overrides(stage_request("dualpipe", 4, 8), {"first:F=2,B=4,W=2,FB=6"}));
  CHECK(timings(r, 0) ==
        "F0[0,2] F1[2,4] F2[4,6] F0.1[6,7] I0.1[7,8] W0.1[8,9] F1.1[9,10] FB(F3,B1.1)[10,14] FB(F2.1,B0)[14,19] "
        "B2.1[19,21] FB(F3.1,B1)[21,26] B3.1[26,28] I2[28,30] W2[30,32] I3[32,34] W3[34,36]");
  CHECK(r.metrics.makespan == 36);
  CHECK(r.metrics.per_rank[0].busy == 36);
  CHECK(r.metrics.per_rank[0].bubble == 0);
  // The mirror image: rank 3 runs the same ops of the other direction at the same times.
  CHECK(timings(r, 3) ==
        "F0.1[0,2] F1.1[2,4] F2.1[4,6] F0[6,7] I0[7,8] W0[8,9] F1[9,10] FB(F3.1,B1)[10,14] FB(F2,B0.1)[14,19] "
        "B2[19,21] FB(F3,B1.1)[21,26] B3[26,28] I2.1[28,30] W2.1[30,32] I3.1[32,34] W3.1[34,36]");
  CHECK(pipesim::run(stage_request("dualpipe", 4, 8)).metrics.makespan == 26);
}

TEST_CASE("the same model on the same GPUs: each schedule divides one micro-batch's cost over its stages") {
  // The default preset as a model: F=8 B=16 W=8 FB=24 through the whole model, 8 ranks, 20 micro-batches.
  const auto makespan = [](const std::string& schedule, int virtual_stages = 1) {
    RunRequest r = stage_request(schedule, 8, 20, virtual_stages);
    r.costs = pipesim::parse_costs("F=8,B=16,W=8,FB=24");
    r.per_stage.model_stages = 1;
    return pipesim::run(r).metrics.makespan;
  };
  CHECK(makespan("dualpipe") == 66);   // 8 stages of F=1 B=2 W=1 FB=3, held twice
  CHECK(makespan("dualpipev") == 67);  // 16 stages of F=0.5 B=1 W=0.5 FB=1.5: a slightly larger bubble
  CHECK(makespan("1f1b") == 81);       // 8 stages: 20 x 3 + 7 x 3

  RunRequest v = stage_request("dualpipev", 8, 20);
  v.costs = pipesim::parse_costs("F=8,B=16,W=8,FB=24");
  v.per_stage.model_stages = 1;
  const Run run = pipesim::run(v);
  CHECK(run.costs.f == 0.5);
  CHECK(run.costs.fb == 1.5);
  CHECK(run.stage_costs.stages.size() == 16);
  CHECK(run.formula.exact);  // uniform stages: the closed form still holds
}

TEST_CASE("the F&B pairing rule") {
  const Costs light = pipesim::parse_costs("F=1,B=2,W=1,FB=2.5");   // overlap hides half of F
  const Costs heavy = pipesim::parse_costs("F=2,B=4,W=2,FB=5");     // and half of its F too
  const Costs plain = pipesim::parse_costs("F=1,B=2,W=1");          // no overlap gain: FB = F + B
  SECTION("two stages that cost the same pair at their own FB") {
    CHECK(pipesim::pair_duration(light, light) == 2.5);
    CHECK(pipesim::pair_duration(heavy, heavy) == 5);
  }
  SECTION("different stages hide the smaller overlap fraction of the shorter half") {
    // F_a + B_b - min(o_a, o_b) min(F_a, B_b) = 1 + 4 - 0.5 x 1 and 2 + 2 - 0.5 x 2.
    CHECK(pipesim::pair_duration(light, heavy) == 4.5);
    CHECK(pipesim::pair_duration(heavy, light) == 3);
  }
  SECTION("with no overlap gain a pair costs both halves") {
    CHECK(pipesim::pair_duration(plain, heavy) == 1 + 4);
    CHECK(pipesim::pair_duration(heavy, plain) == 2 + 2);
  }
  SECTION("always within [max(F_a, B_b), F_a + B_b]") {
    const std::vector<Costs> all{light, heavy, plain, pipesim::parse_costs("F=3,B=1,W=0.5,FB=3"),
                                 pipesim::parse_costs("F=0,B=2,W=1"), pipesim::parse_costs("F=5,B=0,W=0")};
    for (const Costs& a : all)
      for (const Costs& b : all) {
        const double fb = pipesim::pair_duration(a, b);
        CHECK(fb >= std::max(a.f, b.b));
        CHECK(fb <= a.f + b.b);
      }
  }
}

TEST_CASE("a stage override without FB keeps the base's overlap fraction") {
  const Costs base = pipesim::parse_costs("F=1,B=2,W=1,FB=2.5");  // o = 0.5
  const PartialCosts heavier{2.0, 4.0, std::nullopt, std::nullopt, std::nullopt};
  const Costs c = heavier.apply(base);
  CHECK(c.fb == 6 - 0.5 * 2);
  CHECK(c.w == 1);
  const PartialCosts latency_only{std::nullopt, std::nullopt, std::nullopt, std::nullopt, 0.5};
  CHECK(latency_only.apply(base).fb == 2.5);
}

TEST_CASE("the JSON contract echoes the costs of every stage and the speed of every rank") {
  RunRequest r = with_overrides(stage_request("1f1b", 4, 4), {"last:F=2,B=4,W=2"});
  r.per_stage.rank_speeds.push_back({1, 0.5});
  const nlohmann::json summary = pipesim::to_json(pipesim::run(r), pipesim::Detail::summary);
  REQUIRE(summary["stage_costs"].size() == 4);
  CHECK(summary["stage_costs"][0].dump() == R"({"B":2,"F":1,"FB":3,"W":1,"comm":0})");
  CHECK(summary["stage_costs"][3].dump() == R"({"B":4,"F":2,"FB":6,"W":2,"comm":0})");
  CHECK(summary["rank_speed"].dump() == "[1.0,0.5,1.0,1.0]");
}

TEST_CASE("bad per-stage input is refused with one line naming the field") {
  CHECK_THROWS_MATCHES(pipesim::run(with_overrides(stage_request("1f1b", 4, 4), {"4:F=2"})), Error,
                       Refused(ErrorCode::bad_value,
                               "--stage-cost stage 4 is out of range: 1f1b on 4 ranks has 4 stages (0 to 3, or first / last)"));
  RunRequest slow = stage_request("1f1b", 4, 4);
  slow.per_stage.rank_speeds.push_back({4, 2});
  CHECK_THROWS_MATCHES(pipesim::run(slow), Error,
                       Refused(ErrorCode::bad_value, "--rank-speed rank 4 is out of range: 1f1b has ranks 0 to 3"));
  CHECK_THROWS_MATCHES(pipesim::parse_rank_speed("1:0"), Error,
                       Refused(ErrorCode::bad_value, "--rank-speed factor of rank 1 must be a number > 0, got '0'"));
  CHECK_THROWS_MATCHES(pipesim::parse_rank_speed("1:-2"), Error,
                       Refused(ErrorCode::bad_value, "--rank-speed factor of rank 1 must be a number > 0, got '-2'"));
  RunRequest table = stage_request("dualpipev", 4, 8);
  table.per_stage.table.assign(4, PartialCosts{});
  CHECK_THROWS_MATCHES(pipesim::run(table), Error,
                       Refused(ErrorCode::bad_value, "--stage-costs lists 4 stages but dualpipev on 4 ranks has 8 stages"));
  CHECK_THROWS_MATCHES(pipesim::run(with_overrides(stage_request("1f1b", 4, 4), {"2:FB=1"})), Error,
                       Refused(ErrorCode::bad_value, "stage 2: cost FB (1) must lie in [max(F,B), F+B] = [2, 3]: an overlapped "
                                                     "pair takes at least its longer half and at most both"));
  CHECK_THROWS_MATCHES(pipesim::parse_stage_cost("middle:F=1"), Error, pipesim::test::RefusedAs(ErrorCode::bad_value));
  CHECK_THROWS_MATCHES(pipesim::parse_stage_cost("1:X=1"), Error,
                       Refused(ErrorCode::unknown_name, "--stage-cost 'X=1' must be KEY=VALUE with KEY one of F, B, W, FB, comm"));
  CHECK_THROWS_MATCHES(pipesim::parse_stage_cost("F=1"), Error, pipesim::test::RefusedAs(ErrorCode::bad_value));
  CHECK_THROWS_MATCHES(pipesim::parse_stage_cost_table(R"([{"F": 1}, {"G": 2}])"), Error,
                       Refused(ErrorCode::unknown_name, "--stage-costs entry 1: unknown cost 'G'; known costs are F, B, W, FB, comm"));
  CHECK_THROWS_MATCHES(pipesim::parse_stage_cost_table(R"({"F": 1})"), Error, pipesim::test::RefusedAs(ErrorCode::bad_import));
}

TEST_CASE("a --stage-costs table reads the JSON contract's own stage_costs entries") {
  const auto table = pipesim::parse_stage_cost_table(R"([{"F":1,"B":2,"W":1,"FB":3,"comm":0}, {"F":2,"B":4}])");
  REQUIRE(table.size() == 2);
  CHECK(*table[0].fb == 3);
  CHECK(*table[1].b == 4);
  CHECK_FALSE(table[1].w.has_value());
}

TEST_CASE("the CLI takes --stage-cost, --stage-costs, --model-cost and --rank-speed") {
  using pipesim::test::run_cli;
  const auto makespan_of = [](const std::string& args) {
    const auto r = run_cli("simulate " + args + " --format summary");
    INFO(args << "\n" << r.err);
    REQUIRE(r.status == 0);
    return nlohmann::json::parse(r.out)["makespan"].get<double>();
  };
  CHECK(makespan_of("--schedule 1f1b --ranks 4 --micro-batches 4 --stage-cost last:F=2,B=4,W=2") == 33);
  CHECK(makespan_of("--schedule 1f1b --ranks 4 --micro-batches 4 --rank-speed 3:0.5") == 33);
  CHECK(makespan_of("--schedule dualpipe --model-cost F=8,B=16,W=8,FB=24") == 66);
  CHECK(makespan_of("--schedule dualpipev --model-cost F=8,B=16,W=8,FB=24") == 67);
  CHECK(makespan_of("--schedule 1f1b --model-cost F=8,B=16,W=8,FB=24") == 81);
  // Repeated overrides apply in order; the same costs for every stage are the one --cost.
  CHECK(makespan_of("--schedule 1f1b --ranks 2 --micro-batches 2 --stage-cost 0:F=1,B=2 --stage-cost 1:F=1,B=2") ==
        makespan_of("--schedule 1f1b --ranks 2 --micro-batches 2"));
  const std::string table = pipesim::test::write_scratch("stage_costs.json", R"([{"F":1,"B":2}, {"F":1,"B":2}, {"F":1,"B":2}, {"F":2,"B":4}])");
  CHECK(makespan_of("--schedule 1f1b --ranks 4 --micro-batches 4 --stage-costs " + table) == 33);
  std::remove(table.c_str());
}

TEST_CASE("the CLI refuses bad per-stage input with exit 2 and one line") {
  using pipesim::test::check_refused;
  check_refused("simulate --stage-cost 8:F=2", ErrorCode::bad_value,
                "--stage-cost stage 8 is out of range: dualpipe on 8 ranks has 8 stages (0 to 7, or first / last)");
  check_refused("simulate --rank-speed 2:0", ErrorCode::bad_value, "--rank-speed factor of rank 2 must be a number > 0, got '0'");
  check_refused("simulate --rank-speed 8:2", ErrorCode::bad_value, "--rank-speed rank 8 is out of range: dualpipe has ranks 0 to 7");
  check_refused("simulate --stage-cost first:F=1,B=2,FB=4", ErrorCode::bad_value,
                "stage 0: cost FB (4) must lie in [max(F,B), F+B] = [2, 3]: an overlapped pair takes at least its longer half and at most both");
  check_refused("simulate --cost F=1 --model-cost F=8", ErrorCode::usage,
                "--cost and --model-cost cannot both be given: one is a stage's cost, the other the whole model's");
  const std::string short_table = pipesim::test::write_scratch("short_table.json", R"([{"F":1}])");
  check_refused("simulate --schedule zb-v --ranks 4 --micro-batches 8 --stage-costs " + short_table, ErrorCode::bad_value,
                "--stage-costs lists 1 stage but zb-v on 4 ranks has 8 stages");
  std::remove(short_table.c_str());
}

TEST_CASE("on the same-model basis a stage's costs are re-cut by each schedule: N stages' worth over its own S") {
  // The page's basis: the sliders (F=1 B=2 W=1 FB=3) are one of 8 stages, the whole model 8 times that.
  const auto run_at = [](const std::string& schedule, int virtual_stages) {
    RunRequest r = stage_request(schedule, 8, 20, virtual_stages);
    r.per_stage.model_stages = 8;
    return pipesim::run(r);
  };
  CHECK(run_at("dualpipe", 1).metrics.makespan == 66);
  CHECK(run_at("dualpipev", 1).metrics.makespan == 67);
  CHECK(run_at("1f1b", 1).metrics.makespan == 81);
  const Run interleaved = run_at("interleaved-1f1b", 2);  // 16 stages: F=0.5 B=1
  CHECK(interleaved.costs.f == 0.5);
  CHECK(interleaved.costs.b == 1);
  const nlohmann::json summary = pipesim::to_json(run_at("zb-v", 1), pipesim::Detail::summary);
  CHECK(summary["cost_basis"] == "same-model");
  CHECK(summary["model_stages"] == 8);
  CHECK(summary["cost"]["F"] == 0.5);
  CHECK(nlohmann::json(pipesim::to_json(pipesim::run(stage_request("zb-v", 8, 20)), pipesim::Detail::summary))["cost_basis"] == "same-stage-costs");
}

TEST_CASE("the text view lines cells up with per-stage durations and says what differs from --cost") {
  RunRequest r = with_overrides(stage_request("1f1b", 4, 4), {"last:F=2.5,B=4"});
  r.per_stage.rank_speeds.push_back({1, 0.5});
  const std::string text = pipesim::render_text(pipesim::run(r), false);
  CHECK_THAT(text, Catch::Contains("stage 3 costs F=2.5,B=4,W=1,FB=6.5,comm=0\nrank 1 runs at 0.5x speed\n"));
  // Rank 1's forwards take 1 / 0.5 = 2 and stage 3's 2.5: the quantum that divides them all is 0.5.
  CHECK_THAT(text, Catch::Contains("one column pair = 0.5 time units"));
  CHECK_THAT(text, Catch::Contains("rank 1 |....F0------F1------"));
}

TEST_CASE("on the same-model basis the model's own per-stage costs are re-cut by each schedule") {
  // The model: 8 stages of F=1 B=2 W=1 FB=3, its first (embedding) twice as heavy.
  const auto run_at = [](const std::string& schedule, int ranks, int micro_batches, int model_stages,
                         const std::vector<std::string>& overrides) {
    RunRequest r = with_overrides(stage_request(schedule, ranks, micro_batches), overrides);
    r.per_stage.model_stages = model_stages;
    return pipesim::run(r);
  };
  SECTION("a schedule with the model's own cut gets the model's stages as they are") {
    const Run dualpipe = run_at("dualpipe", 8, 20, 8, {"first:F=2,B=4,W=2,FB=6"});
    const Run direct = pipesim::run(with_overrides(stage_request("dualpipe", 8, 20), {"first:F=2,B=4,W=2,FB=6"}));
    CHECK(dualpipe.timeline.end == direct.timeline.end);
  }
  SECTION("a finer cut halves each model stage, the heavy one included") {
    const Run v = run_at("dualpipev", 8, 20, 8, {"first:F=2,B=4,W=2,FB=6"});
    REQUIRE(v.stage_costs.stages.size() == 16);
    CHECK(pipesim::format_costs(v.stage_costs.stages[0]) == "F=1,B=2,W=1,FB=3,comm=0");
    CHECK(pipesim::format_costs(v.stage_costs.stages[1]) == "F=1,B=2,W=1,FB=3,comm=0");
    CHECK(pipesim::format_costs(v.stage_costs.stages[2]) == "F=0.5,B=1,W=0.5,FB=1.5,comm=0");
    CHECK(pipesim::format_costs(v.stage_costs.stages[15]) == "F=0.5,B=1,W=0.5,FB=1.5,comm=0");
  }
  SECTION("a coarser cut that splits a model stage takes its share of each") {
    // 3 model stages (the last F=2 B=4) on 2 ranks: stage 0 = model stage 0 + half of 1, stage 1 =
    // half of 1 + model stage 2, so F = 1 + 0.5 = 1.5 and 0.5 + 2 = 2.5.
    const Run r = run_at("1f1b", 2, 2, 3, {"last:F=2,B=4"});
    CHECK(r.stage_costs.stages[0].f == 1.5);
    CHECK(r.stage_costs.stages[0].b == 3);
    CHECK(r.stage_costs.stages[1].f == 2.5);
    CHECK(r.stage_costs.stages[1].b == 5);
  }
  SECTION("stage indices count the model's stages") {
    CHECK_THROWS_MATCHES(run_at("dualpipev", 8, 20, 8, {"8:F=2"}), Error,
                         Refused(ErrorCode::bad_value, "--stage-cost stage 8 is out of range: the model has 8 stages (its costs are "
                                                       "given per stage of 8) (0 to 7, or first / last)"));
  }
}

TEST_CASE("the CLI option --model-stages takes --cost as one of N stages of the model") {
  const auto r = pipesim::test::run_cli("simulate --schedule dualpipev --model-stages 8 --stage-cost first:F=2,B=4,W=2,FB=6 --format summary");
  REQUIRE(r.status == 0);
  const auto summary = nlohmann::json::parse(r.out);
  CHECK(summary["stage_costs"][1]["F"] == 1);
  CHECK(summary["stage_costs"][2]["F"] == 0.5);
  CHECK(summary["cost_basis"] == "same-model");
  pipesim::test::check_refused("simulate --model-cost F=8 --model-stages 8", ErrorCode::usage,
                               "--model-stages applies to --cost: --model-cost is already the whole model's cost");
}

TEST_CASE("a per-stage cost refusal carries its rule's key and values, and one inside a stage says which stage") {
  using Params = std::vector<std::pair<std::string, std::string>>;
  const auto wording_of = [](const auto& call) { return pipesim::test::refused_wording(call); };
  const auto not_number = wording_of([] { (void)pipesim::parse_stage_cost("0:F=abc"); });
  CHECK(not_number.key == "stage_cost.not_number");
  CHECK(not_number.params == Params{{"cost", "F"}, {"value", "abc"}});
  CHECK(wording_of([] { (void)pipesim::parse_rank_speed("1:0"); }).key == "rank_speed.factor");
  CHECK(wording_of([] { (void)pipesim::parse_stage_cost_table(R"([{"F": 1}, 3])"); }).params == Params{{"entry", "1"}, {"value", "3"}});
  CHECK(wording_of([] { (void)pipesim::run(with_overrides(stage_request("1f1b", 4, 8), {"9:F=1"})); }).params ==
        Params{{"stage", "9"}, {"stages", "4"}, {"max", "3"}});

  // W above B on stage 1 only: the costs' own rule, its values, and the stage it broke on.
  try {
    (void)pipesim::run(with_overrides(stage_request("1f1b", 4, 8), {"1:W=9"}));
    FAIL("accepted");
  } catch (const Error& e) {
    CHECK(std::string(e.what()) == "stage 1: cost W (9) must not exceed B (2): B is the full backward and contains W");
    CHECK(e.field() == "stage_cost");
    CHECK(e.wording().key == "cost.w_exceeds_b");
    CHECK(e.wording().params == Params{{"w", "9"}, {"b", "2"}, {"at_kind", "stage"}, {"at", "1"}});
  }
}
