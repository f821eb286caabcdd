// The bubble derived: each rank's idle time is cut into five phases (fill, warm-up, steady, cool-down,
// drain) and matched against the closed form's terms for that rank. The exact values below are timed
// by hand from the op orders at F=1, B=2, W=1, F&B=3 (the figures' costs) unless a test says otherwise.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "helpers.h"
#include "pipesim/bubble_terms.h"
#include "pipesim/registry.h"
#include "pipesim/report.h"
#include "pipesim/run.h"

using namespace pipesim;
using pipesim::test::run_unit;

namespace {

auto phase(const RankBubbleSplit& s, IdlePhase p) -> const PhaseIdle& { return s.phases[static_cast<std::size_t>(p)]; }

/// "warm-up 4-10" for each gap: where the idle time lies and which phase holds it.
auto gaps_text(const RankBubbleSplit& s) -> std::string {
  std::string out;
  for (const IdleGap& g : s.gaps)
    out += (out.empty() ? "" : ", ") + std::string(idle_phase_names[static_cast<std::size_t>(g.phase)]) + " " +
           format_number(g.start) + "-" + format_number(g.end);
  return out;
}

/// "(PP-1-r)B in warm-up = 6" for each term.
auto terms_text(const RankBubbleSplit& s) -> std::string {
  std::string out;
  for (const BubbleTerm& t : s.terms)
    out += (out.empty() ? "" : ", ") + t.text + " in " + std::string(idle_phase_names[static_cast<std::size_t>(t.phase)]) +
           " = " + format_number(t.value);
  return out;
}

auto request(const std::string& schedule, int ranks, int micro_batches, Costs costs) -> RunRequest {
  RunRequest r;
  r.schedule = schedule;
  r.params = {ranks, micro_batches, 1};
  r.costs = costs;
  return r;
}

}  // namespace

TEST_CASE("1F1B at 4 ranks x 8: rank 0 waits (PP-1-r)B for its first backward and (PP-1-r)F in the cool-down",
          "[bubble_terms]") {
  // Rank 0's four forwards end at 4; B0 comes back after three B's below it (10); each cool-down B
  // then waits for the F that rank 1 runs before passing it on.
  const Run r = run_unit("1f1b", 4, 8);
  const RankBubbleSplit& s = r.bubble_split.at(0);
  CHECK(terms_text(s) == "(PP-1-r)B in warm-up = 6, (PP-1-r)F in cool-down = 3");
  CHECK(gaps_text(s) == "warm-up 4-10, cool-down 24-25, cool-down 27-28, cool-down 30-31");
  CHECK(phase(s, IdlePhase::warm_up).idle == 6);
  CHECK(phase(s, IdlePhase::cool_down).idle == 3);
  CHECK(s.idle == 9);
  CHECK(s.expected == 9);
  CHECK(s.adds_up);
  // Rank 2 waits r forwards to start and r backwards after its last op.
  CHECK(terms_text(r.bubble_split.at(2)) == "rF in fill = 2, (PP-1-r)B in warm-up = 2, (PP-1-r)F in cool-down = 1, rB in drain = 4");
  CHECK(gaps_text(r.bubble_split.at(2)) == "fill 0-2, warm-up 4-6, cool-down 26-27, drain 29-33");
}

TEST_CASE("DualPipe 8x20 at the figure's costs: rank 0's six idle units are F + 5(F&B-B), all in the steady state",
          "[bubble_terms]") {
  const Run r = run_unit("dualpipe", 8, 20);
  const RankBubbleSplit& s = r.bubble_split.at(0);
  // One F before step 4's first FB(1,0) plus two F&B-B, then F&B-B before each of step 5's three FBs.
  CHECK(terms_text(s) == "F in steady = 1, (PP-3-2h)(F&B-B) in steady = 5");
  CHECK(gaps_text(s) == "steady 20-23, steady 40-41, steady 46-47, steady 52-53");
  CHECK(phase(s, IdlePhase::steady).idle == 6);
  CHECK(s.adds_up);
  // A middle rank (h = 3): the README's two factors apart, 3F in the fill and 3(F&B-B) in the cool-down.
  const RankBubbleSplit& middle = r.bubble_split.at(3);
  CHECK(terms_text(middle) == "hF in fill = 3, h(F&B-B) in cool-down = 3");
  CHECK(gaps_text(middle) == "fill 0-3, cool-down 51-52, cool-down 56-57, cool-down 59-60");
  CHECK(r.bubble_split.at(4).terms.size() == middle.terms.size());  // ranks r and N-1-r mirror each other
  CHECK(middle.adds_up);
}

