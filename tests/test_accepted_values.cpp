// accepted_values(): the sizes a control may offer, read from the schedules' own checks, so that a
// slider stepping through them is never refused.
#include <catch2/catch.hpp>
#include <vector>

#include "pipesim/error.h"
#include "pipesim/registry.h"
#include "pipesim/run.h"

using namespace pipesim;

namespace {

auto values(const char* name, ScheduleParams p, SizeField field, int from, int to) -> std::vector<int> {
  return accepted_values(name, p, field, from, to);
}

auto evens(int from, int to) -> std::vector<int> {
  std::vector<int> out;
  for (int v = from; v <= to; v += 2) out.push_back(v);
  return out;
}

}  // namespace

TEST_CASE("DualPipe at 8 ranks accepts the even micro-batch counts from 16: 57 of 1..128") {
  const auto mb = values("dualpipe", {8, 20, 1}, SizeField::micro_batches, 1, 128);
  CHECK(mb == evens(16, 128));
  CHECK(mb.size() == 57);  // the other 71 slider positions are the ones the engine refuses
}

TEST_CASE("DualPipe with 20 micro-batches accepts the even rank counts up to 10") {
  CHECK(values("dualpipe", {8, 20, 1}, SizeField::ranks, 1, 32) == evens(2, 10));
}

TEST_CASE("DualPipeV accepts at least twice its ranks in micro-batches, odd ones too") {
  const auto mb = values("dualpipev", {4, 20, 1}, SizeField::micro_batches, 1, 12);
  CHECK(mb == std::vector<int>{8, 9, 10, 11, 12});
}

TEST_CASE("1F1B accepts every size, and no virtual stages but 1") {
  const auto mb = values("1f1b", {8, 20, 1}, SizeField::micro_batches, 1, 128);
  CHECK(mb.size() == 128);
  CHECK(values("1f1b", {8, 20, 1}, SizeField::virtual_stages, 1, 8) == std::vector<int>{1});
}

TEST_CASE("interleaved 1F1B accepts 2 or more virtual stages") {
  const auto vs = values("interleaved-1f1b", {4, 8, 2}, SizeField::virtual_stages, 1, 8);
  REQUIRE_FALSE(vs.empty());
  CHECK(vs.front() == 2);
}

TEST_CASE("every accepted value runs, and every value left out is refused by run()") {
  for (const ScheduleSpec* spec : schedules()) {
    if (spec->given_as_text) continue;
    const ScheduleParams base{4, 8, spec->uses_virtual_stages ? 2 : 1};
    const auto accepted = accepted_values(spec->name, base, SizeField::micro_batches, 1, 24);
    for (int m = 1; m <= 24; ++m) {
      RunRequest request;
      request.schedule = std::string(spec->name);
      request.params = {base.ranks, m, base.virtual_stages};
      const bool offered = std::find(accepted.begin(), accepted.end(), m) != accepted.end();
      INFO(spec->name << " with " << m << " micro-batches");
      if (offered) CHECK_NOTHROW(run(request));
      else CHECK_THROWS_AS(run(request), Error);
    }
  }
}

TEST_CASE("a custom schedule offers no sizes, and an unknown name is refused") {
  CHECK(values("custom", {4, 8, 1}, SizeField::ranks, 1, 32).empty());
  CHECK_THROWS_AS(values("nope", {4, 8, 1}, SizeField::ranks, 1, 32), Error);
}

TEST_CASE("a formula's worked text rounds its numbers as a person writes them; its value keeps every bit") {
  RunRequest request;
  request.schedule = "dualpipe";
  request.params = {8, 20, 1};
  request.costs = parse_costs("F=1,B=1.1,W=0.1,FB=1.2");
  const Run r = run(request);
  // (8/2-1)(1.2+1.1-3*0.1) is 5.999999999999999 in binary floating point.
  CHECK(r.formula.value == 3 * (1.2 + 1.1 - 3 * 0.1));
  CHECK(r.formula.worked == "(8/2-1)(1.2+1.1-3*0.1) = 6");
}

namespace {

/// The key and parameters a refused request carries for other languages.
auto wording_of(const char* schedule, ScheduleParams p, const char* cost = "F=1,B=2,W=1,FB=3") -> Wording {
  try {
    RunRequest request;
    request.schedule = schedule;
    request.params = p;
    request.costs = parse_costs(cost);
    (void)run(request);
  } catch (const Error& e) {
    return e.wording();
  }
  return {};
}

auto param(const Wording& w, const std::string& name) -> std::string {
  for (const auto& [k, v] : w.params)
    if (k == name) return v;
  return "(absent)";
}

}  // namespace

TEST_CASE("a schedule rule's refusal carries its key and the sizes it quotes, its English message unchanged") {
  const Wording odd = wording_of("dualpipe", {7, 20, 1});
  CHECK(odd.key == "dualpipe.even_ranks");
  CHECK(param(odd, "ranks") == "7");
  const Wording few = wording_of("dualpipe", {8, 14, 1});
  CHECK(few.key == "dualpipe.micro_batches");
  CHECK(param(few, "micro_batches") == "14");
  CHECK(wording_of("dualpipev", {4, 6, 1}).key == "dualpipev.micro_batches");
  CHECK(wording_of("chimera", {4, 6, 1}).key == "chimera.micro_batches");
  CHECK(param(wording_of("interleaved-1f1b", {4, 9, 2}), "rounds") == "2");  // max(1, 9 / 4) rounds; 9 is not a multiple
  CHECK(wording_of("interleaved-1f1b", {4, 8, 1}).key == "interleaved.virtual_stages");
  CHECK(wording_of("1f1b", {4, 8, 2}).key == "size.virtual_stages_unused");
  CHECK(wording_of("nope", {4, 8, 1}).key == "schedule.unknown");
  CHECK(wording_of("1f1b", {0, 8, 1}).key == "size.at_least_1");
  CHECK(param(wording_of("1f1b", {0, 8, 1}), "field") == "ranks");
  CHECK_THROWS_MATCHES(build_schedule("dualpipe", {7, 20, 1}), Error,
                       Catch::Matchers::Message("dualpipe needs an even number of ranks, at least 2: rank r is paired with rank N-1-r (got 7 ranks)"));
}

TEST_CASE("a cost refusal carries its key and values") {
  const Wording fb = wording_of("1f1b", {4, 8, 1}, "F=1,B=6,W=1,FB=3");
  CHECK(fb.key == "cost.fb_range");
  CHECK(param(fb, "lo") == "6");
  CHECK(param(fb, "hi") == "7");
  CHECK(wording_of("1f1b", {4, 8, 1}, "F=1,B=1,W=2,FB=2").key == "cost.w_exceeds_b");
}
