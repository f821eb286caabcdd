// The course library's refusals name the input they are about (pipesim::Error::field), as the engine's
// do, so a page marks that field without reading the message.
#include <catch2/catch.hpp>

#include <functional>
#include <string>

#include "helpers.h"
#include "pipesim/course_data.h"
#include "pipesim/error.h"
#include "pipesim/lesson.h"
#include "pipesim/overlap.h"
#include "pipesim/overlap_request.h"
#include "pipesim/quiz.h"

namespace {

auto field_of(const std::function<void()>& call) -> std::string {
  try {
    call();
  } catch (const pipesim::Error& e) {
    return e.field();
  }
  FAIL("the call was accepted");
  return {};
}

/// Exercise 1 in English at the default costs, changed by `change`.
auto lesson(const std::function<void(pipesim::LessonRequest&)>& change) -> void {
  pipesim::LessonRequest request;
  change(request);
  (void)pipesim::lesson_exercise(pipesim::test::course_data(), request);
}

/// The chunk model's default request (DeepSeek-V3's workload), changed by `change`.
auto overlap(const std::function<void(pipesim::OverlapRequest&)>& change) -> void {
  pipesim::OverlapRequest request;
  change(request);
  (void)pipesim::run_overlap(pipesim::make_overlap_input(request));
}

const std::string valid_forward = "attn=1,dispatch=1,mlp=1,combine=1";
const std::string valid_backward = "combine=1,mlp_b=1,mlp_w=1,dispatch=1,attn_b=1,attn_w=1";

}  // namespace

TEST_CASE("a lesson refusal names its field: exercise, lang, the cost key, bytes_per_param, gpu_memory_gb") {
  CHECK(field_of([] { lesson([](auto& r) { r.exercise = 5; }); }) == "exercise");
  CHECK(field_of([] { lesson([](auto& r) { r.exercise = 1; r.language = "fr"; }); }) == "lang");
  CHECK(field_of([] { lesson([](auto& r) { r.exercise = 1; r.costs.f = -1; }); }) == "cost.F");
  CHECK(field_of([] { lesson([](auto& r) { r.exercise = 3; r.bytes_per_param = 0; }); }) == "bytes_per_param");
  CHECK(field_of([] { lesson([](auto& r) { r.exercise = 3; r.gpu_memory_gb = -80; }); }) == "gpu_memory_gb");
}

TEST_CASE("a quiz refusal names its field: lang") {
  CHECK(field_of([] { (void)pipesim::course_quiz(pipesim::test::course_data(), "de"); }) == "lang");
  CHECK(field_of([] { (void)pipesim::quiz_bank_in(pipesim::test::course_data(), "EN"); }) == "lang");
}

TEST_CASE("a course data refusal names its field: name") {
  pipesim::CourseData course;
  CHECK(field_of([&] { course.provide("quiz", "{}"); }) == "name");
}

TEST_CASE("a chunk model refusal names the request field it is about") {
  CHECK(field_of([] { overlap([](auto& r) { r.forward = valid_forward; }); }) == "backward");
  CHECK(field_of([] { overlap([](auto& r) { r.backward = valid_backward; }); }) == "forward");
  CHECK(field_of([] { overlap([](auto& r) { r.forward = "attn=1,dispatch=1,mlp=1"; r.backward = valid_backward; }); }) == "forward");
  CHECK(field_of([] { overlap([](auto& r) { r.forward = valid_forward; r.backward = "combine=x"; }); }) == "backward");
  CHECK(field_of([] { overlap([](auto& r) { r.forward = valid_forward; r.backward = valid_backward; r.workload = "{}"; }); }) == "workload");
  CHECK(field_of([] { overlap([](auto& r) { r.workload = "not json"; }); }) == "workload");
  CHECK(field_of([] { overlap([](auto& r) { r.forward = valid_forward; r.backward = valid_backward; r.total_sms = 100; }); }) == "comm_sms");
  CHECK(field_of([] { overlap([](auto& r) { r.comm_sms = 0; }); }) == "comm_sms");
  CHECK(field_of([] { overlap([](auto& r) { r.comm_sms = 20; r.total_sms = 1; }); }) == "total_sms");
  CHECK(field_of([] { overlap([](auto& r) { r.comm_sms = 20; r.saturation_sms = 0; }); }) == "saturation_sms");
  CHECK(field_of([] { overlap([](auto& r) { r.ratio = "1:0"; }); }) == "ratio");
  CHECK(field_of([] { overlap([](auto& r) { r.ratio = "1:1e9"; }); }) == "ratio");
}