TEST_CASE("DualPipe with F&B < F+B: the end ranks idle less than the README's maximum, and the terms say where",
          "[bubble_terms]") {
  // dualpipe.md 6.2: at F&B = 2.5 the bubbles are 3.5, 4, 4.5, 4.5, 4.5, 4.5, 4, 3.5 (README: 4.5).
  const Run r = run(request("dualpipe", 8, 20, Costs{1, 2, 1, 2.5, 0}));
  const std::vector<double> expected = {3.5, 4, 4.5, 4.5, 4.5, 4.5, 4, 3.5};
  for (int rank = 0; rank < 8; ++rank) {
    const RankBubbleSplit& s = r.bubble_split.at(static_cast<std::size_t>(rank));
    CHECK(s.idle == expected[static_cast<std::size_t>(rank)]);
    CHECK(s.expected == expected[static_cast<std::size_t>(rank)]);
    CHECK(s.adds_up);
  }
  CHECK(terms_text(r.bubble_split.at(1)) ==
        "hF in fill = 1, F in steady = 1, (PP-3-2h)(F&B-B) in steady = 1.5, h(F&B-B) in cool-down = 0.5");
}

TEST_CASE("When comm > 0, 1F1B's terms stop adding up in the warm-up, where rank 0 waits for two extra hops",
          "[bubble_terms]") {
  // 2 ranks x 2, comm = 1. Rank 1: F0 2-3, B0 3-5, F1 5-6, B1 6-8. Rank 0: F0 0-1, F1 1-2, B0 6-8
  // (B0's gradient lands at 5+1), B1 9-11 (lands at 8+1). The closed form has no comm term.
  const Run r = run(request("1f1b", 2, 2, Costs{1, 2, 1, 3, 1}));
  const RankBubbleSplit& s = r.bubble_split.at(0);
  CHECK(gaps_text(s) == "warm-up 2-6, cool-down 8-9");
  CHECK(phase(s, IdlePhase::warm_up).expected == 2);  // (PP-1-r)B
  CHECK(phase(s, IdlePhase::warm_up).idle == 4);
  CHECK_FALSE(phase(s, IdlePhase::warm_up).agrees);
  CHECK(phase(s, IdlePhase::cool_down).expected == 1);  // (PP-1-r)F
  CHECK(phase(s, IdlePhase::cool_down).idle == 1);
  CHECK(phase(s, IdlePhase::cool_down).agrees);
  CHECK_FALSE(s.adds_up);
  CHECK_FALSE(r.formula.exact);
}

TEST_CASE("When the stages differ (rank 1 at half speed), 1F1B's terms stop adding up in both phases that wait on it",
          "[bubble_terms]") {
  // Rank 1 runs F in 2 and B in 4: F0 1-3, B0 3-7, F1 7-9, B1 9-13. Rank 0: F0 0-1, F1 1-2, B0 7-9,
  // B1 13-15. Warm-up idle 2-7 = 5 against (PP-1-r)B = 2; cool-down 9-13 = 4 against (PP-1-r)F = 1.
  RunRequest req = request("1f1b", 2, 2, default_costs());
  req.per_stage.rank_speeds = {{1, 0.5}};
  const Run r = run(req);
  const RankBubbleSplit& s = r.bubble_split.at(0);
  CHECK(gaps_text(s) == "warm-up 2-7, cool-down 9-13");
  CHECK(phase(s, IdlePhase::warm_up).expected == 2);
  CHECK(phase(s, IdlePhase::cool_down).expected == 1);
  CHECK_FALSE(phase(s, IdlePhase::warm_up).agrees);
  CHECK_FALSE(phase(s, IdlePhase::cool_down).agrees);
  CHECK_FALSE(s.adds_up);
}

TEST_CASE("At F = B-W = W and comm = 0 every rank's terms add up to its bubble, phase by phase", "[bubble_terms]") {
  // The rule, not just the examples: every size of the grid, the whole range of F&B.
  for (const double fb : {2.0, 2.25, 2.5, 3.0}) {
    const Costs costs{1, 2, 1, fb, 0};
    for (int n = 2; n <= 10; n += 2)
      for (int m = 2 * n; m <= 2 * n + 6; m += 2) {
        for (const char* name : {"dualpipe", "1f1b", "gpipe"}) {
          const Run r = run(request(name, n, m, costs));
          for (const RankBubbleSplit& s : r.bubble_split) {
            INFO(name << " " << n << "x" << m << " F&B=" << fb << " rank " << s.rank << ": " << gaps_text(s) << " / " << terms_text(s));
            CHECK(s.adds_up);
            CHECK(s.idle == Approx(r.metrics.per_rank[static_cast<std::size_t>(s.rank)].bubble));
          }
        }
        const Run v = run(request("dualpipev", n / 2, m / 2 + n / 2, costs));
        for (const RankBubbleSplit& s : v.bubble_split) {
          INFO("dualpipev " << n / 2 << "x" << m / 2 + n / 2 << " F&B=" << fb << " rank " << s.rank << ": " << gaps_text(s));
          CHECK(s.adds_up);
        }
      }
  }
}

