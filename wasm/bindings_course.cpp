// The course module (pipesim_course): the quiz, the lesson exercises and the planner, each the CLI's
// JSON. It is its own module because these calls pull in the learning layer (ordered JSON, the
// texts in three languages, the planner's report), which the page's first drawing never needs: the
// page loads this module the first time the course or the planner asks for it.
#include <cstdint>

#include "bindings_common.h"
#include "pipesim/lesson.h"
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
  emscripten::function("provideCourseData", &provide_course_data);
  emscripten::function("version", &version);
}
