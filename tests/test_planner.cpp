// The planner: cost model, one simulation per schedule, memory, and a recommendation with reasons.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <tuple>

#include "cli_run.h"
#include "helpers.h"
#include "detail/embedded.h"
#include "detail/i18n.h"
#include "pipesim/error.h"
#include "pipesim/model_stages.h"
#include "pipesim/planner.h"
#include "pipesim/registry.h"

using nlohmann::json;

namespace {

using pipesim::test::example;

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

/// The {name} placeholders of a text, filled or not.
// The ranked candidate the plan recommends, or nullptr.
auto recommended_candidate(const pipesim::Plan& p) -> const pipesim::PlanCandidate* {
  for (const auto& c : p.ranked)
    if (c.schedule == p.recommended) return &c;
  return nullptr;
}

// Gigabytes as the English reasons write them, e.g. "57.8 GB".
auto gb_text(double gb) -> std::string {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f GB", gb);
  return text;
}

auto placeholders(const std::string& text) -> std::set<std::string> {
  static const std::regex pattern(R"(\{[A-Za-z_][A-Za-z0-9_]*\})");
  std::set<std::string> out;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), pattern); it != std::sregex_iterator(); ++it)
    out.insert(it->str());
  return out;
}

/// Inputs that between them take every branch of the reasons the examples can reach: fastest and
/// as-fast-but-heavier (dense), lighter within tolerance and hidden all-to-all (DeepSeek-V3), all-to-all
/// inside a node, a faster schedule that does not fit, none that fits, and a second copy with EP.
auto language_cases() -> std::vector<std::pair<std::string, std::string>> {
  const std::string v3 = example("deepseek-v3.json");
  return {{"deepseek-v3", v3},
          {"small-dense", example("small-dense.json")},
          {"moe-one-node-ep", example("moe-one-node-ep.json")},
          {"60 GB", with(v3, "/cluster/gpu/memory_gb", 60)},
          {"10 GB", with(v3, "/cluster/gpu/memory_gb", 10)},
          {"tolerance 0", with(v3, "/assumptions/tolerance", 0)}};
}

}  // namespace

TEST_CASE("a DeepSeek-V3-like input recommends dualpipe or dualpipev and explains why with its numbers") {
  const pipesim::Plan p = pipesim::plan(pipesim::test::course_data(), pipesim::parse_plan_input(example("deepseek-v3.json")));
  INFO(pipesim::render_plan_text(pipesim::test::course_data(), p));
  CHECK((p.recommended == "dualpipe" || p.recommended == "dualpipev"));
  REQUIRE(p.reasons.size() >= 3);
  CHECK(contains(p.reasons, "all-to-all over InfiniBand"));
  CHECK(contains(p.reasons, "F&B pairs"));
  // The reasons quote the plan's own numbers.
  const pipesim::PlanCandidate* pick = recommended_candidate(p);
  REQUIRE(pick != nullptr);
  CHECK(contains(p.reasons, gb_text(pick->total_gb)));
  CHECK(pick->fits);
  CHECK(pick->overlapped_pairs > 0);
  // The report's computation-to-communication ratio of about 1:1 (§3.2.1) comes out of the cost model.
  CHECK(p.model_costs.a2a_forward_ms / p.model_costs.forward_ms == Approx(1).epsilon(0.2));
}

TEST_CASE("a small dense model: DualPipe spreads the LM head over two ranks, a V schedule puts it on rank 0 beside the embedding") {
  const pipesim::Plan p = pipesim::plan(pipesim::test::course_data(), pipesim::parse_plan_input(example("small-dense.json")));
  INFO(pipesim::render_plan_text(pipesim::test::course_data(), p));
  CHECK(contains(p.reasons, "dense model: no all-to-all to hide"));
  CHECK(p.model_costs.a2a_forward_ms == 0);
  const auto find = [&](const std::string& name) -> const pipesim::PlanCandidate& {
    for (const auto& c : p.ranked)
      if (c.schedule == name) return c;
    FAIL("no candidate " << name);
    return p.ranked.front();
  };
  const auto& dualpipe = find("dualpipe");
  const auto& zbv = find("zb-v");
  CHECK(dualpipe.costs.fb == Approx(dualpipe.costs.f + dualpipe.costs.b));  // nothing to overlap
  // The last stage carries the LM head: 2 x vocab x hidden x tokens FLOPs forward at 312 TFLOPS x 0.4.
  const double head_ms = 2.0 * 32000 * 4096 * 4096 / (312e12 * 0.4) * 1000;
  CHECK(zbv.stage_costs.back().f - zbv.stage_costs[1].f == Approx(head_ms));
  // ZB-V's rank 0 holds stage 0 and stage 7 (the V turns there), so every micro-batch's head and
  // embedding work is on one GPU: no schedule of that layout can be shorter than rank 0's work.
  const int micro_batches = 32;
  const auto work = [](const pipesim::Costs& c) { return c.f + c.b; };
  const double zbv_rank0 = micro_batches * (work(zbv.stage_costs.front()) + work(zbv.stage_costs.back()));
  CHECK(zbv.makespan_ms >= zbv_rank0);
  // DualPipe's rank 0 runs stage 0 for half the micro-batches and stage 3 (the head) for the other
  // half, rank 3 the mirror: the head's extra work is halved, and DualPipe ends before ZB-V's bound.
  CHECK(dualpipe.makespan_ms < zbv_rank0);
  CHECK(p.recommended == "dualpipe");
}

