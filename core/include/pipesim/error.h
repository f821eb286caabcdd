#pragma once
// The one error type of the library. Every message is one line that says what is wrong and what is
// allowed; the CLI prints it as is and the WebAssembly module hands it to JavaScript unchanged.
#include <stdexcept>
#include <string>

namespace pipesim {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace pipesim
