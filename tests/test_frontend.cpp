// What the pipesim command and the WebAssembly module both do with a measured pipeline's input
// (pipesim/frontend/measured.h): one set of words and refusals for both.
#include <catch2/catch.hpp>

#include <string>

#include "helpers.h"
#include "pipesim/frontend/measured.h"
#include "pipesim/limits.h"

using pipesim::Clock;
using pipesim::Error;
using pipesim::ErrorCode;
namespace frontend = pipesim::frontend;

TEST_CASE("the clock words are profiler and first-ops; another word is refused naming the caller's field", "[frontend]") {
  CHECK(frontend::parse_clock("profiler", "--align") == Clock::profiler);
  CHECK(frontend::parse_clock("first-ops", "align") == Clock::first_ops);
  CHECK_THROWS_MATCHES(frontend::parse_clock("hosts", "align"), Error,
                       Catch::Matchers::Message("align must be one of profiler|first-ops, got 'hosts'"));
  CHECK_THROWS_MATCHES(frontend::parse_clock("Profiler", "--align"), Error, pipesim::test::RefusedAs(ErrorCode::unknown_name));
}

TEST_CASE("a refused trace is named by the caller's label and keeps its code", "[frontend]") {
  const auto text_of = [](std::size_t i) { return i == 1 ? std::string("{\"traceEvents\": 3}") : std::string("{\"schemaVersion\": 1, \"traceEvents\": []}"); };
  const auto label_of = [](std::size_t i) { return "trace " + std::to_string(i + 1) + ": "; };
  try {
    (void)frontend::read_traces(2, text_of, label_of, "a measured pipeline");
    FAIL("the second trace should be refused");
  } catch (const Error& e) {
    CHECK(e.code() == ErrorCode::bad_import);
    CHECK_THAT(e.what(), Catch::Matchers::StartsWith("trace 2: not a profiler trace: traceEvents is not an array"));
  }
}

TEST_CASE("a file that cannot be read is refused in its own words, without the label", "[frontend]") {
  const auto unreadable = [](std::size_t) -> std::string { throw Error(ErrorCode::io, "cannot open 'rank0.json'"); };
  CHECK_THROWS_MATCHES(frontend::read_traces(1, unreadable, [](std::size_t) { return std::string("'rank0.json': "); }, "--measured"),
                       Error, Catch::Matchers::Message("cannot open 'rank0.json'"));
}

TEST_CASE("more traces than the limit are refused before any is read", "[frontend]") {
  const auto n = static_cast<std::size_t>(pipesim::limits::max_profile_trace_files) + 1;
  int reads = 0;
  const auto text_of = [&](std::size_t) { ++reads; return std::string("{}"); };
  CHECK_THROWS_MATCHES(frontend::read_traces(n, text_of, [](std::size_t) { return std::string(); }, "--measured"), Error,
                       Catch::Matchers::Message("--measured takes at most " + std::to_string(pipesim::limits::max_profile_trace_files) +
                                                " traces, one per rank"));
  CHECK(reads == 0);
}
