// The bubble derived: each rank's idle time is cut into five phases (fill, warm-up, steady, cool-down,
// drain) and matched against the closed form's terms for that rank. The exact values below are timed
// by hand from the op orders at F=1, B=2, W=1, F&B=3 (the figures' costs) unless a test says otherwise.
#include <algorithm>
#include <random>
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

/// "(PP-1-r)B in warm-up = 6" for each term; a range term "... in warm-up..cool-down = 9".
auto terms_text(const RankBubbleSplit& s) -> std::string {
  std::string out;
  for (const BubbleTerm& t : s.terms)
    out += (out.empty() ? "" : ", ") + t.text + " in " + std::string(idle_phase_names[static_cast<std::size_t>(t.phase)]) +
           (t.phase_to ? ".." + std::string(idle_phase_names[static_cast<std::size_t>(*t.phase_to)]) : "") + " = " +
           format_number(t.value);
  return out;
}

/// Which run a failure is about, read from the run itself: "zb-h1 4x8 v=1 F=1,B=2,W=1,FB=3,comm=0".
auto run_label(const Run& r) -> std::string {
  const ScheduleParams& p = r.schedule.params;
  return std::string(r.spec->name) + " " + std::to_string(p.ranks) + "x" + std::to_string(p.micro_batches) +
         " v=" + std::to_string(p.virtual_stages) + " " + format_costs(r.costs);
}

/// Checks every rank of run `r`: it has a split, the split's idle time is the rank's bubble, and its
/// terms add up to it (with `must_state`, the formula also states terms for it). What failed is written
/// out (the run, and the rank's gaps and terms) only when a check fails: the sweeps below check tens of
/// thousands of ranks, and writing every rank's text up front took 93% of their time (callgrind), for
/// messages nobody reads.
void check_every_rank_adds_up(const Run& r, bool must_state = false) {
  REQUIRE(r.bubble_split.size() == static_cast<std::size_t>(r.schedule.ranks()));
  for (const RankBubbleSplit& s : r.bubble_split) {
    const double bubble = r.metrics.per_rank[static_cast<std::size_t>(s.rank)].bubble;
    if (s.adds_up && (s.stated || !must_state) && s.idle == Approx(bubble)) continue;
    INFO(run_label(r) << " rank " << s.rank << ": " << gaps_text(s) << " / " << terms_text(s));
    CHECK(s.idle == Approx(bubble));
    if (must_state) CHECK(s.stated);
    CHECK(s.adds_up);
  }
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
          check_every_rank_adds_up(r);
        }
        const Run v = run(request("dualpipev", n / 2, m / 2 + n / 2, costs));
        check_every_rank_adds_up(v);
      }
  }
}

TEST_CASE("GPipe's terms hold with comm > 0, whose hops they count", "[bubble_terms]") {
  for (const double comm : {0.5, 1.0})
    for (int n = 1; n <= 6; ++n)
      for (int m = 1; m <= 5; ++m) {
        const Run r = run(request("gpipe", n, m, Costs{1, 3, 1, 4, comm}));
        check_every_rank_adds_up(r);
      }
}

TEST_CASE("Every schedule's idle time is split into phases that sum to each rank's bubble, with or without terms",
          "[bubble_terms]") {
  for (const ScheduleSpec* spec : schedules()) {
    if (spec->given_as_text) continue;  // custom: no sizes of its own
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
      const auto& terms = r.formula.rank_terms;
      CHECK(s.stated == (static_cast<std::size_t>(s.rank) < terms.size() && terms[static_cast<std::size_t>(s.rank)].has_value()));
      if (!s.stated) CHECK_FALSE(s.adds_up);
    }
  }
}

// ---- ZB-H1, ZB-H2, ZB-V, Chimera, interleaved 1F1B ------------------------------------------------

