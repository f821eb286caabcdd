// `pipesim simulate --format chrome-trace|csv|svg` as a user runs it, the trace read back with
// --schedule-file, and one line plus exit 2 for what cannot be used.
#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_run.h"

namespace {

using pipesim::test::cli;
using pipesim::test::write_scratch;

using pipesim::test::count_occurrences;

}  // namespace

TEST_CASE("pipesim simulate --format chrome-trace writes a trace that --schedule-file reads back") {
  const std::string schedule = "--schedule zb-h1 --ranks 4 --micro-batches 8 --cost F=1,B=2,W=1,comm=0.5";
  const auto trace = cli("simulate " + schedule + " --format chrome-trace");
  REQUIRE(trace.status == 0);
  CHECK(trace.err.empty());
  const auto j = nlohmann::json::parse(trace.out);
  CHECK(j["otherData"]["generator"] == "pipesim");
  CHECK(j["otherData"]["ranks"] == 4);
  int starts = 0;
  for (const auto& e : j["traceEvents"]) starts += e["ph"] == "s" ? 1 : 0;
  CHECK(starts == 2 * 3 * 8);  // each micro-batch crosses 3 rank boundaries forward and 3 backward
  const std::string file = write_scratch("export_cli_trace.json", trace.out);
  const auto back = cli("simulate --schedule-file " + file + " --cost F=1,B=2,W=1,comm=0.5 --format summary");
  const auto original = cli("simulate " + schedule + " --format summary");
  REQUIRE(back.status == 0);
  REQUIRE(original.status == 0);
  CHECK(nlohmann::json::parse(back.out)["makespan"] == nlohmann::json::parse(original.out)["makespan"]);
  CHECK(cli("simulate --schedule-file " + file + " --format actions").out ==
        cli("simulate " + schedule + " --format actions").out);
  std::remove(file.c_str());
}

TEST_CASE("pipesim simulate --us-per-unit scales the trace's timestamps") {
  const auto trace = cli("simulate --schedule 1f1b --ranks 2 --micro-batches 2 --format chrome-trace --us-per-unit 1");
  REQUIRE(trace.status == 0);
  CHECK(trace.out.find(R"("name":"B1","cat":"compute","ph":"X","ts":7,"dur":2,"pid":1)") != std::string::npos);
}

TEST_CASE("pipesim simulate --format csv and --format svg") {
  const auto csv = cli("simulate --schedule 1f1b --ranks 4 --micro-batches 8 --format csv");
  REQUIRE(csv.status == 0);
  CHECK(csv.out.rfind("rank,index,op,mb,phase,stage,b_mb,b_phase,b_stage,start,end,duration\r\n0,0,F,0,0,0,,,,0,1,1\r\n", 0) == 0);
  CHECK(count_occurrences(csv.out, "\r\n") == 1 + 4 * 16);
  const auto svg = cli("simulate --format svg");
  REQUIRE(svg.status == 0);
  CHECK(svg.out.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg ", 0) == 0);
  CHECK(svg.out.find("</svg>\n") == svg.out.size() - 7);
  CHECK(count_occurrences(svg.out, ">rank 7</text>") == 1);  // the row labels of ranks 0 .. 7
  CHECK(count_occurrences(svg.out, ">rank 8</text>") == 0);
}

TEST_CASE("pipesim simulate refuses traces and trace options it cannot use with one line and exit 2") {
  const auto refused = pipesim::test::check_refused;
  const std::string foreign =
      write_scratch("export_cli_foreign.json", R"({"traceEvents": [{"ph": "X", "name": "F0", "ts": 0, "dur": 1, "pid": 0, "tid": 0}]})");
  refused("simulate --schedule-file " + foreign, pipesim::ErrorCode::bad_import,
          "this Chrome trace was not written by pipesim (otherData.generator is not \"pipesim\"); pipesim reads back only "
          "traces from `simulate --format chrome-trace`");
  const std::string array = write_scratch("export_cli_array.json", R"([{"ph": "X", "name": "F0", "ts": 0, "dur": 1, "pid": 0, "tid": 0}])");
  refused("simulate --schedule-file " + array, pipesim::ErrorCode::bad_import,
          "a JSON array (a Chrome trace in array form?) is not a schedule; give a trace from `simulate --format chrome-trace`, "
          "JSON as `simulate --format json` writes it, or PyTorch actions such as 0F0,0B0");
  const std::string broken =
      write_scratch("export_cli_broken.json", R"({"traceEvents": [], "otherData": {"generator": "pipesim", "ranks": "two"}})");
  refused("simulate --schedule-file " + broken, pipesim::ErrorCode::bad_import, "pipesim trace: otherData.ranks must be a whole number from 1 to 4096");
  refused("simulate --format csv --us-per-unit 5", pipesim::ErrorCode::usage, "--us-per-unit applies only to --format chrome-trace");
  refused("simulate --format chrome-trace --us-per-unit 0", pipesim::ErrorCode::bad_value, "--us-per-unit must be a number from 0.001 to 1000000000, got 0");
  for (const std::string& path : {foreign, array, broken}) std::remove(path.c_str());
}

TEST_CASE("a chrome trace is written in about its own size of memory, not as a tree of events", "[address-space]") {
  // 1f1b 32x512 is a 26 MB trace. Built as one JSON object per event it took 200 MB; written as text
  // it fits, with the run and the program, in 120 MB of address space.
  // The end of the trace and pipesim's exit status; nothing else of the 26 MB reaches this process.
  const std::string command = "ulimit -v 120000 && { " + std::string(PIPESIM_CLI_PATH) +
                              " simulate --schedule 1f1b --ranks 32 --micro-batches 512 --format chrome-trace; "
                              "echo \"exit $?\"; } 2>&1 | tail -c 9";
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string tail;
  for (int ch = std::fgetc(pipe); ch != EOF; ch = std::fgetc(pipe)) tail += static_cast<char>(ch);
  pclose(pipe);
  CHECK(tail == "}\nexit 0\n");
}
