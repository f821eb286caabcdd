#include "output.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace pipesim::cli {

namespace {

auto failed(const std::string& path, int code) -> OutputFailed {
  return OutputFailed("cannot write --output '" + path + "': " + (code != 0 ? std::strerror(code) : "the write failed"));
}

/// Existing and not a regular file: a device or a FIFO, written in place.
auto special_file(const std::string& path) -> bool {
  struct stat info {};
  return stat(path.c_str(), &info) == 0 && !S_ISREG(info.st_mode);
}

bool output_redirected = false;

}  // namespace

auto output_is_terminal() -> bool { return !output_redirected && isatty(STDOUT_FILENO) != 0; }

auto take_output_option(std::span<const std::string_view> args) -> OutputOption {
  OutputOption out;
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::optional<std::string> value;
    if (args[i] == "--output") {
      if (i + 1 == args.size()) throw Error(ErrorCode::usage, "--output needs a value: --output PATH");
      value = std::string(args[++i]);
    } else if (args[i].starts_with("--output=")) {
      value = std::string(args[i].substr(9));
    } else {
      out.rest.push_back(args[i]);
      continue;
    }
    if (out.path) throw Error(ErrorCode::usage, "--output given twice; give it once");
    if (value->empty()) throw Error(ErrorCode::usage, "--output needs a path: --output PATH");
    out.path = std::move(value);
  }
  return out;
}

OutputFile::OutputFile(std::string path) : path_(std::move(path)) {
  if (special_file(path_)) {
    file_.open(path_, std::ios::binary | std::ios::out);
    if (!file_) throw failed(path_, errno);
  } else {
    std::string pattern = path_ + ".pipesim-XXXXXX";
    const int fd = mkstemp(pattern.data());
    if (fd < 0) throw failed(path_, errno);
    // mkstemp makes the file private (0600); the output gets the mode a new file gets here.
    const mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    close(fd);
    temporary_ = pattern;
    file_.open(temporary_, std::ios::binary | std::ios::out | std::ios::trunc);
    if (!file_) {
      const int code = errno;
      std::remove(temporary_.c_str());
      throw failed(path_, code);
    }
  }
  saved_ = std::cout.rdbuf(file_.rdbuf());
  output_redirected = true;
  errno = 0;
}

void OutputFile::restore() {
  if (saved_ == nullptr) return;
  std::cout.rdbuf(saved_);
  saved_ = nullptr;
  output_redirected = false;
}

void OutputFile::commit() {
  // errno is cleared when the file opens: a write that failed since (the buffer filled on a full
  // disk) left its reason there, and the stream writes nothing more once it has failed.
  std::cout.flush();
  const bool written = static_cast<bool>(std::cout);
  restore();
  int code = errno;
  file_.close();
  if (code == 0) code = errno;
  if (!written || file_.fail()) throw failed(path_, code);
  if (temporary_.empty()) return;
  // On the disk before it replaces PATH: a crash then leaves the old file or the new one.
  const int fd = open(temporary_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0 || fsync(fd) != 0) {
    code = errno;
    if (fd >= 0) close(fd);
    throw failed(path_, code);
  }
  close(fd);
  if (std::rename(temporary_.c_str(), path_.c_str()) != 0) throw failed(path_, errno);
  temporary_.clear();
}

OutputFile::~OutputFile() {
  restore();
  if (file_.is_open()) file_.close();
  if (!temporary_.empty()) std::remove(temporary_.c_str());
}

}  // namespace pipesim::cli
