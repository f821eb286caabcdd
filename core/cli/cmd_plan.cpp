#include <iostream>

#include "args.h"
#include "commands.h"
#include "pipesim/course_data.h"
#include "pipesim/error.h"
#include "pipesim/limits.h"
#include "pipesim/planner.h"

namespace pipesim::cli {

auto run_plan(Argv argv) -> int {
  const Args args("plan", argv, {"input", "format", "lang"});
  const auto path = args.text("input");
  if (!path) throw Error(ErrorCode::usage, "plan needs --input FILE.json (or --input - for standard input); see core/data/plan_examples/");
  const std::string format = args.choice_or("format", "text", {"text", "json"});
  const std::string text = read_input("input", *path, limits::max_small_json_bytes);
  PlanInput input = parse_plan_input(text);
  // --lang wins over the file's "language": the same input file serves every reader.
  if (const auto lang = args.text("lang")) input.language = *lang;
  const CourseData course = embedded_course_data();
  const Plan result = plan(course, input);
  if (format == "json") std::cout << plan_json(course, result).dump(2) << "\n";
  else std::cout << render_plan_text(course, result);
  return 0;
}

}  // namespace pipesim::cli
