#pragma once
// Reading numbers typed by people, the same way everywhere (CLI options, cost lists, WebAssembly).
#include <optional>
#include <string_view>

namespace pipesim {

/// The whole of `text`, spaces around it ignored, as a finite number: "2.5", " 3 ", "1e3".
/// nullopt for "", "2x", "inf" or "nan".
[[nodiscard]] auto parse_finite(std::string_view text) -> std::optional<double>;

}  // namespace pipesim
