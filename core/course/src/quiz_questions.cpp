#include "pipesim/quiz_questions.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "detail/course_files.h"
#include "detail/course_order.h"
#include "detail/i18n.h"
#include "pipesim/costs.h"
#include "pipesim/error.h"
#include "pipesim/lesson.h"
#include "pipesim/registry.h"
#include "pipesim/run.h"

namespace pipesim {

namespace {

using json = nlohmann::json;

/// The one option order of the quiz: the course's (sorted, then shuffled with a seed from SHA-256),
/// the student's seed standing where the course's quiz path stands.
auto arrange(std::uint64_t seed, const std::string& question, const std::vector<std::string>& options, int correct)
    -> detail::CourseOrder {
  return detail::course_order("pipesim-quiz/" + std::to_string(seed), question, options, static_cast<std::size_t>(correct));
}

/// A number as the page writes it: integers as they are, others rounded to at most 3 decimals
/// (trailing zeros dropped), with pt-BR's decimal comma.
auto short_number(double value, std::string_view lang) -> std::string {
  const double rounded = std::round(value * 1000) / 1000;
  if (rounded == std::floor(rounded)) return detail::decimal(rounded, 0, lang);
  std::string text = detail::decimal(rounded, 3, lang);
  while (text.back() == '0') text.pop_back();
  return text;
}

/// The texts of one live kind in core/data/quiz_bank.json ("live": {"<kind>": {...}}), in one language.
class LiveTexts {
 public:
  LiveTexts(const json& bank, std::string kind, std::string lang) : bank_(bank), kind_(std::move(kind)), lang_(std::move(lang)) {}
  [[nodiscard]] auto get(const std::string& name, const std::map<std::string, std::string>& values = {}) const -> std::string {
    const json& texts = bank_.at("live").at(kind_).at(name);
    return detail::fill(detail::pick(texts, lang_, "quiz bank live." + kind_ + "." + name), values);
  }

 private:
  const json& bank_;
  std::string kind_;
  std::string lang_;
};

struct Context {
  const json& bank;
  const LiveQuizSettings& settings;
  Costs costs;
  std::string lang;
  std::uint64_t seed;
  std::string subject;  ///< the lesson's schedule, "live"."schedule"

