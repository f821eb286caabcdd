// The conventions people expect of a command-line tool: --help on every command, --version, and
// colours that NO_COLOR and TERM=dumb switch off.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_run.h"
#include "pipesim/version.h"

namespace {

using pipesim::ErrorCode;
using pipesim::test::check_refused;
using pipesim::test::run_cli;

const char* const commands[] = {"simulate", "list", "presets", "overlap", "quiz", "lesson", "plan"};

auto package_version() -> std::string {
  std::ifstream in(std::string(PIPESIM_SOURCE_DIR) + "/package.json");
  return nlohmann::json::parse(in)["version"].get<std::string>();
}

/// `pipesim ARGS` with its standard output on a pseudo-terminal (util-linux's script), as a user's
/// terminal would be; `env` is put before the command (e.g. "NO_COLOR=1").
auto on_terminal(const std::string& env, const std::string& args) -> std::string {
  const std::string command = "env " + env + " script -qec '" + std::string(PIPESIM_CLI_PATH) + " " + args + "' /dev/null";
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string out;
  char buffer[4096];
  for (std::size_t n; (n = fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, n);
  REQUIRE(pclose(pipe) == 0);
  return out;
}

const std::string escape = "\x1b[";

}  // namespace

TEST_CASE("every command answers --help and -h with its own usage and exit 0, whatever else is given") {
  const std::string full = run_cli("help").out;
  for (const char* name : commands) {
    INFO(name);
    for (const std::string& asked : {std::string(name) + " --help", std::string(name) + " -h", std::string(name) + " --ranks 3 --nonsense --help"}) {
      const auto r = run_cli(asked);
      CHECK(r.status == 0);
      CHECK(r.err.empty());
      CHECK(r.out.rfind("usage:\n  pipesim " + std::string(name) + " ", 0) == 0);
      // Only this command's part of the usage text, word for word as `pipesim help` prints it.
      const std::string part = r.out.substr(std::string("usage:\n").size(), r.out.find("Limits of one run") - std::string("usage:\n").size());
      CHECK(full.find(part) != std::string::npos);
      for (const char* other : commands)
        if (std::string(other) != name) CHECK(part.find("  pipesim " + std::string(other) + " ") == std::string::npos);
    }
  }
  CHECK(run_cli("quiz --help").out.find("pipesim quiz --bank") != std::string::npos);  // both quiz forms
}

TEST_CASE("help and --version take no arguments: anything after them is refused like any extra argument") {
  check_refused("help extra", ErrorCode::usage, "unexpected argument 'extra' for 'help'; it takes none (pipesim COMMAND --help shows one command)");
  check_refused("--version now", ErrorCode::usage, "unexpected argument 'now' after --version; it takes none");
  CHECK(run_cli("--help").status == 0);
  CHECK(run_cli("-h").out == run_cli("help").out);
}

TEST_CASE("pipesim --version prints the one version, package.json's, which the library reports too") {
  const auto r = run_cli("--version");
  CHECK(r.status == 0);
  CHECK(r.out == "pipesim " + package_version() + "\n");
  CHECK(std::string(pipesim::version()) == package_version());
  CHECK(run_cli("-V").out == r.out);
}

TEST_CASE("text output on a terminal is coloured unless NO_COLOR is set or TERM is dumb") {
  const std::string run = "simulate --schedule 1f1b --ranks 4 --micro-batches 4";
  CHECK(on_terminal("TERM=xterm", run).find(escape) != std::string::npos);
  CHECK(on_terminal("TERM=xterm NO_COLOR=", run).find(escape) != std::string::npos);  // empty: not set (no-color.org)
  CHECK(on_terminal("TERM=xterm NO_COLOR=1", run).find(escape) == std::string::npos);
  CHECK(on_terminal("TERM=dumb", run).find(escape) == std::string::npos);
  // An explicit --color always still colours, and never never does.
  CHECK(on_terminal("TERM=dumb NO_COLOR=1", run + " --color always").find(escape) != std::string::npos);
  CHECK(on_terminal("TERM=xterm", run + " --color never").find(escape) == std::string::npos);
  // overlap --simulate follows the same rule.
  const std::string overlap = "overlap --simulate 1f1b --ranks 4 --micro-batches 4";
  CHECK(on_terminal("TERM=xterm", overlap).find(escape) != std::string::npos);
  CHECK(on_terminal("TERM=xterm NO_COLOR=1", overlap).find(escape) == std::string::npos);
}
