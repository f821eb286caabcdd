// The course module (pipesim_course): the quiz, the lesson exercises and the planner, each the CLI's
// JSON. It is its own module because these calls pull in the learning layer (ordered JSON, the
// texts in three languages, the planner's report), which the page's first drawing never needs: the
// page loads this module the first time the course or the planner asks for it.
#include <cstdint>

#include "bindings_common.h"
#include "pipesim/lesson.h"
#include "pipesim/model_stages.h"
#include "pipesim/planner.h"
#include "pipesim/quiz.h"
#include "detail/embedded.h"  // provide_course_data: the module does not carry core/data/*.json

namespace {

using namespace pipesim_wasm;

/// The course's quiz.json (1 pre, 3 check, 2 post), options shuffled from `seed`: `pipesim quiz --course`.
/// The seed is checked as `--seed` is: a page may hand over NaN, -1 or 2**53 from storage.
auto course_quiz(val lang_arg, val seed) -> val {
  return guarded([&] {
    const std::string lang = text_arg(lang_arg, "lang");
    const int checked = pipesim::parse_whole_in("seed", js_text(seed), 0, pipesim::max_quiz_seed);
    return from_json(pipesim::course_quiz(lang, static_cast<std::uint64_t>(checked)));
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
    return from_json(pipesim::lesson_exercise(r));
  });
}

/// The planner on a JSON input, explained in `lang` (`pipesim plan --input FILE --format json --lang L`).
auto plan(val input, val lang) -> val {
  return guarded([&] { return from_json(pipesim::plan_from_json(text_arg(input, "plan input"), text_arg(lang, "lang"))); });
}

/// One schedule timed with a planner model's per-stage costs and bytes: `pipesim simulate --model FILE
/// --format summary`. Request: {model: the file's JSON text, schedule, microBatches (default the
/// file's model.micro_batches), virtualStages, layersPerStage ("7,9,9,7"; default balanced),
/// customSchedule}. The pipeline size is the model's model.pp.
auto simulate_model(val request) -> val {
  return guarded([&] {
    if (request.isUndefined() || request.isNull() || request.typeOf().as<std::string>() != "object")
      throw pipesim::Error(pipesim::ErrorCode::usage, "a request must be an object like {model: '{...}', schedule: 'dualpipe'}");
    const pipesim::PlanInput input = pipesim::parse_plan_input(text_arg(request["model"], "model"));
    pipesim::RunRequest r;
    if (const std::string name = text_field(request, "schedule"); !name.empty()) r.schedule = name;
    r.params.micro_batches = int_field(request, "microBatches", "micro-batches", input.model.micro_batches);
    r.params.virtual_stages = int_field(request, "virtualStages", "virtual stages", r.params.virtual_stages);
    r.custom_schedule = text_field(request, "customSchedule");
    const std::string layers = text_field(request, "layersPerStage");
    const pipesim::ModelDivision division =
        pipesim::model_request(input, r, layers.empty() ? std::vector<int>{} : pipesim::parse_layers_per_stage(layers));
    return from_json(pipesim::model_run_json(division, pipesim::run(r), pipesim::Detail::summary));
  });
}

/// Hands over core/data/NAME.json, which this module does not carry (detail/provided_data.cpp): the
/// page loads it the first time a quiz, lesson or planner call needs it.
auto provide_course_data(val name, val text) -> val {
  return guarded([&] {
    pipesim::detail::provide_course_data(text_arg(name, "course data name"), text_arg(text, "course data"));
    return val::undefined();
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(pipesim_course) {
  emscripten::function("courseQuiz", &course_quiz);
  emscripten::function("lesson", &lesson);
  emscripten::function("plan", &plan);
  emscripten::function("simulateModel", &simulate_model);
  emscripten::function("provideCourseData", &provide_course_data);
  emscripten::function("version", &version);
}
