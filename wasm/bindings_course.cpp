// The course module (pipesim_course): the quiz, the lesson exercises, the planner and the profiler
// trace reader, each the CLI's JSON. It is its own module because these calls pull in the learning layer (ordered JSON, the
// texts in three languages, the planner's report), which the page's first drawing never needs: the
// page loads this module the first time the course or the planner asks for it.
#include <cstdint>

#include "bindings_common.h"
#include "pipesim/course_data.h"
#include "pipesim/frontend/measured.h"
#include "pipesim/lesson.h"
#include "pipesim/measured_chunk.h"
#include "pipesim/limits.h"
#include "pipesim/measured_pipeline.h"
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
    throw pipesim::Error(pipesim::ErrorCode::bad_value, "seed must be a whole number from 0 to 2^53", {}, "seed");
  return static_cast<std::uint64_t>(*seed);
}

auto question_value(const pipesim::QuizQuestion& q) -> nlohmann::json {
  nlohmann::json out{{"key", q.key},         {"text", q.text},     {"options", q.options}, {"correct", q.correct},
                     {"explanation", q.explanation}, {"source", q.source}, {"view", q.view}};
  if (q.timeline)
    out["timeline"] = {{"schedule", q.timeline->schedule}, {"ranks", q.timeline->ranks}, {"microBatches", q.timeline->micro_batches},
                       {"cost", q.timeline->cost}, {"prompt", q.timeline->prompt}};
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
      throw pipesim::Error(pipesim::ErrorCode::unknown_name, "unknown quiz set '" + set + "'; sets are bank, live", {}, "set");
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

/// A PyTorch profiler trace of one F&B pair (its JSON text) measured next to the chunk model: the CLI's
/// `overlap --trace FILE --format json`. Here rather than in the engine module because the page needs
/// it only when a user loads a profile, and the trace reader is too large for the first download.
auto overlap_trace(val text) -> val {
  return guarded([&] { return from_json(pipesim::measured_overlap_json(pipesim::run_measured_overlap(text_arg(text, "profiler trace")))); });
}

/// One profiler trace per rank (their JSON texts) measured next to the model with fitted costs: the
/// CLI's `simulate --measured FILES --align ALIGN --format json` ("profiler" or "first-ops").
auto measured_pipeline(val texts, val align) -> val {
  return guarded([&] {
    if (texts.isUndefined() || texts.isNull() || !texts.isArray())
      throw pipesim::Error(pipesim::ErrorCode::usage, "a measured pipeline needs an array of profiler traces, one per rank");
    const auto traces = pipesim::frontend::read_traces(
        texts["length"].as<std::size_t>(), [&](std::size_t i) { return text_arg(texts[i], "profiler trace"); },
        [](std::size_t i) { return "trace " + std::to_string(i + 1) + ": "; }, "a measured pipeline");
    const auto clock = pipesim::frontend::parse_clock(align.isUndefined() ? "profiler" : text_arg(align, "align"), "align");
    const auto m = pipesim::measure_pipeline(traces, {}, clock);
    return from_json(pipesim::measured_pipeline_json(m));
  });
}

/// A schedule run on a model and cluster (a planner file's JSON text): `pipesim simulate --model FILE
/// --schedule S [--micro-batches M] [--virtual-stages V] [--layers-per-stage L] --format summary`,
/// each rank's memory_bytes with its activation curve ([[time, bytes], ...]) for the Memory tab. The
/// pipeline size is the file's model.pp; microBatches defaults to its model.micro_batches.
auto simulate_model(val request) -> val {
  return guarded([&] {
    if (request.isUndefined() || request.isNull() || request.typeOf().as<std::string>() != "object")
      throw pipesim::Error(pipesim::ErrorCode::usage, "a model run must be an object {schedule, model}: model is a planner file's JSON text");
    const pipesim::PlanInput input =
        reading("model", [&] { return pipesim::parse_plan_input(text_field(request, "model", pipesim::limits::max_small_json_bytes)); });
    pipesim::RunRequest r;
    if (const std::string name = text_field(request, "schedule"); !name.empty()) r.schedule = name;
    r.params.micro_batches =
        reading("micro_batches", [&] { return int_field(request, "microBatches", "micro-batches", input.model.micro_batches); });
    r.params.virtual_stages =
        reading("virtual_stages", [&] { return int_field(request, "virtualStages", "virtual stages", r.params.virtual_stages); });
    const std::string layers_text = text_field(request, "layersPerStage");
    const std::vector<int> layers = layers_text.empty() ? std::vector<int>{} : pipesim::parse_layers_per_stage(layers_text);
    const pipesim::ModelDivision division = pipesim::model_request(input, r, layers);
    const pipesim::Run run = pipesim::run(r);
    nlohmann::json out = pipesim::model_run_json(division, run, pipesim::Detail::summary);
    const nlohmann::json curves = pipesim::memory_json(pipesim::rank_memory(division, run.schedule, run.timeline), true);
    for (std::size_t i = 0; i < out["per_rank"].size(); ++i) out["per_rank"][i]["memory_bytes"] = curves["per_rank"][i];
    return from_json(out);
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
  emscripten::function("overlapTrace", &overlap_trace);
  emscripten::function("measuredPipeline", &measured_pipeline);
  emscripten::function("simulateModel", &simulate_model);
  emscripten::function("provideCourseData", &provide_course_data);
  emscripten::function("version", &version);
}
