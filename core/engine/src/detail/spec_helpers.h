#pragma once
// Small pieces shared by the schedule files: rule checks with uniform messages and formula text.
#include <string>
#include <string_view>

#include "pipesim/costs.h"
#include "pipesim/error.h"
#include "pipesim/schedule.h"
#include "detail/once_per_run.h"
#include "detail/short_number.h"

namespace pipesim::detail {

/// What a rule quotes of the request ("7 ranks") and which size that is (Error::field).
struct Got {
  std::string text;
  std::string field;
};

/// Throws "NAME: RULE (got ...)" unless `ok`, with the rule's key and values for other languages and
/// the size it is about.
inline void require(bool ok, std::string_view schedule, std::string_view rule, const Got& got, Wording wording = {}) {
  if (!ok)
    throw Error(ErrorCode::schedule_rule, std::string(schedule) + " " + std::string(rule) + " (got " + got.text + ")", std::move(wording),
                got.field);
}

/// The sizes a schedule rule quotes, as a refusal's parameters.
inline auto size_params(const ScheduleParams& p) -> std::vector<std::pair<std::string, std::string>> {
  return {{"ranks", std::to_string(p.ranks)}, {"micro_batches", std::to_string(p.micro_batches)}, {"virtual_stages", std::to_string(p.virtual_stages)}};
}

/// The check of schedules that run at any size: the registry's bounds (at least 1 rank and 1
/// micro-batch) are their only rules.
inline void any_size(const ScheduleParams&) {}

inline auto ranks_text(const ScheduleParams& p) -> Got { return {std::to_string(p.ranks) + " ranks", "ranks"}; }
inline auto micro_batches_text(const ScheduleParams& p) -> Got {
  return {std::to_string(p.micro_batches) + " micro-batches with " + std::to_string(p.ranks) + " ranks", "micro_batches"};
}
inline auto virtual_stages_text(const ScheduleParams& p) -> Got {
  return {std::to_string(p.virtual_stages) + " virtual stage" + (p.virtual_stages == 1 ? "" : "s"), "virtual_stages"};
}

/// Numbers in formula text as a person writes them: 6 significant digits, so a sum of costs such as
/// 3 x 1.673 reads 5.019, not 5.018999999999998 (the formula's `value` keeps every bit).
inline auto num(double v) -> std::string { return short_number(v); }

inline auto exact_when_no_comm(const Costs& c) -> bool { return c.comm == 0; }

}  // namespace pipesim::detail
