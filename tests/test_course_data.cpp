// The course data is a value the caller holds (pipesim/course_data.h): no process-wide copy, so two
// values never see each other's files, and a call names the file it lacks.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>

#include "helpers.h"
#include "pipesim/course_data.h"
#include "pipesim/lesson.h"
#include "pipesim/planner.h"
#include "pipesim/quiz.h"

using pipesim::CourseData;
using pipesim::Error;
using pipesim::ErrorCode;

namespace {

/// core/data/NAME.json as the page loads it.
auto data_file(const std::string& name) -> std::string {
  std::ifstream in(std::string(PIPESIM_DATA_DIR) + "/" + name + ".json");
  REQUIRE(in.good());
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

}  // namespace

TEST_CASE("an empty course data refuses each course call with usage, naming the file it lacks", "[course-data]") {
  const CourseData empty;
  for (const char* name : {"quiz_bank", "lesson_text", "planner_text"}) CHECK_FALSE(empty.has(name));
  CHECK_THROWS_MATCHES(pipesim::course_quiz(empty, "en"), Error,
                       Catch::Matchers::Message("the course data quiz_bank (core/data/quiz_bank.json) was not provided: call provideCourseData first"));
  CHECK_THROWS_MATCHES(pipesim::lesson_exercise(empty, pipesim::LessonRequest{}), Error, pipesim::test::RefusedAs(ErrorCode::usage));
  CHECK_THROWS_WITH(pipesim::plan_from_json(empty, data_file("plan_examples/deepseek-v3")),
                    Catch::Matchers::Contains("core/data/planner_text.json) was not provided"));
}

TEST_CASE("a course data given its files answers as the compiled-in copy does", "[course-data]") {
  CourseData course;
  course.provide("quiz_bank", data_file("quiz_bank"));
  CHECK(course.has("quiz_bank"));
  CHECK_FALSE(course.has("lesson_text"));
  CHECK(pipesim::course_quiz(course, "pt-BR") == pipesim::course_quiz(pipesim::test::course_data(), "pt-BR"));
  course.provide("lesson_text", data_file("lesson_text"));
  pipesim::LessonRequest request;
  request.exercise = 2;
  CHECK(pipesim::lesson_exercise(course, request) == pipesim::lesson_exercise(pipesim::test::course_data(), request));
}

TEST_CASE("course data values are independent: a file given to one is not seen by another or by earlier copies", "[course-data]") {
  CourseData first;
  const CourseData before = first;
  first.provide("planner_text", data_file("planner_text"));
  CHECK(first.has("planner_text"));
  CHECK_FALSE(before.has("planner_text"));
  CHECK_FALSE(CourseData().has("planner_text"));
}

TEST_CASE("a course file that is refused leaves the course data as it was", "[course-data]") {
  CourseData course;
  course.provide("quiz_bank", data_file("quiz_bank"));
  CHECK_THROWS_MATCHES(course.provide("quiz", "{}"), Error,
                       Catch::Matchers::Message("unknown course data 'quiz': expected quiz_bank, lesson_text or planner_text"));
  CHECK_THROWS_MATCHES(course.provide("quiz_bank", "{not json"), Error,
                       Catch::Matchers::Message("quiz bank: core/data/quiz_bank.json is not valid JSON"));
  CHECK_THROWS_MATCHES(course.provide("quiz_bank", R"({"lesson": "x"})"), Error, pipesim::test::RefusedAs(ErrorCode::internal));
  CHECK(pipesim::quiz_bank(course) == pipesim::quiz_bank(pipesim::test::course_data()));
}
