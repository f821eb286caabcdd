// The chunk model's inputs, one per line, as the CLI's `overlap` options and the page's knobs take them:
//   line 1  forward durations   attn=1,dispatch=2,mlp=1,combine=2
//   line 2  backward durations  combine=2,mlp_b=1,mlp_w=1,dispatch=2,attn_b=1,attn_w=1
//   line 3  pipeline send       0.5
//   line 4  SM split            COMM TOTAL SATURATION (whole numbers; fewer words leave the rest unset)
//   line 5  compute:comm ratio  1:1
//   rest    workload JSON       {"tokens": 4096, ...}
// Each parser reads its own piece, then the pieces form one OverlapRequest that is simulated and
// written out, the way `pipesim overlap` and the page's "Inside a chunk" view do.
#include <cmath>
#include <string>

#include <nlohmann/json.hpp>

#include "fuzz_support.h"
#include "pipesim/overlap.h"
#include "pipesim/overlap_request.h"
#include "pipesim/parse.h"
#include "pipesim/workload.h"

namespace {

using pipesim::fuzz::refusing_only_with_error;
using pipesim::fuzz::require;

auto given(std::string_view piece) -> std::optional<std::string> {
  return piece.empty() ? std::nullopt : std::optional<std::string>(piece);
}

void check_each_parser(std::string_view forward, std::string_view backward, std::string_view ratio,
                       std::string_view workload) {
  using namespace pipesim;
  refusing_only_with_error([&] { (void)parse_forward_durations(forward); });
  refusing_only_with_error([&] { (void)parse_backward_durations(backward); });
  refusing_only_with_error([&] {
    const double r = parse_compute_comm_ratio(ratio);
    require(std::isfinite(r) && r > 0, "a compute:comm ratio is a finite number > 0");
  });
  refusing_only_with_error([&] {
    const Workload w = parse_workload(workload);
    const nlohmann::json written = workload_json(w);
    try {
      require(nlohmann::json(workload_json(parse_workload(written.dump()))) == written, "workload_json reads back as the same workload");
    } catch (const Error& e) {
      fuzz::finding("workload_json wrote a workload that parse_workload refuses", e.what());
    }
  });
}

void check_overlap(const pipesim::Overlap& o) {
  using namespace pipesim;
  constexpr double slack = 1e-9;
  require(o.fb >= std::max(o.f, o.b) * (1 - slack) && o.fb <= (o.f + o.b) * (1 + slack),
          "the pair takes between its longer chunk and both chunks");
  require(o.hidden_fraction >= -slack && o.hidden_fraction <= 1 + slack, "the hidden fraction lies in [0, 1]");
  try {
    validate_costs(overlap_costs(o));
  } catch (const Error& e) {
    fuzz::finding("overlap_costs gave costs validate_costs refuses (overlap.h: they always pass)", e.what());
  }
  (void)overlap_json(o).dump();
  (void)render_overlap_text(o);
  (void)overlap_sentence(o);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace pipesim;
  std::string_view rest = fuzz::as_text(data, size);
  const std::string_view forward = fuzz::take_line(rest);
  const std::string_view backward = fuzz::take_line(rest);
  const std::string_view pp = fuzz::take_line(rest);
  std::string_view sms = fuzz::take_line(rest);
  const std::string_view ratio = fuzz::take_line(rest);
  check_each_parser(forward, backward, ratio, rest);

  OverlapRequest request;
  request.forward = given(forward);
  request.backward = given(backward);
  request.pp_comm = parse_finite(pp);
  request.workload = given(rest);
  request.comm_sms = fuzz::saturated_int(fuzz::take_word(sms));
  request.total_sms = fuzz::saturated_int(fuzz::take_word(sms));
  request.saturation_sms = fuzz::saturated_int(fuzz::take_word(sms));
  request.ratio = given(ratio);
  refusing_only_with_error([&] { check_overlap(run_overlap(make_overlap_input(request))); });
  return 0;
}
