#pragma once
// The catalogue of schedules. Each schedule is one file in core/engine/src/schedules/ that defines a
// ScheduleSpec; registry.cpp lists them. The engine never looks at names.
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pipesim/costs.h"
#include "pipesim/schedule.h"

namespace pipesim {

/// A published closed form for the bubble, evaluated at given costs.
struct Formula {
  std::string text;       ///< symbolic, as the source writes it: "(PP/2-1)(F&B+B-3W)"
  std::string worked;     ///< the same with numbers: "(8/2-1)(3+2-3*1) = 6"
  double value = 0;       ///< bubble per rank (the maximum over ranks)
  bool exact = true;      ///< whether the closed form holds at these costs
  std::string condition;  ///< when it holds: "exact when F = B-W = W and comm = 0"
  std::string source;     ///< where the formula is published
  bool over_span = false; ///< measured over the span (first op to last op of a rank), not from time 0
};

struct ScheduleSpec {
  std::string_view name;         ///< CLI and URL key, e.g. "dualpipe"
  std::string_view title;        ///< display name, e.g. "DualPipe"
  std::string_view summary;      ///< one sentence
  std::string_view source;       ///< primary source of the op order
  std::string_view constraints;  ///< the rules check() enforces, in words
  bool uses_virtual_stages = false;
  void (*check)(const ScheduleParams&) = nullptr;          ///< throws Error naming the broken rule
  auto (*generate)(const ScheduleParams&) -> Schedule = nullptr;
  auto (*formula)(const ScheduleParams&, const Costs&) -> Formula = nullptr;
  /// Set for schedules given as text (custom): run() builds from RunRequest::custom_schedule with it
  /// instead of check() and generate().
  auto (*parse)(std::string_view text) -> Schedule = nullptr;
  /// Set for schedules whose reference runtime has a communication structure of its own (DualPipe,
  /// DualPipeV): generate() plus Schedule::comm as that runtime issues it. The others get torch's
  /// lowering (lower_send_recv) in reference timing.
  auto (*generate_with_comm)(const ScheduleParams&) -> Schedule = nullptr;
};

[[nodiscard]] auto schedules() -> std::span<const ScheduleSpec* const>;
/// Throws Error listing the known names when `name` is not one of them.
[[nodiscard]] auto find_schedule(std::string_view name) -> const ScheduleSpec&;
/// check() then generate(); throws Error on a rule the schedule does not accept.
[[nodiscard]] auto build_schedule(std::string_view name, const ScheduleParams& params) -> Schedule;
/// build_schedule() with Schedule::comm filled for reference timing: the schedule's own runtime's
/// program (generate_with_comm), else torch's lowering of its ops (lower_send_recv in reference.h).
[[nodiscard]] auto build_schedule_with_comm(std::string_view name, const ScheduleParams& params) -> Schedule;

/// The checks of build_schedule() without generating anything: throws the same Error it would.
void check_schedule(std::string_view name, const ScheduleParams& params);

/// A size a control can vary.
enum class SizeField { ranks, micro_batches, virtual_stages };
/// The values of `field` in [from, to] that `name` accepts with the other sizes as in `params`, in
/// increasing order: what a slider may offer so that no position is refused.
[[nodiscard]] auto accepted_values(std::string_view name, ScheduleParams params, SizeField field, int from, int to)
    -> std::vector<int>;

}  // namespace pipesim
