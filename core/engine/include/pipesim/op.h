#pragma once
// The IR: one op is one unit of work on one rank. Schedules produce ops, the engine times them,
// measurements and exporters read them. Nothing else describes a schedule.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace pipesim {

/// What an op computes. The letters are PyTorch's `_Action` tokens and DualPipe's README names.
enum class OpKind : std::uint8_t {
  F,   ///< forward of one micro-batch through one stage
  B,   ///< full backward: input and weight gradients together
  I,   ///< backward for inputs only; its weight part runs later as a W
  W,   ///< weight gradient of one earlier I of the same chunk
  FB,  ///< a forward and a full backward of different micro-batches, overlapped (DualPipe's F&B)
};

inline constexpr int op_kind_count = 5;

/// One micro-batch at one stage: what an op works on. Packed into 8 bytes because a large run holds
/// millions of ops and the engine's speed is the memory it streams; the widths hold the limits of
/// pipesim/limits.h (micro-batches < 2^31, phases < 128, stages < 2^23) with room to spare.
struct Chunk {
  int mb = 0;          ///< micro-batch; counted within its direction in two-direction schedules
  int phase : 8 = 0;   ///< direction (DualPipe, Chimera), leg of a V, virtual chunk of interleaving; else 0
  int stage : 24 = 0;  ///< stage along the micro-batch's path, 0 = where it enters
  friend bool operator==(const Chunk&, const Chunk&) = default;
};
static_assert(sizeof(Chunk) == 8);

/// Largest phase and stage a Chunk can hold; readers of imported schedules check against these.
inline constexpr int max_chunk_phase = 127;
inline constexpr int max_chunk_stage = (1 << 23) - 1;

struct Op {
  OpKind kind = OpKind::F;
  Chunk chunk;     ///< the chunk worked on; for FB the forward half
  Chunk backward;  ///< FB only: the backward half, always a full backward
  friend bool operator==(const Op&, const Op&) = default;
};
static_assert(sizeof(Op) == 20);

[[nodiscard]] auto kind_name(OpKind kind) -> std::string_view;
[[nodiscard]] auto parse_kind(std::string_view text) -> std::optional<OpKind>;

/// True for the ops that run a forward (F, and the forward half of FB).
[[nodiscard]] constexpr auto has_forward(OpKind k) -> bool { return k == OpKind::F || k == OpKind::FB; }

/// The chunk whose input gradient this op produces (B, I, or FB's backward half). Inline: the
/// measurements ask it of every op, and out of line it was 8% of `pipesim simulate`'s CPU time.
[[nodiscard]] constexpr auto backward_chunk(const Op& op) -> std::optional<Chunk> {
  switch (op.kind) {
    case OpKind::B:
    case OpKind::I: return op.chunk;
    case OpKind::FB: return op.backward;
    default: return std::nullopt;
  }
}

/// Short readable form used by tests, errors and the text view: `F3`, `B2.1` (phase 1),
/// `W0`, `FB(F5,B2.1)`. The rank and the layout give the stage, so it is left out.
[[nodiscard]] auto describe(const Op& op) -> std::string;

}  // namespace pipesim
