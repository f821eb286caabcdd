#pragma once
// The bubble derived: a rank's idle time split into the terms of its schedule's closed form.
//
// Every rank's time from 0 to the makespan is cut into five phases, read off its own ops:
//   fill       0 .. its first op              (waiting for the first forward to arrive)
//   warm-up    first op .. first backward     (forwards run, the first gradient is on its way)
//   steady     first backward .. last forward's end
//   cool-down  last forward's end .. last op's end
//   drain      last op's end .. the makespan  (done, while other ranks still work)
// A closed form's term states how much idle time one phase of one rank holds; the measurement sums the
// idle intervals that fall in that phase. Where they differ (the formula's condition fails, the stages
// differ), the split says so phase by phase, and idle time in a phase no term covers is left over.
// Where a closed form states only the sum over consecutive phases (interleaved 1F1B's span, whose split
// turns on max()s it drops), its term covers that range, and the range is checked as one.
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pipesim/schedule.h"
#include "pipesim/simulate.h"

namespace pipesim {

enum class IdlePhase { fill, warm_up, steady, cool_down, drain };
inline constexpr int idle_phase_count = 5;
/// The phases' keys in JSON and on the page ("warm-up", ...), in IdlePhase order.
inline constexpr std::array<std::string_view, idle_phase_count> idle_phase_names = {"fill", "warm-up", "steady",
                                                                                    "cool-down", "drain"};

/// One term of a closed form on one rank: "r*F" in the fill, worked "2*1 = 2".
struct BubbleTerm {
  std::string text;    ///< symbolic, in the formula's letters (PP, r, F, B, W, F&B, comm)
  std::string worked;  ///< the same with this rank's numbers
  double value = 0;
  IdlePhase phase = IdlePhase::fill;                ///< the phase it states, or the first of its range
  std::optional<IdlePhase> phase_to = std::nullopt;  ///< the last phase of its range; none: `phase` alone
};

/// The last phase a term covers (its `phase` unless it is a range term).
[[nodiscard]] inline auto last_phase(const BubbleTerm& term) -> IdlePhase { return term.phase_to.value_or(term.phase); }

/// One rank's terms as a schedule states them, or nullopt where it states no exact split for that rank
/// (a rank whose idle time falls in its phases by a max() that the closed form drops).
using RankTerms = std::optional<std::vector<BubbleTerm>>;

/// One idle interval of a rank.
struct IdleGap {
  double start = 0;
  double end = 0;
  IdlePhase phase = IdlePhase::fill;
};

/// What one phase of one rank holds: where it lies, its idle time as simulated, and what the terms
/// that name it expect.
struct PhaseIdle {
  IdlePhase phase = IdlePhase::fill;
  double from = 0;
  double to = 0;
  double idle = 0;      ///< the simulated idle time inside [from, to)
  double expected = 0;  ///< the sum of the terms in this phase (range terms are in their PhaseRange)
  bool agrees = true;   ///< idle and expected agree (bubbles_agree); inside a range: the range agrees
  bool in_range = false;  ///< a range term covers this phase: it is checked with its range, not alone
};

/// Consecutive phases checked together because a term states only their sum: the idle time summed
/// over them against every term that names a phase in them.
struct PhaseRange {
  IdlePhase first = IdlePhase::warm_up;
  IdlePhase last = IdlePhase::cool_down;
  double from = 0;      ///< the first phase's start
  double to = 0;        ///< the last phase's end
  double idle = 0;
  double expected = 0;
  bool agrees = true;
};

struct RankBubbleSplit {
  int rank = 0;
  bool stated = false;                           ///< the schedule states this rank's terms (maybe none: no idle)
  std::vector<BubbleTerm> terms;
  std::array<PhaseIdle, idle_phase_count> phases{};
  std::vector<PhaseRange> ranges;                ///< the ranges the range terms cover, in phase order
  std::vector<IdleGap> gaps;                     ///< every idle interval, in time order
  double idle = 0;                               ///< the rank's whole bubble (makespan - busy)
  double expected = 0;                           ///< the sum of its terms
  bool adds_up = false;                          ///< stated, and every phase agrees
};

/// The rank's idle intervals and phases, and how `terms` match them. Unless `stated`, the schedule
/// gives no split and only the phases are measured.
[[nodiscard]] auto split_bubble(const Schedule& schedule, const Timeline& timeline, double makespan, int rank,
                                bool stated, std::vector<BubbleTerm> terms) -> RankBubbleSplit;

/// split_bubble() for every rank, with rank_terms[r] as rank r's terms (not stated where it is missing
/// or nullopt).
[[nodiscard]] auto split_bubbles(const Schedule& schedule, const Timeline& timeline, double makespan,
                                 const std::vector<RankTerms>& rank_terms)
    -> std::vector<RankBubbleSplit>;

}  // namespace pipesim
