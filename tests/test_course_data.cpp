// The course data is a value the caller holds (pipesim/course_data.h): no process-wide copy, so two
// values never see each other's files, and a call names the file it lacks.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "helpers.h"
#include "pipesim/course_data.h"
#include "pipesim/language.h"
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

TEST_CASE("a lesson or planner text its readers cannot use is refused with the reason, keeping the file held before", "[course-data]") {
  CourseData course;
  course.provide("lesson_text", data_file("lesson_text"));
  course.provide("planner_text", data_file("planner_text"));
  const auto lesson_refusal = [&](const std::string& text) -> std::string {
    try {
      course.provide("lesson_text", text);
    } catch (const Error& e) {
      CHECK(e.code() == ErrorCode::internal);
      return e.what();
    }
    return "accepted";
  };
  CHECK(lesson_refusal("[1]") == "lesson text: core/data/lesson_text.json is not the course's file: the top level must be an object");
  CHECK(lesson_refusal(R"({"common": {}})") == "lesson text: core/data/lesson_text.json is not the course's file: its \"version\" must be 1");
  CHECK(lesson_refusal(R"({"version": 1, "common": {}})") ==
        "lesson text: core/data/lesson_text.json is not the course's file: no \"exercise_1\" section");

  // The shipped file with one change, and why it is refused (after "... is not the course's file: ").
  const auto shipped_with = [&](auto&& change) -> std::string {
    nlohmann::json text = nlohmann::json::parse(data_file("lesson_text"));
    change(text);
    const std::string refusal = lesson_refusal(text.dump());
    const std::string prefix = "lesson text: core/data/lesson_text.json is not the course's file: ";
    return refusal.rfind(prefix, 0) == 0 ? refusal.substr(prefix.size()) : refusal;
  };
  // Every text must be in every course language; an empty or a null translation is no translation.
  // The text is named by its path, array places included.
  CHECK(shipped_with([](auto& t) { t["exercise_2"]["question"].erase("zh-CN"); }) ==
        "exercise_2.question has no zh-CN text: every text is in every course language (en, pt-BR, zh-CN), each a non-empty string");
  CHECK(shipped_with([](auto& t) { t["common"]["answer"]["pt-BR"] = ""; }) ==
        "common.answer has no pt-BR text: every text is in every course language (en, pt-BR, zh-CN), each a non-empty string");
  CHECK(shipped_with([](auto& t) { t["common"]["answer"] = {{"en", ""}, {"pt-BR", nullptr}, {"zh-CN", 1}}; }) ==
        "common.answer has no en text: every text is in every course language (en, pt-BR, zh-CN), each a non-empty string");
  CHECK(shipped_with([](auto& t) { t["exercise_1"]["assumptions"][0]["zh-CN"] = nullptr; }) ==
        "exercise_1.assumptions[0] has no zh-CN text: every text is in every course language (en, pt-BR, zh-CN), each a non-empty string");
  // A translation that names other placeholders would print a hole, or fail, in that language only.
  CHECK(shipped_with([](auto& t) { t["common"]["sum_busy"]["zh-CN"] = "{rank} 个 rank 的运算时间之和"; }) ==
        "common.sum_busy: its zh-CN text names {rank}, its en text {ranks}");
  // ... and with a text an exercise reads gone: the shape holds, the exercise cannot be written.
  CHECK_THAT(shipped_with([](auto& t) { t["exercise_3"].erase("question"); }), Catch::Matchers::StartsWith("exercise 3: "));
  // ... or with a placeholder the exercise has no value for, in every language alike.
  CHECK(shipped_with([](auto& t) {
          for (const std::string_view lang : pipesim::languages) t["exercise_4"]["engine_cell"][std::string(lang)] = "{bogus}";
        }) == "exercise 4: course data: no value for placeholder {bogus}");

  nlohmann::json planner = nlohmann::json::parse(data_file("planner_text"));
  planner.erase("counts");
  CHECK_THROWS_MATCHES(course.provide("planner_text", planner.dump()), Error,
                       Catch::Matchers::Message("planner text: core/data/planner_text.json is not the course's file: no \"counts\" section"));
  CHECK_THROWS_MATCHES(course.provide("planner_text", R"({"a": 1})"), Error,
                       Catch::Matchers::Message("planner text: core/data/planner_text.json is not the course's file: its \"version\" must be 1"));

  // Nothing refused was kept: both files still answer as the compiled-in copies do.
  for (int exercise = 1; exercise <= 4; ++exercise) {
    pipesim::LessonRequest request;
    request.exercise = exercise;
    request.language = "zh-CN";
    CHECK(pipesim::lesson_exercise(course, request) == pipesim::lesson_exercise(pipesim::test::course_data(), request));
  }
  CHECK(pipesim::plan_from_json(course, data_file("plan_examples/deepseek-v3")) ==
        pipesim::plan_from_json(pipesim::test::course_data(), data_file("plan_examples/deepseek-v3")));
}