TEST_CASE("ZB-H1 at 4 ranks x 8, F=2 B=3 W=1: rank r waits (PP-1-r)(B-W) for its first I and (PP-1-r)(F-W) in the cool-down",
          "[bubble_terms][zb-h1]") {
  // I = B-W = 2. Rank 0 runs PP-r = 4 forwards (0-8). F0 reaches rank 3 at 6-8; I0 then climbs the
  // three ranks below rank 0 at 2 each (8-10, 10-12, 12-14): rank 0 idles 8-14 = 3*2. In the cool-down
  // each of rank 0's last three I's waits for the F that rank 1 runs before it passes the I on, less
  // the W rank 0 runs meanwhile: F-W = 1, three times. Rank 1 also waits 1 F to start, and after its
  // last op for rank 0, which ends last: each rank ends B-2W = 1 after the one below it (49, 48, 47, 46).
  const Run r = run(request("zb-h1", 4, 8, Costs{2, 3, 1, 5, 0}));
  CHECK(terms_text(r.bubble_split.at(0)) == "(PP-1-r)(B-W) in warm-up = 6, (PP-1-r)(F-W) in cool-down = 3");
  CHECK(gaps_text(r.bubble_split.at(0)) == "warm-up 8-14, cool-down 37-38, cool-down 41-42, cool-down 45-46");
  CHECK(terms_text(r.bubble_split.at(1)) ==
        "rF in fill = 2, (PP-1-r)(B-W) in warm-up = 4, (PP-1-r)(F-W) in cool-down = 2, r(B-2W) in drain = 1");
  CHECK(terms_text(r.bubble_split.at(3)) == "rF in fill = 6, r(B-2W) in drain = 3");
  for (const RankBubbleSplit& s : r.bubble_split) {
    INFO("rank " << s.rank << ": " << gaps_text(s));
    CHECK(s.expected == 9);  // every rank idles the closed form's (PP-1)(F+B-2W) = 3*3
    CHECK(s.adds_up);
  }
}

TEST_CASE("ZB-H2 at 3 ranks x 5: the warm-up holds (PP-1-r)(B-W-F) when B-W > F, else the cool-down takes it all",
          "[bubble_terms][zb-h2]") {
  // F=1.5 B=4 W=1.25, so I = 2.75 > F. Rank 0 runs 2(PP-1)+1 = 5 forwards (0-7.5); F0 reaches rank 2
  // at 3, whose I0 (4.5-7.25) and rank 1's (7.25-10) come back at 10: (PP-1-r)(I-F) = 2*1.25. Its
  // cool-down I's wait 2(F-W) = 0.5 for each of the PP-1-r ranks below. Rank 0 ends last (I >= 2W),
  // rank r by r(I-2W) = 0.25 each earlier.
  const Run a = run(request("zb-h2", 3, 5, Costs{1.5, 4, 1.25, 5, 0}));
  CHECK(terms_text(a.bubble_split.at(0)) == "(PP-1-r)(B-W+2comm-F) in warm-up = 2.5, 2(PP-1-r)(F-W) in cool-down = 1");
  CHECK(gaps_text(a.bubble_split.at(0)) == "warm-up 7.5-10, cool-down 14-14.25, cool-down 18.25-18.5, cool-down 22.5-22.75, cool-down 26.75-27");
  CHECK(terms_text(a.bubble_split.at(1)) ==
        "r(F+comm) in fill = 1.5, (PP-1-r)(B-W+2comm-F) in warm-up = 1.25, 2(PP-1-r)(F-W) in cool-down = 0.5, "
        "r(B-3W+comm) in drain = 0.25");
  // F=2 B=2.5 W=1: I = 1.5 < F, so no gap before the first I, and I < 2W, so the last rank ends last
  // and rank r waits (PP-1-r)(2W-I) after its own end.
  const Run b = run(request("zb-h2", 3, 5, Costs{2, 2.5, 1, 4, 0}));
  CHECK(terms_text(b.bubble_split.at(0)) == "(PP-1-r)(F+B-3W+2comm) in cool-down = 3, (PP-1-r)(3W-B-comm) in drain = 1");
  CHECK(terms_text(b.bubble_split.at(2)) == "r(F+comm) in fill = 4");
  for (const Run* r : {&a, &b})
    for (const RankBubbleSplit& s : r->bubble_split) {
      INFO("rank " << s.rank << ": " << gaps_text(s));
      CHECK(s.adds_up);
    }
}

