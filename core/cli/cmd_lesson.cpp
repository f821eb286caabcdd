#include <iostream>

#include "args.h"
#include "commands.h"
#include "pipesim/course_data.h"
#include "pipesim/lesson.h"

namespace pipesim::cli {

auto run_lesson(Argv argv) -> int {
  const Args args("lesson", argv, {"exercise", "format", "lang", "cost", "bytes-per-param", "gpu-memory-gb"});
  LessonRequest request;
  request.exercise = args.integer_or("exercise", 1, 1, 4);
  request.language = args.text_or("lang", "en");
  if (const auto cost = args.text("cost")) request.costs = parse_costs(*cost);
  request.bytes_per_param = args.number_or("bytes-per-param", 2, 0.125, 64);
  request.gpu_memory_gb = args.number_or("gpu-memory-gb", 80, 1, 100'000);
  const std::string format = args.choice_or("format", "text", {"text", "json"});
  const CourseData course = embedded_course_data();
  const auto exercise = lesson_exercise(course, request);
  if (format == "json") std::cout << exercise.dump(2) << "\n";
  else std::cout << render_lesson_text(course, exercise);
  return 0;
}

}  // namespace pipesim::cli
