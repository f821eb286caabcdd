// The registry as data: every schedule it lists (built in or registered) must carry everything the
// CLI, the module and the page read from it. The checks iterate schedules(), so a new schedule is
// checked without anyone writing a test for it; the toy schedule below shows that the same holds for
// one registered from outside the catalogue.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <regex>
#include <sstream>
#include <set>
#include <string>
#include <vector>

#include "pipesim/costs.h"
#include "pipesim/custom.h"
#include "pipesim/export.h"
#include "pipesim/language.h"
#include "pipesim/presets.h"
#include "pipesim/registry.h"
#include "pipesim/report.h"
#include "pipesim/run.h"
#include "cli_run.h"
#include "helpers.h"

using namespace pipesim;

namespace {

// Every export format a run has (pipesim/export.h's ExportFormat; to be read from the export table
// once it exists).
constexpr ExportFormat export_formats[] = {ExportFormat::chrome_trace, ExportFormat::csv, ExportFormat::svg,
                                           ExportFormat::actions, ExportFormat::json};

auto is_hex_colour(std::string_view c) -> bool { return std::regex_match(std::string(c), std::regex("#[0-9a-f]{6}")); }

/// WCAG 2 relative luminance of a #rrggbb colour.
auto luminance(std::string_view hex) -> double {
  const auto channel = [&](std::size_t at) {
    const double c = std::stoi(std::string(hex.substr(at, 2)), nullptr, 16) / 255.0;
    return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/// WCAG 2 contrast ratio of two #rrggbb colours (1 to 21).
auto contrast(std::string_view a, std::string_view b) -> double {
  const double la = luminance(a), lb = luminance(b);
  return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

/// A custom property of the page's dark theme, as web/src/styles.css sets it (the page's one source
/// of its theme colours): the value of `--name:` in the `:root[data-theme='dark']` block.
auto dark_theme_colour(const std::string& name) -> std::string {
  std::ifstream file(std::string(PIPESIM_SOURCE_DIR) + "/web/src/styles.css");
  std::stringstream text;
  text << file.rdbuf();
  const std::string css = text.str();
  const std::size_t block = css.find(":root[data-theme='dark']");
  REQUIRE(block != std::string::npos);
  const std::string body = css.substr(block, css.find('}', block) - block);
  std::smatch m;
  REQUIRE(std::regex_search(body, m, std::regex("--" + name + ":\\s*(#[0-9a-f]{6})")));
  return m[1];
}

/// The {placeholders} of a caption, which the page fills from the run.
auto caption_placeholders(std::string_view text) -> std::set<std::string> {
  std::set<std::string> out;
  const std::string s(text);
  const std::regex brace("\\{([a-z]+)\\}");
  for (auto it = std::sregex_iterator(s.begin(), s.end(), brace); it != std::sregex_iterator(); ++it) out.insert((*it)[1]);
  return out;
}

/// The request a front end makes when it starts `spec`: its defaults, F=1 B=2 W=1 FB=3; a schedule
/// given as text gets 1F1B's order in action notation, as the page's editor starts with.
auto starting_request(const ScheduleSpec& spec) -> RunRequest {
  RunRequest request;
  request.schedule = std::string(spec.name);
  request.params = {spec.defaults.ranks, spec.defaults.micro_batches, spec.defaults.virtual_stages};
  request.costs = default_costs();
  if (spec.given_as_text) request.custom_schedule = format_actions(build_schedule("1f1b", {4, 8, 1}));
  return request;
}

/// What every entry of the registry must satisfy; a failure names the schedule.
void check_complete(const ScheduleSpec& spec) {
  INFO("schedule " << spec.name);
  REQUIRE(!spec.name.empty());
  CHECK(!spec.source.empty());
  const std::set<std::string> fillable = {"ranks", "micro", "last", "half", "stages", "vs", "vlast"};
  for (std::string_view lang : languages) {
    INFO("language " << lang);
    const ScheduleTexts& t = spec.texts.in(lang);
    CHECK(!t.title.empty());
    CHECK(!t.summary.empty());
    CHECK(!t.constraints.empty());
    CHECK(!t.caption.empty());
    // A translation fills the same numbers as the English caption, and only ones the page has.
    CHECK(caption_placeholders(t.caption) == caption_placeholders(spec.texts.en.caption));
    for (const std::string& p : caption_placeholders(t.caption)) CHECK(fillable.count(p) == 1);
  }
  CHECK(is_hex_colour(spec.colour.light));
  CHECK((spec.colour.dark.empty() || is_hex_colour(spec.colour.dark)));
  if (!spec.uses_virtual_stages) CHECK(spec.defaults.virtual_stages == 1);

  const RunRequest request = starting_request(spec);
  if (!spec.given_as_text) {
    CHECK_NOTHROW(check_schedule(spec.name, request.params));
    // two_way is what the generator does, not a second opinion: fed from both ends or not.
    CHECK(build_schedule(spec.name, request.params).layout.directions == (spec.two_way ? 2 : 1));
  }
  const Run run = pipesim::run(request);
  CHECK(run.spec == &spec);
  for (ExportFormat format : export_formats) {
    INFO("export " << export_format_name(format));
    CHECK(!export_text(run, format, std::size_t{1} << 26).empty());
  }
}

// A toy schedule in a few lines: naive model parallelism, one micro-batch through every stage and
// back before the next starts. Each rank is busy M(F+B) of a makespan of M p (F+B).
auto toy_generate(const ScheduleParams& p) -> Schedule {
  ScheduleBuilder builder("one-at-a-time", p, straight_layout(p.ranks), 2);
  for (int r = 0; r < p.ranks; ++r) {
    RankOps ops = builder.rank(r);
    for (int mb = 0; mb < p.micro_batches; ++mb) {
      ops.push_back({OpKind::F, {mb, 0, r}, {}});
      ops.push_back({OpKind::B, {mb, 0, r}, {}});
    }
  }
  return std::move(builder).build();
}

auto toy_formula(const ScheduleParams& p, const Costs& c) -> Formula {
  const double value = p.micro_batches * (p.ranks - 1) * (c.f + c.b);
  return {"M(PP-1)(F+B)", "", value, c.comm == 0,
          {.en = "exact when comm = 0", .pt_br = "exata quando comm = 0", .zh_cn = "当 comm = 0 时精确"},
          "no pipelining at all", false};
}

constexpr ScheduleTexts toy_texts{.title = "One at a time",
                                  .summary = "Each micro-batch goes through every stage and back before the next.",
                                  .constraints = "ranks >= 1; micro-batches >= 1",
                                  .caption = "{ranks} ranks take turns: only one is ever busy."};

const ScheduleSpec toy_spec{
    .name = "one-at-a-time",
    .texts = {.en = toy_texts, .pt_br = toy_texts, .zh_cn = toy_texts},
    .source = "tests/test_registry.cpp",
    .colour = {.light = "#123456"},
    .defaults = {.ranks = 4, .micro_batches = 3},
    .check = [](const ScheduleParams&) {},
    .generate = toy_generate,
    .formula = toy_formula,
};

}  // namespace

TEST_CASE("every schedule in the registry has every language's texts, a colour, accepted defaults and every export") {
  REQUIRE(schedules().size() == 10);
  for (const ScheduleSpec* spec : schedules()) check_complete(*spec);
}

TEST_CASE("schedule names are unique and each has a colour of its own") {
  std::set<std::string_view> names, colours;
  for (const ScheduleSpec* spec : schedules()) {
    names.insert(spec->name);
    colours.insert(spec->colour.light);
  }
  CHECK(names.size() == schedules().size());
  CHECK(colours.size() == schedules().size());
}

TEST_CASE("every built-in schedule has a dark-theme colour that stands out on the dark page by at least 3:1") {
  // Charts and swatches sit on the panel, the page around them on the background: both must carry
  // the series colour (WCAG's 3:1 for graphics).
  const std::string background = dark_theme_colour("bg");
  const std::string panel = dark_theme_colour("panel");
  std::set<std::string_view> dark;
  for (const ScheduleSpec* spec : schedules()) {
    INFO("schedule " << spec->name << ", dark colour " << spec->colour.dark);
    REQUIRE(is_hex_colour(spec->colour.dark));
    CHECK(contrast(spec->colour.dark, background) >= 3.0);
    CHECK(contrast(spec->colour.dark, panel) >= 3.0);
    dark.insert(spec->colour.dark);
  }
  CHECK(dark.size() == schedules().size());
}

TEST_CASE("the contrast computation gives WCAG's ratios") {
  CHECK(contrast("#000000", "#ffffff") == Approx(21.0));
  CHECK(contrast("#ffffff", "#ffffff") == Approx(1.0));
  CHECK(contrast("#777777", "#ffffff") == Approx(4.48).epsilon(0.001));
}

TEST_CASE("a registered schedule runs, is listed, passes the completeness checks and leaves when its registration ends") {
  const std::size_t built_in = schedules().size();
  {
    const ScheduleRegistration registration(toy_spec);
    REQUIRE(schedules().size() == built_in + 1);
    CHECK(schedules().back() == &toy_spec);
    check_complete(toy_spec);

    RunRequest request;
    request.schedule = "one-at-a-time";
    request.params = {4, 3, 1};
    request.costs = default_costs();  // F=1, B=2
    const Run run = pipesim::run(request);
    CHECK(run.metrics.makespan == 3 * 4 * 3);            // M p (F+B)
    CHECK(run.metrics.per_rank[0].bubble == 3 * 3 * 3);  // M (p-1) (F+B)
    CHECK(run.formula.value == 27);

    const nlohmann::json listed = nlohmann::json(schedules_json()).back();
    CHECK(listed["name"] == "one-at-a-time");
    CHECK(listed["texts"]["zh-CN"]["title"] == "One at a time");
    CHECK(listed["colour"] == nlohmann::json{{"light", "#123456"}, {"dark", "#123456"}});
    CHECK(listed["defaults"] == nlohmann::json{{"ranks", 4}, {"micro_batches", 3}, {"virtual_stages", 1}});
    CHECK(render_schedule_list().find("one-at-a-time") != std::string::npos);

    CHECK_THROWS_MATCHES(ScheduleRegistration(toy_spec), Error,
                         test::Refused(ErrorCode::bad_value, "schedule 'one-at-a-time' is already registered"));
  }
  CHECK(schedules().size() == built_in);
  CHECK_THROWS_AS(find_schedule("one-at-a-time"), Error);
}

TEST_CASE("run_generated gives every generated schedule the run run() gives it, op for op") {
  for (const ScheduleSpec* spec : schedules()) {
    if (spec->given_as_text) continue;  // given as text: run_generated has no text to read
    INFO(spec->name);
    RunRequest request;
    request.schedule = std::string(spec->name);
    request.params = {spec->defaults.ranks, spec->defaults.micro_batches, spec->defaults.virtual_stages};
    // A heavy first stage and a slow rank: per-stage costs reach both paths alike.
    StageCostOverride heavy_first;
    heavy_first.stage.kind = StageSelector::Kind::first;
    heavy_first.costs.f = 3;
    heavy_first.costs.fb = 4;
    request.per_stage.overrides.push_back(heavy_first);
    request.per_stage.rank_speeds.push_back({.rank = 1, .factor = 0.5});
    const Run whole = pipesim::run(request);
    const Run generated = run_generated(request);
    CHECK(generated.spec == whole.spec);
    CHECK(generated.timeline.start == whole.timeline.start);
    CHECK(generated.timeline.end == whole.timeline.end);
    CHECK(generated.timeline.waited_for == whole.timeline.waited_for);
    CHECK(generated.metrics.makespan == whole.metrics.makespan);
    CHECK(generated.metrics.bubble_fraction == whole.metrics.bubble_fraction);
    CHECK(generated.formula.value == whole.formula.value);
    CHECK(generated.formula.exact == whole.formula.exact);
    CHECK(generated.bubble_split.size() == whole.bubble_split.size());
  }
}

TEST_CASE("a schedule registered to be given as text is refused by the generated path, not called without its rules") {
  ScheduleSpec text_only = toy_spec;
  text_only.name = "text-only";
  text_only.check = nullptr;
  text_only.generate = nullptr;
  text_only.given_as_text = true;
  const ScheduleRegistration registration(text_only);
  RunRequest request;
  request.schedule = "text-only";
  request.params = {4, 3, 1};
  const auto refused = test::Refused(ErrorCode::usage, "schedule 'text-only' is given as text: it has no parameters to generate from");
  CHECK_THROWS_MATCHES(run_generated(request), Error, refused);
  CHECK_THROWS_MATCHES(build_schedule("text-only", request.params), Error, refused);
  CHECK_THROWS_MATCHES(build_schedule_with_comm("text-only", request.params), Error, refused);
}

TEST_CASE("a schedule without a name or a generator is not registered") {
  ScheduleSpec nameless = toy_spec;
  nameless.name = "";
  CHECK_THROWS_MATCHES(ScheduleRegistration(nameless), Error,
                       test::Refused(ErrorCode::bad_value, "a registered schedule needs a name"));
  ScheduleSpec idle = toy_spec;
  idle.name = "idle";
  idle.generate = nullptr;
  CHECK_THROWS_MATCHES(ScheduleRegistration(idle), Error,
                       test::Refused(ErrorCode::bad_value, "schedule 'idle' needs check, generate and formula (or formula, given as text)"));
  CHECK(schedules().size() == 10);
}

TEST_CASE("two_way marks the schedules fed from both ends: DualPipe and Chimera") {
  std::vector<std::string_view> two_way;
  for (const ScheduleSpec* spec : schedules())
    if (spec->two_way) two_way.push_back(spec->name);
  CHECK(two_way == std::vector<std::string_view>{"dualpipe", "chimera"});
}

TEST_CASE("texts in an unknown language are refused with the languages there are") {
  CHECK_THROWS_MATCHES(find_schedule("dualpipe").texts.in("fr"), Error,
                       test::Refused(ErrorCode::unknown_name, "unknown language 'fr'; languages are en, pt-BR, zh-CN"));
  CHECK_THROWS_MATCHES(render_schedule_list("pt"), Error,
                       test::Refused(ErrorCode::unknown_name, "unknown language 'pt'; languages are en, pt-BR, zh-CN"));
}

TEST_CASE("the schedule list speaks each language") {
  CHECK(render_schedule_list("pt-BR").find("regras: ranks em número par e ≥ 2") != std::string::npos);
  CHECK(render_schedule_list("zh-CN").find("规则：rank 数为偶数且 ≥ 2") != std::string::npos);
  CHECK(render_schedule_list().find("DualPipe: Bidirectional pipeline") != std::string::npos);
}

TEST_CASE("every preset names a schedule that accepts its sizes, costs that parse and known schedules to compare") {
  REQUIRE(presets().size() == 5);
  std::set<std::string_view> ids;
  for (const Preset& p : presets()) {
    INFO("preset " << p.id);
    ids.insert(p.id);
    CHECK_NOTHROW(check_schedule(p.schedule, {p.ranks, p.micro_batches, p.virtual_stages}));
    CHECK_NOTHROW(parse_costs(p.cost));
    CHECK(!p.compare.empty());
    for (std::string_view other : p.compare) CHECK_NOTHROW(find_schedule(other));
    for (std::string_view lang : languages) {
      INFO("language " << lang);
      const std::string name(p.name.in(lang));
      // The name quotes the sizes: it must quote the ones the preset sets.
      CHECK(name.find(std::to_string(p.ranks) + " ") != std::string::npos);
      CHECK(name.find(std::to_string(p.micro_batches) + " ") != std::string::npos);
    }
  }
  CHECK(ids.size() == presets().size());
}

TEST_CASE("every guided-lesson step names a schedule that accepts its sizes, and so does each run it compares with") {
  REQUIRE(lesson_steps().size() == 8);
  CHECK_NOTHROW(parse_costs(lesson_cost()));
  std::set<std::string_view> ids;
  for (const LessonStep& step : lesson_steps()) {
    INFO("step " << step.id);
    ids.insert(step.id);
    CHECK_NOTHROW(check_schedule(step.run.schedule, {step.run.ranks, step.run.micro_batches, 1}));
    for (const LessonRun& r : step.compared) CHECK_NOTHROW(check_schedule(r.schedule, {r.ranks, r.micro_batches, 1}));
  }
  CHECK(ids.size() == lesson_steps().size());
}

TEST_CASE("lesson_steps_json gives each step's run and the runs it compares with, at the lesson's costs") {
  const nlohmann::json lesson = lesson_steps_json();
  CHECK(lesson["cost"] == "F=1,B=2,W=1,FB=3");
  REQUIRE(lesson["steps"].size() == lesson_steps().size());
  const nlohmann::json& last = lesson["steps"].back();
  CHECK(last["id"] == "s8");
  CHECK(last["run"] == nlohmann::json{{"schedule", "dualpipe"}, {"ranks", 8}, {"micro_batches", 20}});
  REQUIRE(last["compared"].size() == 4);
  // DualPipeV holds two stages per rank: the same 8 stages on 4 GPUs.
  CHECK(last["compared"][3] == nlohmann::json{{"schedule", "dualpipev"}, {"ranks", 4}, {"micro_batches", 20}});
  CHECK(lesson["steps"][0]["compared"].empty());
}

TEST_CASE("presets_json carries each preset's texts in every language and its request") {
  const nlohmann::json all = presets_json();
  REQUIRE(all.size() == presets().size());
  const nlohmann::json& fig5 = all[0];
  CHECK(fig5["id"] == "fig5");
  CHECK(fig5["schedule"] == "dualpipe");
  CHECK(fig5["ranks"] == 8);
  CHECK(fig5["micro_batches"] == 20);
  CHECK(fig5["virtual_stages"] == 1);
  CHECK(fig5["cost"] == "F=1,B=2,W=1,FB=3");
  CHECK(fig5["compare"] == nlohmann::json{"1f1b", "zb-h1"});
  CHECK(fig5["texts"]["pt-BR"]["name"] == "DeepSeek-V3, Fig. 5: DualPipe, 8 ranks, 20 micro-batches");
  CHECK(fig5["texts"].size() == languages.size());
}

TEST_CASE("schedules_json keeps the English keys and adds texts, colour, defaults and two_way") {
  const nlohmann::json all = schedules_json();
  REQUIRE(all.size() == schedules().size());
  for (const nlohmann::json& entry : all) {
    INFO(entry["name"]);
    for (const char* key : {"name", "title", "summary", "source", "constraints", "uses_virtual_stages", "takes_text",
                            "two_way", "texts", "colour", "defaults"})
      CHECK(entry.contains(key));
    CHECK(entry["title"] == entry["texts"]["en"]["title"]);
    CHECK(entry["texts"].size() == languages.size());
  }
  const nlohmann::json& interleaved = all[2];
  CHECK(interleaved["name"] == "interleaved-1f1b");
  CHECK(interleaved["defaults"] == nlohmann::json{{"ranks", 8}, {"micro_batches", 20}, {"virtual_stages", 2}});
  CHECK(interleaved["colour"] == nlohmann::json{{"light", "#edc948"}, {"dark", "#edc948"}});
  CHECK(interleaved["texts"]["pt-BR"]["title"] == "1F1B intercalado");
}

TEST_CASE("the schedules as a Markdown table: a heading, then one row per schedule with its name, texts, rules and source") {
  const std::string table = render_schedule_table("en");
  std::vector<std::string> lines;
  std::istringstream in(table);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  REQUIRE(lines.size() == 2 + schedules().size());
  CHECK(lines[0] == "| name | what | rules | source |");
  CHECK(lines[1] == "|---|---|---|---|");
  const ScheduleSpec& dualpipe = find_schedule("dualpipe");
  CHECK(lines[1 + 7] == "| `dualpipe` | DualPipe: " + std::string(dualpipe.texts.en.summary) + " | " +
                            std::string(dualpipe.texts.en.constraints) + " | " + std::string(dualpipe.source) + " |");
  // Every row has its four cells: no text of the registry ends a cell early.
  const auto cell_ends = [](const std::string& line) {
    std::size_t n = 0;
    for (std::size_t k = 0; k < line.size(); ++k) n += line[k] == '|' && (k == 0 || line[k - 1] != '\\');
    return n;
  };
  for (const std::string& line : lines) CHECK(cell_ends(line) == 5);
  CHECK(render_schedule_table("pt-BR").rfind("| nome | o que é | regras | fonte |\n", 0) == 0);
}

TEST_CASE("README.md's schedules table is the registry's, as pipesim list --format markdown prints it") {
  std::ifstream in(std::string(PIPESIM_SOURCE_DIR) + "/README.md");
  REQUIRE(in);
  const std::string readme((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string begin = "<!-- schedules: written by scripts/readme-schedules.mjs from `pipesim list --format markdown` -->\n";
  const auto from = readme.find(begin);
  REQUIRE(from != std::string::npos);
  const auto to = readme.find("<!-- /schedules -->", from);
  REQUIRE(to != std::string::npos);
  const auto listed = test::run_cli("list --format markdown");
  REQUIRE(listed.status == 0);
  // After a change to the registry: node scripts/readme-schedules.mjs rewrites the table.
  CHECK(readme.substr(from + begin.size(), to - from - begin.size()) == listed.out);
}

TEST_CASE("pipesim list and pipesim presets print the registry's data, in the language of --lang") {
  const auto json_list = test::run_cli("list --format json");
  CHECK(json_list.status == 0);
  CHECK(nlohmann::json::parse(json_list.out) == nlohmann::json(schedules_json()));
  CHECK(test::run_cli("list --lang pt-BR").out == render_schedule_list("pt-BR"));
  CHECK(test::run_cli("list --format markdown --lang zh-CN").out == render_schedule_table("zh-CN"));
  const auto json_presets = test::run_cli("presets --format json");
  CHECK(json_presets.status == 0);
  CHECK(nlohmann::json::parse(json_presets.out) == nlohmann::json(presets_json()));
  const auto zh = test::run_cli("presets --lang zh-CN");
  CHECK(zh.out.find("DeepSeek-V3 图 5：DualPipe，8 个 rank，20 个微批次\n") != std::string::npos);
  CHECK(zh.out.find("pipesim simulate --schedule dualpipe --ranks 8 --micro-batches 20 --cost F=1,B=2,W=1,FB=3\n") !=
        std::string::npos);
  for (const char* args : {"list --lang fr", "presets --lang fr --format json"}) {
    INFO(args);
    const auto refused = test::run_cli(args);
    CHECK(refused.status == 2);
    CHECK(refused.err == "pipesim: error[unknown_name]: unknown language 'fr'; languages are en, pt-BR, zh-CN\n");
  }
}
