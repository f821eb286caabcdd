// The quiz as the page shows it (pipesim/quiz_questions.h): the bank's questions and the questions the
// engine answers live, each with its options in the one seeded order and the right one marked.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "helpers.h"
#include "pipesim/error.h"
#include "pipesim/quiz.h"
#include "pipesim/quiz_questions.h"

using pipesim::LiveQuizSettings;
using pipesim::QuizQuestion;

namespace {

auto live(const LiveQuizSettings& settings, std::uint64_t seed = 7, const std::string& lang = "en") -> std::vector<QuizQuestion> {
  return pipesim::live_questions(pipesim::test::course_data(), settings, lang, seed);
}

auto find(const std::vector<QuizQuestion>& questions, const std::string& key) -> const QuizQuestion& {
  const auto it = std::find_if(questions.begin(), questions.end(), [&](const QuizQuestion& q) { return q.key == key; });
  REQUIRE(it != questions.end());
  return *it;
}

auto keys(const std::vector<QuizQuestion>& questions) -> std::vector<std::string> {
  std::vector<std::string> out;
  for (const auto& q : questions) out.push_back(q.key);
  return out;
}

auto right(const QuizQuestion& q) -> std::string { return q.options.at(static_cast<std::size_t>(q.correct)); }

}  // namespace

TEST_CASE("live questions at the lesson's default settings: four questions, answers simulated by the engine") {
  const auto questions = live({});
  CHECK(keys(questions) == std::vector<std::string>{"live-idles-8-20-F=1,B=2,W=1,FB=3", "live-bubble-8-20-F=1,B=2,W=1,FB=3",
                                                    "live-slot-8-20-F=1,B=2,W=1,FB=3", "live-peak-8-20-F=1,B=2,W=1,FB=3"});

  const QuizQuestion& idles = questions[0];
  CHECK(idles.text == "With 8 ranks, 20 micro-batches and costs F=1,B=2,W=1,FB=3, which schedule idles least?");
  // The lesson's schedule, then the registry's plain schedules in display order.
  CHECK(std::set<std::string>(idles.options.begin(), idles.options.end()) == std::set<std::string>{"DualPipe", "GPipe", "1F1B", "ZB-H1"});
  CHECK(right(idles) == "DualPipe");
  CHECK(idles.explanation ==
        "Bubble fractions simulated by the engine for the same model on the same GPUs (each schedule cuts the model into its own "
        "stages): DualPipe 9.1%, GPipe 25.9%, 1F1B 25.9%, ZB-H1 10.4%. DualPipe idles least.");
  CHECK(idles.view == "compare");

  // (PP/2-1)(F&B+B-3W) = 3 x 2 = 6 against (PP-1)(F+B) = 21, (PP-1)(F+B-2W) = 7 and (PP/2)(F+B) = 12.
  const QuizQuestion& bubble = questions[1];
  CHECK(right(bubble) == "6");
  CHECK(std::set<std::string>(bubble.options.begin(), bubble.options.end()) == std::set<std::string>{"6", "21", "7", "12"});
  CHECK(bubble.explanation == "The simulation gives 6, equal to the README formula (PP/2-1)(F&B+B-3W): (8/2-1)(3+2-3*1) = 6.");

  // Rank 0's ops 0-16 are its warm-up forwards and single-direction pairs; op 17, at t = 17, is the
  // first F&B whose forward and backward belong to different directions.
  const QuizQuestion& slot = questions[2];
  CHECK(slot.options.empty());
  CHECK(slot.correct == 17);
  REQUIRE(slot.timeline);
  CHECK(slot.timeline->schedule == "dualpipe");
  CHECK(slot.timeline->ranks == 8);
  CHECK(slot.timeline->micro_batches == 20);
  CHECK(slot.timeline->cost == "F=1,B=2,W=1,FB=3");
  CHECK(slot.explanation ==
        "From t = 17 to 20 rank 0 overlaps the forward of micro-batch 7 of one direction with the backward of micro-batch 3 of the "
        "other: the first bordered F&B cell of its row.");

  // DualPipe holds PP + 1 activations at peak.
  const QuizQuestion& peak = questions[3];
  CHECK(right(peak) == "9");
  CHECK(std::set<std::string>(peak.options.begin(), peak.options.end()) == std::set<std::string>{"9", "8", "16", "5"});
  CHECK(peak.view == "memory");
}

