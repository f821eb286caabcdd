// The `pipesim` command as a user runs it: output formats, and one clear line plus exit 2 on bad input.
#include <catch2/catch.hpp>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_run.h"

namespace {

using Result = pipesim::test::CliResult;

auto cli(const std::string& args) -> Result { return pipesim::test::run_cli(args); }

using pipesim::test::check_refused;

}  // namespace

TEST_CASE("simulate --format json follows the documented contract") {
  const Result r = cli("simulate --schedule dualpipe --ranks 8 --micro-batches 20 --cost F=1,B=2,W=1,FB=3 --format json");
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["schedule"] == "dualpipe");
  CHECK(j["ranks"] == 8);
  CHECK(j["stages"] == 8);
  CHECK(j["micro_batches"] == 20);
  CHECK(j["cost"] == nlohmann::json{{"F", 1}, {"B", 2}, {"W", 1}, {"FB", 3}, {"comm", 0}});
  CHECK(j["makespan"] == 66);
  CHECK(j["bubble_fraction"].get<double>() == Approx(6.0 / 66));
  CHECK(j["formula"]["text"] == "(PP/2-1)(F&B+B-3W)");
  CHECK(j["formula"]["value"] == 6);
  CHECK(j["per_rank"].size() == 8);
  std::size_t ops = 0;
  for (const auto& rank : j["per_rank"]) {
    CHECK(rank["bubble"] == 6);
    CHECK(rank["peak_activations"] == 9);
    ops += rank["ops"].size();
  }
  CHECK(j["op_count"] == ops);
  const auto& first = j["per_rank"][0]["ops"][0];
  CHECK(first == nlohmann::json{{"op", "F"}, {"mb", 0}, {"phase", 0}, {"stage", 0}, {"start", 0}, {"end", 1}});
  const auto& pair = j["per_rank"][0]["ops"][17];  // after 7 F0s and 10 step-2/3 ops
  CHECK(pair["op"] == "FB");
  CHECK(pair["f_mb"] == 7);
  CHECK(pair["b_mb"] == 3);
  CHECK(pair["b_phase"] == 1);
  CHECK(pair["b_stage"] == 7);
}

TEST_CASE("simulate --format summary is the JSON without ops") {
  const Result r = cli("simulate --schedule 1f1b --ranks 4 --micro-batches 8 --format summary");
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["makespan"] == 33);
  CHECK_FALSE(j["per_rank"][0].contains("ops"));
  CHECK(j["cost"]["FB"] == 3);  // defaults
}

TEST_CASE("simulate --format text draws one row per rank and prints the measurements") {
  const Result r = cli("simulate --schedule dualpipe --ranks 4 --micro-batches 8 --color never");
  REQUIRE(r.status == 0);
  CHECK(r.out.find("rank 0 |F0F1F2f0i0w0f1[F3b1]..[f2B0]b2--..[f3B1]b3--I2W2I3W3") != std::string::npos);
  CHECK(r.out.find("makespan 26") != std::string::npos);
  CHECK(r.out.find("\x1b[") == std::string::npos);
}

TEST_CASE("list names every schedule") {
  const Result r = cli("list --format json");
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  std::vector<std::string> names;
  for (const auto& s : j) names.push_back(s["name"]);
  CHECK(names == std::vector<std::string>{"gpipe", "1f1b", "interleaved-1f1b", "zb-h1", "zb-h2", "zb-v", "dualpipe",
                                          "dualpipev", "chimera", "custom"});
}

TEST_CASE("bad input prints one line saying what is wrong and what is allowed, and exits 2") {
  check_refused("simulate --schedule nope", "unknown schedule 'nope'; known schedules: gpipe, 1f1b, interleaved-1f1b, zb-h1, "
                                            "zb-h2, zb-v, dualpipe, dualpipev, chimera, custom");
  check_refused("simulate --schedule dualpipe --ranks 3 --micro-batches 12",
                "dualpipe needs an even number of ranks, at least 2: rank r is paired with rank N-1-r (got 3 ranks)");
  check_refused("simulate --ranks 8 --micro-batches 14",
                "dualpipe needs an even number of micro-batches (half enter at each end), at least 2 x ranks = 16 "
                "(got 14 micro-batches with 8 ranks)");
  check_refused("simulate --ranks abc", "--ranks must be a whole number from 1 to 1000000, got 'abc'");
  check_refused("simulate --ranks 4.5", "--ranks must be a whole number from 1 to 1000000, got '4.5'");
  check_refused("simulate --ranks 99999999999999999999", "--ranks must be a whole number from 1 to 1000000, got '99999999999999999999'");
  check_refused("simulate --ranks 0", "--ranks must be a whole number from 1 to 1000000, got 0");
  check_refused("simulate --schedule 1f1b --ranks 300", "ranks must be between 1 and 256 (got 300)");
  check_refused("simulate --cost F=-1", "cost F must be a finite number >= 0, got -1");
  check_refused("simulate --cost F=x", "cost F must be a number, got 'x'");
  check_refused("simulate --format xml", "--format must be one of text|json|summary|actions|chrome-trace|csv|svg, got 'xml'");
  check_refused("simulate --ranks", "option --ranks needs a value");
  check_refused("simulate --rank 8", "unknown option --rank for 'simulate'; options are --schedule, --ranks, --micro-batches, "
                                     "--virtual-stages, --cost, --format, --color, --schedule-file, --us-per-unit");
  check_refused("simulate --ranks 8 --ranks 4", "option --ranks is given twice");
  check_refused("simulate extra", "unexpected argument 'extra' for 'simulate'; options are --schedule, --ranks, --micro-batches, "
                                  "--virtual-stages, --cost, --format, --color, --schedule-file, --us-per-unit");
  check_refused("simulat", "unknown command 'simulat'; commands are simulate, list, overlap, quiz, lesson, plan, help");
}

TEST_CASE("help prints usage and exits 0, no arguments prints usage and exits 2") {
  const Result help = cli("help");
  CHECK(help.status == 0);
  CHECK(help.out.find("pipesim simulate") != std::string::npos);
  CHECK(cli("").status == 2);
}
