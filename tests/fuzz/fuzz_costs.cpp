// Cost strings, as typed after --cost and in the page's cost field: "F=1,B=2,W=1,FB=3,comm=0".
#include <cmath>

#include "fuzz_support.h"
#include "pipesim/costs.h"

namespace {

auto same_costs(const pipesim::Costs& a, const pipesim::Costs& b) -> bool {
  return a.f == b.f && a.b == b.b && a.w == b.w && a.fb == b.fb && a.comm == b.comm;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace pipesim;
  fuzz::refusing_only_with_error([&] {
    const Costs costs = parse_costs(fuzz::as_text(data, size));
    // Accepted costs are valid, every op lasts a finite time >= 0, and format_costs writes them exactly.
    for (const OpKind kind : {OpKind::F, OpKind::B, OpKind::I, OpKind::W, OpKind::FB})
      fuzz::require(std::isfinite(costs.duration(kind)) && costs.duration(kind) >= 0, "every op lasts a finite time >= 0");
    const std::string written = format_costs(costs);
    try {
      fuzz::require(same_costs(parse_costs(written), costs), "format_costs reads back as the same costs");
    } catch (const Error& e) {
      fuzz::finding("format_costs wrote costs that parse_costs refuses", e.what());
    }
  });
  return 0;
}
