#include "pipesim/op.h"

#include <array>
#include <cctype>

namespace pipesim {

namespace {
constexpr std::array<std::string_view, op_kind_count> kind_names = {"F", "B", "I", "W", "FB"};

auto chunk_label(char kind, const Chunk& c) -> std::string {
  std::string out(1, kind);
  out += std::to_string(c.mb);
  if (c.phase != 0) out += "." + std::to_string(c.phase);
  return out;
}
}  // namespace

// A hand-built Op may hold any byte as its kind; it is named "?" rather than read past the table.
auto kind_name(OpKind kind) -> std::string_view {
  const auto k = static_cast<std::size_t>(kind);
  return k < kind_names.size() ? kind_names[k] : "?";
}

auto parse_kind(std::string_view text) -> std::optional<OpKind> {
  std::string upper;
  for (char ch : text) upper += static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  if (upper == "F&B") upper = "FB";
  for (std::size_t k = 0; k < kind_names.size(); ++k)
    if (upper == kind_names[k]) return static_cast<OpKind>(k);
  return std::nullopt;
}

auto describe(const Op& op) -> std::string {
  if (op.kind == OpKind::FB) return "FB(" + chunk_label('F', op.chunk) + "," + chunk_label('B', op.backward) + ")";
  return chunk_label(kind_name(op.kind)[0], op.chunk);
}

}  // namespace pipesim
