#pragma once
// The quiz as a student sees it, one question at a time: the bank's sourced questions and the
// questions computed live by the engine for the page's settings, each with its options already in
// display order, the right one marked, and the explanation's numbers filled in. The page only draws
// them and scores the student's choice: every fact, number and option order is decided here.
//
// Options are ordered by one rule, the course's own debiasing convention (detail/course_order.h:
// sorted as strings, then a seeded shuffle), with the student's seed in place of the course's quiz
// path: the same seed gives the same order, a new seed ("start again") reshuffles.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pipesim/course_data.h"

namespace pipesim {

/// The run a timeline question is answered on: the student clicks an op of it.
struct QuizTimeline {
  std::string schedule;
  int ranks = 0;
  int micro_batches = 0;
  std::string cost;    ///< parse_costs() text, as the question was asked
  std::string prompt;  ///< what to click, in the question's language
};

struct QuizQuestion {
  /// Stable across languages and seeds, for the student's progress: "bank-7",
  /// "live-idles-8-20-F=1,B=2,W=1,FB=3" (kind, then ranks, micro-batches and cost text).
  std::string key;
  std::string text;
  std::vector<std::string> options;  ///< in display order; empty for a timeline question
  /// Index into options; for a timeline question the op to click (an index into the run's ops, rank
  /// by rank, as Schedule::ops).
  int correct = 0;
  std::string explanation;
  std::string source;
  std::string view;  ///< the page's view that shows the answer: "timeline", "compare", "memory", ...
  std::optional<QuizTimeline> timeline;
};

/// Every question of the bank (core/data/quiz_bank.json) in `language`, in the bank's order, options
/// ordered for `seed`. Throws Error(unknown_name, field "lang") on an unknown language.
[[nodiscard]] auto bank_questions(const CourseData& course, std::string_view language, std::uint64_t seed)
    -> std::vector<QuizQuestion>;

/// The settings live questions are asked for: the page's sizes and costs (its schedule is not used:
/// the questions are about the lesson's schedule and its rivals).
struct LiveQuizSettings {
  int ranks = 8;
  int micro_batches = 20;
  std::string cost = "F=1,B=2,W=1,FB=3";  ///< parse_costs() text, quoted in the questions as given
};

/// The questions the engine answers for `settings`, in this order, each left out when it does not
/// apply (a schedule refuses the sizes, no single answer, too few distinct options):
///  - "idles": which of four schedules idles least, the same model on the same GPUs. The four are the
///    lesson's schedule, then the registry's others in display order that take a plain size (no
///    virtual stages, not given as text) and accept these sizes;
///  - "bubble": the lesson's schedule's largest per-rank bubble, against the classic formulas;
///  - "slot": the first op where rank 0 runs both directions at once, clicked on a timeline (at 4 ranks
///    and 8 micro-batches when the settings' sizes are refused);
///  - "peak": the most activations a rank holds at once.
/// Throws Error naming the field ("lang", "cost") on an unknown language or costs that do not parse.
[[nodiscard]] auto live_questions(const CourseData& course, const LiveQuizSettings& settings, std::string_view language,
                                  std::uint64_t seed) -> std::vector<QuizQuestion>;

}  // namespace pipesim
