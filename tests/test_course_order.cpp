// The course's option order (core/course/src/detail/course_order.h), checked against python3 itself: its
// hashlib, its random.Random and its re module give the oracle, so "passes the course's
// scripts/debias_quizzes.py --check" is tested against the very functions that check calls.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "cli_run.h"
#include "helpers.h"
#include "detail/course_order.h"
#include "pipesim/quiz.h"

using nlohmann::json;
using nlohmann::ordered_json;

namespace {

// The course's rule, restated with Python's own modules: the seed from SHA-256, the options sorted
// (str order), random.Random(seed).shuffle of their positions; options matching the positional
// patterns, or repeated, keep their order.
constexpr const char* oracle = R"PY(
import hashlib, json, random, re, sys
POSITIONAL = re.compile("|".join([
    r"\b(all|none|both|neither)\s+of\s+(the|these)\b",
    r"\b(both|neither|either)\s+[A-D]\b",
    r"\b[A-D]\s+and\s+[A-D]\b",
    r"\b(above|below|following)\b",
]), re.IGNORECASE)

def seed(path, question):
    return int(hashlib.sha256(f"{path}\x00{question}".encode("utf-8")).hexdigest()[:16], 16)

def order(path, question, options, correct):
    if any(POSITIONAL.search(o) for o in options) or len(set(options)) != len(options):
        return options, correct
    base = sorted(options)
    perm = list(range(len(base)))
    random.Random(seed(path, question)).shuffle(perm)
    moved = [base[i] for i in perm]
    return moved, moved.index(options[correct])

task = json.load(open(sys.argv[1], encoding="utf-8"))
out = {}
out["sha256"] = [hashlib.sha256(t.encode("utf-8")).hexdigest() for t in task["sha256"]]
out["bits"] = []
for s in task["seeds"]:
    r = random.Random(s)
    out["bits"].append([r.getrandbits(32) for _ in range(700)] + [r.getrandbits(k) for k in range(1, 33)])
out["shuffles"] = []
for s in task["seeds"]:
    for n in range(1, 9):
        perm = list(range(n))
        random.Random(s).shuffle(perm)
        out["shuffles"].append(perm)
out["positional"] = [bool(POSITIONAL.search(t)) for t in task["positional"]]
out["orders"] = [list(order(q["path"], q["question"], q["options"], q["correct"])) for q in task["orders"]]
out["seed_of"] = [str(seed(q["path"], q["question"])) for q in task["orders"]]
json.dump(out, sys.stdout, ensure_ascii=False)
)PY";

/// Runs the oracle on `task` and returns its answers.
auto ask_python(const json& task) -> json {
  const std::string script = pipesim::test::write_scratch("course_order_oracle.py", oracle);
  const std::string input = pipesim::test::write_scratch("course_order_task.json", task.dump());
  const std::string command = "python3 " + script + " " + input;
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string text;
  char buffer[4096];
  for (std::size_t n; (n = fread(buffer, 1, sizeof buffer, pipe)) > 0;) text.append(buffer, n);
  REQUIRE(pclose(pipe) == 0);  // python3 is part of every Debian system
  return json::parse(text);
}

const std::vector<std::uint64_t> seeds = {0ULL, 1ULL, 42ULL, 0xffffffffULL, 0x100000000ULL, 0x8000000000000005ULL, 0xffffffffffffffffULL};

const std::vector<std::string> positional_samples = {
    "All of the above",  "none of these",      "Both A and C",        "neither B",          "either d",
    "a and b",           "see the following",  "the one below",       "both a forward pass", "overall of the",
    "aboveboard",        "A  and\tB",          "all of\u00a0the",     "B and E",            "both AB",
    "both_A",            "A-and-B",            "\u00e9above",         "x\u2014above",       "\u4ee5\u4e0a\u90fd\u5bf9 above",
    "F=1, B=2",          "1F1B and ZB-H1",     "Neither of the two",  "8 ranks",            "",
};

