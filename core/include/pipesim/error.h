#pragma once
// The one error type of the library. Every message is one line that says what is wrong and what is
// allowed; the CLI prints it as is and the WebAssembly module hands it to JavaScript unchanged.
#include <cstdio>
#include <stdexcept>
#include <string>

namespace pipesim {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(printable(message)) {}

 private:
  // Messages quote what users typed (file names, tokens, options): control characters are written
  // as escapes so a message stays one printable line and cannot drive a terminal.
  static auto printable(const std::string& text) -> std::string {
    std::string out;
    out.reserve(text.size());
    for (const char ch : text) {
      const auto byte = static_cast<unsigned char>(ch);
      if (ch == '\n') out += "\\n";
      else if (ch == '\r') out += "\\r";
      else if (ch == '\t') out += "\\t";
      else if (byte < 0x20 || byte == 0x7f) {
        char escape[8];
        std::snprintf(escape, sizeof escape, "\\x%02x", byte);
        out += escape;
      } else out += ch;
    }
    return out;
  }
};

}  // namespace pipesim
