#pragma once
// Shared test helpers: readable op lists and one-line runs.
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

// The library returns JSON as pipesim::JsonDocument; the suite reads it with nlohmann/json (the
// document converts: nlohmann::json j = to_json(run, detail);).
#include <nlohmann/json.hpp>

#include "pipesim/course_data.h"
#include "pipesim/error.h"
#include "pipesim/run.h"

namespace pipesim::test {

/// The wording (key and parameters) of the refusal `call` throws: what the page words it from. Fails
/// the test when `call` is accepted.
template <class Call>
auto refused_wording(const Call& call) -> Wording {
  try {
    call();
  } catch (const Error& e) {
    return e.wording();
  }
  FAIL("accepted");
  return {};
}

/// The compiled-in course data, parsed once for the suite: what the CLI's quiz, lesson and plan read.
inline auto course_data() -> const CourseData& {
  static const CourseData course = embedded_course_data();
  return course;
}

/// The ops of one rank in `describe` notation, space separated: "F0 F1 FB(F3,B1.1) W2".
inline auto program(const Schedule& s, int rank) -> std::string {
  std::string out;
  for (const Op& op : s.ops_of(rank)) out += (out.empty() ? "" : " ") + describe(op);
  return out;
}

inline auto run_unit(const std::string& schedule, int ranks, int micro_batches, int virtual_stages = 1) -> Run {
  RunRequest request;
  request.schedule = schedule;
  request.params = {ranks, micro_batches, virtual_stages};
  request.costs = default_costs();  // F=1, B=2, W=1, FB=3: the unit costs of the papers' figures
  return run(request);
}

/// Matches a pipesim::Error by its code and exact message: CHECK_THROWS_MATCHES(expr, Error, Refused(code, text)).
class Refused : public Catch::MatcherBase<Error> {
 public:
  Refused(ErrorCode code, std::string message) : code_(code), message_(std::move(message)) {}
  auto match(const Error& e) const -> bool override { return e.code() == code_ && e.what() == message_; }
  auto describe() const -> std::string override {
    return "is error[" + std::string(code_name(code_)) + "]: \"" + message_ + "\"";
  }

 private:
  ErrorCode code_;
  std::string message_;
};

/// Matches a pipesim::Error by its code alone, for messages other tests spell out.
class RefusedAs : public Catch::MatcherBase<Error> {
 public:
  explicit RefusedAs(ErrorCode code) : code_(code) {}
  auto match(const Error& e) const -> bool override { return e.code() == code_; }
  auto describe() const -> std::string override { return "is error[" + std::string(code_name(code_)) + "]"; }

 private:
  ErrorCode code_;
};

inline auto costs(double f, double b, double w, double fb, double comm = 0) -> Costs { return Costs{f, b, w, fb, comm}; }

/// The text of the planner example NAME (core/data/plan_examples/NAME); fails the test if it is missing.
/// Defined once for the files that read them, so that the suite builds as one translation unit too.
inline auto example(const std::string& name) -> std::string {
  std::ifstream in(std::string(PIPESIM_DATA_DIR) + "/plan_examples/" + name);
  REQUIRE(in.good());
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

}  // namespace pipesim::test
