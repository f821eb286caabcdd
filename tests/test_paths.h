// Where the suite finds the CLI it runs and the checkout's files (README.md, core/data, tests/data).
// Every test file sees this header (tests/CMakeLists.txt passes -include), and only test_paths.cpp is
// compiled with the actual paths: the other files' compile commands stay free of absolute paths, so a
// fresh clone in another folder reuses their compiler-cache entries.
#pragma once

namespace pipesim::test_paths {
extern const char* const cli;         // the build's `pipesim` command
extern const char* const source_dir;  // the checkout
extern const char* const data_dir;    // core/data in the checkout
}  // namespace pipesim::test_paths

#define PIPESIM_CLI_PATH (::pipesim::test_paths::cli)
#define PIPESIM_SOURCE_DIR (::pipesim::test_paths::source_dir)
#define PIPESIM_DATA_DIR (::pipesim::test_paths::data_dir)