TEST_CASE("ZB-V at F = B-W = W: no rank idles inside its span, rank r waits rF to start and (PP/2-1-r)F at the end",
          "[bubble_terms][zb-v]") {
  // 4 ranks x 8 at unit costs: rank r starts at r (F0 walks down), runs 48 busy units without a gap,
  // so the last rank ends last at 51 and rank 0 waits 48-51.
  const Run r = run_unit("zb-v", 4, 8);
  CHECK(terms_text(r.bubble_split.at(0)) == "(PP/2-1-r)F in drain = 3");
  CHECK(gaps_text(r.bubble_split.at(0)) == "drain 48-51");
  CHECK(terms_text(r.bubble_split.at(2)) == "rF in fill = 2, (PP/2-1-r)F in drain = 1");
  CHECK(terms_text(r.bubble_split.at(3)) == "rF in fill = 3");
  for (const RankBubbleSplit& s : r.bubble_split) CHECK(s.adds_up);
}

TEST_CASE("Chimera at F = B: rank r idles hF, then (PP/2-1-h)F for the other pipeline, (PP/2-1-h)B at its end, hB",
          "[bubble_terms][chimera]") {
  // 4 ranks x 4 (one basic unit), F = B = 1. Rank 0 (h = 0) runs its own pipeline's two forwards (0-2);
  // the other pipeline's first forward reaches it, its last stage, after three hops (3): one F idle;
  // its last backward starts the other pipeline's way back one B later than rank 0 could run it.
  // Rank 1 (h = 1) waits one forward of its own pipeline to start and one backward at the end.
  const Run r = run(request("chimera", 4, 4, Costs{1, 1, 0.5, 2, 0}));
  CHECK(terms_text(r.bubble_split.at(0)) == "(PP/2-1-h)F in warm-up = 1, (PP/2-1-h)B in cool-down = 1");
  CHECK(gaps_text(r.bubble_split.at(0)) == "warm-up 2-3, cool-down 8-9");
  CHECK(terms_text(r.bubble_split.at(1)) == "hF in fill = 1, hB in drain = 1");
  CHECK(terms_text(r.bubble_split.at(3)) == terms_text(r.bubble_split.at(0)));  // ranks r and PP-1-r mirror
  for (const RankBubbleSplit& s : r.bubble_split) CHECK(s.adds_up);
}

TEST_CASE("Interleaved 1F1B at 4 ranks x 8, v = 2: rank r waits rF, idles (PP-1-r)(F+B) over its span, rB at the end",
          "[bubble_terms][interleaved]") {
  // F=1 B=2 per chunk. Rank r's first forward (chunk 0 of micro-batch 0) passes r ranks first: rF; its
  // last backward (chunk 0 of the last micro-batch) passes them back after it: rB. Each rank's bubble
  // is (PP-1)(F+B) = 9, so its span, first op to last, holds the other (PP-1-r)(F+B) — not divided by
  // v: F and B are already one chunk's costs. The span is one range term: rank 0's 9 fall 3 in the
  // warm-up (its 11 forwards end at 11; micro-batch 0's chunk-1 forward ended at 5, goes 3F down to
  // stage 7 and 3B back: its backward starts at 14), 1 in the steady state (round 2's chunk-1 forward
  // waits for rank 3's late chunk-0 forward) and 5 in the cool-down (one F each before five backwards
  // come back), a split that turns on which op each wait meets: no closed form without max() gives it.
  RunRequest req = request("interleaved-1f1b", 4, 8, Costs{1, 2, 0, 3, 0});
  req.params.virtual_stages = 2;
  const Run r = run(req);
  CHECK(terms_text(r.bubble_split.at(0)) == "(PP-1-r)(F+B) in warm-up..cool-down = 9");
  CHECK(terms_text(r.bubble_split.at(1)) == "rF in fill = 1, (PP-1-r)(F+B) in warm-up..cool-down = 6, rB in drain = 2");
  CHECK(terms_text(r.bubble_split.at(2)) == "rF in fill = 2, (PP-1-r)(F+B) in warm-up..cool-down = 3, rB in drain = 4");
  CHECK(terms_text(r.bubble_split.at(3)) == "rF in fill = 3, rB in drain = 6");
  const RankBubbleSplit& rank_0 = r.bubble_split.at(0);
  CHECK(gaps_text(rank_0) == "warm-up 11-14, steady 19-20, cool-down 34-35, cool-down 37-38, cool-down 40-41, "
                             "cool-down 43-44, cool-down 46-47");
  CHECK(phase(rank_0, IdlePhase::warm_up).idle == 3);
  CHECK(phase(rank_0, IdlePhase::steady).idle == 1);
  CHECK(phase(rank_0, IdlePhase::cool_down).idle == 5);
  REQUIRE(rank_0.ranges.size() == 1);
  CHECK(rank_0.ranges[0].first == IdlePhase::warm_up);
  CHECK(rank_0.ranges[0].last == IdlePhase::cool_down);
  CHECK(rank_0.ranges[0].from == phase(rank_0, IdlePhase::warm_up).from);
  CHECK(rank_0.ranges[0].to == phase(rank_0, IdlePhase::cool_down).to);
  CHECK(rank_0.ranges[0].idle == 9);
  CHECK(rank_0.ranges[0].expected == 9);
  for (IdlePhase p : {IdlePhase::warm_up, IdlePhase::steady, IdlePhase::cool_down}) {
    CHECK(phase(rank_0, p).in_range);
    CHECK(phase(rank_0, p).agrees);  // checked with its range
  }
  CHECK_FALSE(phase(rank_0, IdlePhase::fill).in_range);
  CHECK(r.bubble_split.at(3).ranges.empty());  // the last rank's span holds no idle time: no range term
  for (const RankBubbleSplit& s : r.bubble_split) {
    INFO("rank " << s.rank << ": " << gaps_text(s));
    CHECK(s.stated);
    CHECK(s.idle == 9);
    CHECK(s.expected == 9);
    CHECK(s.adds_up);
  }
}

