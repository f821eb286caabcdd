// The `pipesim` command as a user runs it: output formats, and one clear line plus exit 2 on bad input.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_run.h"

namespace {

using Result = pipesim::test::CliResult;

using pipesim::test::cli;

using pipesim::test::check_refused;
using pipesim::ErrorCode;

}  // namespace

TEST_CASE("simulate --format json follows the documented contract") {
  const Result r = cli("simulate --schedule dualpipe --ranks 8 --micro-batches 20 --cost F=1,B=2,W=1,FB=3 --format json");
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["schedule"] == "dualpipe");
  CHECK(j["ranks"] == 8);
  CHECK(j["stages"] == 8);
  CHECK(j["micro_batches"] == 20);
  CHECK(j["phases"] == "direction");
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
  check_refused("simulate --schedule nope", ErrorCode::unknown_name, "unknown schedule 'nope'; known schedules: gpipe, 1f1b, interleaved-1f1b, zb-h1, "
                                            "zb-h2, zb-v, dualpipe, dualpipev, chimera, custom");
  check_refused("simulate --schedule dualpipe --ranks 3 --micro-batches 12", ErrorCode::schedule_rule,
                "dualpipe needs an even number of ranks, at least 2: rank r is paired with rank N-1-r (got 3 ranks)");
  check_refused("simulate --ranks 8 --micro-batches 14", ErrorCode::schedule_rule,
                "dualpipe needs an even number of micro-batches (half enter at each end), at least 2 x ranks = 16 "
                "(got 14 micro-batches with 8 ranks)");
  // What is no size at all is refused by the CLI, naming the range a run accepts; the range itself is
  // the library's to check, in the same words as for the WebAssembly module.
  check_refused("simulate --ranks abc", ErrorCode::bad_value, "--ranks must be a whole number from 1 to 4096, got 'abc'");
  check_refused("simulate --ranks 4.5", ErrorCode::bad_value, "--ranks must be a whole number from 1 to 4096, got '4.5'");
  check_refused("simulate --micro-batches 1e3", ErrorCode::bad_value,
                "--micro-batches must be a whole number from 1 to 1048576, got '1e3'");
  check_refused("simulate --ranks 0", ErrorCode::bad_value, "ranks must be at least 1 (got 0)");
  check_refused("simulate --ranks -99999999999", ErrorCode::bad_value,
                "--ranks must be a whole number from 1 to 4096, got '-99999999999'");
  check_refused("simulate --schedule 1f1b --ranks 5000", ErrorCode::limit_exceeded,
                "ranks must be at most 4096, the limit of one run (got 5000)");
  check_refused("simulate --ranks 99999999999999999999", ErrorCode::bad_value,
                "--ranks must be a whole number from 1 to 4096, got '99999999999999999999'");
  check_refused("simulate --schedule 1f1b --micro-batches 1048577", ErrorCode::limit_exceeded,
                "micro-batches must be at most 1048576, the limit of one run (got 1048577)");
  check_refused("simulate --cost F=-1", ErrorCode::bad_value, "cost F must be a finite number >= 0, got -1");
  check_refused("simulate --cost F=x", ErrorCode::bad_value, "cost F must be a number, got 'x'");
  check_refused("simulate --format xml", ErrorCode::unknown_name, "--format must be one of text|summary|svg|csv|chrome-trace|json|actions, got 'xml'");
  check_refused("simulate --ranks", ErrorCode::usage, "option --ranks needs a value");
  check_refused("simulate --timing ideal", ErrorCode::unknown_name, "--timing must be one of dataflow|reference, got 'ideal'");
  check_refused("simulate --sends eager", ErrorCode::usage, "--sends applies only to --timing reference");
  check_refused("simulate --timing reference --sends nccl", ErrorCode::unknown_name,
                "--sends must be one of rendezvous|eager|async, got 'nccl'");
  check_refused("simulate --rank 8", ErrorCode::usage, "unknown option --rank for 'simulate'; options are --schedule, --ranks, --micro-batches, "
                                     "--virtual-stages, --cost, --format, --color, --schedule-file, --us-per-unit, --model-cost, --model-stages, --stage-cost, --stage-costs, --rank-speed, --model, --layers-per-stage, --timing, --sends, --measured, --op-names, --align");
  check_refused("simulate --ranks 8 --ranks 4", ErrorCode::usage, "option --ranks is given twice");
  check_refused("simulate extra", ErrorCode::usage, "unexpected argument 'extra' for 'simulate'; options are --schedule, --ranks, --micro-batches, "
                                  "--virtual-stages, --cost, --format, --color, --schedule-file, --us-per-unit, --model-cost, --model-stages, --stage-cost, --stage-costs, --rank-speed, --model, --layers-per-stage, --timing, --sends, --measured, --op-names, --align");
  check_refused("simulat", ErrorCode::usage, "unknown command 'simulat'; commands are simulate, list, presets, overlap, quiz, lesson, plan, help, --version");
}

TEST_CASE("help prints usage and exits 0; no arguments is bad input: one line, exit 2") {
  const Result help = cli("help");
  CHECK(help.status == 0);
  CHECK(help.out.find("pipesim simulate") != std::string::npos);
  check_refused("", ErrorCode::usage, "no command given; commands are simulate, list, presets, overlap, quiz, lesson, plan (pipesim help shows their "
                    "options)");
}

