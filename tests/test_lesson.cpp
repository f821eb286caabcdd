// The lesson's exercises, computed by the engine.
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "cli_run.h"
#include "helpers.h"
#include "pipesim/error.h"
#include "pipesim/lesson.h"
#include "pipesim/registry.h"

using nlohmann::json;
using pipesim::LessonRequest;
using pipesim::lesson_exercise;

namespace {

auto request_of(int n, const std::string& lang = "en", pipesim::Costs costs = pipesim::default_costs()) -> LessonRequest {
  LessonRequest r;
  r.exercise = n;
  r.language = lang;
  r.costs = costs;
  return r;
}

auto exercise(int n, const std::string& lang = "en", pipesim::Costs costs = pipesim::default_costs()) -> json {
  return lesson_exercise(pipesim::test::course_data(), request_of(n, lang, costs));
}

auto simulate(const std::string& schedule, int ranks, int micro_batches, const pipesim::Costs& costs) -> pipesim::Run {
  pipesim::RunRequest r;
  r.schedule = schedule;
  r.params = {ranks, micro_batches, 1};
  r.costs = costs;
  return pipesim::run(r);
}

auto busy(const pipesim::Run& r) -> double {
  double total = 0;
  for (const auto& rank : r.metrics.per_rank) total += rank.busy;
  return total;
}

}  // namespace

TEST_CASE("exercise 1 at the default costs equals what the engine computes") {
  const pipesim::Run dp = simulate("dualpipe", 8, 16, pipesim::default_costs());
  const pipesim::Run base = simulate("1f1b", 8, 16, pipesim::default_costs());
  REQUIRE(dp.metrics.makespan == 54);  // DualPipe README: bubble (8/2-1)(3+2-3) = 6 on 48 busy units
  REQUIRE(base.metrics.makespan == 69);  // 1F1B: (8-1)(1+2) = 21 on 48
  const double u_dp = busy(dp) / (8 * dp.metrics.makespan);
  const double u_base = busy(base) / (8 * base.metrics.makespan);

  const auto e = pipesim::recovered_gpu_hours(pipesim::default_costs());
  CHECK(e.utilisation_dualpipe == Approx(u_dp));
  CHECK(e.utilisation_1f1b == Approx(u_base));
  CHECK(e.utilisation_dualpipe == Approx(384.0 / 432));
  CHECK(e.utilisation_1f1b == Approx(384.0 / 552));
  CHECK(e.difference == Approx(u_dp - u_base));
  CHECK(e.baseline == Approx(0.18));  // 180K GPU-hours per trillion tokens
  CHECK(e.time_ratio == Approx(69.0 / 54));
  CHECK(e.time_ratio == Approx(u_dp / u_base));  // equal busy work: the two definitions agree
  CHECK(e.recovered == Approx(0.18 * (69.0 / 54 - 1)));
  CHECK(e.recovered == Approx(0.05));

  const json j = exercise(1);
  CHECK(j["result"]["recovered_gpu_hours_per_million_tokens"].get<double>() == Approx(e.recovered));
  CHECK(j["schedules"]["dualpipe"]["makespan"] == 54);
  CHECK(j["schedules"]["1f1b"]["makespan"] == 69);
}

TEST_CASE("exercise 1 changes when a cost changes") {
  const double at_default = pipesim::recovered_gpu_hours(pipesim::default_costs()).recovered;
  const auto overlap = pipesim::recovered_gpu_hours(pipesim::test::costs(1, 2, 1, 2.5));
  CHECK(overlap.recovered != Approx(at_default));
  CHECK(overlap.time_ratio == Approx(overlap.one_f_one_b.metrics.makespan / overlap.dualpipe.metrics.makespan));
  const auto slow_forward = pipesim::recovered_gpu_hours(pipesim::test::costs(2, 2, 1, 4));
  CHECK(slow_forward.recovered != Approx(at_default));
  const auto small_w = pipesim::recovered_gpu_hours(pipesim::test::costs(1, 2, 0.5, 3));
  CHECK(small_w.recovered != Approx(at_default));
  CHECK(exercise(1, "en", pipesim::test::costs(1, 2, 1, 2.5))["result"]["recovered_gpu_hours_per_million_tokens"].get<double>() ==
        Approx(overlap.recovered));
}

TEST_CASE("exercise 1 shows every step as a label, a formula and a value") {
  for (const std::string lang : {"en", "pt-BR", "zh-CN"}) {
    const json j = exercise(1, lang);
    REQUIRE(j["steps"].size() >= 10);
    for (const auto& s : j["steps"]) {
      CHECK_FALSE(s["label"].get<std::string>().empty());
      CHECK_FALSE(s["formula"].get<std::string>().empty());
      CHECK(s["value"].is_number());
    }
    CHECK(j["steps"].back()["key"] == "share_saved");
    CHECK(j["assumptions"].size() >= 4);
  }
  CHECK(exercise(1, "pt-BR")["answer"].get<std::string>().find("0,0500") != std::string::npos);
}

