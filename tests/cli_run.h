#pragma once
// Runs the built `pipesim` command as a user would and captures its exit status, stdout and stderr.
// CTest runs test cases as parallel processes, so every file a test writes is named by process id.
#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

#include "pipesim/error.h"

namespace pipesim::test {

struct CliResult {
  int status = -1;
  std::string out;
  std::string err;
};

/// A file name of this test process's own in the temporary directory.
inline auto scratch_path(const std::string& name) -> std::string {
  return (std::filesystem::temp_directory_path() / ("pipesim_" + std::to_string(getpid()) + "_" + name)).string();
}

/// Writes `text` to scratch_path(name) and returns that path.
inline auto write_scratch(const std::string& name, const std::string& text) -> std::string {
  const std::string path = scratch_path(name);
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

/// `pipesim ARGS` through the shell (so ARGS may redirect stdin).
inline auto run_cli(const std::string& args) -> CliResult {
  const std::string err_path = scratch_path("stderr.txt");
  const std::string command = std::string(PIPESIM_CLI_PATH) + " " + args + " 2>" + err_path;
  CliResult r;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return r;
  char buffer[4096];
  std::size_t n = 0;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) r.out.append(buffer, n);
  const int raw = pclose(pipe);
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  std::ifstream err(err_path);
  std::ostringstream os;
  os << err.rdbuf();
  r.err = os.str();
  std::remove(err_path.c_str());
  return r;
}

/// `pipesim ARGS`: the short name the CLI test files call it by (one definition, so that the suite
/// builds as one translation unit too: tests/CMakeLists.txt, unity build).
inline auto cli(const std::string& args) -> CliResult { return run_cli(args); }

/// How many times `what` occurs in `text`.
inline auto count_occurrences(const std::string& text, const std::string& what) -> int {
  int n = 0;
  for (std::size_t pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1)) ++n;
  return n;
}

/// The line the CLI prints for a refusal: "pipesim: error[CODE]: MESSAGE".
inline auto refusal_line(ErrorCode code, const std::string& message) -> std::string {
  return "pipesim: error[" + std::string(code_name(code)) + "]: " + message + "\n";
}

/// Bad input: no output, one line "pipesim: error[CODE]: MESSAGE" on stderr, exit status 2.
inline void check_refused(const std::string& args, ErrorCode code, const std::string& message) {
  INFO("pipesim " << args);
  const CliResult r = run_cli(args);
  CHECK(r.status == 2);
  CHECK(r.out.empty());
  CHECK(r.err == refusal_line(code, message));
}

}  // namespace pipesim::test
