#pragma once
// Small pieces shared by the schedule files: rule checks with uniform messages and formula text.
#include <string>
#include <string_view>

#include "pipesim/costs.h"
#include "pipesim/error.h"
#include "pipesim/schedule.h"

namespace pipesim::detail {

/// Throws "NAME: RULE (got ...)" unless `ok`.
inline void require(bool ok, std::string_view schedule, std::string_view rule, const std::string& got) {
  if (!ok) throw Error(ErrorCode::schedule_rule, std::string(schedule) + " " + std::string(rule) + " (got " + got + ")");
}

/// The check of schedules that run at any size: the registry's bounds (at least 1 rank and 1
/// micro-batch) are their only rules.
inline void any_size(const ScheduleParams&) {}

inline auto ranks_text(const ScheduleParams& p) -> std::string { return std::to_string(p.ranks) + " ranks"; }
inline auto micro_batches_text(const ScheduleParams& p) -> std::string {
  return std::to_string(p.micro_batches) + " micro-batches with " + std::to_string(p.ranks) + " ranks";
}

/// `format_number` under a shorter name for formula text.
inline auto num(double v) -> std::string { return format_number(v); }

inline auto exact_when_no_comm(const Costs& c) -> bool { return c.comm == 0; }

}  // namespace pipesim::detail
