// What the run summary tells every view, decided once in core: whether the closed form agrees with the
// simulation, each rank's utilisation, when memory peaks, the stages each rank holds, and for a
// refusal the field it is about (pipesim::Error::field), so no view recomputes or parses them.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "helpers.h"
#include "pipesim/cost_text.h"
#include "pipesim/costs.h"
#include "pipesim/error.h"
#include "pipesim/measure.h"
#include "pipesim/report.h"
#include "pipesim/run.h"
#include "pipesim/stage_costs.h"

using namespace pipesim;
using pipesim::test::run_unit;

namespace {

/// The field of the refusal `call` raises ("" if it returns, "<no error>" would hide a bug).
template <typename Call>
auto refused_field(Call call) -> std::string {
  try {
    call();
  } catch (const Error& e) {
    return e.field();
  }
  return "<returned>";
}

auto summary_request(std::string schedule, int ranks, int micro_batches, int virtual_stages = 1) -> RunRequest {
  RunRequest r;
  r.schedule = std::move(schedule);
  r.params = {ranks, micro_batches, virtual_stages};
  return r;
}

auto held(const RankMetrics& rm) -> std::string {
  std::string out;
  for (const HeldStage& h : rm.stages) out += (out.empty() ? "" : " ") + std::to_string(h.phase) + "/" + std::to_string(h.stage);
  return out;
}

}  // namespace

TEST_CASE("1F1B at unit costs: the closed form (p-1)(F+B) agrees with the simulation, utilisation is busy / makespan") {
  const Run r = run_unit("1f1b", 4, 8);
  REQUIRE(r.metrics.makespan == 33);  // (m + p - 1)(F + B)
  CHECK(r.formula.value == 9);
  CHECK(r.formula.simulated == 9);
  CHECK(r.formula.agrees);
  for (const RankMetrics& rm : r.metrics.per_rank) {
    CHECK(rm.busy == 24);
    CHECK(rm.utilisation == 24.0 / 33.0);
  }
  const nlohmann::json summary = to_json(r, Detail::summary);
  CHECK(summary["formula"]["agrees"] == true);
  CHECK(summary["formula"]["simulated"] == 9);
  CHECK(summary["per_rank"][0]["utilisation"] == 24.0 / 33.0);
}

TEST_CASE("a formula is compared on its own basis: Zero Bubble's over the span") {
  const Run r = run_unit("zb-h2", 4, 8);
  CHECK(r.formula.over_span);
  CHECK(r.formula.simulated == r.metrics.max_span_bubble);
  CHECK(r.formula.agrees == bubbles_agree(r.formula.value, r.metrics.max_span_bubble));
}

TEST_CASE("a closed form that does not hold at these costs does not agree, and the report says so") {
  RunRequest req = summary_request("1f1b", 4, 8);
  req.costs.comm = 1;
  const Run r = run(req);
  CHECK(r.formula.simulated == r.metrics.max_bubble);
  CHECK_FALSE(r.formula.agrees);
  CHECK(nlohmann::json(to_json(r, Detail::summary))["formula"]["agrees"] == false);
}

TEST_CASE("agreement is equality up to rounding, relative once the bubble exceeds 1") {
  CHECK(bubbles_agree(6, 6));
  CHECK(bubbles_agree(0.1 + 0.2, 0.3));
  CHECK(bubbles_agree(3e12, 3e12 * (1 + 1e-12)));
  CHECK_FALSE(bubbles_agree(6, 6.001));
  CHECK_FALSE(bubbles_agree(0, 1e-6));
  CHECK_FALSE(bubbles_agree(3e12, 3e12 + 1e4));
}

TEST_CASE("a schedule without a published closed form is compared with its stand-in value 0") {
  RunRequest req = summary_request("custom", 2, 1);
  req.custom_schedule = "0F0,0B0\n1F0,1B0\n";
  const Run r = run(req);
  REQUIRE_FALSE(r.formula.exact);
  CHECK(r.formula.value == 0);
  CHECK(r.formula.simulated == r.metrics.max_bubble);
  CHECK(r.formula.simulated > 0);
  CHECK_FALSE(r.formula.agrees);
}

