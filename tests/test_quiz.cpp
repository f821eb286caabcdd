// The quiz bank (core/data/quiz_bank.json) and the course's quiz.json built from it.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "cli_run.h"
#include "helpers.h"
#include "pipesim/error.h"
#include "pipesim/quiz.h"

using nlohmann::ordered_json;
using pipesim::course_quiz;
using pipesim::quiz_bank;

namespace {

const std::vector<std::string> course_languages = {"en", "pt-BR", "zh-CN"};

auto bank_question(int id) -> const ordered_json& {
  static const ordered_json bank = quiz_bank(pipesim::test::course_data());
  for (const auto& q : bank["questions"])
    if (q["id"] == id) return q;
  static const ordered_json none;
  FAIL("no question " << id);
  return none;
}

}  // namespace

TEST_CASE("the course languages are English, Brazilian Portuguese and Simplified Chinese") {
  const auto langs = pipesim::supported_languages();
  CHECK(std::vector<std::string>(langs.begin(), langs.end()) == course_languages);
}

TEST_CASE("every bank question has 4 distinct options, a valid answer, a source, a view and all three languages") {
  const ordered_json bank = quiz_bank(pipesim::test::course_data());
  REQUIRE_NOTHROW(pipesim::validate_quiz_bank(bank.dump()));
  REQUIRE(bank["questions"].size() >= 26);
  const std::set<std::string> views = {"timeline", "compare", "charts", "memory", "chunk", "placement", "exercises"};
  std::set<int> ids;
  for (const auto& q : bank["questions"]) {
    INFO("question " << q["id"]);
    ids.insert(q["id"].get<int>());
    REQUIRE(q["options"].size() == 4);
    const int correct = q["correct"].get<int>();
    CHECK((correct >= 0 && correct < 4));
    CHECK_FALSE(q["source"].get<std::string>().empty());
    CHECK(views.count(q["view"].get<std::string>()) == 1);
    CHECK((q["stage"] == "pre" || q["stage"] == "check" || q["stage"] == "post"));
    for (const std::string& lang : course_languages) {
      INFO(lang);
      CHECK_FALSE(q["question"][lang].get<std::string>().empty());
      CHECK_FALSE(q["explanation"][lang].get<std::string>().empty());
      std::set<std::string> distinct;
      for (const auto& o : q["options"]) distinct.insert(o[lang].get<std::string>());
      CHECK(distinct.size() == 4);
    }
  }
  // The 26 facts of the sourced fact bank (course-and-users.md §8) keep their numbers.
  for (int id = 1; id <= 26; ++id) CHECK(ids.count(id) == 1);
}

TEST_CASE("the bank states none of the lesson's known errors as an answer") {
  // course-and-users.md §5: invented utilisation, wrong sections, the 1.2x DualPipeV rule, an EP-off mode,
  // unsourced GPU-hour losses, "1 parameter copy" for DualPipeV without a basis.
  const std::vector<std::string> wrong = {"95%", "§3.3.2", "Section 3.4", "§3.4", "1.2 ×", "1.2x", "EP-off", "340", "420K",
                                          "2.8M", "5.5%"};
  const ordered_json bank = quiz_bank(pipesim::test::course_data());
  for (const auto& q : bank["questions"]) {
    const std::string answer = q["options"][q["correct"].get<std::size_t>()]["en"];
    const std::string why = q["explanation"]["en"];
    for (const std::string& w : wrong) {
      INFO("question " << q["id"] << " contains '" << w << "'");
      CHECK(answer.find(w) == std::string::npos);
      if (w != "5.5%") CHECK(why.find(w) == std::string::npos);  // 5.5% may be named as a distractor
    }
  }
}

