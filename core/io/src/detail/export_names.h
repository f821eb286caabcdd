#pragma once
// Words the exporters share, so the trace, the SVG and the page describe a phase the same way.
#include <string>

#include "pipesim/schedule.h"

namespace pipesim::detail {

/// What a non-zero phase means in this schedule: "dir" (the direction of DualPipe and Chimera), "leg"
/// (the way back of a V) or "chunk" (a virtual chunk of an interleaved schedule).
[[nodiscard]] inline auto phase_word(const Schedule& s) -> std::string {
  if (s.layout.directions == 2) return "dir";
  const Layout v = v_layout(s.ranks());
  if (s.layout.stages == v.stages && s.layout.rank_of_stage == v.rank_of_stage) return "leg";
  return "chunk";
}

/// One half of an op for people: "F3", "B2 (dir 1)".
[[nodiscard]] inline auto half_name(char kind, const Chunk& c, const std::string& word) -> std::string {
  std::string out = kind + std::to_string(c.mb);
  if (c.phase != 0) out += " (" + word + " " + std::to_string(c.phase) + ")";
  return out;
}

/// An op for people: "F3", "W1 (leg 1)", "F7 & B3 (dir 1)" (each half carries its own phase).
[[nodiscard]] inline auto op_name(const Op& op, const std::string& word) -> std::string {
  if (op.kind == OpKind::FB) return half_name('F', op.chunk, word) + " & " + half_name('B', op.backward, word);
  return half_name(kind_name(op.kind)[0], op.chunk, word);
}

}  // namespace pipesim::detail
