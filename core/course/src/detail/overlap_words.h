#pragma once
// The chunk model's text views share their lane labels (overlap_report.cpp words them).
#include <string>
#include <string_view>

#include "pipesim/overlap.h"

namespace pipesim::detail {

/// "  compute " in `language`, padded so that both lanes' rows start in the same terminal column.
[[nodiscard]] auto lane_heading(Lane lane, std::string_view language) -> std::string;

}  // namespace pipesim::detail
