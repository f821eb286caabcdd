#include <iostream>

#include "args.h"
#include "commands.h"
#include "pipesim/course_data.h"
#include "pipesim/error.h"
#include "pipesim/quiz.h"

namespace pipesim::cli {

auto run_quiz(Argv argv) -> int {
  const Args args("quiz", argv, {"course", "bank", "lang", "seed"}, {"course", "bank"});
  if (args.has("course") == args.has("bank"))
    throw Error(ErrorCode::usage, "quiz needs exactly one of --course (the course's quiz.json) or --bank (every question)");
  if (args.has("course")) {
    if (args.has("seed"))
      throw Error(ErrorCode::usage, "--seed no longer applies: --course orders the options as the course's scripts/debias_quizzes.py requires");
    std::cout << course_quiz(embedded_course_data(), args.text_or("lang", "en")).dump(2) << "\n";
    return 0;
  }
  if (args.has("seed")) throw Error(ErrorCode::usage, "--seed applies to --course only: the bank keeps its options in stored order");
  const auto lang = args.text("lang");
  const CourseData course = embedded_course_data();
  std::cout << (lang ? quiz_bank_in(course, *lang) : quiz_bank(course)).dump(2) << "\n";
  return 0;
}

}  // namespace pipesim::cli
