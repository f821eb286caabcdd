#include <cstdio>
#include <iostream>

#include "args.h"
#include "commands.h"
#include "pipesim/course_data.h"
#include "pipesim/error.h"
#include "pipesim/limits.h"
#include "pipesim/planner.h"

namespace pipesim::cli {

namespace {

/// The most configurations `plan --search` prints.
constexpr std::size_t search_shown = 20;

/// --search: every schedule, pipeline size, virtual stages and lighter ends (planner.h: plan_search),
/// the fastest first.
auto print_search(const PlanInput& input, const std::string& format) -> int {
  const SearchResult result = plan_search(input, {}, search_shown);
  if (format == "json") {
    std::cout << search_json(result).dump(2) << "\n";
    return 0;
  }
  std::printf("%zu configurations run, %zu refused, %zu with a layout already run; the fastest:\n", result.configurations,
              result.refused, result.same_layout);
  std::printf("%-24s %4s %6s %4s %2s %4s %12s %7s %12s %13s %9s %s\n", "schedule", "pp", "mb", "mbs", "v", "ends",
              "makespan_ms", "bubble", "allreduce_ms", "iteration_ms", "peak_gb", "fits");
  for (const SearchPoint& p : result.best)
    std::printf("%-24s %4d %6d %4d %2d %4d %12.1f %6.1f%% %12.1f %13.1f %9.1f %s\n",
                p.pipeline ? p.schedule.c_str() : "(no pipeline parallelism)", p.pp, p.micro_batches, p.micro_batch_size,
                p.virtual_stages, -p.lighter_ends, p.makespan_ms, 100 * p.bubble_fraction, p.allreduce_ms, p.iteration_ms,
                p.peak_gb, p.fits ? "yes" : "no");
  return 0;
}

}  // namespace

auto run_plan(Argv argv) -> int {
  const Args args("plan", argv, {"input", "format", "lang", "search"}, {"search"});
  const auto path = args.text("input");
  if (!path) throw Error(ErrorCode::usage, "plan needs --input FILE.json (or --input - for standard input); see core/data/plan_examples/");
  const std::string format = args.choice_or("format", "text", {"text", "json"});
  const std::string text = read_input("input", *path, limits::max_small_json_bytes);
  PlanInput input = parse_plan_input(text);
  // --lang wins over the file's "language": the same input file serves every reader.
  if (const auto lang = args.text("lang")) input.language = *lang;
  if (args.has("search")) return print_search(input, format);
  const CourseData course = embedded_course_data();
  const Plan result = plan(course, input);
  if (format == "json") std::cout << plan_json(course, result).dump(2) << "\n";
  else std::cout << render_plan_text(course, result);
  return 0;
}

}  // namespace pipesim::cli
