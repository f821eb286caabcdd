// --output PATH (issue 18): every command writes its output to PATH atomically, through a temporary
// file renamed over PATH once complete, so a failed write leaves PATH as it was and racing writers
// leave one whole output.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli_run.h"

using pipesim::ErrorCode;
using pipesim::test::check_refused;
using pipesim::test::run_cli;
using pipesim::test::scratch_path;

namespace {

auto contents(const std::string& path) -> std::string {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

/// Files next to `path` that a writer left behind (its temporaries).
auto leftovers(const std::string& path) -> int {
  const std::filesystem::path p(path);
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(p.parent_path()))
    if (entry.path().filename().string().starts_with(p.filename().string() + ".pipesim-")) ++count;
  return count;
}

}  // namespace

TEST_CASE("a command given --output PATH writes there exactly what standard output would get, for every command, and nothing to stdout") {
  const std::string path = scratch_path("output.txt");
  for (const std::string& command : std::vector<std::string>{"simulate --format svg --ranks 4 --micro-batches 8", "simulate --format json",
                                    "simulate --format text --color auto", "list --format json", "overlap --format json",
                                    "quiz --course --lang pt-BR", "lesson --exercise 1",
                                    "plan --input " + std::string(PIPESIM_SOURCE_DIR) + "/core/data/plan_examples/deepseek-v3.json"}) {
    INFO(command);
    const auto direct = run_cli(command);
    REQUIRE(direct.status == 0);
    const auto written = run_cli(command + " --output " + path);
    CHECK(written.status == 0);
    CHECK(written.out.empty());
    CHECK(written.err.empty());
    CHECK(contents(path) == direct.out);
    CHECK(leftovers(path) == 0);
  }
  // --output=PATH and the option anywhere on the line.
  CHECK(run_cli("simulate --output=" + path + " --format csv").status == 0);
  CHECK(contents(path).starts_with("rank,index,op,"));
  std::filesystem::remove(path);
}

TEST_CASE("a refused command leaves PATH as it was and no temporary file") {
  const std::string path = pipesim::test::write_scratch("kept.txt", "the old contents\n");
  const auto refused = run_cli("simulate --ranks 0 --output " + path);
  CHECK(refused.status == 2);
  CHECK(contents(path) == "the old contents\n");
  CHECK(leftovers(path) == 0);
  std::filesystem::remove(path);
}

TEST_CASE("an output that cannot be written fully exits 1 and leaves PATH whole: the old file, never a truncated one") {
  const std::string path = pipesim::test::write_scratch("full.svg", "the old contents\n");
  // A file size limit of 64 KiB stands for a full disk: the write fails part-way (EFBIG).
  const std::string command = "trap '' XFSZ; ulimit -f 64; " + std::string(PIPESIM_CLI_PATH) +
                              " simulate --format svg --ranks 16 --micro-batches 64 --output " + path + " 2>&1; echo \"exit $?\"";
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string out;
  for (int ch = std::fgetc(pipe); ch != EOF; ch = std::fgetc(pipe)) out += static_cast<char>(ch);
  pclose(pipe);
  CHECK(out == "pipesim: error[io]: cannot write --output '" + path + "': File too large\nexit 1\n");
  CHECK(contents(path) == "the old contents\n");
  CHECK(leftovers(path) == 0);
  std::filesystem::remove(path);
}

TEST_CASE("writers racing on one PATH leave one complete output, never a mix") {
  const std::string path = scratch_path("race.csv");
  const std::string cli = PIPESIM_CLI_PATH;
  const std::string a = run_cli("simulate --format csv --schedule gpipe --ranks 8 --micro-batches 512").out;
  const std::string b = run_cli("simulate --format csv --schedule 1f1b --ranks 8 --micro-batches 512").out;
  std::string command;
  for (int k = 0; k < 4; ++k)
    command += cli + " simulate --format csv --schedule gpipe --ranks 8 --micro-batches 512 --output " + path + " & " + cli +
               " simulate --format csv --schedule 1f1b --ranks 8 --micro-batches 512 --output " + path + " & ";
  command += "wait";
  REQUIRE(std::system(command.c_str()) == 0);
  const std::string result = contents(path);
  CHECK((result == a || result == b));
  CHECK(leftovers(path) == 0);
  std::filesystem::remove(path);
}

TEST_CASE("the output option is refused twice or without a path; a device is written in place") {
  check_refused("simulate --output a --output b", ErrorCode::usage, "--output given twice; give it once");
  check_refused("simulate --output", ErrorCode::usage, "--output needs a value: --output PATH");
  check_refused("simulate --output=", ErrorCode::usage, "--output needs a path: --output PATH");
  const auto null = run_cli("simulate --output /dev/null");
  CHECK(null.status == 0);
  CHECK(std::filesystem::exists("/dev/null"));
  CHECK(std::filesystem::is_character_file("/dev/null"));
  const auto full = run_cli("simulate --format svg --output /dev/full");
  CHECK(full.status == 1);
  CHECK(full.err == "pipesim: error[io]: cannot write --output '/dev/full': No space left on device\n");
}
