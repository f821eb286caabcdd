// The planner: cost model, one simulation per schedule, memory, and a recommendation with reasons.
#include <catch2/catch.hpp>

#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "cli_run.h"
#include "pipesim/error.h"
#include "pipesim/planner.h"
#include "pipesim/registry.h"

using nlohmann::json;

namespace {

auto example(const std::string& name) -> std::string {
  std::ifstream in(std::string(PIPESIM_DATA_DIR) + "/plan_examples/" + name);
  REQUIRE(in.good());
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

auto with(const std::string& text, const std::string& pointer, const json& value) -> std::string {
  json j = json::parse(text);
  j[json::json_pointer(pointer)] = value;
  return j.dump();
}

auto contains(const std::vector<std::string>& lines, const std::string& part) -> bool {
  for (const std::string& l : lines)
    if (l.find(part) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("a DeepSeek-V3-like input recommends dualpipe or dualpipev and explains why with its numbers") {
  const pipesim::Plan p = pipesim::plan(pipesim::parse_plan_input(example("deepseek-v3.json")));
  INFO(pipesim::render_plan_text(p));
  CHECK((p.recommended == "dualpipe" || p.recommended == "dualpipev"));
  REQUIRE(p.reasons.size() >= 3);
  CHECK(contains(p.reasons, "all-to-all over InfiniBand"));
  CHECK(contains(p.reasons, "F&B pairs"));
  // The reasons quote the plan's own numbers.
  const pipesim::PlanCandidate* pick = nullptr;
  for (const auto& c : p.ranked)
    if (c.schedule == p.recommended) pick = &c;
  REQUIRE(pick != nullptr);
  char total[32];
  std::snprintf(total, sizeof total, "%.1f GB", pick->total_gb);
  CHECK(contains(p.reasons, total));
  CHECK(pick->fits);
  CHECK(pick->overlapped_pairs > 0);
  // The report's computation-to-communication ratio of about 1:1 (§3.2.1) comes out of the cost model.
  CHECK(p.model_costs.a2a_forward_ms / p.model_costs.forward_ms == Approx(1).epsilon(0.2));
}

TEST_CASE("a small dense model on 8 GPUs is not recommended DualPipe") {
  const pipesim::Plan p = pipesim::plan(pipesim::parse_plan_input(example("small-dense.json")));
  INFO(pipesim::render_plan_text(p));
  CHECK_FALSE(p.recommended.empty());
  CHECK(p.recommended != "dualpipe");
  CHECK(p.recommended != "dualpipev");
  CHECK(contains(p.reasons, "dense model: no all-to-all to hide"));
  CHECK(p.model_costs.a2a_forward_ms == 0);
  for (const auto& c : p.ranked)
    if (c.schedule == "dualpipe") CHECK(c.costs.fb == Approx(c.costs.f + c.costs.b));  // nothing to overlap
}

TEST_CASE("the planner simulates every schedule of the registry or says why it does not apply") {
  const pipesim::Plan p = pipesim::plan(pipesim::parse_plan_input(example("deepseek-v3.json")));
  std::set<std::string> seen;
  for (const auto& c : p.ranked) seen.insert(c.schedule);
  for (const auto& [name, why] : p.not_applicable) {
    seen.insert(name);
    CHECK_FALSE(why.empty());
  }
  for (const auto* s : pipesim::schedules())
    if (s->parse == nullptr) CHECK(seen.count(std::string(s->name)) == 1);
  for (const std::string must : {"1f1b", "zb-h1", "dualpipe", "dualpipev"}) {
    bool ran = false;
    for (const auto& c : p.ranked) ran = ran || c.schedule == must;
    CHECK(ran);
  }
  // Ranked: schedules that fit first, each group by iteration time.
  for (std::size_t i = 1; i < p.ranked.size(); ++i) {
    const auto& a = p.ranked[i - 1];
    const auto& b = p.ranked[i];
    CHECK((a.fits > b.fits || (a.fits == b.fits && a.makespan_ms <= b.makespan_ms)));
  }
}

TEST_CASE("the planner's op costs follow the documented FLOP and all-to-all model") {
  const pipesim::PlanInput in = pipesim::parse_plan_input(example("deepseek-v3.json"));
  const auto split = pipesim::parameter_split(in.model);
  const auto mc = pipesim::model_costs(in, split);
  const double tokens = 4096;
  const double flops = tokens * (2 * 37e9 + 2.0 * 61 * 4096 * 7168);
  CHECK(mc.forward_flops == Approx(flops));
  CHECK(mc.forward_ms == Approx(flops / (989e12 * 0.4) * 1000));
  CHECK(mc.backward_ms == Approx(2 * mc.forward_ms));
  CHECK(mc.weight_ms == Approx(mc.forward_ms));
  // 58 MoE layers x tokens x top-8 x hidden x (1 byte dispatch + 2 bytes combine) over 50 GB/s.
  CHECK(mc.a2a_forward_ms == Approx(58 * tokens * 8 * 7168 * 3 / 50e9 * 1000));
  CHECK(mc.a2a_link == "InfiniBand");

  const pipesim::Plan p = pipesim::plan(in);
  for (const auto& c : p.ranked) {
    INFO(c.schedule);
    CHECK(c.costs.f == Approx((mc.forward_ms + mc.a2a_forward_ms) / c.stages));
    CHECK(c.costs.w == Approx(mc.weight_ms / c.stages));
    CHECK(c.costs.fb <= c.costs.f + c.costs.b + 1e-9);
    CHECK(c.costs.fb >= std::max(c.costs.f, c.costs.b) - 1e-9);
    CHECK(c.compute_fraction + c.bubble_fraction + c.overhead_fraction == Approx(1));
  }
}

TEST_CASE("parameter_split estimates DeepSeek-V3's active parameters from its shape") {
  pipesim::ModelSpec m = pipesim::parse_plan_input(example("deepseek-v3.json")).model;
  m.active_params = 0;
  const auto s = pipesim::parameter_split(m);
  CHECK(s.routed == Approx(58.0 * 256 * 3 * 7168 * 2048));
  CHECK(s.active / 1e9 == Approx(37).epsilon(0.03));  // report §4.2: 37B activated
}

TEST_CASE("the recommendation follows the numbers when memory gets tight") {
  const std::string tight = with(example("deepseek-v3.json"), "/cluster/gpu/memory_gb", 60);
  const pipesim::Plan p = pipesim::plan(pipesim::parse_plan_input(tight));
  INFO(pipesim::render_plan_text(p));
  for (const auto& c : p.ranked)
    if (c.schedule == "dualpipe") CHECK_FALSE(c.fits);
  CHECK(p.recommended == "dualpipev");
  CHECK(contains(p.reasons, "dualpipe would be faster"));

  const std::string tiny = with(example("deepseek-v3.json"), "/cluster/gpu/memory_gb", 10);
  const pipesim::Plan none = pipesim::plan(pipesim::parse_plan_input(tiny));
  CHECK(contains(none.reasons, "no schedule fits in 10.0 GB"));
}

TEST_CASE("bad plan input is one Error line naming the field and what is allowed") {
  const std::string ok = example("small-dense.json");
  CHECK_THROWS_WITH(pipesim::parse_plan_input("{"),
                    "plan input is not valid JSON; expected an object with \"cluster\", \"model\" and optional \"assumptions\"");
  json no_layers = json::parse(ok);
  no_layers["model"].erase("layers");
  CHECK_THROWS_WITH(pipesim::parse_plan_input(no_layers.dump()),
                    "plan input: model.layers is missing (a whole number from 1 to 100000)");
  CHECK_THROWS_WITH(pipesim::parse_plan_input(with(ok, "/model/layer", 3)),
                    Catch::StartsWith("plan input: unknown key model.layer; allowed keys are name, layers,"));
  CHECK_THROWS_WITH(pipesim::parse_plan_input(with(ok, "/model/pp", "four")),
                    "plan input: model.pp must be a whole number from 1 to 256, got \"four\"");
  CHECK_THROWS_WITH(pipesim::parse_plan_input(with(ok, "/model/pp", 3)),
                    "plan input: cluster.gpus (8) must be a multiple of model.pp (3)");
  CHECK_THROWS_WITH(pipesim::parse_plan_input(with(ok, "/cluster/gpu/tflops", -1)),
                    "plan input: cluster.gpu.tflops must be a number from 1 to 1000000, got -1");
  CHECK_THROWS_WITH(pipesim::parse_plan_input(with(ok, "/model/ep", 2)),
                    "plan input: model.ep applies only to MoE models (model.experts > 0)");
  CHECK_THROWS_AS(pipesim::parse_plan_input("[]"), pipesim::Error);
}

TEST_CASE("pipesim plan prints the plan and exits 2 with one line on bad input") {
  const std::string path = std::string(PIPESIM_DATA_DIR) + "/plan_examples/deepseek-v3.json";
  const auto ok = pipesim::test::run_cli("plan --input " + path + " --format json");
  REQUIRE(ok.status == 0);
  const json j = json::parse(ok.out);
  CHECK(j["recommendation"]["schedule"] == pipesim::plan_from_json(example("deepseek-v3.json"))["recommendation"]["schedule"]);
  CHECK(j["candidates"][0]["rank"] == 1);
  const auto text = pipesim::test::run_cli("plan --input " + path);
  CHECK(text.out.find("recommended: ") != std::string::npos);

  const auto missing = pipesim::test::run_cli("plan --input /nonexistent.json");
  CHECK(missing.status == 2);
  CHECK(missing.err == "pipesim: error: cannot read file '/nonexistent.json'\n");
  const auto bad = pipesim::test::run_cli("plan --input - < /dev/null");
  CHECK(bad.status == 2);
  CHECK(bad.err.find('\n') == bad.err.size() - 1);
}

TEST_CASE("every example input plans, and an MoE with its all-to-all inside a node is not sent to DualPipe") {
  for (const std::string name : {"deepseek-v3.json", "small-dense.json", "moe-one-node-ep.json"}) {
    INFO(name);
    const json j = pipesim::plan_from_json(example(name));
    CHECK_FALSE(j["recommendation"]["schedule"].get<std::string>().empty());
    CHECK_FALSE(j["recommendation"]["reasons"].empty());
  }
  const pipesim::Plan p = pipesim::plan(pipesim::parse_plan_input(example("moe-one-node-ep.json")));
  CHECK(p.model_costs.a2a_link == "NVLink");
  CHECK(p.model_costs.a2a_forward_ms < 0.1 * p.model_costs.forward_ms);
  CHECK(p.recommended != "dualpipe");
}