TEST_CASE("the course export is 1 pre, 3 check and 2 post questions in that order, in every language") {
  for (const std::string& lang : course_languages) {
    INFO(lang);
    const ordered_json quiz = course_quiz(pipesim::test::course_data(), lang);
    CHECK(quiz["lesson"] == "19-dualpipe-parallelism");
    CHECK_FALSE(quiz["title"].get<std::string>().empty());
    std::vector<std::string> stages;
    for (const auto& q : quiz["questions"]) stages.push_back(q["stage"]);
    CHECK(stages == std::vector<std::string>{"pre", "check", "check", "check", "post", "post"});
  }
}

TEST_CASE("the course export has exactly the keys the course's quiz renderer reads") {
  const ordered_json quiz = course_quiz(pipesim::test::course_data(), "en");
  std::vector<std::string> top;
  for (const auto& item : quiz.items()) top.push_back(item.key());
  CHECK(top == std::vector<std::string>{"lesson", "title", "questions"});
  for (const auto& q : quiz["questions"]) {
    std::vector<std::string> keys;
    for (const auto& item : q.items()) keys.push_back(item.key());
    CHECK(keys == std::vector<std::string>{"stage", "question", "options", "correct", "explanation"});
    CHECK(q["options"].size() == 4);
    CHECK(q["correct"].is_number_integer());
  }
}

TEST_CASE("the course export's zero-indexed correct answer points at the bank's correct option") {
  const std::vector<int> suggested = {3, 1, 6, 12, 7, 10};  // pre #3; check #1, #6, #12; post #7, #10
  for (const std::string& lang : course_languages) {
    INFO(lang);
    const ordered_json quiz = course_quiz(pipesim::test::course_data(), lang);
    REQUIRE(quiz["questions"].size() == suggested.size());
    for (std::size_t i = 0; i < suggested.size(); ++i) {
      const ordered_json& stored = bank_question(suggested[i]);
      const auto& q = quiz["questions"][i];
      CHECK(q["question"] == stored["question"][lang]);
      const std::size_t correct = q["correct"].get<std::size_t>();
      REQUIRE(correct < 4);
      CHECK(q["options"][correct] == stored["options"][stored["correct"].get<std::size_t>()][lang]);
      std::multiset<std::string> exported(q["options"].begin(), q["options"].end());
      std::multiset<std::string> bank;
      for (const auto& o : stored["options"]) bank.insert(o[lang].get<std::string>());
      CHECK(exported == bank);
    }
  }
}

TEST_CASE("the course export names the lesson's quiz path in the course") {
  CHECK(pipesim::course_quiz_path(pipesim::test::course_data()) == "phases/10-llms-from-scratch/19-dualpipe-parallelism/quiz.json");
}

TEST_CASE("the course export is the same file on every call") {
  CHECK(course_quiz(pipesim::test::course_data(), "zh-CN").dump() == course_quiz(pipesim::test::course_data(), "zh-CN").dump());
}

TEST_CASE("the bank in one language keeps ids, sources and stored option order") {
  const ordered_json en = pipesim::quiz_bank_in(pipesim::test::course_data(), "pt-BR");
  CHECK(en["language"] == "pt-BR");
  REQUIRE(en["questions"].size() == ordered_json(quiz_bank(pipesim::test::course_data()))["questions"].size());
  const auto& first = en["questions"][0];
  CHECK(first["id"] == 1);
  CHECK(first["options"][0] == ordered_json(quiz_bank(pipesim::test::course_data()))["questions"][0]["options"][0]["pt-BR"]);
  CHECK_FALSE(first["source"].get<std::string>().empty());
}

TEST_CASE("the bank is given in the file's own key order, though the course reads it as a sorted json") {
  // quiz_bank() is the file as stored (`pipesim quiz --bank`): its order, not nlohmann::json's sorted one.
  const std::string text = quiz_bank(pipesim::test::course_data()).dump();
  const ordered_json bank = ordered_json::parse(text);
  std::vector<std::string> first_keys;
  for (const auto& item : bank.items())
    if (first_keys.size() < 5) first_keys.push_back(item.key());
  CHECK(first_keys == std::vector<std::string>{"$comment", "version", "lesson", "phase", "title"});
  std::vector<std::string> question_keys;
  for (const auto& item : bank["questions"][0].items()) question_keys.push_back(item.key());
  CHECK(question_keys.front() == "id");
  CHECK(question_keys.at(1) == "stage");
}