  [[nodiscard]] auto texts(const std::string& kind) const -> LiveTexts { return {bank, kind, lang}; }
  [[nodiscard]] auto key(const std::string& kind, int ranks, int micro_batches) const -> std::string {
    return "live-" + kind + "-" + std::to_string(ranks) + "-" + std::to_string(micro_batches) + "-" + settings.cost;
  }
  [[nodiscard]] auto run_of(std::string_view schedule, int ranks, int micro_batches, bool same_model = false) const -> Run {
    RunRequest request;
    request.schedule = std::string(schedule);
    request.params = {.ranks = ranks, .micro_batches = micro_batches, .virtual_stages = 1};
    request.costs = costs;
    // The same model on the same GPUs, as Compare shows by default: the costs are one rank's share,
    // and each schedule cuts the model into its own stages.
    if (same_model) request.per_stage.model_stages = ranks;
    return run_generated(request);
  }
};

/// A question with options: the right one first in `options`, ordered by arrange().
auto with_options(const Context& c, std::string key, std::string text, std::vector<std::string> options, std::string explanation,
                  std::string source, std::string view) -> QuizQuestion {
  const detail::CourseOrder order = arrange(c.seed, text, options, 0);
  return {.key = std::move(key),
          .text = std::move(text),
          .options = order.options,
          .correct = static_cast<int>(order.correct),
          .explanation = std::move(explanation),
          .source = std::move(source),
          .view = std::move(view),
          .timeline = std::nullopt};
}

/// Schedules that a plain size question may name: built by generate() from ranks and micro-batches
/// alone (no virtual stages, not given as text).
auto plain(const ScheduleSpec& spec) -> bool { return spec.generate && !spec.given_as_text && !spec.uses_virtual_stages; }

auto idles_least(const Context& c) -> std::optional<QuizQuestion> {
  std::vector<const ScheduleSpec*> candidates = {&find_schedule(c.subject)};
  for (const ScheduleSpec* spec : schedules())
    if (plain(*spec) && spec->name != c.subject) candidates.push_back(spec);
  struct Result {
    std::string title;
    double fraction;
  };
  std::vector<Result> results;
  for (const ScheduleSpec* spec : candidates) {
    if (results.size() == 4) break;
    try {
      const Run r = c.run_of(spec->name, c.settings.ranks, c.settings.micro_batches, true);
      results.push_back({std::string(spec->texts.in(c.lang).title), r.metrics.bubble_fraction});
    } catch (const Error&) {
      // This schedule refuses these sizes: the next one stands in.
    }
  }
  if (results.size() < 4) return std::nullopt;
  const auto best = std::min_element(results.begin(), results.end(), [](const Result& a, const Result& b) { return a.fraction < b.fraction; });
  const auto ties = std::count_if(results.begin(), results.end(), [&](const Result& r) { return std::abs(r.fraction - best->fraction) < 1e-12; });
  if (ties > 1) return std::nullopt;  // no single answer
  std::vector<std::string> options = {best->title};
  std::string list;
  for (const Result& r : results) {
    if (&r != &*best) options.push_back(r.title);
    list += (list.empty() ? "" : ", ") + r.title + " " + detail::percent(r.fraction, 1, c.lang);
  }
  const LiveTexts t = c.texts("idles");
  const std::string ranks = std::to_string(c.settings.ranks), micro = std::to_string(c.settings.micro_batches);
  return with_options(c, c.key("idles", c.settings.ranks, c.settings.micro_batches),
                      t.get("question", {{"ranks", ranks}, {"micro", micro}, {"cost", c.settings.cost}}), options,
                      t.get("explanation", {{"list", list}, {"best", best->title}}), t.get("source"), "compare");
}

auto largest_bubble(const Context& c) -> std::optional<QuizQuestion> {
  const Run r = c.run_of(c.subject, c.settings.ranks, c.settings.micro_batches);
  const double answer = r.metrics.max_bubble;
  const double pp = r.schedule.ranks();
  const Costs& k = r.costs;
  // The classic closed forms a student may confuse it with, and two near misses.
  const std::vector<double> rivals = {(pp - 1) * (k.f + k.b), (pp - 1) * (k.f + k.b - 2 * k.w), (pp / 2) * (k.f + k.b),
                                      answer + pp / 2, answer * 2 + 1};
  std::vector<std::string> options = {short_number(answer, c.lang)};
  for (double v : rivals) {
    const std::string text = short_number(v, c.lang);
    if (options.size() < 4 && v >= 0 && std::find(options.begin(), options.end(), text) == options.end()) options.push_back(text);
  }
  if (options.size() < 4) return std::nullopt;
  const LiveTexts t = c.texts("bubble");
  const std::map<std::string, std::string> why = {{"answer", options[0]}, {"formula", r.formula.text}, {"worked", r.formula.worked}};
  return with_options(c, c.key("bubble", c.settings.ranks, c.settings.micro_batches),
                      t.get("question", {{"ranks", std::to_string(r.schedule.ranks())},
                                         {"micro", std::to_string(c.settings.micro_batches)},
                                         {"cost", c.settings.cost}}),
                      options, t.get(r.formula.exact ? "explanation" : "explanation_inexact", why), t.get("source"), "timeline");
}

auto first_slot(const Context& c) -> std::optional<QuizQuestion> {
  int ranks = c.settings.ranks, micro_batches = c.settings.micro_batches;
  std::optional<Run> r;
  try {
    r = c.run_of(c.subject, ranks, micro_batches);
  } catch (const Error&) {
    // NOTE: these sizes are refused (odd ranks, too few micro-batches): the question is still worth
    // asking, on the smallest pipeline that shows the overlap.
    ranks = 4;
    micro_batches = 8;
    r = c.run_of(c.subject, ranks, micro_batches);
  }
  const auto slot = first_two_direction_slot(*r, 0);
  if (!slot) return std::nullopt;
  const LiveTexts t = c.texts("slot");
  return QuizQuestion{
      .key = c.key("slot", ranks, micro_batches),
      .text = t.get("question", {{"ranks", std::to_string(ranks)}, {"micro", std::to_string(micro_batches)}}),
      .options = {},
      .correct = slot->op_index,
      .explanation = t.get("explanation", {{"start", short_number(slot->start, c.lang)},
                                           {"end", short_number(slot->end, c.lang)},
                                           {"f", std::to_string(slot->forward.mb)},
                                           {"b", std::to_string(slot->backward.mb)}}),
      .source = t.get("source"),
      .view = "timeline",
      .timeline = QuizTimeline{.schedule = c.subject, .ranks = ranks, .micro_batches = micro_batches, .cost = c.settings.cost,
                               .prompt = t.get("prompt")},
  };
}

auto peak_activations(const Context& c) -> std::optional<QuizQuestion> {
  const Run r = c.run_of(c.subject, c.settings.ranks, c.settings.micro_batches);
  const int pp = r.schedule.ranks();
  const int answer = r.metrics.peak_activations;
  std::vector<std::string> options = {std::to_string(answer)};
  std::vector<int> rivals = {pp, 2 * pp, pp - 1, pp + 2};
  if (pp % 2 == 0) rivals.insert(rivals.begin() + 2, pp / 2 + 1);
  for (int v : rivals) {
    const std::string text = std::to_string(v);
    if (options.size() < 4 && std::find(options.begin(), options.end(), text) == options.end()) options.push_back(text);
  }
  const LiveTexts t = c.texts("peak");
  return with_options(c, c.key("peak", c.settings.ranks, c.settings.micro_batches),
                      t.get("question", {{"ranks", std::to_string(pp)}, {"micro", std::to_string(c.settings.micro_batches)}}),
                      options, t.get("explanation", {{"answer", options[0]}, {"pp", std::to_string(pp)}}), t.get("source"),
                      "memory");
}

}  // namespace

auto bank_questions(const CourseData& course, std::string_view language, std::uint64_t seed) -> std::vector<QuizQuestion> {
  const std::string lang = detail::check_language(language);
  std::vector<QuizQuestion> out;
  for (const json& q : detail::quiz_bank_of(course)["questions"]) {
    const std::string text = detail::pick(q["question"], lang, "question");
    std::vector<std::string> options;
    for (const json& option : q["options"]) options.push_back(detail::pick(option, lang, "quiz bank option"));
    const detail::CourseOrder order = arrange(seed, text, options, q["correct"].get<int>());
    out.push_back({.key = "bank-" + std::to_string(q["id"].get<int>()),
                   .text = text,
                   .options = order.options,
                   .correct = static_cast<int>(order.correct),
                   .explanation = detail::pick(q["explanation"], lang, "explanation"),
                   .source = q["source"].get<std::string>(),
                   .view = q["view"].get<std::string>(),
                   .timeline = std::nullopt});
  }
  return out;
}

auto live_questions(const CourseData& course, const LiveQuizSettings& settings, std::string_view language, std::uint64_t seed)
    -> std::vector<QuizQuestion> {
  const json& bank = detail::quiz_bank_of(course);
  Costs costs;
  try {
    costs = parse_costs(settings.cost);
  } catch (const Error& e) {
    throw e.about("cost");
  }
  const Context c{.bank = bank,
                  .settings = settings,
                  .costs = costs,
                  .lang = detail::check_language(language),
                  .seed = seed,
                  .subject = bank.at("live").at("schedule").get<std::string>()};
  std::vector<QuizQuestion> out;
  for (const auto& make : {idles_least, largest_bubble, first_slot, peak_activations}) {
    try {
      if (auto q = make(c)) out.push_back(std::move(*q));
    } catch (const Error& e) {
      if (e.code() == ErrorCode::internal) throw;  // a bug, not a question that does not apply here
    }
  }
  return out;
}

}  // namespace pipesim
