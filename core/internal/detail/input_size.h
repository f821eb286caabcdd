#pragma once
// What every parser runs before reading a document (a custom schedule, a plan input, a workload): its
// size against the limit named in the message, a UTF-8 byte-order mark dropped (editors on Windows
// write one; every surface then reads the same text), and a NUL byte refused (JSON parsers stop at
// one, so whatever followed it would be silently ignored). Nothing is parsed or allocated before.
#include <cstddef>
#include <string>
#include <string_view>

#include "pipesim/error.h"

namespace pipesim::detail {

/// Throws limit_exceeded when `text` is longer than `max_bytes`; `what` names the document.
inline void check_input_size(std::string_view text, std::size_t max_bytes, std::string_view what) {
  if (text.size() <= max_bytes) return;
  const auto kib = [](std::size_t bytes) { return std::to_string((bytes + 1023) / 1024) + " KiB"; };
  throw Error(ErrorCode::limit_exceeded,
              std::string(what) + " may be at most " + kib(max_bytes) + " (got " + kib(text.size()) + ")",
              {"document.too_large", {{"what", std::string(what)}, {"max", kib(max_bytes)}, {"value", kib(text.size())}}});
}

/// `text` checked as above and without its byte-order mark.
[[nodiscard]] inline auto document_text(std::string_view text, std::size_t max_bytes, std::string_view what) -> std::string_view {
  check_input_size(text, max_bytes, what);
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  if (const std::size_t nul = text.find('\0'); nul != std::string_view::npos)
    throw Error(ErrorCode::bad_import, std::string(what) + " contains a NUL byte (at byte " + std::to_string(nul) +
                                           "); it must be text",
                {"document.nul", {{"what", std::string(what)}, {"at", std::to_string(nul)}}});
  return text;
}

}  // namespace pipesim::detail