TEST_CASE("a schedule the planner cannot run keeps its refusal's code, rule and values for the page to word") {
  // DeepSeek-V3's example: 16 ranks, 120 micro-batches. Interleaved 1F1B needs a multiple of
  // max(1, 120 / 16) = 7 rounds and Chimera a multiple of its 16 stages: neither holds.
  const json j = pipesim::plan_from_json(pipesim::test::course_data(), example("deepseek-v3.json"), "zh-CN");
  std::map<std::string, json> by_schedule;
  for (const json& n : j["not_applicable"]) by_schedule[n["schedule"].get<std::string>()] = n;
  REQUIRE(by_schedule.size() == 2);
  const json& interleaved = by_schedule.at("interleaved-1f1b");
  CHECK(interleaved["code"] == "schedule_rule");
  CHECK(interleaved["field"] == "micro_batches");
  CHECK(interleaved["wording"]["key"] == "interleaved.micro_batches");
  CHECK(interleaved["wording"]["params"] == json{{"ranks", "16"}, {"micro_batches", "120"}, {"virtual_stages", "2"}, {"rounds", "7"}});
  // The English message stays: the CLI prints it, and the page in English shows it as it is.
  CHECK(interleaved["reason"].get<std::string>().rfind("interleaved-1f1b needs micro-batches to be a multiple of the rounds", 0) == 0);
  const json& chimera = by_schedule.at("chimera");
  CHECK(chimera["code"] == "schedule_rule");
  CHECK(chimera["wording"]["key"] == "chimera.micro_batches");
  CHECK(chimera["wording"]["params"]["micro_batches"] == "120");
  CHECK(chimera["wording"]["params"]["ranks"] == "16");
}

TEST_CASE("the planner simulates every schedule of the registry or says why it does not apply") {
  const pipesim::Plan p = pipesim::plan(pipesim::test::course_data(), pipesim::parse_plan_input(example("deepseek-v3.json")));
  std::set<std::string> seen;
  for (const auto& c : p.ranked) seen.insert(c.schedule);
  for (const pipesim::NotApplicable& n : p.not_applicable) {
    seen.insert(n.schedule);
    CHECK_FALSE(n.reason.empty());
  }
  for (const auto* s : pipesim::schedules())
    if (!s->given_as_text) CHECK(seen.count(std::string(s->name)) == 1);
  for (const std::string must : {"1f1b", "zb-h1", "dualpipe", "dualpipev"}) {
    bool ran = false;
    for (const auto& c : p.ranked) ran = ran || c.schedule == must;
    CHECK(ran);
  }
  // Ranked: schedules that fit first, each group by iteration time (the makespan and the all-reduce).
  for (std::size_t i = 1; i < p.ranked.size(); ++i) {
    const auto& a = p.ranked[i - 1];
    const auto& b = p.ranked[i];
    CHECK((a.fits > b.fits || (a.fits == b.fits && a.iteration_ms <= b.iteration_ms)));
  }
  for (const auto& c : p.ranked) CHECK(c.iteration_ms == c.makespan_ms + c.allreduce_ms);
}

