// The course module (pipesim_course): the quiz, the lesson exercises, the planner, its search and a
// run on a planner file's model (the Memory tab), each the CLI's JSON. It is its own module because
// these calls pull in the learning layer (ordered JSON, the texts in three languages, the planner's
// report), which the page's first drawing never needs: the page loads this module the first time the
// course, the planner or the Memory tab asks for it. The profiler trace readers, the exports and the
// chunk model are the tools module's (bindings_tools.cpp, bindings_later.cpp).
#include <cmath>
#include <cstdint>
#include <memory>

#include "bindings_common.h"
#include "pipesim/course_data.h"
#include "pipesim/lesson.h"
#include "pipesim/limits.h"
#include "pipesim/model_stages.h"
#include "pipesim/planner.h"
#include "pipesim/quiz.h"
#include "pipesim/quiz_questions.h"
#include "pipesim/run.h"

namespace {

using namespace pipesim_wasm;

/// The module's course data: empty until the page gives each file (provideCourseData), because the
/// module does not carry core/data/*.json. The one value every course call below reads.
auto course_data() -> pipesim::CourseData& {
  static pipesim::CourseData course;
  return course;
}

/// The course's quiz.json (1 pre, 3 check, 2 post), options in the order the course's CI demands:
/// `pipesim quiz --course`.
auto course_quiz(val lang_arg) -> val {
  return guarded([&] { return from_json(pipesim::course_quiz(course_data(), text_arg(lang_arg, "lang"))); });
}

/// The student's seed for the quiz's option order: a whole number from 0 to 2^53.
auto quiz_seed(const val& request) -> std::uint64_t {
  const auto seed = reading("seed", [&] { return optional_number(request, "seed"); });
  if (!seed) return 0;
  if (!(*seed >= 0 && *seed <= 9007199254740992.0 && *seed == static_cast<double>(static_cast<std::uint64_t>(*seed))))
    throw pipesim::Error(pipesim::ErrorCode::bad_value, "seed must be a whole number from 0 to 2^53", {"quiz.seed", {}}, "seed");
  return static_cast<std::uint64_t>(*seed);
}

// Filled key by key rather than from nested initializer lists: the same sorted json, less code
// (issue 14: the course module's size).
auto question_value(const pipesim::QuizQuestion& q) -> nlohmann::json {
  nlohmann::json out;
  out["key"] = q.key;
  out["text"] = q.text;
  out["options"] = q.options;
  out["correct"] = q.correct;
  out["explanation"] = q.explanation;
  out["source"] = q.source;
  out["view"] = q.view;
  if (q.timeline) {
    nlohmann::json& timeline = out["timeline"];
    timeline["schedule"] = q.timeline->schedule;
    timeline["ranks"] = q.timeline->ranks;
    timeline["microBatches"] = q.timeline->micro_batches;
    timeline["cost"] = q.timeline->cost;
    timeline["prompt"] = q.timeline->prompt;
  }
  return out;
}

/// The quiz's questions as the page shows them (pipesim/quiz_questions.h): {set: 'bank'} the bank's,
/// {set: 'live', ranks, microBatches, cost} those the engine answers for these settings; both in
/// `lang`, options ordered for `seed`.
auto quiz_questions(val request) -> val {
  return guarded([&] {
    const std::string set = text_field(request, "set");
    const std::string lang = text_field(request, "lang");
    const std::uint64_t seed = quiz_seed(request);
    std::vector<pipesim::QuizQuestion> questions;
    if (set == "bank") {
      questions = pipesim::bank_questions(course_data(), lang.empty() ? "en" : lang, seed);
    } else if (set == "live") {
      pipesim::LiveQuizSettings settings;
      settings.ranks = reading("ranks", [&] { return int_field(request, "ranks", "ranks", settings.ranks); });
      settings.micro_batches =
          reading("micro_batches", [&] { return int_field(request, "microBatches", "micro_batches", settings.micro_batches); });
      if (const std::string cost = text_field(request, "cost"); !cost.empty()) settings.cost = cost;
      questions = pipesim::live_questions(course_data(), settings, lang.empty() ? "en" : lang, seed);
    } else {
      throw pipesim::Error(pipesim::ErrorCode::unknown_name, "unknown quiz set '" + set + "'; sets are bank, live", {"quiz.set", {{"value", set}}}, "set");
    }
    nlohmann::json out = nlohmann::json::array();
    for (const auto& q : questions) out.push_back(question_value(q));
    return from_json(out);
  });
}

/// A lesson exercise worked by the engine, every step as data: `pipesim lesson --format json`.
auto lesson(val request) -> val {
  return guarded([&] {
    pipesim::LessonRequest r;
    r.exercise = int_field(request, "exercise", "exercise", 1);
    if (const std::string lang = text_field(request, "lang"); !lang.empty()) r.language = lang;
    if (const std::string cost = text_field(request, "cost"); !cost.empty()) r.costs = pipesim::parse_costs(cost);
    if (const auto bytes = optional_number(request, "bytesPerParam")) r.bytes_per_param = *bytes;
    if (const auto memory = optional_number(request, "gpuMemoryGb")) r.gpu_memory_gb = *memory;
    return from_json(pipesim::lesson_exercise(course_data(), r));
  });
}

/// The planner on a JSON input, explained in `lang` (`pipesim plan --input FILE --format json --lang L`).
auto plan(val input, val lang) -> val {
  return guarded([&] { return from_json(pipesim::plan_from_json(course_data(), text_arg(input, "plan input"), text_arg(lang, "lang"))); });
}

/// A list of whole numbers of a plan search's options (PlanSearch): absent = the search's default.
auto search_list(const val& options, const char* key, const char* field) -> std::vector<int> {
  const val v = options.isUndefined() || options.isNull() ? val::undefined() : options[key];
  if (v.isUndefined() || v.isNull()) return {};
  if (!v.isArray())
    throw pipesim::Error(pipesim::ErrorCode::bad_value, std::string("plan search: ") + field + " must be a list of whole numbers, got " + js_kind(v),
                         {"search.list", {{"name", field}, {"value", js_kind(v)}}}, field);
  std::vector<int> out;
  const auto n = v["length"].as<std::size_t>();
  if (n > 4096) throw pipesim::Error(pipesim::ErrorCode::limit_exceeded, std::string("plan search: ") + field + " may list at most 4096 values",
                                     {"search.list_length", {{"name", field}, {"max", "4096"}}}, field);
  for (std::size_t i = 0; i < n; ++i) {
    const val item = v[i];
    if (item.typeOf().as<std::string>() != "number" || std::floor(item.as<double>()) != item.as<double>() || std::fabs(item.as<double>()) > 1e9)
      throw pipesim::Error(pipesim::ErrorCode::bad_value, std::string("plan search: ") + field + " must list whole numbers, got " + js_text(item),
                           {"search.list_item", {{"name", field}, {"value", js_text(item)}}}, field);
    out.push_back(static_cast<int>(item.as<double>()));
  }
  return out;
}

/// The plan search under way in this module (one at a time: a new one replaces it).
auto search_run() -> std::unique_ptr<pipesim::SearchRun>& {
  static std::unique_ptr<pipesim::SearchRun> run;
  return run;
}

auto search_progress() -> val {
  val out = val::object();
  out.set("done", static_cast<double>(search_run()->done()));
  out.set("total", static_cast<double>(search_run()->total()));
  return out;
}

/// Starts the planner's search (`pipesim plan --search`) on a JSON input, with the axes of `options`
/// ({pp, microBatchSize, virtualStages, lighterEnds}, each a list; absent = the search's default):
/// {done: 0, total}. The page steps it with planSearchStep, so it can post progress and stop between
/// steps, then reads planSearchResult.
auto plan_search_begin(val input, val options) -> val {
  return guarded([&] {
    search_run().reset();
    const pipesim::PlanInput in = pipesim::parse_plan_input(text_arg(input, "plan input"));
    pipesim::PlanSearch search;
    search.pp = search_list(options, "pp", "pp");
    search.micro_batch_size = search_list(options, "microBatchSize", "micro_batch_size");
    search.virtual_stages = search_list(options, "virtualStages", "virtual_stages");
    search.lighter_ends = search_list(options, "lighterEnds", "lighter_ends");
    search_run() = std::make_unique<pipesim::SearchRun>(in, search);
    return search_progress();
  });
}

auto require_search() -> pipesim::SearchRun& {
  if (!search_run()) throw pipesim::Error(pipesim::ErrorCode::usage, "no plan search under way: call planSearchBegin first", {"search.not_begun", {}});
  return *search_run();
}

/// Runs up to `count` more configurations of the search under way: {done, total}.
auto plan_search_step(val count) -> val {
  return guarded([&] {
    pipesim::SearchRun& run = require_search();
    const double n = count.typeOf().as<std::string>() == "number" ? count.as<double>() : NAN;
    if (!(n >= 1 && n <= 1e9 && std::floor(n) == n))
      throw pipesim::Error(pipesim::ErrorCode::bad_value, "count must be a whole number from 1 to 10^9, got " + js_text(count),
                           {"number.whole_range", {{"name", "count"}, {"min", "1"}, {"max", "10^9"}, {"value", js_text(count)}}}, "count");
    run.step(static_cast<std::size_t>(n));
    return search_progress();
  });
}

/// The search under way's ranked configurations so far, at most `keep`: `pipesim plan --search --format json`.
auto plan_search_result(val keep) -> val {
  return guarded([&] {
    const pipesim::SearchRun& run = require_search();
    const double n = keep.typeOf().as<std::string>() == "number" ? keep.as<double>() : NAN;
    if (!(n >= 1 && n <= 1e6 && std::floor(n) == n))
      throw pipesim::Error(pipesim::ErrorCode::bad_value, "keep must be a whole number from 1 to 10^6, got " + js_text(keep),
                           {"number.whole_range", {{"name", "keep"}, {"min", "1"}, {"max", "10^6"}, {"value", js_text(keep)}}}, "keep");
    return from_json(pipesim::search_json(run, static_cast<std::size_t>(n)));
  });
}

/// A schedule run on a model and cluster (a planner file's JSON text): `pipesim simulate --model FILE
/// --schedule S [--micro-batches M] [--virtual-stages V] [--layers-per-stage L] --format summary`,
/// each rank's memory_bytes with its activation curve ([[time, bytes], ...]) for the Memory tab. The
/// sizes follow the CLI's rule (read_model_file): `ranks` (the page's control) cuts the file's cluster
/// into that many stages, else the pipeline size is its model.pp; microBatches defaults to its
/// model.micro_batches. A refusal of the pipeline size names `ranks`, never the file's model.pp.
auto simulate_model(val request) -> val {
  return guarded([&] {
    if (request.isUndefined() || request.isNull() || request.typeOf().as<std::string>() != "object")
      throw pipesim::Error(pipesim::ErrorCode::usage, "a model run must be an object {schedule, model}: model is a planner file's JSON text",
                           {"request.model_run_not_object", {}});
    const std::string model_text = text_field(request, "model", pipesim::limits::max_small_json_bytes);
    const pipesim::ModelFileSizes sizes{
        .ranks = reading("ranks", [&] { return optional_int(request, "ranks"); }),
        .micro_batches = reading("micro_batches", [&] { return optional_int(request, "microBatches", "micro-batches"); }),
        .ranks_name = "ranks"};
    pipesim::RunRequest r;
    // A refusal of the pipeline size already names ranks (Error::field); any other is the file's.
    const pipesim::PlanInput input = reading("model", [&] { return pipesim::read_model_file(model_text, sizes, r); });
    if (const std::string name = text_field(request, "schedule"); !name.empty()) r.schedule = name;
    r.params.virtual_stages =
        reading("virtual_stages", [&] { return int_field(request, "virtualStages", "virtual stages", r.params.virtual_stages); });
    const std::string layers_text = text_field(request, "layersPerStage");
    const std::vector<int> layers = layers_text.empty() ? std::vector<int>{} : pipesim::parse_layers_per_stage(layers_text);
    pipesim::Schedule schedule = pipesim::build_schedule(r.schedule, r.params);  // once: divided, then run
    const pipesim::ModelDivision division = pipesim::model_request(input, r, schedule, layers);
    const pipesim::Run run = pipesim::run_generated(r, std::move(schedule));
    return from_json(pipesim::model_run_json(division, run, pipesim::Detail::summary, true));
  });
}

/// Hands over core/data/NAME.json, which this module does not carry: the page loads it the first time
/// a quiz, lesson or planner call needs it. Parsed and checked now, once.
auto provide_course_data(val name, val text) -> val {
  return guarded([&] {
    course_data().provide(text_arg(name, "course data name"), text_arg(text, "course data"));
    return val::undefined();
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(pipesim_course) {
  emscripten::function("courseQuiz", &course_quiz);
  emscripten::function("quizQuestions", &quiz_questions);
  emscripten::function("lesson", &lesson);
  emscripten::function("plan", &plan);
  emscripten::function("planSearchBegin", &plan_search_begin);
  emscripten::function("planSearchStep", &plan_search_step);
  emscripten::function("planSearchResult", &plan_search_result);
  emscripten::function("simulateModel", &simulate_model);
  emscripten::function("provideCourseData", &provide_course_data);
  emscripten::function("version", &version);
}
