#pragma once
// `--output PATH`, which every command takes: what the command writes to standard output goes to a
// temporary file next to PATH instead, renamed over PATH once all of it was written and synced. PATH
// then never holds a truncated output (a full disk leaves it as it was) and writers racing on one PATH
// leave one complete output, never a mix. A PATH that exists and is no regular file (/dev/null, a FIFO)
// is written directly: there is nothing to rename over.
#include <fstream>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pipesim/error.h"

namespace pipesim::cli {

/// The output could not be written: reported like bad input but with exit status 1 (main.cpp).
class OutputFailed : public Error {
 public:
  explicit OutputFailed(const std::string& message) : Error(ErrorCode::io, message) {}
};

/// `args` without `--output PATH` / `--output=PATH`, and PATH. Throws usage when it is given twice or
/// without a value.
struct OutputOption {
  std::vector<std::string_view> rest;
  std::optional<std::string> path;
};
[[nodiscard]] auto take_output_option(std::span<const std::string_view> args) -> OutputOption;

/// Whether what a command writes reaches a terminal: never while an OutputFile is open (colours
/// would end up in the file), else whether standard output is one.
[[nodiscard]] auto output_is_terminal() -> bool;

/// While alive, standard output goes to the temporary file; commit() puts it in place. Destroyed
/// without commit() (the command failed), it removes the temporary file and PATH is untouched.
class OutputFile {
 public:
  explicit OutputFile(std::string path);
  OutputFile(const OutputFile&) = delete;
  auto operator=(const OutputFile&) -> OutputFile& = delete;
  ~OutputFile();
  /// Throws OutputFailed naming PATH and the system's reason.
  void commit();

 private:
  void restore();
  std::string path_;
  std::string temporary_;  ///< empty when PATH is written directly
  std::ofstream file_;
  std::streambuf* saved_ = nullptr;
};

}  // namespace pipesim::cli