TEST_CASE("A range term is checked against the idle time summed over its phases, not phase by phase", "[bubble_terms]") {
  // Made-up terms on 1F1B at 4 x 8 (rank 0 idles 6 in the warm-up, 3 in the cool-down): one range
  // term of 9 over warm-up..cool-down adds up; 8 does not, and the range and each phase in it say so.
  const Run r = run_unit("1f1b", 4, 8);
  const auto split_with = [&](double value) {
    BubbleTerm span{"span", "", value, IdlePhase::warm_up, IdlePhase::cool_down};
    return split_bubble(r.schedule, r.timeline, r.metrics.makespan, 0, true, {span});
  };
  const RankBubbleSplit exact = split_with(9);
  CHECK(exact.adds_up);
  REQUIRE(exact.ranges.size() == 1);
  CHECK(exact.ranges[0].idle == 9);
  CHECK(phase(exact, IdlePhase::warm_up).expected == 0);  // a range term's value stays with its range
  const RankBubbleSplit off = split_with(8);
  CHECK_FALSE(off.adds_up);
  CHECK_FALSE(off.ranges[0].agrees);
  CHECK_FALSE(phase(off, IdlePhase::steady).agrees);
  CHECK(phase(off, IdlePhase::fill).agrees);  // outside the range, nothing changed
  // A single-phase term inside a range counts towards the range; overlapping ranges merge into one.
  const RankBubbleSplit merged = split_bubble(r.schedule, r.timeline, r.metrics.makespan, 0, true,
      {BubbleTerm{"a", "", 6, IdlePhase::warm_up, IdlePhase::steady}, BubbleTerm{"b", "", 1, IdlePhase::steady, IdlePhase::cool_down},
       BubbleTerm{"c", "", 2, IdlePhase::cool_down}});
  REQUIRE(merged.ranges.size() == 1);
  CHECK(merged.ranges[0].first == IdlePhase::warm_up);
  CHECK(merged.ranges[0].last == IdlePhase::cool_down);
  CHECK(merged.ranges[0].expected == 9);
  CHECK(merged.adds_up);
}

