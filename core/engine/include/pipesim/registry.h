#pragma once
// The catalogue of schedules as data. Each schedule is one file in core/engine/src/schedules/ that defines
// its ScheduleSpec by name, and one line of detail/schedule_list.h. The engine never looks at names.
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pipesim/bubble_terms.h"
#include "pipesim/costs.h"
#include "pipesim/language.h"
#include "pipesim/schedule.h"

namespace pipesim {

/// A published closed form for the bubble, evaluated at given costs.
struct Formula {
  std::string text;       ///< symbolic, as the source writes it: "(PP/2-1)(F&B+B-3W)"
  std::string worked;     ///< the same with numbers: "(8/2-1)(3+2-3*1) = 6"
  double value = 0;       ///< bubble per rank (the maximum over ranks)
  bool exact = true;      ///< whether the closed form holds at these costs
  /// When it holds: "exact when F = B-W = W and comm = 0", in every language (the page shows its own).
  Translated<std::string> condition;
  std::string source;     ///< where the formula is published
  bool over_span = false; ///< measured over the span (first op to last op of a rank), not from time 0
  double simulated = 0;   ///< the simulation's bubble on the same basis (set by run(), see formula_agrees)
  bool agrees = false;    ///< whether `value` and `simulated` agree (set by run(), see formula_agrees)
  /// The same bubble derived per rank (index = rank): the terms whose sum is that rank's idle time under
  /// `condition`, each in the phase where it falls (bubble_terms.h). Empty for a schedule that states none;
  /// nullopt for a rank whose split the schedule does not state.
  std::vector<RankTerms> rank_terms = {};
};

/// What a reader is told about a schedule, in one language.
struct ScheduleTexts {
  std::string_view title;        ///< display name, e.g. "DualPipe"
  std::string_view summary;      ///< one sentence
  std::string_view constraints;  ///< the rules check() enforces, in words
  /// The page's caption under the timeline. The page fills its placeholders from the run: {ranks},
  /// {micro} (micro-batches), {last} (ranks - 1), {half} (micro-batches / 2), {stages},
  /// {vs} (virtual stages) and {vlast} (2 ranks - 1).
  std::string_view caption;
};

/// A schedule's colour in charts, compare headers and swatches, per page theme (#rrggbb).
struct SeriesColour {
  std::string_view light;
  std::string_view dark = {};  ///< empty: the light colour reads on the dark theme too
};

/// The sizes a front end starts the schedule with; check_schedule() accepts them.
struct SizeDefaults {
  int ranks = 8;
  int micro_batches = 20;
  int virtual_stages = 1;
};

/// Everything pipesim knows about one schedule, set by name in the schedule's own file
/// (core/engine/src/schedules/) and listed once in detail/schedule_list.h. The engine reads only the
/// functions; names, texts, colour and defaults are for the CLI, the module and the page.
struct ScheduleSpec {
  std::string_view name;            ///< CLI and URL key, e.g. "dualpipe"
  Translated<ScheduleTexts> texts;  ///< in every language of pipesim/language.h
  std::string_view source;          ///< primary source of the op order
  SeriesColour colour;
  SizeDefaults defaults;
  bool uses_virtual_stages = false;
  /// Micro-batches enter at both ends (two pipelines over the same ranks): the ranks and the
  /// micro-batches are split between the two directions, which is why both must be even.
  bool two_way = false;
  void (*check)(const ScheduleParams&) = nullptr;          ///< throws Error naming the broken rule
  auto (*generate)(const ScheduleParams&) -> Schedule = nullptr;
  auto (*formula)(const ScheduleParams&, const Costs&) -> Formula = nullptr;
  /// Set for schedules given as text (custom): run() and run_metrics() read RunRequest::custom_schedule
  /// in custom's formats (JSON, PyTorch actions, Chrome trace: schedule_from_text, pipesim/custom.h)
  /// instead of calling check() and generate(); a registered spec given as text is read the same way.
  /// A flag rather than the reader itself, so that a program which only generates schedules (the
  /// course module) does not link the readers (issue 14, its size).
  bool given_as_text = false;
  /// Set for schedules whose reference runtime has a communication structure of its own (DualPipe,
  /// DualPipeV): generate() plus Schedule::comm as that runtime issues it. The others get torch's
  /// lowering (lower_send_recv) in reference timing.
  auto (*generate_with_comm)(const ScheduleParams&) -> Schedule = nullptr;
};

/// The built-in schedules in display order, then any registered with ScheduleRegistration.
[[nodiscard]] auto schedules() -> std::span<const ScheduleSpec* const>;

/// Adds a schedule to schedules() for as long as it lives, after the built-ins: how a test (or a
/// program embedding pipesim) brings its own schedule without editing the catalogue. The spec must
/// outlive the registration. Throws Error(bad_value) when the name is empty or already listed, or
/// when formula is missing, or check or generate for a schedule not given as text. Not thread-safe:
/// register before running.
class ScheduleRegistration {
 public:
  explicit ScheduleRegistration(const ScheduleSpec& spec);
  ~ScheduleRegistration();
  ScheduleRegistration(const ScheduleRegistration&) = delete;
  auto operator=(const ScheduleRegistration&) -> ScheduleRegistration& = delete;

 private:
  const ScheduleSpec* spec_;
};
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