TEST_CASE("1F1B: rank r peaks at p - r chunks, first reached when its last warm-up forward starts") {
  const Run r = run_unit("1f1b", 4, 8);
  // Rank 0 runs F0..F3 back to back from time 0; rank 3, the last, holds one chunk from its first F.
  CHECK(r.metrics.per_rank[0].peak_activations == 4);
  CHECK(r.metrics.per_rank[0].peak_at == 3);
  CHECK(r.metrics.per_rank[3].peak_activations == 1);
  CHECK(r.metrics.per_rank[3].peak_at == 3);
  CHECK(r.metrics.peak_activations == 4);
  CHECK(r.metrics.peak_at == 3);
  const nlohmann::json summary = to_json(r, Detail::summary);
  CHECK(summary["peak_at"] == 3);
  CHECK(summary["per_rank"][0]["peak_at"] == 3);
}

TEST_CASE("the peak time is where the activation curve first reaches its peak, on every schedule") {
  for (const char* name : {"dualpipe", "dualpipev", "gpipe", "zb-h1", "zb-h2", "zb-v", "chimera"}) {
    const Run r = run_unit(name, 4, 8);
    for (int rank = 0; rank < 4; ++rank) {
      INFO(name << " rank " << rank);
      const RankMetrics& rm = r.metrics.per_rank[static_cast<std::size_t>(rank)];
      double first = -1;
      for (const ActivationStep& step : activation_curve(r.schedule, r.timeline, rank))
        if (step.alive == rm.peak_activations) {
          first = step.time;
          break;
        }
      CHECK(rm.peak_at == first);
    }
  }
}

TEST_CASE("stages held: one per rank in 1F1B, both directions' in DualPipe, both legs of a V") {
  const Run one = run_unit("1f1b", 4, 8);
  for (int rank = 0; rank < 4; ++rank) CHECK(held(one.metrics.per_rank[static_cast<std::size_t>(rank)]) == "0/" + std::to_string(rank));
  const Run dual = run_unit("dualpipe", 4, 8);
  CHECK(held(dual.metrics.per_rank[0]) == "0/0 1/3");
  CHECK(held(dual.metrics.per_rank[3]).size() == 7);  // two of them
  const Run v = run_unit("zb-v", 4, 8);
  CHECK(held(v.metrics.per_rank[0]) == "0/0 1/7");
  const Run looped = run_unit("interleaved-1f1b", 4, 8, 2);
  CHECK(held(looped.metrics.per_rank[1]) == "0/1 1/5");
  for (const Run* r : {&one, &dual, &v, &looped})
    for (const RankMetrics& rm : r->metrics.per_rank) CHECK(static_cast<int>(rm.stages.size()) == rm.stages_held);
  const nlohmann::json summary = to_json(dual, Detail::summary);
  CHECK(summary["per_rank"][0]["stages"].dump() == R"([{"phase":0,"stage":0},{"phase":1,"stage":3}])");
}

TEST_CASE("a refusal names the field it is about") {
  CHECK(refused_field([] { (void)run(summary_request("dualpipe", 7, 20)); }) == "ranks");
  CHECK(refused_field([] { (void)run(summary_request("dualpipe", 8, 7)); }) == "micro_batches");
  CHECK(refused_field([] { (void)run(summary_request("chimera", 4, 6)); }) == "micro_batches");
  CHECK(refused_field([] { (void)run(summary_request("interleaved-1f1b", 4, 8, 1)); }) == "virtual_stages");
  CHECK(refused_field([] { (void)run(summary_request("1f1b", 4, 8, 2)); }) == "virtual_stages");
  CHECK(refused_field([] { (void)run(summary_request("1f1b", 0, 8)); }) == "ranks");
  CHECK(refused_field([] { (void)run(summary_request("1f1b", 4, 0)); }) == "micro_batches");
  CHECK(refused_field([] { (void)run(summary_request("gpipe", 4, 1000000000)); }) == "micro_batches");
  CHECK(refused_field([] { (void)run(summary_request("nope", 4, 8)); }) == "schedule");
}