auto bank_orders() -> json {
  json orders = json::array();
  const std::string path = pipesim::course_quiz_path(pipesim::test::course_data());
  const ordered_json bank = pipesim::quiz_bank(pipesim::test::course_data());
  for (const auto& q : bank["questions"])
    for (const char* lang : {"en", "pt-BR", "zh-CN"}) {
      json options = json::array();
      for (const auto& o : q["options"]) options.push_back(o[lang].get<std::string>());
      orders.push_back({{"path", path}, {"question", q["question"][lang].get<std::string>()}, {"options", options},
                        {"correct", q["correct"].get<int>()}});
    }
  // Questions whose options refer to each other or repeat keep their order.
  orders.push_back({{"path", path}, {"question", "Which hold?"}, {"options", {"x", "y", "All of the above", "z"}}, {"correct", 2}});
  orders.push_back({{"path", path}, {"question", "Twice?"}, {"options", {"same", "same", "other", "more"}}, {"correct", 3}});
  return orders;
}

}  // namespace

TEST_CASE("the course's option order is exactly Python's, for every bank question in every language") {
  json task{{"sha256", {"", "abc", std::string(55, 'a'), std::string(56, 'a'), std::string(64, 'a'), std::string(1000, 'z'),
                        std::string("phases/x") + '\0' + "\u4e2d\u6587 \u00e9"}},
            {"seeds", seeds},
            {"positional", positional_samples},
            {"orders", bank_orders()}};
  const json python = ask_python(task);

  for (std::size_t i = 0; i < task["sha256"].size(); ++i)
    CHECK(pipesim::detail::sha256_hex(task["sha256"][i].get<std::string>()) == python["sha256"][i]);

  std::size_t shuffle = 0;
  for (std::size_t s = 0; s < seeds.size(); ++s) {
    INFO("seed " << seeds[s]);
    pipesim::detail::PythonRandom random(seeds[s]);
    std::vector<std::uint32_t> bits;
    for (int i = 0; i < 700; ++i) bits.push_back(random.getrandbits(32));  // past one 624-word refill
    for (int k = 1; k <= 32; ++k) bits.push_back(random.getrandbits(k));
    CHECK(json(bits) == python["bits"][s]);
    for (std::size_t n = 1; n <= 8; ++n, ++shuffle) {
      std::vector<std::size_t> perm(n);
      for (std::size_t i = 0; i < n; ++i) perm[i] = i;
      pipesim::detail::PythonRandom(seeds[s]).shuffle(perm);
      CHECK(json(perm) == python["shuffles"][shuffle]);
    }
  }

  for (std::size_t i = 0; i < positional_samples.size(); ++i) {
    INFO(positional_samples[i]);
    CHECK(pipesim::detail::refers_to_other_options(positional_samples[i]) == python["positional"][i].get<bool>());
  }

  for (std::size_t i = 0; i < task["orders"].size(); ++i) {
    const json& q = task["orders"][i];
    INFO(q["question"].get<std::string>());
    const auto order = pipesim::detail::course_order(q["path"].get<std::string>(), q["question"].get<std::string>(),
                                                     q["options"].get<std::vector<std::string>>(), q["correct"].get<std::size_t>());
    CHECK(json(order.options) == python["orders"][i][0]);
    CHECK(order.correct == python["orders"][i][1].get<std::size_t>());
    CHECK(std::to_string(pipesim::detail::course_seed(q["path"].get<std::string>(), q["question"].get<std::string>())) ==
          python["seed_of"][i]);
  }
}

TEST_CASE("the course's debias check would rewrite none of the exported questions, in any language") {
  // What `scripts/debias_quizzes.py --check` computes for each question of the exported file: the
  // order it would write. It must be the order already there.
  json orders = json::array();
  std::vector<ordered_json> exported;
  for (const char* lang : {"en", "pt-BR", "zh-CN"}) {
    const ordered_json quiz = pipesim::course_quiz(pipesim::test::course_data(), lang);  // kept alive: the loop runs over a part of it
    for (const auto& q : quiz["questions"]) {
      orders.push_back({{"path", pipesim::course_quiz_path(pipesim::test::course_data())},
                        {"question", q["question"].get<std::string>()},
                        {"options", q["options"].get<std::vector<std::string>>()},
                        {"correct", q["correct"].get<int>()}});
      exported.push_back(q);
    }
  }
  const json python = ask_python({{"sha256", json::array()}, {"seeds", json::array()}, {"positional", json::array()}, {"orders", orders}});
  REQUIRE(python["orders"].size() == exported.size());
  for (std::size_t i = 0; i < exported.size(); ++i) {
    INFO(exported[i]["question"].get<std::string>());
    CHECK(json(exported[i]["options"].get<std::vector<std::string>>()) == python["orders"][i][0]);
    CHECK(exported[i]["correct"].get<int>() == python["orders"][i][1].get<int>());
  }
}
