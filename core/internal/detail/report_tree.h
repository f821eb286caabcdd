#pragma once
// The run report (pipesim/report.h, to_json) as a tree, for the sources that put it into a larger
// document (measured_pipeline.cpp, the course's model_stages.cpp) without reading its text back.
#include <nlohmann/json.hpp>

#include "pipesim/report.h"

namespace pipesim::detail {

[[nodiscard]] auto report_tree(const Run& run, Detail detail) -> nlohmann::json;

}  // namespace pipesim::detail