namespace {

/// Costs that meet each schedule's condition: integers and seeded random reals, with comm where the
/// schedule's formula has it. `formula.exact` still decides which runs the grid checks.
auto condition_costs(const std::string& schedule) -> std::vector<Costs> {
  std::vector<Costs> out = {Costs{1, 2, 1, 3, 0}, Costs{2, 4, 2, 6, 0}, Costs{1, 1, 0.5, 2, 0}, Costs{2, 3, 1, 5, 0},
                            Costs{3, 5, 1, 8, 0}, Costs{2, 2.5, 1, 4, 0}, Costs{1.5, 4, 1.25, 5, 0}};
  std::mt19937 rng(16);
  std::uniform_real_distribution<double> draw(0.1, 3);
  for (int i = 0; i < 6; ++i) {
    const double f = draw(rng);
    const double w = draw(rng) / 2;
    const double b = w + draw(rng);
    out.push_back(Costs{f, b, w, f + b, 0});           // ZB-H1, ZB-H2, interleaved when the draw fits
    out.push_back(Costs{f, 2 * f, f, 2.5 * f, 0});     // F = B-W = W: ZB-V
    out.push_back(Costs{f, f, f / 2, 1.5 * f, 0});     // F = B: Chimera
    if (schedule == "zb-h2") out.push_back(Costs{f, b, w, f + b, draw(rng) / 4});  // comm, bounded by the condition
  }
  return out;
}

/// A schedule's grid: ranks 2..16, micro-batches from the schedule's minimum for the formula up, the
/// costs above; every rank of every run the formula calls exact states terms that add up, phase by phase.
struct Grid {
  const char* name;
  int min_micro;    // in ranks: the formula's condition starts at min_micro * ranks + offset
  int offset;
  int step;         // micro-batches step (Chimera: multiples of ranks)
};

void check_condition_grid(const Grid& g) {
  int checked = 0;
  for (int n = 2; n <= 16; ++n) {
    if (std::string(g.name) == "chimera" && n % 2 != 0) continue;
    const int first = g.min_micro * n + g.offset;
    const int step = g.step == 0 ? n : g.step;
    for (int m = first; m <= first + 3 * step; m += step)
      for (const Costs& c : condition_costs(g.name)) {
        RunRequest req = request(g.name, n, m, c);
        if (std::string(g.name) == "interleaved-1f1b") {
          req.params.virtual_stages = 2 + (n + m) % 2;
          if (m % std::max(1, m / n) != 0) continue;  // torch's rounds
        }
        const Run r = run(req);
        if (!r.formula.exact) continue;
        ++checked;
        check_every_rank_adds_up(r, /*must_state=*/true);
      }
  }
  INFO(g.name);
  CHECK(checked > 200);  // the condition let enough of the grid through to mean something
}

}  // namespace

// One test case per schedule (the grids take a minute under the sanitizers in all), so that CTest runs
// them side by side.
TEST_CASE("Under ZB-H1's condition every stated rank's terms add up to its bubble, phase by phase", "[bubble_terms][grid]") {
  check_condition_grid({"zb-h1", 1, 0, 1});
}

TEST_CASE("Under ZB-H2's condition every stated rank's terms add up to its bubble, phase by phase", "[bubble_terms][grid]") {
  check_condition_grid({"zb-h2", 2, -1, 1});
}

TEST_CASE("Under ZB-V's condition every stated rank's terms add up to its bubble, phase by phase", "[bubble_terms][grid]") {
  check_condition_grid({"zb-v", 2, -1, 1});
}

TEST_CASE("Under Chimera's condition every stated rank's terms add up to its bubble, phase by phase", "[bubble_terms][grid]") {
  check_condition_grid({"chimera", 1, 0, 0});
}

TEST_CASE("Under interleaved 1F1B's condition every stated rank's terms add up to its bubble, phase by phase", "[bubble_terms][grid]") {
  check_condition_grid({"interleaved-1f1b", 1, 0, 1});
}

