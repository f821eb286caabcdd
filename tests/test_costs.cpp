#include <catch2/catch.hpp>

#include "pipesim/costs.h"
#include "pipesim/error.h"

using pipesim::Error;
using pipesim::parse_costs;

TEST_CASE("costs default to the figures' F=1 B=2 W=1 FB=3 comm=0") {
  const auto c = pipesim::default_costs();
  CHECK(c.f == 1);
  CHECK(c.b == 2);
  CHECK(c.w == 1);
  CHECK(c.fb == 3);
  CHECK(c.comm == 0);
  CHECK(c.i() == 1);
}

TEST_CASE("parse_costs reads any subset of keys, case-insensitively, and F&B as FB") {
  const auto c = parse_costs("f=2, B=3.5,W=0.5,F&B=4,comm=0.25");
  CHECK(c.f == 2);
  CHECK(c.b == 3.5);
  CHECK(c.w == 0.5);
  CHECK(c.fb == 4);
  CHECK(c.comm == 0.25);
  CHECK(c.duration(pipesim::OpKind::I) == 3);
}

TEST_CASE("an omitted FB means no overlap credit: FB = F + B") {
  CHECK(parse_costs("F=1,B=2,W=1").fb == 3);
  CHECK(parse_costs("F=2,B=4,W=1").fb == 6);
}

TEST_CASE("bad costs are refused with a message that says what is allowed") {
  CHECK_THROWS_WITH(parse_costs("F=-1"), "cost F must be a finite number >= 0, got -1");
  CHECK_THROWS_WITH(parse_costs("F=abc"), "cost F must be a number, got 'abc'");
  CHECK_THROWS_WITH(parse_costs("W=3"), Catch::Contains("W (3) must not exceed B (2)"));
  CHECK_THROWS_WITH(parse_costs("F=1,B=2,FB=1.5"), Catch::Contains("FB (1.5) must lie in [max(F,B), F+B] = [2, 3]"));
  CHECK_THROWS_WITH(parse_costs("F=1,B=2,FB=3.5"), Catch::Contains("[2, 3]"));
  CHECK_THROWS_WITH(parse_costs("X=1"), "unknown cost 'X'; known costs are F, B, W, FB, comm");
  CHECK_THROWS_WITH(parse_costs("F"), Catch::Contains("must be KEY=VALUE"));
  CHECK_THROWS_AS(parse_costs("F=inf"), Error);
  CHECK_THROWS_AS(parse_costs("F=nan"), Error);
}

TEST_CASE("format_number prints the shortest exact decimal") {
  CHECK(pipesim::format_number(66) == "66");
  CHECK(pipesim::format_number(2.5) == "2.5");
  CHECK(pipesim::format_number(0.1) == "0.1");
  CHECK(pipesim::format_number(100) == "100");
  CHECK(pipesim::format_costs(pipesim::default_costs()) == "F=1,B=2,W=1,FB=3,comm=0");
}

TEST_CASE("costs stay in a range where every sum of a run is finite and normal") {
  CHECK_THROWS_WITH(parse_costs("F=5e-324,B=0,W=0"), "cost F must be 0 or between 0.000001 and 1000000000000, got 5e-324");
  CHECK_THROWS_WITH(parse_costs("F=1e308,B=1e308"), Catch::StartsWith("cost F must be 0 or between 0.000001 and 1000000000000"));
  CHECK_THROWS_WITH(parse_costs("F=0,B=0,W=0"), "costs F and B cannot both be 0: a pipeline with no work has no timeline");
  CHECK_THROWS_WITH(parse_costs("F=1e-6,B=1e-6,W=0,FB=1e-4"), Catch::Contains("must lie in [max(F,B), F+B]"));
  CHECK_NOTHROW(parse_costs("F=0,B=2,W=1"));
  CHECK_NOTHROW(parse_costs("F=1e12,B=1e12,W=0"));
  CHECK(parse_costs("F=0.1,B=0.2,W=0.1").fb == 0.1 + 0.2);  // F + B itself is always inside the range
}

TEST_CASE("a cost given twice is refused, whatever its spelling") {
  CHECK_THROWS_WITH(parse_costs("F=1,F=2"), "cost F is given twice");
  CHECK_THROWS_WITH(parse_costs("FB=3,F&B=2.5"), "cost F&B is given twice");
  CHECK_THROWS_WITH(parse_costs("comm=1,c=2"), "cost c is given twice");
}

TEST_CASE("an error message stays one printable line whatever the user typed") {
  CHECK(std::string(pipesim::Error(pipesim::ErrorCode::bad_value, "bad token 'a\nb\x1b[2J'").what()) == "bad token 'a\\nb\\x1b[2J'");
  CHECK_THROWS_WITH(parse_costs("F=1\n2"), "cost F must be a number, got '1\\n2'");
}
