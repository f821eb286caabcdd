#pragma once
// Targets: named metrics with a bound, read from scripts/bench-targets.json (one file for the native
// and the WebAssembly benchmarks). A metric the run did not produce fails, so renaming a case cannot
// quietly retire its target.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness.h"

namespace pipesim::bench {

struct Target {
  std::string metric;         ///< e.g. "page.dualpipe.8x20.run.median_ms"
  std::optional<double> max;  ///< the metric must be <= max
  std::optional<double> min;  ///< the metric must be >= min
  std::string why;            ///< the reason for the number, printed with a FAIL
};

struct Verdict {
  Target target;
  double value = 0;
  bool pass = false;
  std::optional<double> again;  ///< the value in the confirmation run, when the first run failed
};

/// The targets under `side` ("native") of the file. Throws std::runtime_error on a malformed file.
[[nodiscard]] auto load_targets(const std::string& path, const std::string& side) -> std::vector<Target>;

[[nodiscard]] auto check_targets(const std::vector<Target>& targets, const Report& report) -> std::vector<Verdict>;

[[nodiscard]] auto all_pass(const std::vector<Verdict>& verdicts) -> bool;

/// A shared machine can stall a process for seconds, so a failed target is measured again: it fails
/// only if it fails in `second` too. Real regressions slow every run; a neighbour's burst does not.
[[nodiscard]] auto confirm(std::vector<Verdict> first, const std::vector<Verdict>& second) -> std::vector<Verdict>;

/// One PASS/FAIL line per target, with the reason under each FAIL.
[[nodiscard]] auto verdicts_text(const std::vector<Verdict>& verdicts, const std::string& path) -> std::string;
[[nodiscard]] auto verdicts_json(const std::vector<Verdict>& verdicts) -> nlohmann::json;

}  // namespace pipesim::bench