TEST_CASE("Interleaved 1F1B's three terms add up on every rank for every valid micro-batch count and v = 2..4",
          "[bubble_terms][grid][interleaved]") {
  // Wider than the grid above: torch's flex rounds (micro-batches not a multiple of the ranks) up to
  // 3 x ranks, and more chunks per rank, where the span's split into phases moves the most.
  int checked = 0;
  for (int n = 2; n <= 16; ++n)
    for (int m = n; m <= 3 * n; ++m) {
      if (m % std::max(1, m / n) != 0) continue;  // torch's rounds
      for (int v = 2; v <= 4; ++v)
        for (const Costs& c : {Costs{1, 2, 1, 3, 0}, Costs{2, 1, 0.5, 3, 0}, Costs{1.5, 4, 1.25, 5.5, 0}, Costs{0.7, 0.3, 0.1, 1, 0}}) {
          RunRequest req = request("interleaved-1f1b", n, m, c);
          req.params.virtual_stages = v;
          const Run r = run(req);
          REQUIRE(r.formula.exact);
          ++checked;
          check_every_rank_adds_up(r, /*must_state=*/true);
        }
    }
  CHECK(checked > 2000);
}

TEST_CASE("Where a schedule's condition fails, its split shows the phase that stops adding up", "[bubble_terms]") {
  SECTION("ZB-H1 with comm > 0: rank 0's warm-up waits two extra hops") {
    // 2 ranks x 2, F=1 B=2 W=1 comm=1: F1 ends at 2 on rank 0; F0 reaches rank 1 at 2, its I0 runs
    // 3-4 and lands on rank 0 at 5: idle 2-5 = 3 against (PP-1-r)(B-W) = 1.
    const Run r = run(request("zb-h1", 2, 2, Costs{1, 2, 1, 3, 1}));
    const PhaseIdle& warm_up = phase(r.bubble_split.at(0), IdlePhase::warm_up);
    CHECK(warm_up.idle == 3);
    CHECK(warm_up.expected == 1);
    CHECK_FALSE(warm_up.agrees);
    CHECK_FALSE(r.bubble_split.at(0).adds_up);
  }
  SECTION("ZB-V with B-W = 2F: the V's turn makes rank 1 wait in the warm-up") {
    const Run r = run(request("zb-v", 2, 3, Costs{1, 3, 1, 4, 0}));
    CHECK_FALSE(r.formula.exact);
    CHECK(phase(r.bubble_split.at(1), IdlePhase::warm_up).idle == 1);
    CHECK(phase(r.bubble_split.at(1), IdlePhase::warm_up).expected == 0);
    CHECK_FALSE(r.bubble_split.at(1).adds_up);
  }
  SECTION("Chimera with B = 2F: rank 0's cool-down waits one F more than the terms") {
    const Run r = run(request("chimera", 4, 4, Costs{1, 2, 1, 3, 0}));
    CHECK_FALSE(r.formula.exact);
    CHECK(phase(r.bubble_split.at(0), IdlePhase::cool_down).idle == 3);
    CHECK(phase(r.bubble_split.at(0), IdlePhase::cool_down).expected == 2);
    CHECK(phase(r.bubble_split.at(1), IdlePhase::warm_up).idle == 1);
    CHECK_FALSE(r.bubble_split.at(0).adds_up);
  }
  SECTION("Interleaved 1F1B with comm > 0: the last rank's fill holds the hops") {
    RunRequest req = request("interleaved-1f1b", 2, 2, Costs{1, 2, 1, 3, 1});
    req.params.virtual_stages = 2;
    const Run r = run(req);
    CHECK(phase(r.bubble_split.at(1), IdlePhase::fill).idle == 2);
    CHECK(phase(r.bubble_split.at(1), IdlePhase::fill).expected == 1);
    CHECK_FALSE(r.bubble_split.at(1).adds_up);
  }
  SECTION("Interleaved 1F1B with comm > 0: rank 0's span range holds the hops, 9 against (PP-1-r)(F+B) = 3") {
    // 2 ranks x 2, v = 2, F=1 B=2 comm=1. Rank 0 idles 2-4 (micro-batch 0 back from stage 1: F and a hop
    // each way), 6-10 (its chunk-1 round trip: F, B and two hops), then 12-13, 15-16, 18-19 (a hop
    // before each cool-down backward): six hops the closed form leaves out, across the whole range.
    RunRequest req = request("interleaved-1f1b", 2, 2, Costs{1, 2, 1, 3, 1});
    req.params.virtual_stages = 2;
    const Run r = run(req);
    CHECK_FALSE(r.formula.exact);
    const RankBubbleSplit& s = r.bubble_split.at(0);
    CHECK(gaps_text(s) == "warm-up 2-4, warm-up 6-10, cool-down 12-13, cool-down 15-16, cool-down 18-19");
    REQUIRE(s.ranges.size() == 1);
    CHECK(s.ranges[0].first == IdlePhase::warm_up);
    CHECK(s.ranges[0].last == IdlePhase::cool_down);
    CHECK(s.ranges[0].idle == 9);
    CHECK(s.ranges[0].expected == 3);
    CHECK_FALSE(s.ranges[0].agrees);
    CHECK(phase(s, IdlePhase::fill).agrees);  // rank 0 starts at once: no hop before it
    CHECK_FALSE(s.adds_up);
  }
  SECTION("Interleaved 1F1B with rank 1 at half speed: rank 0's span idles 51 against 9, rank 1's none against 6") {
    // The slow rank sets the pace: every other rank waits on it inside its span, and it never waits.
    RunRequest req = request("interleaved-1f1b", 4, 8, Costs{1, 2, 0, 3, 0});
    req.params.virtual_stages = 2;
    req.per_stage.rank_speeds = {{1, 0.5}};
    const Run r = run(req);
    const RankBubbleSplit& s = r.bubble_split.at(0);
    INFO(gaps_text(s) << " / " << terms_text(s));
    REQUIRE(s.ranges.size() == 1);
    CHECK(s.ranges[0].idle == 51);
    CHECK(s.ranges[0].expected == 9);
    CHECK_FALSE(s.ranges[0].agrees);
    CHECK_FALSE(s.adds_up);
    const RankBubbleSplit& slow = r.bubble_split.at(1);
    REQUIRE(slow.ranges.size() == 1);
    CHECK(slow.ranges[0].idle == 0);
    CHECK(slow.ranges[0].expected == 6);
    CHECK(phase(slow, IdlePhase::fill).agrees);
    CHECK(phase(slow, IdlePhase::drain).agrees);
  }
  SECTION("ZB-H2 and ZB-H1 with rank 1 at half speed: rank 0 stops adding up, rank 1 still does") {
    for (const char* name : {"zb-h1", "zb-h2"}) {
      RunRequest req = request(name, 2, 3, Costs{1, 2, 1, 3, 0});
      req.per_stage.rank_speeds = {{1, 0.5}};
      const Run r = run(req);
      INFO(name << ": " << gaps_text(r.bubble_split.at(0)) << " / " << terms_text(r.bubble_split.at(0)));
      CHECK_FALSE(r.bubble_split.at(0).adds_up);
      CHECK(r.bubble_split.at(0).stated);
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
  CHECK_FALSE(split.contains("ranges"));  // no range term: the JSON is as before ranges existed
}

TEST_CASE("A range term's JSON keeps its first phase and adds phase_to; its range is listed with its bounds",
          "[bubble_terms][interleaved]") {
  RunRequest req = request("interleaved-1f1b", 4, 8, Costs{1, 2, 0, 3, 0});
  req.params.virtual_stages = 2;
  const nlohmann::json j = to_json(run(req), Detail::summary);
  const nlohmann::json& split = j.at("per_rank").at(0).at("bubble_split");
  CHECK(split.at("terms").at(0) == nlohmann::json{{"text", "(PP-1-r)(F+B)"}, {"worked", "3*3 = 9"}, {"value", 9},
                                                  {"phase", "warm-up"}, {"phase_to", "cool-down"}});
  const nlohmann::json& range = split.at("ranges").at(0);
  CHECK(range.at("phase") == "warm-up");
  CHECK(range.at("phase_to") == "cool-down");
  CHECK(range.at("idle") == 9);
  CHECK(range.at("expected") == 9);
  CHECK(range.at("agrees") == true);
  CHECK(range.at("from") == split.at("phases").at(1).at("from"));
  CHECK(range.at("to") == split.at("phases").at(3).at("to"));
  CHECK(split.at("phases").at(2).at("in_range") == true);
  CHECK_FALSE(split.at("phases").at(0).contains("in_range"));
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