TEST_CASE("the bank in one language lists each question's keys in the bank's order") {
  const ordered_json bank = pipesim::quiz_bank_in(pipesim::test::course_data(), "zh-CN");
  std::vector<std::string> top;
  for (const auto& item : bank.items()) top.push_back(item.key());
  CHECK(top == std::vector<std::string>{"lesson", "title", "language", "questions"});
  for (const auto& q : bank["questions"]) {
    std::vector<std::string> keys;
    for (const auto& item : q.items()) keys.push_back(item.key());
    CHECK(keys == std::vector<std::string>{"id", "stage", "view", "source", "question", "options", "correct", "explanation"});
  }
}

TEST_CASE("validation names the question whose options are broken") {
  ordered_json bank = quiz_bank(pipesim::test::course_data());
  bank["questions"][2]["options"].erase(3);
  CHECK_THROWS_WITH(pipesim::validate_quiz_bank(bank.dump()), "quiz bank: question 3 needs 4 options");
  bank = quiz_bank(pipesim::test::course_data());
  bank["questions"][0]["options"][1]["zh-CN"] = "";
  CHECK_THROWS_WITH(pipesim::validate_quiz_bank(bank.dump()), "course data: quiz bank question 1 option 1 has no 'zh-CN' text");
  bank = quiz_bank(pipesim::test::course_data());
  bank["course"].erase(0);
  CHECK_THROWS_WITH(pipesim::validate_quiz_bank(bank.dump()), "quiz bank: the course set must be 1 pre, 3 check, 2 post, in that order");
}

TEST_CASE("a bank that is not JSON, or nests deeper than any document pipesim reads, is refused before it is checked") {
  CHECK_THROWS_WITH(pipesim::validate_quiz_bank("{\"lesson\": "), "quiz bank: the bank is not valid JSON");
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  try {
    pipesim::validate_quiz_bank(deep);
    FAIL("a 100,000-deep bank was accepted");
  } catch (const pipesim::Error& e) {
    CHECK(e.code() == pipesim::ErrorCode::limit_exceeded);
  }
}

TEST_CASE("an unknown language is refused with the list of languages") {
  CHECK_THROWS_AS(course_quiz(pipesim::test::course_data(), "fr"), pipesim::Error);
  CHECK_THROWS_WITH(pipesim::quiz_bank_in(pipesim::test::course_data(), "pt"), "unknown language 'pt'; languages are en, pt-BR, zh-CN");
}

TEST_CASE("pipesim quiz prints the course quiz.json and refuses bad options with one line and exit 2") {
  const auto course = pipesim::test::run_cli("quiz --course --lang zh-CN");
  REQUIRE(course.status == 0);
  CHECK(ordered_json::parse(course.out) == ordered_json(course_quiz(pipesim::test::course_data(), "zh-CN")));
  const auto bank = pipesim::test::run_cli("quiz --bank");
  REQUIRE(bank.status == 0);
  CHECK(ordered_json::parse(bank.out) == ordered_json(quiz_bank(pipesim::test::course_data())));

  const auto none = pipesim::test::run_cli("quiz");
  CHECK(none.status == 2);
  CHECK(none.err == "pipesim: error[usage]: quiz needs exactly one of --course (the course's quiz.json) or --bank (every question)\n");
  const auto seeded = pipesim::test::run_cli("quiz --course --seed 3");
  CHECK(seeded.status == 2);
  CHECK(seeded.err == "pipesim: error[usage]: --seed no longer applies: --course orders the options as the course's scripts/debias_quizzes.py requires\n");
  const auto lang = pipesim::test::run_cli("quiz --course --lang fr");
  CHECK(lang.status == 2);
  CHECK(lang.err == "pipesim: error[unknown_name]: unknown language 'fr'; languages are en, pt-BR, zh-CN\n");
  CHECK(lang.out.empty());
}
