// A schedule the user writes: JSON in the shape of `simulate --format json`, or PyTorch's action
// notation (see pipesim/custom.h). It is listed like the others so the page and `pipesim list` offer
// it, but it has no parameters to generate from: run() parses RunRequest::custom_schedule instead.
#include "detail/spec_helpers.h"
#include "detail/specs.h"
#include "pipesim/custom.h"

namespace pipesim::detail {

namespace {

constexpr const char* needs_text =
    "custom needs the schedule as text (--schedule-file PATH): JSON as `simulate --format json` writes it, "
    "or PyTorch actions such as 0F0,0B0";

void check(const ScheduleParams&) { throw Error(ErrorCode::usage, needs_text); }

auto generate(const ScheduleParams&) -> Schedule { throw Error(ErrorCode::usage, needs_text); }

auto formula(const ScheduleParams&, const Costs&) -> Formula {
  return Formula{"none", "no closed form = 0", 0, false,
                 "a schedule given by the user has no published closed form: trust the simulation", "", false};
}

auto parse(std::string_view text) -> Schedule {
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) throw Error(ErrorCode::usage, needs_text);
  return parse_custom_schedule(text);
}

}  // namespace

const ScheduleSpec custom_spec{
    "custom",
    "Custom",
    "Your own op order: JSON as `simulate --format json` exports it, or PyTorch action notation "
    "(one line per rank, e.g. 0F0,0F1,0B0,0B1).",
    "torch.distributed.pipelining _Action notation and pipesim's JSON contract",
    "every forward and backward exactly once, W after its I, each stage on one rank",
    false,
    check,
    generate,
    formula,
    parse,
};

}  // namespace pipesim::detail