TEST_CASE("a directory given as an input file is refused as one, not read as empty text") {
  const std::string dir = pipesim::test::scratch_path("input_dir");
  std::filesystem::create_directory(dir);
  check_refused("simulate --schedule-file " + dir, ErrorCode::io, "cannot read --schedule-file '" + dir + "': it is a directory");
  check_refused("plan --input " + dir, ErrorCode::io, "cannot read --input '" + dir + "': it is a directory");
  check_refused("overlap --workload " + dir, ErrorCode::io, "cannot read --workload '" + dir + "': it is a directory");
  check_refused("simulate --schedule-file - < " + dir, ErrorCode::io, "cannot read --schedule-file - (standard input): it is a directory");
  check_refused("plan --input - < " + dir, ErrorCode::io, "cannot read --input - (standard input): it is a directory");
  check_refused("overlap --workload - < " + dir, ErrorCode::io, "cannot read --workload - (standard input): it is a directory");
  std::filesystem::remove(dir);
}

TEST_CASE("output that cannot be written is a failure: one line, exit 1") {
  if (!std::filesystem::exists("/dev/full")) {
    WARN("no /dev/full here: the write-failure test is skipped");
    return;
  }
  const std::string message = "pipesim: error[io]: cannot write the output: " + std::string(std::strerror(ENOSPC)) + "\n";
  // Large output fails while it is written, small output only when it is flushed at the end.
  for (const char* args : {"simulate --format json", "simulate --schedule 1f1b --ranks 64 --micro-batches 256 --format csv",
                           "list", "help"}) {
    INFO("pipesim " << args << " > /dev/full");
    const Result r = cli(std::string(args) + " > /dev/full");
    CHECK(r.status == 1);
    CHECK(r.err == message);
  }
}

namespace {

/// Checks every value `shown` gives against `real` at the same place. An "ops" list shows a few ops:
/// each must be one of the real ops, as it is.
void check_shown(const nlohmann::json& shown, const nlohmann::json& real, const std::string& path) {
  INFO(path);
  if (shown.is_object()) {
    REQUIRE(real.is_object());
    for (const auto& [key, value] : shown.items()) {
      REQUIRE(real.contains(key));
      check_shown(value, real[key], path + "." + key);
    }
  } else if (shown.is_array() && path.size() >= 4 && path.substr(path.size() - 4) == ".ops") {
    for (const auto& op : shown) CHECK(std::find(real.begin(), real.end(), op) != real.end());
  } else if (shown.is_array()) {
    REQUIRE(real.is_array());
    REQUIRE(shown.size() <= real.size());
    for (std::size_t k = 0; k < shown.size(); ++k) check_shown(shown[k], real[k], path + "[" + std::to_string(k) + "]");
  } else {
    CHECK(shown == real);
  }
}

}  // namespace

TEST_CASE("README's JSON contract example is what simulate --format json prints for Fig. 5") {
  std::ifstream in(std::string(PIPESIM_SOURCE_DIR) + "/README.md");
  REQUIRE(in);
  const std::string readme((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto section = readme.find("### JSON contract");
  REQUIRE(section != std::string::npos);
  const auto begin = readme.find("```json\n", section);
  REQUIRE(begin != std::string::npos);
  const auto end = readme.find("\n```", begin + 8);
  REQUIRE(end != std::string::npos);
  const auto shown = nlohmann::json::parse(readme.substr(begin + 8, end - begin - 8));
  const Result r = cli("simulate --format json");
  REQUIRE(r.status == 0);
  check_shown(shown, nlohmann::json::parse(r.out), "");
}

// ---- bounded reads (issue 18) -------------------------------------------------------------------

TEST_CASE("every file option is bounded while it is read: /dev/zero, a sparse gigabyte and a pipe stop at the limit") {
  // /dev/zero never ends: refused once 64 MiB (1 MiB for plan and workload documents) have arrived.
  check_refused("simulate --schedule-file /dev/zero", ErrorCode::limit_exceeded,
                "--schedule-file may be at most 64 MiB; --schedule-file '/dev/zero' gives more than that");
  check_refused("plan --input /dev/zero", ErrorCode::limit_exceeded, "--input may be at most 1 MiB; --input '/dev/zero' gives more than that");
  check_refused("overlap --workload /dev/zero", ErrorCode::limit_exceeded,
                "--workload may be at most 1 MiB; --workload '/dev/zero' gives more than that");
  check_refused("simulate --schedule-file - < /dev/zero", ErrorCode::limit_exceeded,
                "--schedule-file may be at most 64 MiB; --schedule-file - (standard input) gives more than that");
  check_refused("overlap --workload - < /dev/zero", ErrorCode::limit_exceeded,
                "--workload may be at most 1 MiB; --workload - (standard input) gives more than that");
  // A regular file says its size: a sparse gigabyte is refused without reading a byte of it.
  const std::string sparse = pipesim::test::scratch_path("sparse.json");
  std::filesystem::resize_file(pipesim::test::write_scratch("sparse.json", ""), std::uintmax_t{1} << 30);
  check_refused("simulate --schedule-file " + sparse, ErrorCode::limit_exceeded,
                "--schedule-file may be at most 64 MiB; --schedule-file '" + sparse + "' has 1073741824 bytes");
  std::filesystem::remove(sparse);
}

TEST_CASE("an empty input file says it is empty, and a file that cannot be opened says why") {
  const std::string empty = pipesim::test::write_scratch("empty.txt", "");
  check_refused("simulate --schedule-file " + empty, ErrorCode::bad_import, "--schedule-file '" + empty + "' is empty");
  check_refused("plan --input - < /dev/null", ErrorCode::bad_import, "--input - (standard input) is empty");
  check_refused("simulate --schedule-file /nonexistent/s.txt", ErrorCode::io,
                "cannot read --schedule-file '/nonexistent/s.txt': No such file or directory");
  std::filesystem::remove(empty);
}
