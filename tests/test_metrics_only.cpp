// The engine's metrics-only path (simulate_metrics, run_metrics): what the planner's search reads of a
// run, measured as the ops run with no timeline kept, equal to measure() of the full run.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "detail/activation_steps.h"
#include "pipesim/error.h"
#include "pipesim/measure.h"
#include "pipesim/registry.h"
#include "pipesim/run.h"
#include "pipesim/simulate.h"
#include "pipesim/stage_costs.h"

using namespace pipesim;

namespace {

// Stages that differ (each its own F, B, W and FB) and a slow rank, so that every per-stage and
// per-rank path of the engine is taken; or the uniform costs.
auto uneven_costs(const Schedule& s) -> StageCosts {
  StageCosts c = uniform_stage_costs(Costs{1, 2, 1, 2.5, 0.25}, s.layout.stages, s.ranks());
  for (std::size_t k = 0; k < c.stages.size(); ++k) {
    const double scale = 1 + 0.375 * static_cast<double>(k % 3);
    c.stages[k] = Costs{scale, 2 * scale, scale, 2.5 * scale, 0.125 * static_cast<double>(k % 2)};
  }
  c.rank_speed.back() = 0.5;
  return c;
}

// The peak of rank r's live chunks weighed by their stage, from the kept timeline.
auto weighed_peak(const Schedule& s, const Timeline& t, int r, const std::vector<double>& weight) -> double {
  double peak = 0;
  detail::for_each_activation_step(
      s, t, r, [&](const Chunk& c) { return weight[static_cast<std::size_t>(c.stage)]; },
      [&](double, double held) { peak = std::max(peak, held); }, [](double, double) {});
  return peak;
}

void check_equal_to_full_run(const Schedule& s, const StageCosts& costs) {
  std::vector<double> weight;
  for (int k = 0; k < s.layout.stages; ++k) weight.push_back(1e6 * (k + 1));
  const Timeline t = simulate(s, costs);
  const Metrics full = measure(s, t);
  const RunSummary quick = simulate_metrics(s, costs, weight);
  CHECK(quick.makespan == full.makespan);
  CHECK(quick.bubble_fraction == full.bubble_fraction);
  CHECK(quick.peak_activations == full.peak_activations);
  REQUIRE(quick.per_rank.size() == full.per_rank.size());
  for (int r = 0; r < s.ranks(); ++r) {
    const auto ur = static_cast<std::size_t>(r);
    INFO("rank " << r);
    CHECK(quick.per_rank[ur].busy == full.per_rank[ur].busy);
    CHECK(quick.per_rank[ur].peak_activations == full.per_rank[ur].peak_activations);
    CHECK(quick.per_rank[ur].peak_weight == weighed_peak(s, t, r, weight));
  }
}

}  // namespace

TEST_CASE("the metrics-only path gives the full run's makespan, bubble, busy time and peaks for every schedule",
          "[metrics_only]") {
  int compared = 0;
  for (const ScheduleSpec* spec : schedules()) {
    if (spec->given_as_text) continue;  // given as text: covered below
    for (const int p : {1, 2, 3, 4, 8})
      for (const int m : {1, 2, 4, 8, 16, 20, 64})
        for (const int v : spec->uses_virtual_stages ? std::vector<int>{1, 2, 3} : std::vector<int>{1}) {
          Schedule s;
          try {
            s = build_schedule(spec->name, {p, m, v});
          } catch (const Error&) {
            continue;  // a size this schedule does not accept
          }
          INFO(spec->name << " p=" << p << " m=" << m << " v=" << v);
          check_equal_to_full_run(s, uniform_stage_costs(default_costs(), s.layout.stages, s.ranks()));
          check_equal_to_full_run(s, uneven_costs(s));
          ++compared;
        }
  }
  CHECK(compared > 100);
}

TEST_CASE("run_metrics takes a request as run() does, per-stage costs and schedules given as text included",
          "[metrics_only]") {
  RunRequest request;
  request.schedule = "dualpipe";
  request.params = {4, 8, 1};
  request.per_stage.overrides.push_back({{StageSelector::Kind::first, 0}, {2.0, 4.0, 2.0, std::nullopt, std::nullopt}});
  const Run full = run(request);
  const RunSummary quick = run_metrics(request);
  CHECK(quick.makespan == full.metrics.makespan);
  CHECK(quick.makespan == 36);  // tests/test_stage_costs.cpp derives this timeline by hand
  CHECK(quick.bubble_fraction == full.metrics.bubble_fraction);

  RunRequest custom;
  custom.schedule = "custom";
  custom.custom_schedule = "0F0,0F1,0B0,0B1\n1F0,1B0,1F1,1B1\n";
  CHECK(run_metrics(custom).makespan == run(custom).metrics.makespan);
}

TEST_CASE("the metrics-only path refuses what the full run refuses, with the same message", "[metrics_only]") {
  RunRequest request;
  request.schedule = "custom";
  request.custom_schedule = "0F0,0B0\n1B0,1F0\n";  // rank 1's backward waits for its own forward
  std::string full, quick;
  try {
    (void)run(request);
  } catch (const Error& e) {
    full = e.what();
  }
  try {
    (void)run_metrics(request);
  } catch (const Error& e) {
    quick = e.what();
  }
  CHECK_FALSE(full.empty());
  CHECK(quick == full);
  RunRequest bad;
  bad.costs.fb = 100;  // above F + B
  CHECK_THROWS_AS(run_metrics(bad), Error);
}
