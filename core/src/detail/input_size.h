#pragma once
// The size check every parser runs before reading a document: a limit named in the message, and
// nothing parsed or allocated for text over it.
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
              std::string(what) + " may be at most " + kib(max_bytes) + " (got " + kib(text.size()) + ")");
}

}  // namespace pipesim::detail