TEST_CASE("exercise 2 locates the first slot that runs both directions in the simulated timeline") {
  const auto r = simulate("dualpipe", 4, 8, pipesim::default_costs());
  const auto first = pipesim::first_two_direction_slot(r);
  REQUIRE(first.has_value());
  // No op that mixes directions starts earlier on any rank.
  for (std::size_t i = 0; i < r.schedule.ops.size(); ++i)
    if (r.schedule.ops[i].kind == pipesim::OpKind::FB) CHECK(r.timeline.start[i] >= first->start);
  CHECK(first->start == 7);
  CHECK(first->end == 10);
  CHECK(first->rank == 0);
  CHECK(first->forward.phase != first->backward.phase);
  CHECK(first->forward.mb == 3);
  CHECK(first->backward.mb == 1);

  const json j = exercise(2);
  CHECK(j["first_two_directions"]["start"] == 7);
  CHECK(j["first_two_directions"]["rank"] == 0);
  CHECK(j["makespan"] == 26);
  // The run it was read from, so a page can draw it without naming the schedule itself.
  CHECK(j["inputs"] == json{{"schedule", "dualpipe"}, {"ranks", 4}, {"micro_batches", 8}, {"cost", "F=1,B=2,W=1,FB=3,comm=0"}});
}

TEST_CASE("exercise 2's slot table covers every rank from time 0 to the makespan and never pairs two forwards") {
  const json j = exercise(2);
  REQUIRE(j["table"].size() == 4);
  for (const auto& row : j["table"]) {
    double now = 0;
    for (const auto& s : row["slots"]) {
      CHECK(s["start"].get<double>() == now);
      now = s["end"].get<double>();
      if (s["op"] == "FB") CHECK(s["forward"]["direction"] != s["backward"]["direction"]);
      if (s["op"] == "F") CHECK_FALSE(s.contains("backward"));
    }
    CHECK(now == j["makespan"].get<double>());
  }
  CHECK(j["grid"][0].get<std::string>().rfind("rank 0 |F0→ F1→ F2→ F0← I0← W0← F1← [F3→|B1←]", 0) == 0);
}

TEST_CASE("exercise 3 derives the second copy's bytes from sourced DeepSeek-V3 numbers and the engine's layout") {
  const auto e = pipesim::second_copy_cost(2, 80);
  CHECK(e.dense.stages_held == 2);
  CHECK(e.moe.stages_held == 2);
  CHECK(e.dense.extra_bytes == Approx(70e9 / 8 * 2));  // 17.5 GB
  CHECK(e.moe_layers == 58);
  CHECK(e.moe.routed == Approx(58.0 * 256 * 3 * 7168 * 2048));  // 653.9B
  const double per_gpu = (671e9 - e.moe.routed) / 16 + e.moe.routed / (16.0 * 64);
  CHECK(e.moe.stage_params_per_gpu == Approx(per_gpu));
  CHECK(e.moe.extra_bytes == Approx(per_gpu * 2));
  CHECK(e.moe.extra_bytes / 1e9 == Approx(3.414).epsilon(0.001));
  CHECK(e.moe.model_share < e.dense.model_share / 40);  // proportionally far cheaper
  CHECK(e.ratio == Approx(e.dense.extra_bytes / e.moe.extra_bytes));
  // Counting weights, gradients and optimizer state scales both cases alike.
  const auto full = pipesim::second_copy_cost(16, 80);
  CHECK(full.ratio == Approx(e.ratio));
  CHECK(full.moe.extra_bytes == Approx(8 * e.moe.extra_bytes));
}

TEST_CASE("exercise 4 compares DualPipe with Chimera when the registry has Chimera") {
  const json j = exercise(4);
  REQUIRE(j["statements"].size() >= 5);
  std::set<std::string> kinds;
  for (const auto& s : j["statements"]) {
    kinds.insert(s["kind"]);
    CHECK_FALSE(s["source"].get<std::string>().empty());
  }
  CHECK(kinds.count("adds") == 1);
  CHECK(kinds.count("no_longer_requires") == 1);
  bool has_chimera = false;
  for (const auto* s : pipesim::schedules()) has_chimera = has_chimera || s->name == "chimera";
  if (!has_chimera) {
    CHECK(j["engine"].is_null());
    return;
  }
  REQUIRE(j["engine"].size() == 3);
  for (const auto& row : j["engine"]) {
    CHECK(row["dualpipe"].contains("makespan"));
    const bool divisible = row["micro_batches"].get<int>() % 8 == 0;
    CHECK(row["chimera"].contains("makespan") == divisible);  // Chimera needs micro-batches divisible by stages
  }
}

TEST_CASE("every exercise renders in every language with no placeholder left") {
  for (int n = 1; n <= 4; ++n)
    for (const std::string lang : {"en", "pt-BR", "zh-CN"}) {
      INFO("exercise " << n << " in " << lang);
      const json j = exercise(n, lang);
      CHECK(j["language"] == lang);
      const std::string text = pipesim::render_lesson_text(pipesim::test::course_data(), lesson_exercise(pipesim::test::course_data(), request_of(n, lang)));
      CHECK(text.find(j["title"].get<std::string>()) == 0);
      CHECK(j["answer"].get<std::string>().find('{') == std::string::npos);
    }
}

TEST_CASE("pipesim lesson prints an exercise as JSON and refuses bad input with one line and exit 2") {
  const auto ok = pipesim::test::run_cli("lesson --exercise 1 --format json --cost F=1,B=2,W=1,FB=2.5");
  REQUIRE(ok.status == 0);
  CHECK(json::parse(ok.out)["result"]["recovered_gpu_hours_per_million_tokens"].get<double>() ==
        Approx(pipesim::recovered_gpu_hours(pipesim::test::costs(1, 2, 1, 2.5)).recovered));
  const auto bad = pipesim::test::run_cli("lesson --exercise 5");
  CHECK(bad.status == 2);
  CHECK(bad.err == "pipesim: error[bad_value]: --exercise must be a whole number from 1 to 4, got 5\n");
  LessonRequest r;
  r.exercise = 0;
  CHECK_THROWS_AS(lesson_exercise(pipesim::test::course_data(), r), pipesim::Error);
}
