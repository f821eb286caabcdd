#pragma once
// A model/hardware workload from which the chunk model's durations are derived, with every formula
// kept as data so the page and the CLI can show how each number came about.
//
// Symbols: T tokens, h hidden, k top-k, s shared experts, h_e expert hidden size, M nodes per token,
// e bytes per dispatched element, e_c bytes per combined element, X throughput, P_a attention
// weights, d_a attention width, S sequence, L layers per chunk, BW_IB / BW_NV link bandwidths.
//
//   ATTN(F)     = L·T·(2·P_a + 2·S·d_a) / X     projections (2 FLOP per weight per token) plus the two
//                                               score matmuls over a causal (half) context, 2·2·(S/2)·d_a
//   MLP(F)      = L·T·(k+s)·6·h·h_e / X         three h×h_e matrices per expert (gate, up, down)
//   DISPATCH(F) = L·max(T·M·h·e / BW_IB, T·k·h·e / BW_NV)
//   COMBINE(F)  = L·max(T·M·h·e_c / BW_IB, T·k·h·e_c / BW_NV)
//   COMBINE(B)  = COMBINE(F) and DISPATCH(B) = L·max(T·M·h·e_c / BW_IB, T·k·h·e_c / BW_NV):
//                 the gradients travel the same routes back, in the training precision e_c
//   MLP(B) = MLP(W) = MLP(F)                    one GEMM each per forward GEMM
//   ATTN(B)     = L·T·(2·P_a + 4·S·d_a) / X     input gradient of the projections, scores twice
//   ATTN(W)     = L·T·2·P_a / X                 weight gradient of the projections
//   PP          = T·h·e_c / BW_IB               one micro-batch's hidden states to the next stage
//
// Why the all-to-all formulas look like that ([R] §3.2.2): a token goes over IB at most once to each
// of at most M nodes, then over NVLink to the GPUs holding its k experts, and DeepSeek's kernels
// overlap the two hops fully, so the slower hop sets the time. Counting all M nodes as remote and all
// k experts on different GPUs makes both volumes upper bounds. Balanced routing is assumed (as
// DeepSeek's profile does): every GPU computes T·k routed expert rows, whatever the expert count E.
// `layers` multiplies every component but PP, which makes the pair exactly L times one layer's pair:
// an upper bound, since real layers also overlap across block boundaries.
#include <optional>
#include <string_view>

#include "pipesim/json_document.h"
#include "pipesim/overlap.h"

namespace pipesim {

/// Fields and units as in the workload JSON file (README.md). Defaults: DeepSeek-V3 (config.json of
/// deepseek-ai/DeepSeek-V3 and [R] §3.2), one layer, one 4K sequence per micro-batch.
struct Workload {
  double tokens = 4096;                  ///< T, tokens per micro-batch on one GPU
  double hidden = 7168;                  ///< h, model width
  double experts = 256;                  ///< E, routed experts (checked: k <= E)
  double top_k = 8;                      ///< k, routed experts per token
  double shared_experts = 1;             ///< s, shared experts, computed locally
  double expert_hidden = 2048;           ///< h_e, intermediate size of one expert
  double nodes_per_token = 4;            ///< M, most nodes one token is sent to ([R] §3.2.2: 4)
  double bytes_per_element = 1;          ///< e, dispatched bytes per element (FP8: 1)
  double combine_bytes_per_element = 2;  ///< e_c, bytes per element otherwise (BF16: 2)
  double gpu_tflops = 400;               ///< X, achieved TFLOP/s with every SM computing (an assumption)
  double nvlink_gbps = 160;              ///< BW_NV, GB/s ([R] §3.2.2: 160)
  double ib_gbps = 50;                   ///< BW_IB, GB/s ([R] §3.2.2: 50)
  double attention_params = 187105280;   ///< P_a, attention weights per layer (MLA; JSON default 4·h²)
  double attention_dim = 20480;          ///< d_a, heads × mean head width of the score matmuls (JSON default h)
  double sequence = 4096;                ///< S, sequence length (JSON default T)
  double layers = 1;                     ///< L, transformer layers per chunk
  std::optional<SmSplit> sms = SmSplit{};  ///< DeepSeek-V3: 20 of 132 SMs communicate
};

/// DeepSeek-V3 on H800s as [R] describes it, one layer per chunk; gpu_tflops (400) is an assumption.
[[nodiscard]] auto deepseek_v3_workload() -> Workload;

/// Parses the workload JSON (an object of numbers; field list in README.md). Missing required
/// fields, unknown fields, non-numbers, out-of-range values and malformed JSON throw Error.
[[nodiscard]] auto parse_workload(std::string_view json_text) -> Workload;

/// The workload as the JSON object parse_workload reads (every field, SM split included if any).
[[nodiscard]] auto workload_json(const Workload& w) -> JsonDocument;

/// Throws Error unless every field is in range (see README.md) and the SM split is valid.
void validate_workload(const Workload& w);

/// Durations (microseconds) and their derivations; sms carried over from the workload.
[[nodiscard]] auto derive_durations(const Workload& w) -> OverlapInput;

}  // namespace pipesim