TEST_CASE("the planner's op costs follow the documented FLOP and all-to-all model") {
  const pipesim::PlanInput in = pipesim::parse_plan_input(example("deepseek-v3.json"));
  const auto split = pipesim::parameter_split(in.model);
  const auto mc = pipesim::model_costs(in, split);
  const double tokens = 4096;
  // 2 FLOPs per token of every matmul parameter: the 37B active less the input embedding (the default
  // 32000 x 7168 vocabulary), which is a lookup.
  const double embedding = 32000.0 * 7168;
  const double flops = tokens * (2 * (37e9 - embedding) + 2.0 * 61 * 4096 * 7168);
  CHECK(mc.forward_flops == Approx(flops));
  const double matmul_ms = flops / (989e12 * 0.4) * 1000;
  // The lookup moves bytes over 3350 GB/s of HBM: the gather reads bf16 weights and writes FP8
  // activations (2 + 1 bytes a value), the scatter-add reads FP8 gradients and reads and writes fp32
  // weight gradients (1 + 2 x 4 bytes).
  const double gather_ms = tokens * 7168 * 3 / 3350e9 * 1000;
  const double scatter_ms = tokens * 7168 * 9 / 3350e9 * 1000;
  CHECK(mc.forward_ms == Approx(matmul_ms + gather_ms));
  CHECK(mc.backward_ms == Approx(2 * matmul_ms + scatter_ms));
  CHECK(mc.weight_ms == Approx(matmul_ms + scatter_ms));
  // 58 MoE layers x tokens x top-8 x hidden x (1 byte dispatch + 2 bytes combine) over 50 GB/s.
  CHECK(mc.a2a_forward_ms == Approx(58 * tokens * 8 * 7168 * 3 / 50e9 * 1000));
  CHECK(mc.a2a_link == "InfiniBand");

  const pipesim::Plan p = pipesim::plan(pipesim::test::course_data(), in);
  for (const auto& c : p.ranked) {
    INFO(c.schedule);
    CHECK(c.costs.f == Approx((mc.forward_ms + mc.a2a_forward_ms) / c.stages));
    CHECK(c.costs.w == Approx(mc.weight_ms / c.stages));
    // The engine timed each stage with its own costs, and the stages add up to the whole model.
    REQUIRE(c.stage_costs.size() == static_cast<std::size_t>(c.stages));
    double forward = 0;
    for (const auto& sc : c.stage_costs) forward += sc.f;
    CHECK(forward == Approx(mc.forward_ms + mc.a2a_forward_ms));
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
  // Between DualPipeV's heaviest rank (61.1 GB: rank 2, whose stages hold two of the 61 layers each,
  // its chunks weighed by their own stages' activations) and DualPipe's (72.9 GB, two copies).
  const std::string tight = with(example("deepseek-v3.json"), "/cluster/gpu/memory_gb", 65);
  const pipesim::Plan p = pipesim::plan(pipesim::test::course_data(), pipesim::parse_plan_input(tight));
  INFO(pipesim::render_plan_text(pipesim::test::course_data(), p));
  const pipesim::PlanCandidate* dualpipe = nullptr;
  const pipesim::PlanCandidate* dualpipev = nullptr;
  for (const auto& c : p.ranked) {
    if (c.schedule == "dualpipe") dualpipe = &c;
    if (c.schedule == "dualpipev") dualpipev = &c;
  }
  REQUIRE(dualpipe != nullptr);
  REQUIRE(dualpipev != nullptr);
  CHECK_FALSE(dualpipe->fits);
  CHECK(p.recommended == "dualpipev");
  // DualPipe's pipeline ends sooner, but each rank all-reduces the gradients of its two copies: its
  // iteration is the longer, so no reason calls it faster.
  CHECK(dualpipe->makespan_ms < dualpipev->makespan_ms);
  CHECK(dualpipe->iteration_ms > dualpipev->iteration_ms);
  CHECK_FALSE(contains(p.reasons, "dualpipe would be faster"));
  // Below DualPipeV's 61.1 GB it is the faster schedule that does not fit.
  const pipesim::Plan tighter = pipesim::plan(pipesim::test::course_data(),
                                              pipesim::parse_plan_input(with(example("deepseek-v3.json"), "/cluster/gpu/memory_gb", 60)));
  CHECK(tighter.recommended != "dualpipev");
  CHECK(contains(tighter.reasons, "dualpipev would be faster"));

  const std::string tiny = with(example("deepseek-v3.json"), "/cluster/gpu/memory_gb", 10);
  const pipesim::Plan none = pipesim::plan(pipesim::test::course_data(), pipesim::parse_plan_input(tiny));
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

TEST_CASE("a plan input refusal carries its rule and values so the page can word it in any language") {
  const std::string ok = example("small-dense.json");
  const auto wording_of = [](const std::string& input) -> pipesim::Wording {
    try {
      (void)pipesim::parse_plan_input(input);
    } catch (const pipesim::Error& e) {
      return e.wording();
    }
    FAIL("accepted: " << input);
    return {};
  };
  using Params = std::vector<std::pair<std::string, std::string>>;
  json no_layers = json::parse(ok);
  no_layers["model"].erase("layers");
  CHECK(wording_of("{").key == "plan.not_json");
  CHECK(wording_of("[]").key == "plan.input_not_object");
  CHECK(wording_of(with(ok, "/model", 3)).key == "plan.not_object");
  CHECK(wording_of(with(ok, "/model", 3)).params == Params{{"name", "model"}});
  CHECK(wording_of(no_layers.dump()).key == "plan.missing_whole");
  CHECK(wording_of(no_layers.dump()).params == Params{{"name", "model.layers"}, {"min", "1"}, {"max", "100000"}});
  CHECK(wording_of(with(ok, "/model/layer", 3)).key == "plan.unknown_key");
  CHECK(wording_of(with(ok, "/model/pp", "four")).params ==
        Params{{"name", "model.pp"}, {"min", "1"}, {"max", "256"}, {"value", "\"four\""}});
  CHECK(wording_of(with(ok, "/model/pp", "four")).key == "plan.range_whole");
  CHECK(wording_of(with(ok, "/cluster/gpu/tflops", -1)).key == "plan.range_number");
  CHECK(wording_of(with(ok, "/model/pp", 3)).params == Params{{"gpus", "8"}, {"pp", "3"}});
  CHECK(wording_of(with(ok, "/model/ep", 2)).key == "plan.ep_needs_experts");
}

TEST_CASE("pipesim plan prints the plan and exits 2 with one line on bad input") {
  const std::string path = std::string(PIPESIM_DATA_DIR) + "/plan_examples/deepseek-v3.json";
  const auto ok = pipesim::test::run_cli("plan --input " + path + " --format json");
  REQUIRE(ok.status == 0);
  const json j = json::parse(ok.out);
  CHECK(j["recommendation"]["schedule"] == json(pipesim::plan_from_json(pipesim::test::course_data(), example("deepseek-v3.json")))["recommendation"]["schedule"]);
  CHECK(j["candidates"][0]["rank"] == 1);
  const auto text = pipesim::test::run_cli("plan --input " + path);
  CHECK(text.out.find("recommended: ") != std::string::npos);

  const auto missing = pipesim::test::run_cli("plan --input /nonexistent.json");
  CHECK(missing.status == 2);
  CHECK(missing.err == "pipesim: error[io]: cannot read --input '/nonexistent.json': No such file or directory\n");
  const auto bad = pipesim::test::run_cli("plan --input - < /dev/null");
  CHECK(bad.status == 2);
  CHECK(bad.err.find('\n') == bad.err.size() - 1);
}

TEST_CASE("every example input plans, and an MoE with its all-to-all inside a node is not sent to DualPipe") {
  for (const std::string name : {"deepseek-v3.json", "small-dense.json", "moe-one-node-ep.json"}) {
    INFO(name);
    const json j = pipesim::plan_from_json(pipesim::test::course_data(), example(name));
    CHECK_FALSE(j["recommendation"]["schedule"].get<std::string>().empty());
    CHECK_FALSE(j["recommendation"]["reasons"].empty());
  }
  const pipesim::Plan p = pipesim::plan(pipesim::test::course_data(), pipesim::parse_plan_input(example("moe-one-node-ep.json")));
  CHECK(p.model_costs.a2a_link == "NVLink");
  CHECK(p.model_costs.a2a_forward_ms < 0.1 * p.model_costs.forward_ms);
  CHECK(p.recommended != "dualpipe");
}

TEST_CASE("the same plan in every language has the same numbers and recommendation, and its own words") {
  for (const auto& [name, input] : language_cases()) {
    const json en = pipesim::plan_from_json(pipesim::test::course_data(), input, "en");
    const auto& en_reasons = en["recommendation"]["reasons"];
    CHECK(en["language"] == "en");
    for (const std::string lang : {"pt-BR", "zh-CN"}) {
      INFO(name << " in " << lang);
      const json j = pipesim::plan_from_json(pipesim::test::course_data(), input, lang);
      CHECK(j["language"] == lang);
      CHECK(j["input"] == en["input"]);
      CHECK(j["candidates"] == en["candidates"]);
      CHECK(j["not_applicable"] == en["not_applicable"]);  // the schedules' own refusals, quoted as they are
      json estimates = j["estimates"];
      json en_estimates = en["estimates"];
      CHECK(estimates["units"] != en_estimates["units"]);
      estimates.erase("units");
      en_estimates.erase("units");
      CHECK(estimates == en_estimates);
      CHECK(j["recommendation"]["schedule"] == en["recommendation"]["schedule"]);
      const auto& reasons = j["recommendation"]["reasons"];
      REQUIRE(reasons.size() == en_reasons.size());
      REQUIRE_FALSE(reasons.empty());
      for (std::size_t i = 0; i < reasons.size(); ++i) {
        const std::string r = reasons[i].get<std::string>();
        INFO(r);
        CHECK_FALSE(r.empty());
        CHECK(placeholders(r).empty());
        CHECK(r != en_reasons[i].get<std::string>());
      }
    }
    for (const auto& r : en_reasons) CHECK(placeholders(r.get<std::string>()).empty());
  }
}

TEST_CASE("the planner's reasons use the course's terms and write numbers the language's way") {
  const std::string input = example("deepseek-v3.json");
  const pipesim::Plan en = pipesim::plan(pipesim::test::course_data(), pipesim::parse_plan_input(input));
  const pipesim::PlanCandidate* pick = recommended_candidate(en);
  REQUIRE(pick != nullptr);
  const std::string total = gb_text(pick->total_gb);
  std::string total_pt = total;
  std::replace(total_pt.begin(), total_pt.end(), '.', ',');

  const auto pt = json(pipesim::plan_from_json(pipesim::test::course_data(), input, "pt-BR"))["recommendation"]["reasons"].get<std::vector<std::string>>();
  const auto zh = json(pipesim::plan_from_json(pipesim::test::course_data(), input, "zh-CN"))["recommendation"]["reasons"].get<std::vector<std::string>>();
  CHECK(contains(pt, "bolha"));  // quiz_bank.json and lesson_text.json: bubble = bolha / 气泡
  CHECK(contains(zh, "气泡"));
  CHECK(contains(pt, "pares F&B"));
  CHECK(contains(zh, "F&B 对"));
  CHECK(contains(pt, total_pt));  // 57,8 GB
  CHECK_FALSE(contains(pt, total));
  CHECK(contains(zh, total));
}

TEST_CASE("every planner text exists in every course language with the same placeholders") {
  const json text = json::parse(pipesim::detail::embedded_planner_text());
  int entries = 0;
  for (const auto& section : text.items()) {
    if (!section.value().is_object()) continue;  // $comment, version, languages
    for (const auto& entry : section.value().items()) {
      INFO(section.key() << "." << entry.key());
      ++entries;
      std::set<std::string> en;
      for (std::string_view lang : pipesim::detail::course_languages) {
        INFO(lang);
        const std::string t = pipesim::detail::pick(entry.value(), lang, entry.key());
        if (lang == "en") en = placeholders(t);
        else CHECK(placeholders(t) == en);
      }
    }
  }
  CHECK(entries >= 30);
}

TEST_CASE("the text view is translated and its table lines up in every language") {
  pipesim::PlanInput in = pipesim::parse_plan_input(example("deepseek-v3.json"));
  const std::string en = pipesim::render_plan_text(pipesim::test::course_data(), pipesim::plan(pipesim::test::course_data(), in));
  const std::map<std::string, std::string> recommended = {{"pt-BR", "\nrecomendado: "}, {"zh-CN", "\n推荐："}};
  for (const auto& [lang, heading] : recommended) {
    INFO(lang);
    in.language = lang;
    const pipesim::Plan p = pipesim::plan(pipesim::test::course_data(), in);
    const std::string text = pipesim::render_plan_text(pipesim::test::course_data(), p);
    CHECK(text != en);
    CHECK(text.find(heading) != std::string::npos);
    CHECK(placeholders(text).empty());
    // The table starts after the first blank line and ends at the not-applicable lines.
    std::istringstream lines(text.substr(text.find("\n\n") + 2));
    std::set<std::size_t> widths;
    std::size_t rows = 0;
    for (std::string line; std::getline(lines, line) && line.rfind("     ", 0) != 0 && !line.empty(); ++rows)
      widths.insert(pipesim::detail::columns(line));
    CHECK(rows == 1 + p.ranked.size());
    CHECK(widths.size() == 1);
  }
}

TEST_CASE("the plan's language comes from the input's \"language\" and is checked") {
  const std::string ok = example("small-dense.json");
  const pipesim::Plan zh = pipesim::plan(pipesim::test::course_data(), pipesim::parse_plan_input(with(ok, "/language", "zh-CN")));
  CHECK(zh.input.language == "zh-CN");
  CHECK(json(zh.reasons) == json(pipesim::plan_from_json(pipesim::test::course_data(), ok, "zh-CN"))["recommendation"]["reasons"]);
  CHECK(pipesim::parse_plan_input(ok).language == "en");
  // The explicit language wins over the input's.
  CHECK(pipesim::plan_from_json(pipesim::test::course_data(), with(ok, "/language", "zh-CN"), "en") == pipesim::plan_from_json(pipesim::test::course_data(), ok));

  // An unknown language is unknown_name, as for --lang and on every other surface.
  CHECK_THROWS_MATCHES(pipesim::parse_plan_input(with(ok, "/language", "fr")), pipesim::Error,
                       pipesim::test::Refused(pipesim::ErrorCode::unknown_name,
                                              "plan input: unknown language 'fr'; languages are en, pt-BR, zh-CN"));
  CHECK_THROWS_MATCHES(pipesim::parse_plan_input(with(ok, "/language", 1)), pipesim::Error,
                       pipesim::test::Refused(pipesim::ErrorCode::bad_value, "plan input: language must be a string like \"pt-BR\", got 1"));
  CHECK_THROWS_WITH(pipesim::plan_from_json(pipesim::test::course_data(), ok, "pt"), "unknown language 'pt'; languages are en, pt-BR, zh-CN");
  pipesim::PlanInput in = pipesim::parse_plan_input(ok);
  in.language = "EN";
  CHECK_THROWS_WITH(pipesim::plan(pipesim::test::course_data(), in), "unknown language 'EN'; languages are en, pt-BR, zh-CN");
}

TEST_CASE("pipesim plan --lang explains in that language, over the input's own") {
  const std::string path = std::string(PIPESIM_DATA_DIR) + "/plan_examples/deepseek-v3.json";
  const auto pt = pipesim::test::run_cli("plan --input " + path + " --lang pt-BR --format json");
  REQUIRE(pt.status == 0);
  const json j = json::parse(pt.out);
  CHECK(j["language"] == "pt-BR");
  CHECK(j["recommendation"] == json(pipesim::plan_from_json(pipesim::test::course_data(), example("deepseek-v3.json"), "pt-BR"))["recommendation"]);

  const auto zh = pipesim::test::run_cli("plan --input " + path + " --lang zh-CN");
  REQUIRE(zh.status == 0);
  CHECK(zh.out.find("\n推荐：") != std::string::npos);
  CHECK(zh.out.find("recommended:") == std::string::npos);

  const std::string chinese_input = pipesim::test::write_scratch("plan_zh.json", with(example("deepseek-v3.json"), "/language", "zh-CN"));
  const auto from_file = pipesim::test::run_cli("plan --input " + chinese_input);
  CHECK(from_file.out.find("\n推荐：") != std::string::npos);
  const auto overridden = pipesim::test::run_cli("plan --input " + chinese_input + " --lang en");
  CHECK(overridden.out.find("\nrecommended: ") != std::string::npos);
  std::remove(chinese_input.c_str());

  pipesim::test::check_refused("plan --input " + path + " --lang fr", pipesim::ErrorCode::unknown_name, "unknown language 'fr'; languages are en, pt-BR, zh-CN");
}

TEST_CASE("the planner's search runs every schedule, pipeline size, virtual stages and lighter ends on the one path",
          "[planner][search]") {
  const pipesim::PlanInput in = pipesim::parse_plan_input(example("small-dense.json"));
  pipesim::PlanSearch search;
  search.pp = {2, 4, 8};
  search.virtual_stages = {2};
  search.lighter_ends = {0, 1};
  std::size_t calls = 0, last_total = 0;
  const pipesim::SearchResult r = pipesim::plan_search(in, search, 1000, [&](std::size_t done, std::size_t total) {
    CHECK(done == ++calls);
    last_total = total;
    return true;
  });
  // 9 schedules x 3 pipeline sizes x 2 layouts: each combination is run or refused, and reported once.
  CHECK(last_total == 9 * 3 * 2);
  CHECK(calls == last_total);
  CHECK(r.configurations + r.refused == last_total);
  CHECK(r.configurations > 30);
  // The sequences per iteration stay the input's 32 x 2 replicas: 8 GPUs at pp 2 give 4 replicas and 16
  // micro-batches, at pp 8 one replica and 64.
  for (const auto& p : r.best) CHECK(p.micro_batches * (8 / p.pp) == 64);
  // Fitting first, then by iteration time: the makespan and the data-parallel all-reduce after it.
  for (std::size_t i = 1; i < r.best.size(); ++i) {
    const auto& a = r.best[i - 1];
    const auto& b = r.best[i];
    CHECK((a.fits > b.fits || (a.fits == b.fits && a.iteration_ms <= b.iteration_ms)));
  }
  for (const auto& p : r.best) CHECK(p.iteration_ms == p.makespan_ms + p.allreduce_ms);
  // Each configuration equals the full run of the same configuration (the plan at that size).
  const pipesim::Plan full = pipesim::plan(pipesim::test::course_data(), in);
  bool found = false;
  for (const auto& p : r.best)
    if (p.pp == 4 && p.layers_per_stage == std::vector<int>{8, 8, 8, 8})
      for (const auto& c : full.ranked)
        if (c.schedule == p.schedule && c.virtual_stages == p.virtual_stages) {
          INFO(p.schedule);
          CHECK(p.makespan_ms == c.makespan_ms);
          CHECK(p.bubble_fraction == c.bubble_fraction);
          CHECK(p.peak_gb == Approx(c.total_gb).epsilon(1e-12));
          CHECK(p.fits == c.fits);
          found = true;
        }
  CHECK(found);
  // Lighter ends: 1F1B on 4 ranks with one layer fewer on each end, 7, 9, 9, 7.
  bool lighter = false;
  for (const auto& p : r.best) lighter = lighter || (p.schedule == "1f1b" && p.layers_per_stage == std::vector<int>{7, 9, 9, 7});
  CHECK(lighter);
}

TEST_CASE("a configuration that reuses the last one's schedule is priced as if its schedule were its own",
          "[planner][search]") {
  // A search over several values of each axis reuses a schedule between consecutive combinations that
  // differ only in layers per stage; a search with one value per axis never reuses one (each schedule
  // comes once). Every point of the first must equal the same point of the second kind.
  const pipesim::PlanInput in = pipesim::parse_plan_input(example("small-dense.json"));
  const auto search = [&](std::vector<int> pp, std::vector<int> v, std::vector<int> lighter_ends) {
    pipesim::PlanSearch s;
    s.pp = std::move(pp);
    s.virtual_stages = std::move(v);
    s.lighter_ends = std::move(lighter_ends);
    return pipesim::plan_search(in, s, 1000).best;
  };
  const auto key = [](const pipesim::SearchPoint& p) { return std::tuple(p.schedule, p.pp, p.virtual_stages, p.lighter_ends); };
  std::map<decltype(key(pipesim::SearchPoint{})), pipesim::SearchPoint> alone;
  for (const int pp : {2, 4, 8})
    for (const int v : {2, 4})
      for (const int lighter : {0, 1})
        for (const pipesim::SearchPoint& p : search({pp}, {v}, {lighter})) alone.emplace(key(p), p);
  int compared = 0;
  for (const std::vector<int>& lighter_ends : {std::vector<int>{0, 1}, std::vector<int>{1, 0}})
    for (const pipesim::SearchPoint& p : search({2, 4, 8}, {2, 4}, lighter_ends)) {
      INFO(p.schedule << " pp " << p.pp << " v " << p.virtual_stages << " lighter ends " << p.lighter_ends);
      const auto own = alone.find(key(p));
      REQUIRE(own != alone.end());
      const pipesim::SearchPoint& q = own->second;
      CHECK(p.layers_per_stage == q.layers_per_stage);
      CHECK(p.stage_costs == q.stage_costs);
      CHECK(p.makespan_ms == q.makespan_ms);
      CHECK(p.bubble_fraction == q.bubble_fraction);
      CHECK(p.allreduce_ms == q.allreduce_ms);
      CHECK(p.peak_gb == q.peak_gb);
      CHECK(p.fits == q.fits);
      ++compared;
    }
  CHECK(compared == 2 * static_cast<int>(alone.size()));
  CHECK(alone.size() > 30);
}

TEST_CASE("the planner's search stops when its progress says so and refuses a bad list, naming it", "[planner][search]") {
  const pipesim::PlanInput in = pipesim::parse_plan_input(example("small-dense.json"));
  std::size_t calls = 0;
  const auto r = pipesim::plan_search(in, {}, 10, [&](std::size_t, std::size_t) { return ++calls < 5; });
  CHECK(calls == 5);
  CHECK(r.configurations + r.refused == 5);
  pipesim::PlanSearch bad;
  bad.pp = {0};
  CHECK_THROWS_WITH(pipesim::plan_search(in, bad, 10), "plan search: pp must list whole numbers from 1 to 4096, got 0");
}

TEST_CASE("pipesim plan --search prints the search's fastest configurations, as plan_search ranks them", "[planner][search][cli]") {
  const std::string path = std::string(PIPESIM_DATA_DIR) + "/plan_examples/small-dense.json";
  const auto r = pipesim::test::run_cli("plan --input " + path + " --search --format json");
  REQUIRE(r.status == 0);
  const json j = json::parse(r.out);
  const pipesim::SearchResult direct = pipesim::plan_search(pipesim::parse_plan_input(example("small-dense.json")), {}, 20);
  CHECK(j == json(pipesim::search_json(direct)));
  CHECK(j["best"].size() == 20);
  CHECK(j["configurations"].get<std::size_t>() + j["refused"].get<std::size_t>() > 0);
}

TEST_CASE("the ring all-reduce moves 2 (d - 1) / d of the bytes over the link", "[planner][search]") {
  CHECK(pipesim::ring_allreduce_ms(1e9, 4, 100) == Approx(15.0).epsilon(1e-12));  // 1.5 x 1 GB / 100 GB/s
  CHECK(pipesim::ring_allreduce_ms(1e9, 2, 100) == Approx(10.0).epsilon(1e-12));
  CHECK(pipesim::ring_allreduce_ms(1e9, 1, 100) == 0);  // one replica: nothing to reduce
  CHECK(pipesim::ring_allreduce_ms(0, 8, 100) == 0);
}

TEST_CASE("at pipeline size 1 the search gives one row without pipeline parallelism, whatever the schedules",
          "[planner][search]") {
  const pipesim::PlanInput in = pipesim::parse_plan_input(example("small-dense.json"));
  pipesim::PlanSearch search;
  search.pp = {1};
  search.micro_batch_size = {1, 2};
  std::size_t last_total = 0;
  const auto r = pipesim::plan_search(in, search, 100, [&](std::size_t, std::size_t total) {
    last_total = total;
    return true;
  });
  // One configuration per micro-batch size, not one per schedule, virtual stages or layout.
  CHECK(last_total == 2);
  CHECK(r.configurations == 2);
  CHECK(r.refused == 0);
  REQUIRE(r.best.size() == 2);
  for (const auto& p : r.best) {
    CHECK_FALSE(p.pipeline);
    CHECK(p.pp == 1);
    CHECK(p.virtual_stages == 1);
    CHECK(p.lighter_ends == 0);
    CHECK(p.layers_per_stage == std::vector<int>{32});
    CHECK(p.bubble_fraction == 0);
    // 8 replicas of the whole model: 64 sequences per iteration, 8 per GPU.
    CHECK(p.micro_batches * p.micro_batch_size == 8);
  }
  // The search's default axes (every divisor of 8 GPUs) give pp 1 once too.
  const auto all = pipesim::plan_search(in, {}, 1000);
  CHECK(std::count_if(all.best.begin(), all.best.end(), [](const auto& p) { return p.pp == 1; }) == 1);
  for (const auto& p : all.best) CHECK(p.pipeline == (p.pp > 1));
}

TEST_CASE("the search runs no layout twice: every row differs in schedule, sizes or layers per stage", "[planner][search]") {
  for (const char* name : {"small-dense.json", "moe-one-node-ep.json"}) {
    INFO(name);
    const auto r = pipesim::plan_search(pipesim::parse_plan_input(example(name)), {}, 10'000);
    std::set<std::string> keys;
    for (const auto& p : r.best) {
      std::string key = p.schedule + " " + std::to_string(p.pp) + " " + std::to_string(p.micro_batch_size) + " " +
                        std::to_string(p.virtual_stages);
      for (const int l : p.layers_per_stage) key += " " + std::to_string(l);
      CHECK(keys.insert(key).second);
    }
    CHECK(r.best.size() == r.configurations);
  }
}

TEST_CASE("the search prices the data-parallel all-reduce of each rank's gradients over the replicas' link",
          "[planner][search]") {
  const std::string dense = example("small-dense.json");
  const double params = pipesim::parameter_split(pipesim::parse_plan_input(dense).model).total;
  const double gradient_bytes = params * 4;  // fp32 gradients, the default grad_bytes
  pipesim::PlanSearch at_one;
  at_one.pp = {1};
  // 8 GPUs in one node: 8 replicas of the whole model over NVLink at 300 GB/s.
  const auto one_node = pipesim::plan_search(pipesim::parse_plan_input(dense), at_one, 10);
  REQUIRE(one_node.best.size() == 1);
  CHECK(one_node.best[0].allreduce_ms == Approx(2.0 * 7 / 8 * gradient_bytes / 300e9 * 1000).epsilon(1e-12));
  // Nodes of 4 GPUs: the 8 replicas span two nodes, the ring runs at InfiniBand's 25 GB/s.
  const auto two_nodes = pipesim::plan_search(pipesim::parse_plan_input(with(dense, "/cluster/gpus_per_node", 4)), at_one, 10);
  REQUIRE(two_nodes.best.size() == 1);
  CHECK(two_nodes.best[0].allreduce_ms == Approx(2.0 * 7 / 8 * gradient_bytes / 25e9 * 1000).epsilon(1e-12));
  // 1F1B on 2 ranks of 16 layers each: 4 replicas, each rank reduces the gradients of its own half.
  pipesim::PlanSearch at_two;
  at_two.pp = {2};
  at_two.lighter_ends = {0};
  const auto two = pipesim::plan_search(pipesim::parse_plan_input(dense), at_two, 100);
  // The heaviest rank's gradients, as the planner's memory figures count them (16 micro-batches per
  // replica at pp 2 keep the 64 sequences of an iteration).
  const pipesim::PlanInput at_pp2 = pipesim::parse_plan_input(with(with(dense, "/model/pp", 2), "/model/micro_batches", 16));
  pipesim::RunRequest request;
  request.schedule = "1f1b";
  request.params = {2, 16, 1};
  const auto division = pipesim::model_request(at_pp2, request, {});
  double heaviest = 0;
  for (const auto& rank : pipesim::rank_state_bytes(division, pipesim::build_schedule("1f1b", {2, 16, 1})).ranks)
    heaviest = std::max(heaviest, rank.gradients);
  // Each rank holds 16 layers and one of the two vocabulary matrices (embedding, LM head), the same size.
  CHECK(heaviest == Approx(gradient_bytes / 2).epsilon(1e-12));
  bool checked = false;
  for (const auto& p : two.best)
    if (p.schedule == "1f1b") {
      CHECK(p.micro_batches == 16);
      CHECK(p.allreduce_ms == Approx(2.0 * 3 / 4 * heaviest / 300e9 * 1000).epsilon(1e-12));
      checked = true;
    }
  CHECK(checked);
  // A replica of one (the whole cluster one pipeline) has nothing to reduce.
  pipesim::PlanSearch at_eight;
  at_eight.pp = {8};
  for (const auto& p : pipesim::plan_search(pipesim::parse_plan_input(dense), at_eight, 100).best) CHECK(p.allreduce_ms == 0);
}

TEST_CASE("plan() prices every schedule as the search prices that configuration: the same makespan, all-reduce and iteration",
          "[planner][search]") {
  for (const char* name : {"small-dense.json", "moe-one-node-ep.json", "deepseek-v3.json"}) {
    INFO(name);
    const pipesim::PlanInput in = pipesim::parse_plan_input(example(name));
    const pipesim::Plan full = pipesim::plan(pipesim::test::course_data(), in);
    // The search at the input's own sizes: one configuration per schedule.
    pipesim::PlanSearch at_input;
    at_input.pp = {in.model.pp};
    at_input.micro_batch_size = {in.model.micro_batch_size};
    at_input.virtual_stages = {in.assumptions.virtual_stages};
    at_input.lighter_ends = {0};
    const pipesim::SearchResult searched = pipesim::plan_search(in, at_input, 100);
    CHECK(searched.configurations == full.ranked.size());
    CHECK(searched.refused == full.not_applicable.size());
    for (const pipesim::PlanCandidate& c : full.ranked) {
      INFO(c.schedule);
      const auto row = std::find_if(searched.best.begin(), searched.best.end(),
                                    [&](const pipesim::SearchPoint& p) { return p.schedule == c.schedule; });
      REQUIRE(row != searched.best.end());
      CHECK(row->micro_batches == in.model.micro_batches);
      CHECK(row->virtual_stages == c.virtual_stages);
      CHECK(row->layers_per_stage == c.layers_per_stage);
      CHECK(row->makespan_ms == c.makespan_ms);
      CHECK(row->allreduce_ms == c.allreduce_ms);
      CHECK(row->iteration_ms == c.iteration_ms);
      CHECK(row->bubble_fraction == c.bubble_fraction);
      CHECK(row->peak_gb == c.total_gb);
      CHECK(row->fits == c.fits);
    }
    // Both rank by fit, then iteration: the same order.
    std::vector<std::string> plan_order, search_order;
    for (const auto& c : full.ranked) plan_order.push_back(c.schedule);
    for (const auto& p : searched.best) search_order.push_back(p.schedule);
    CHECK(plan_order == search_order);
    // And so do their JSON views.
    const json plan_doc = json(pipesim::plan_json(pipesim::test::course_data(), full));
    for (const json& c : plan_doc["candidates"])
      CHECK(c["iteration_ms"] == c["makespan_ms"].get<double>() + c["allreduce_ms"].get<double>());
  }
}

TEST_CASE("the plan's all-reduce is the slowest rank's gradients in a ring over the replicas, routed experts over d / EP",
          "[planner]") {
  // small-dense: 8 GPUs of one node, 4 pipeline ranks, so d = 2 replicas over NVLink at 300 GB/s, fp32
  // gradients. A layer holds 4 x 4096^2 (attention) + 3 x 4096 x 11008 (FFN) = 202,375,168 parameters,
  // an embedding 32000 x 4096 = 131,072,000.
  const double layer = 4.0 * 4096 * 4096 + 3.0 * 4096 * 11008;
  const double embedding = 32000.0 * 4096;
  const auto ring_ms = [](double params, double d, double gb_s) { return 2 * (d - 1) / d * params * 4 / (gb_s * 1e9) * 1000; };
  const pipesim::Plan dense = pipesim::plan(pipesim::test::course_data(), pipesim::parse_plan_input(example("small-dense.json")));
  std::map<std::string, double> allreduce;
  for (const auto& c : dense.ranked) allreduce[c.schedule] = c.allreduce_ms;
  // 1F1B: rank 0 holds 8 layers and the embedding (rank 3 as much, with the LM head): 7,000,293,376
  // bytes, once over the ring of two.
  CHECK(allreduce["1f1b"] == Approx(ring_ms(8 * layer + embedding, 2, 300)).epsilon(1e-12));
  CHECK(allreduce["1f1b"] == Approx(23.334311253333).epsilon(1e-12));
  // DualPipe: rank 0 also holds the last stage (8 layers and the LM head): twice the bytes.
  CHECK(allreduce["dualpipe"] == Approx(ring_ms(16 * layer + 2 * embedding, 2, 300)).epsilon(1e-12));
  // DualPipeV: 8 stages of 4 layers, rank 0 holds the first and the last, both embeddings.
  CHECK(allreduce["dualpipev"] == Approx(ring_ms(8 * layer + 2 * embedding, 2, 300)).epsilon(1e-12));

  // A two-layer MoE on 16 GPUs, nodes of 8, 2 pipeline ranks: d = 8 replicas of each stage inside a
  // node (NVLink, 100 GB/s), EP 4, so routed experts are reduced over d / EP = 2 replicas. Rank 0 of
  // 1F1B holds layer 0: attention 4 x 1024^2 and a router 1024 x 4, all reduced over 8; 4 experts of
  // 3 x 1024 x 2048, each GPU holding one of them, reduced over 2.
  const std::string moe = R"({"cluster": {"gpus": 16, "gpus_per_node": 8, "gpu": {"tflops": 100, "memory_gb": 80},
      "nvlink_gb_s": 100, "ib_gb_s": 10},
    "model": {"layers": 2, "hidden": 1024, "experts": 4, "top_k": 1, "expert_hidden": 2048, "vocab": 0,
      "seq_len": 1024, "micro_batches": 4, "pp": 2, "ep": 4}})";
  const double unrouted = 4.0 * 1024 * 1024 + 1024.0 * 4;
  const double one_expert = 3.0 * 1024 * 2048;
  const pipesim::Plan small_moe = pipesim::plan(pipesim::test::course_data(), pipesim::parse_plan_input(moe));
  const pipesim::PlanCandidate* one_f_one_b = nullptr;
  for (const auto& c : small_moe.ranked)
    if (c.schedule == "1f1b") one_f_one_b = &c;
  REQUIRE(one_f_one_b != nullptr);
  // 2 x 7/8 x 16,793,600 bytes + 2 x 1/2 x 25,165,824 bytes, over 100 GB/s: 0.293888 + 0.25165824 ms.
  CHECK(one_f_one_b->allreduce_ms == Approx(ring_ms(unrouted, 8, 100) + ring_ms(one_expert, 2, 100)).epsilon(1e-12));
  CHECK(one_f_one_b->allreduce_ms == Approx(0.54554624).epsilon(1e-12));
  CHECK(one_f_one_b->iteration_ms == one_f_one_b->makespan_ms + one_f_one_b->allreduce_ms);
  // Nodes of 4: the 8 replicas span two nodes, and the ring runs at InfiniBand's 10 GB/s.
  const pipesim::Plan across = pipesim::plan(pipesim::test::course_data(), pipesim::parse_plan_input(with(moe, "/cluster/gpus_per_node", 4)));
  for (const auto& c : across.ranked)
    if (c.schedule == "1f1b") CHECK(c.allreduce_ms == Approx(10 * 0.54554624).epsilon(1e-12));
  // One pipeline over the whole cluster has no replica to reduce with.
  const pipesim::Plan alone = pipesim::plan(pipesim::test::course_data(),
                                            pipesim::parse_plan_input(with(with(example("small-dense.json"), "/model/pp", 8), "/model/micro_batches", 64)));
  for (const auto& c : alone.ranked) CHECK(c.allreduce_ms == 0);
}

TEST_CASE("the search run in steps gives what plan_search gives, and counts its progress", "[planner][search]") {
  const pipesim::PlanInput in = pipesim::parse_plan_input(example("moe-one-node-ep.json"));
  pipesim::SearchRun run(in, {});
  const std::size_t total = run.total();
  CHECK(run.done() == 0);
  std::size_t steps = 0;
  while (run.step(7)) {
    ++steps;
    CHECK(run.done() == 7 * steps);
  }
  CHECK(run.done() == total);
  CHECK_FALSE(run.step(7));  // nothing left: a further step runs nothing
  CHECK(run.done() == total);
  CHECK(pipesim::search_json(run.result(25)) == pipesim::search_json(pipesim::plan_search(in, {}, 25)));
  pipesim::PlanSearch bad;
  bad.virtual_stages = {17};
  CHECK_THROWS_WITH(pipesim::SearchRun(in, bad), "plan search: virtual_stages must list whole numbers from 1 to 16, got 17");
}
