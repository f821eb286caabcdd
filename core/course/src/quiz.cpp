#include "pipesim/quiz.h"

#include <algorithm>
#include <array>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "detail/course_order.h"
#include "detail/course_files.h"
#include "detail/i18n.h"
#include "detail/json_document.h"
#include "detail/json_text.h"
#include "detail/json_writer.h"
#include "detail/json_trees.h"
#include "pipesim/error.h"
#include "pipesim/registry.h"

namespace pipesim {

namespace {

using json = nlohmann::json;
/// The quizzes' own documents keep their keys in the order they are written here: the course site's
/// quiz.json order (lesson, title, questions; stage, question, options, correct, explanation). The
/// bank is read as a sorted json like every other course file, so the course module parses and looks
/// up one flavour; only these few documents are built in the other.
using ordered = nlohmann::ordered_json;

constexpr std::array<std::string_view, 3> stages = {"pre", "check", "post"};
constexpr std::array<std::string_view, 7> views = {"timeline", "compare", "charts", "memory",
                                                   "chunk",    "placement", "exercises"};
// The course renders exactly this many questions per stage, in this order (course-and-users.md §3).
constexpr std::array<int, 3> course_counts = {1, 3, 2};

template <std::size_t N>
auto contains(const std::array<std::string_view, N>& list, const json& value) -> bool {
  return value.is_string() && std::find(list.begin(), list.end(), value.get_ref<const std::string&>()) != list.end();
}

void require(bool ok, const std::string& what) {
  if (!ok) throw Error(ErrorCode::internal, "quiz bank: " + what);
}

void check_texts(const json& texts, const std::string& where) {
  for (std::string_view lang : detail::course_languages) (void)detail::pick(texts, lang, "quiz bank " + where);
}

void check_question(const json& q, std::set<int>& ids) {
  require(q.is_object() && q.contains("id") && q["id"].is_number_integer(), "a question has no integer id");
  const int id = q["id"].get<int>();
  const std::string where = "question " + std::to_string(id);
  require(ids.insert(id).second, where + " appears twice");
  require(q.contains("stage") && contains(stages, q["stage"]), where + ": stage must be pre, check or post");
  require(q.contains("view") && contains(views, q["view"]), where + ": unknown view");
  require(q.contains("source") && q["source"].is_string() && !q["source"].get_ref<const std::string&>().empty(),
          where + " has no source");
  require(q.contains("options") && q["options"].is_array() && q["options"].size() == 4, where + " needs 4 options");
  require(q.contains("correct") && q["correct"].is_number_integer() && q["correct"].get<int>() >= 0 &&
              q["correct"].get<int>() < 4,
          where + ": correct must be an option index from 0 to 3");
  check_texts(q.value("question", json()), where + " question");
  check_texts(q.value("explanation", json()), where + " explanation");
  for (std::string_view lang : detail::course_languages) {
    std::set<std::string> distinct;
    for (std::size_t i = 0; i < 4; ++i)
      distinct.insert(detail::pick(q["options"][i], lang, "quiz bank " + where + " option " + std::to_string(i)));
    require(distinct.size() == 4, where + ": two options read the same in " + std::string(lang));
  }
}

void check_course(const json& bank, const std::set<int>& ids) {
  require(bank.contains("course") && bank["course"].is_array(), "no course set");
  std::vector<std::string> order;
  for (const json& entry : bank["course"]) {
    require(entry.is_object() && entry.contains("id") && entry["id"].is_number_integer() &&
                ids.count(entry["id"].get<int>()) == 1,
            "the course set names a question that does not exist");
    require(entry.contains("stage") && contains(stages, entry["stage"]), "a course entry has no valid stage");
    order.push_back(entry["stage"].get<std::string>());
  }
  std::vector<std::string> expected;
  for (std::size_t s = 0; s < stages.size(); ++s)
    expected.insert(expected.end(), static_cast<std::size_t>(course_counts[s]), std::string(stages[s]));
  require(order == expected, "the course set must be 1 pre, 3 check, 2 post, in that order");
}

/// A string of the bank (checked as one when the bank was given), for the quizzes' ordered documents.
auto text_of(const json& value) -> const std::string& { return value.get_ref<const std::string&>(); }

auto find_question(const json& bank, int id) -> const json& {
  for (const json& q : bank["questions"])
    if (q["id"].get<int>() == id) return q;
  throw Error(ErrorCode::internal, "quiz bank: no question " + std::to_string(id));
}

auto options_in(const json& q, std::string_view lang) -> std::vector<std::string> {
  std::vector<std::string> out;
  for (const json& option : q["options"]) out.push_back(detail::pick(option, lang, "quiz bank option"));
  return out;
}

/// The live questions' texts (quiz_questions.cpp): each kind with its texts in every language.
void check_live(const json& bank) {
  require(bank.contains("live") && bank["live"].is_object(), "no live section");
  const json& live = bank["live"];
  require(live.contains("schedule") && live["schedule"].is_string(), "live: no schedule (the lesson's subject)");
  const auto& registry = schedules();
  require(std::any_of(registry.begin(), registry.end(), [&](const ScheduleSpec* s) { return s->name == live["schedule"].get<std::string>(); }),
          "live: the schedule is not one of the registry's");
  const std::vector<std::pair<std::string, std::vector<std::string>>> kinds = {
      {"idles", {"question", "explanation", "source"}},
      {"bubble", {"question", "explanation", "explanation_inexact", "source"}},
      {"slot", {"question", "prompt", "explanation", "source"}},
      {"peak", {"question", "explanation", "source"}}};
  for (const auto& [kind, names] : kinds) {
    require(live.contains(kind) && live[kind].is_object(), "live: no " + kind + " question");
    for (const std::string& name : names) check_texts(live[kind].value(name, json()), "live." + kind + "." + name);
  }
}

}  // namespace

auto supported_languages() -> std::span<const std::string_view> { return detail::course_languages; }

void detail::validate_quiz_bank_tree(const json& bank) {
  require(bank.is_object(), "the top level must be an object");
  require(bank.contains("lesson") && bank["lesson"].is_string(), "no lesson slug");
  require(bank.contains("phase") && bank["phase"].is_string(), "no phase slug (the course's folder above the lesson)");
  check_texts(bank.value("title", json()), "title");
  require(bank.contains("questions") && bank["questions"].is_array() && !bank["questions"].empty(), "no questions");
  std::set<int> ids;
  for (const json& q : bank["questions"]) check_question(q, ids);
  check_course(bank, ids);
  check_live(bank);
}

void validate_quiz_bank(std::string_view bank_text) {
  json bank;
  try {
    bank = detail::parse_json_within(bank_text, "quiz bank");  // bounded like every document pipesim reads
  } catch (const json::exception&) {
    require(false, "the bank is not valid JSON");
  }
  detail::validate_quiz_bank_tree(bank);
}

auto quiz_bank(const CourseData& course) -> JsonDocument {
  (void)detail::quiz_bank_of(course);  // refused, naming the file, when it was not given
  return detail::document(ordered::parse(course.files().quiz_bank_text));
}

auto quiz_bank_in(const CourseData& course, std::string_view lang) -> JsonDocument {
  const std::string language = detail::check_language(lang);
  const json& bank = detail::quiz_bank_of(course);
  ordered out{{"lesson", text_of(bank["lesson"])}, {"title", detail::pick(bank["title"], language, "title")}, {"language", language}};
  out["questions"] = ordered::array();
  for (const json& q : bank["questions"]) {
    out["questions"].push_back({{"id", q["id"].get<int>()},
                                {"stage", text_of(q["stage"])},
                                {"view", text_of(q["view"])},
                                {"source", text_of(q["source"])},
                                {"question", detail::pick(q["question"], language, "question")},
                                {"options", options_in(q, language)},
                                {"correct", q["correct"].get<int>()},
                                {"explanation", detail::pick(q["explanation"], language, "explanation")}});
  }
  return detail::document(std::move(out));
}

auto course_quiz_path(const CourseData& course) -> std::string {
  const json& bank = detail::quiz_bank_of(course);
  return "phases/" + bank["phase"].get<std::string>() + "/" + bank["lesson"].get<std::string>() + "/quiz.json";
}

auto course_quiz(const CourseData& course, std::string_view lang) -> JsonDocument {
  const std::string language = detail::check_language(lang);
  const json& bank = detail::quiz_bank_of(course);
  const std::string path = course_quiz_path(course);
  // Written as text in the course site's key order rather than built as an ordered_json: the course
  // module then carries no ordered_json (issue 14: its size).
  std::string text;
  detail::JsonWriter out(text);
  out.open().text("lesson", text_of(bank["lesson"])).text("title", detail::pick(bank["title"], language, "title")).open_array("questions");
  for (const json& entry : bank["course"]) {
    const json& q = find_question(bank, entry["id"].get<int>());
    const std::string question = detail::pick(q["question"], language, "question");
    const detail::CourseOrder order = detail::course_order(path, question, options_in(q, language), q["correct"].get<std::size_t>());
    out.open_item().text("stage", text_of(entry["stage"])).text("question", question).open_array("options");
    for (const std::string& option : order.options) out.item(option);
    out.close_array().whole("correct", static_cast<long long>(order.correct));
    out.text("explanation", detail::pick(q["explanation"], language, "explanation")).close();
  }
  out.close_array().close();
  return detail::text_document(std::move(text));
}

}  // namespace pipesim