TEST_CASE("GPipe's terms hold with comm > 0, whose hops they count", "[bubble_terms]") {
  for (const double comm : {0.5, 1.0})
    for (int n = 1; n <= 6; ++n)
      for (int m = 1; m <= 5; ++m) {
        const Run r = run(request("gpipe", n, m, Costs{1, 3, 1, 4, comm}));
        for (const RankBubbleSplit& s : r.bubble_split) {
          INFO(n << "x" << m << " comm=" << comm << " rank " << s.rank << ": " << gaps_text(s) << " / " << terms_text(s));
          CHECK(s.adds_up);
        }
      }
}

TEST_CASE("Every schedule's idle time is split into phases that sum to each rank's bubble, with or without terms",
          "[bubble_terms]") {
  for (const ScheduleSpec* spec : schedules()) {
    if (spec->parse != nullptr) continue;  // custom: no sizes of its own
    const SizeDefaults& d = spec->defaults;
    RunRequest req = request(std::string(spec->name), d.ranks, d.micro_batches, default_costs());
    req.params.virtual_stages = d.virtual_stages;
    const Run r = run(req);
    REQUIRE(r.bubble_split.size() == static_cast<std::size_t>(d.ranks));
    for (const RankBubbleSplit& s : r.bubble_split) {
      INFO(spec->name << " rank " << s.rank);
      double phases = 0;
      for (const PhaseIdle& p : s.phases) phases += p.idle;
      CHECK(phases == Approx(r.metrics.per_rank[static_cast<std::size_t>(s.rank)].bubble));
      CHECK(s.stated == !r.formula.rank_terms.empty());
      if (!s.stated) CHECK_FALSE(s.adds_up);
    }
  }
}

TEST_CASE("The summary JSON carries each rank's split: phases with their bounds, the terms, whether it adds up",
          "[bubble_terms]") {
  const nlohmann::json j = to_json(run_unit("1f1b", 4, 8), Detail::summary);
  const nlohmann::json& split = j.at("per_rank").at(0).at("bubble_split");
  CHECK(split.at("adds_up") == true);
  CHECK(split.at("stated") == true);
  CHECK(split.at("idle") == 9);
  CHECK(split.at("gaps") == 4);
  CHECK(split.at("phases").at(1) ==
        nlohmann::json{{"phase", "warm-up"}, {"from", 0}, {"to", 10}, {"idle", 6}, {"expected", 6}, {"agrees", true}});
  CHECK(split.at("terms").at(0) ==
        nlohmann::json{{"text", "(PP-1-r)B"}, {"worked", "3*2 = 6"}, {"value", 6}, {"phase", "warm-up"}});
}

TEST_CASE("Every schedule's closed-form caveat is worded in every language, also when the stages differ",
          "[bubble_terms][i18n]") {
  for (const ScheduleSpec* spec : schedules()) {
    const Formula f = spec->formula(spec->defaults.ranks > 0 ? ScheduleParams{spec->defaults.ranks, spec->defaults.micro_batches,
                                                                              spec->defaults.virtual_stages}
                                                             : ScheduleParams{},
                                    default_costs());
    INFO(spec->name << ": " << f.condition.en);
    CHECK_FALSE(f.condition.en.empty());
    CHECK_FALSE(f.condition.pt_br.empty());
    CHECK_FALSE(f.condition.zh_cn.empty());
    CHECK(f.condition.pt_br != f.condition.en);
    CHECK(f.condition.zh_cn != f.condition.en);
  }
  RunRequest req = request("1f1b", 2, 2, default_costs());
  req.per_stage.rank_speeds = {{1, 0.5}};
  const Formula f = run(req).formula;
  CHECK_THAT(f.condition.pt_br, Catch::EndsWith("o que não vale para estes custos"));
  CHECK_THAT(f.condition.zh_cn, Catch::EndsWith("而当前代价并非如此"));
  const nlohmann::json j = nlohmann::json(to_json(run_unit("dualpipe", 8, 20), Detail::summary)).at("formula");
  CHECK(j.at("condition_in").at("pt-BR") == "exata, como a maior bolha por rank, quando F = B-W = W e comm = 0");
  CHECK(j.at("condition") == j.at("condition_in").at("en"));
}