TEST_CASE("a cost refusal names the cost, or the cost text when it is about no one key") {
  CHECK(refused_field([] { (void)parse_costs("F=x"); }) == "cost.F");
  CHECK(refused_field([] { (void)parse_costs("F=1,B=2,FB=5"); }) == "cost.FB");
  CHECK(refused_field([] { (void)parse_costs("B=1,W=2"); }) == "cost.W");
  CHECK(refused_field([] { (void)parse_costs("comm=-1"); }) == "cost.comm");
  CHECK(refused_field([] { (void)parse_costs("B=1e-9"); }) == "cost.B");
  CHECK(refused_field([] { (void)parse_costs("X=1"); }) == "cost");
  CHECK(refused_field([] { (void)parse_costs("F"); }) == "cost");
  CHECK(refused_field([] { (void)parse_costs("F=1,f=2"); }) == "cost");
  CHECK(refused_field([] { (void)parse_costs("F=0,B=0,W=0,FB=0"); }) == "cost");
}

TEST_CASE("per-stage costs and rank speeds are refused as such, not as the costs every stage starts from") {
  CHECK(refused_field([] { (void)parse_stage_cost("first"); }) == "stage_cost");
  CHECK(refused_field([] { (void)parse_stage_cost("0:F=x"); }) == "stage_cost");
  CHECK(refused_field([] { (void)parse_rank_speed("0:0"); }) == "rank_speed");
  CHECK(refused_field([] { (void)parse_rank_speed("x:1"); }) == "rank_speed");
  RunRequest stage = summary_request("1f1b", 4, 8);
  stage.per_stage.overrides.push_back(parse_stage_cost("9:F=2"));
  CHECK(refused_field([&] { (void)run(stage); }) == "stage_cost");
  RunRequest fb = summary_request("1f1b", 4, 8);
  fb.per_stage.overrides.push_back(parse_stage_cost("1:FB=9"));
  CHECK(refused_field([&] { (void)run(fb); }) == "stage_cost");
  RunRequest speed = summary_request("1f1b", 4, 8);
  speed.per_stage.rank_speeds.push_back(parse_rank_speed("5:0.5"));
  CHECK(refused_field([&] { (void)run(speed); }) == "rank_speed");
  RunRequest custom = summary_request("custom", 1, 1);
  custom.custom_schedule = "0F0,0X0";
  CHECK(refused_field([&] { (void)run(custom); }) == "custom_schedule");
}

TEST_CASE("the FB bounds are stated once: fb_range, which validate_costs checks") {
  CHECK(fb_range(1, 2).lo == 2);
  CHECK(fb_range(1, 2).hi == 3);
  CHECK(fb_range(3, 0.5).lo == 3);
  Costs c = default_costs();
  c.fb = fb_range(c.f, c.b).lo;
  CHECK_NOTHROW(validate_costs(c));
  c.fb = fb_range(c.f, c.b).hi;
  CHECK_NOTHROW(validate_costs(c));
  c.fb = fb_range(c.f, c.b).lo - 0.01;
  CHECK_THROWS_AS(validate_costs(c), Error);
}

TEST_CASE("read_costs gives the values a text writes, parse_costs also checks their bounds") {
  const Costs c = read_costs("F=1,B=6,W=1,FB=3");
  CHECK(c.b == 6);
  CHECK(c.fb == 3);
  CHECK(read_costs("f=2,b=3").fb == 5);
  CHECK(refused_field([] { (void)parse_costs("F=1,B=6,W=1,FB=3"); }) == "cost.FB");
  CHECK(refused_field([] { (void)read_costs("F=abc"); }) == "cost.F");
  CHECK(refused_field([] { (void)read_costs("Q=1"); }) == "cost");
}
