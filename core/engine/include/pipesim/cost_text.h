#pragma once
// The costs a cost text writes, before they are checked: what a page's sliders show while the engine
// refuses the text (parse_costs in costs.h is this and validate_costs).
#include <string_view>

#include "pipesim/costs.h"

namespace pipesim {

/// The costs "F=1,B=6,FB=3" writes (keys case-insensitive, `F&B` for FB, a missing FB = F + B),
/// with only its syntax checked: a malformed or unknown entry is refused (Error::field "cost" or
/// "cost.KEY"); values out of their bounds are returned as written.
[[nodiscard]] auto read_costs(std::string_view text) -> Costs;

}  // namespace pipesim