TEST_CASE("live options follow the one seeded order: the same seed gives the same order, seeds differ") {
  CHECK(find(live({}, 1), "live-bubble-8-20-F=1,B=2,W=1,FB=3").options == std::vector<std::string>{"6", "12", "7", "21"});
  CHECK(find(live({}, 2), "live-bubble-8-20-F=1,B=2,W=1,FB=3").options == std::vector<std::string>{"12", "21", "6", "7"});
  CHECK(find(live({}, 3), "live-bubble-8-20-F=1,B=2,W=1,FB=3").options == std::vector<std::string>{"6", "21", "7", "12"});
  CHECK(keys(live({}, 11)) == keys(live({}, 12)));
  for (std::size_t i = 0; i < live({}, 11).size(); ++i) CHECK(live({}, 11)[i].options == live({}, 11)[i].options);
  // Over many seeds the right answer lands in every position (no position bias).
  std::set<int> positions;
  for (std::uint64_t seed = 0; seed < 40; ++seed) positions.insert(find(live({}, seed), "live-peak-8-20-F=1,B=2,W=1,FB=3").correct);
  CHECK(positions == std::set<int>{0, 1, 2, 3});
}

TEST_CASE("live questions at sizes the lesson's schedule refuses: the others are left out, the slot moves to 4 ranks") {
  // DualPipe needs even ranks; at 7 ranks the rivals ZB-H1 and ZB-H2 tie at 9.1%, so "idles" has no
  // single answer either.
  const auto questions = live({.ranks = 7, .micro_batches = 20, .cost = "F=1,B=2,W=1,FB=3"});
  REQUIRE(keys(questions) == std::vector<std::string>{"live-slot-4-8-F=1,B=2,W=1,FB=3"});
  CHECK(questions[0].timeline->ranks == 4);
  CHECK(questions[0].timeline->micro_batches == 8);
  CHECK(questions[0].correct == 7);
  CHECK(questions[0].text == "DualPipe with 4 ranks and 8 micro-batches: click the first cell where rank 0 runs both directions at once.");
}

TEST_CASE("live questions speak the requested language, numbers written the local way") {
  const auto questions = live({.ranks = 4, .micro_batches = 8, .cost = "F=1,B=2,W=1,FB=2.5"}, 7, "pt-BR");
  const QuizQuestion& slot = find(questions, "live-slot-4-8-F=1,B=2,W=1,FB=2.5");
  CHECK(slot.explanation ==
        "De t = 7 a 9,5, o rank 0 sobrepõe o forward do micro-batch 3 de uma direção ao backward do micro-batch 1 da outra: a "
        "primeira célula F&B com borda da sua linha.");
  CHECK(slot.timeline->prompt == "Clique numa célula do rank 0 nesta linha do tempo.");
  const auto zh = live({.ranks = 6, .micro_batches = 12, .cost = "F=1,B=2,W=1,FB=2.5"}, 7, "zh-CN");
  CHECK(right(find(zh, "live-bubble-6-12-F=1,B=2,W=1,FB=2.5")) == "3");
  CHECK(right(find(zh, "live-peak-6-12-F=1,B=2,W=1,FB=2.5")) == "7");
}

TEST_CASE("live questions refuse bad costs and unknown languages, naming the field") {
  try {
    (void)live({.ranks = 8, .micro_batches = 20, .cost = "F=1,B=banana"});
    FAIL("bad costs were accepted");
  } catch (const pipesim::Error& e) {
    CHECK(e.field() == "cost.B");  // the engine's name for the one cost it refused
  }
  try {
    (void)live({}, 7, "fr");
    FAIL("an unknown language was accepted");
  } catch (const pipesim::Error& e) {
    CHECK(e.code() == pipesim::ErrorCode::unknown_name);
    CHECK(e.field() == "lang");
  }
}

TEST_CASE("bank questions: every question in the bank's order, options reordered, the right one kept") {
  const nlohmann::ordered_json bank = pipesim::quiz_bank(pipesim::test::course_data());
  for (const std::string lang : {"en", "pt-BR", "zh-CN"}) {
    const auto questions = pipesim::bank_questions(pipesim::test::course_data(), lang, 42);
    REQUIRE(questions.size() == bank["questions"].size());
    for (std::size_t i = 0; i < questions.size(); ++i) {
      const auto& stored = bank["questions"][i];
      const QuizQuestion& q = questions[i];
      CHECK(q.key == "bank-" + std::to_string(stored["id"].get<int>()));
      CHECK(q.text == stored["question"][lang].get<std::string>());
      CHECK(right(q) == stored["options"][stored["correct"].get<std::size_t>()][lang].get<std::string>());
      std::vector<std::string> sorted_options = q.options, stored_options;
      for (const auto& o : stored["options"]) stored_options.push_back(o[lang].get<std::string>());
      std::sort(sorted_options.begin(), sorted_options.end());
      std::sort(stored_options.begin(), stored_options.end());
      CHECK(sorted_options == stored_options);
      CHECK(q.view == stored["view"].get<std::string>());
      CHECK_FALSE(q.timeline);
    }
  }
  CHECK(pipesim::bank_questions(pipesim::test::course_data(), "en", 42)[0].options ==
        pipesim::bank_questions(pipesim::test::course_data(), "en", 42)[0].options);
}
