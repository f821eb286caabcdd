// Numbers as people type them into options and fields: parse_finite, parse_whole_in, parse_number_in.
// The whole input is the text; it is read against the ranges the CLI and the page use.
#include <climits>
#include <cmath>
#include <string>

#include "fuzz_support.h"
#include "pipesim/parse.h"

namespace {

struct WholeRange {
  int lo;
  int hi;
};
struct NumberRange {
  double lo;
  double hi;
};

// --ranks, a 31-bit JavaScript integer, the whole int range, and a range around 0.
constexpr WholeRange whole_ranges[] = {{1, 4096}, {0, 2'147'483'647}, {INT_MIN, INT_MAX}, {-5, 5}};
// --us-per-unit, a range that is one point, and the whole finite range.
constexpr NumberRange number_ranges[] = {{0.001, 1e9}, {0, 0}, {-1.7976931348623157e308, 1.7976931348623157e308}};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace pipesim;
  const std::string_view text = fuzz::as_text(data, size);
  const auto finite = parse_finite(text);
  if (finite) fuzz::require(std::isfinite(*finite), "parse_finite gives finite numbers only");
  for (const WholeRange r : whole_ranges)
    fuzz::refusing_only_with_error([&] {
      const int v = parse_whole_in("n", text, r.lo, r.hi);
      fuzz::require(r.lo <= v && v <= r.hi, "parse_whole_in stays in its range");
      fuzz::require(finite && *finite == v, "a whole number parse_whole_in accepts is the number parse_finite reads");
    });
  for (const NumberRange r : number_ranges)
    fuzz::refusing_only_with_error([&] {
      const double v = parse_number_in("x", text, r.lo, r.hi);
      fuzz::require(r.lo <= v && v <= r.hi, "parse_number_in stays in its range");
      fuzz::require(finite && *finite == v, "parse_number_in reads what parse_finite reads");
    });
  return 0;
}
