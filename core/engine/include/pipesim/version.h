#pragma once
// pipesim's version. Written once, in package.json's "version": CMake reads it from there into
// project(VERSION), and the CLI (`pipesim --version`), both WebAssembly modules (version()) and the
// page (its footer) all show this one value.
#include <string_view>

namespace pipesim {

/// "MAJOR.MINOR.PATCH", as in package.json.
[[nodiscard]] auto version() -> std::string_view;

}  // namespace pipesim
