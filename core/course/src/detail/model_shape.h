#pragma once
// The planner's model shape, stated once: which layers are dense or MoE, how many parameters a layer
// and the embeddings hold, and how many activation values a token leaves per layer. The whole-model
// planner (planner.cpp) and the per-stage division of a model (model_stages.cpp) both read these.
#include <cmath>

#include "pipesim/planner.h"

namespace pipesim::detail {

inline auto moe_layers(const ModelSpec& m) -> int { return m.experts > 0 ? m.layers - m.dense_layers : 0; }
inline auto dense_ffn_layers(const ModelSpec& m) -> int { return m.experts > 0 ? m.dense_layers : m.layers; }
inline auto ffn_width(const ModelSpec& m) -> double {
  return m.ffn_hidden > 0 ? m.ffn_hidden : std::round(8.0 * m.hidden / 3.0);
}

/// Layers 0 .. dense_layers-1 of a MoE model keep a dense FFN (DeepSeek-V3's first three); every layer
/// of a dense model is dense.
inline auto is_dense_layer(const ModelSpec& m, int layer) -> bool { return m.experts == 0 || layer < m.dense_layers; }

inline auto attention_params(const ModelSpec& m) -> double { return 4.0 * m.hidden * m.hidden; }
/// A gated FFN: three matrices.
inline auto dense_ffn_params(const ModelSpec& m) -> double { return 3.0 * m.hidden * ffn_width(m); }
/// One MoE layer's experts (routed and shared, gated) and its router.
inline auto moe_ffn_params(const ModelSpec& m) -> double {
  return (m.experts + m.shared_experts) * 3.0 * m.hidden * m.expert_hidden + static_cast<double>(m.hidden) * m.experts;
}
/// One MoE layer's routed experts: the part expert parallelism divides.
inline auto routed_params_per_moe_layer(const ModelSpec& m) -> double {
  return static_cast<double>(m.experts) * 3 * m.hidden * m.expert_hidden;
}
/// Parameters one token uses in one layer: attention and its FFN (the dense one, or its top_k routed
/// and the shared experts, plus the router).
inline auto active_layer_params(const ModelSpec& m, int layer) -> double {
  if (is_dense_layer(m, layer)) return attention_params(m) + dense_ffn_params(m);
  return attention_params(m) + (m.top_k + m.shared_experts) * 3.0 * m.hidden * m.expert_hidden +
         static_cast<double>(m.hidden) * m.experts;
}
/// One embedding table (input) or LM head (output), untied: vocab x hidden.
inline auto embedding_params(const ModelSpec& m) -> double { return static_cast<double>(m.vocab) * m.hidden; }

/// Parameters from the shape: 4h^2 attention, a gated FFN (3 matrices), gated experts plus a router,
/// untied input and output embeddings.
inline auto estimated_total(const ModelSpec& m) -> double {
  return m.layers * attention_params(m) + dense_ffn_layers(m) * dense_ffn_params(m) + moe_layers(m) * moe_ffn_params(m) +
         2.0 * m.vocab * m.hidden;
}

/// Activation values one token stores in one layer: 8 x hidden for attention and norms, and
/// hidden + 3 x width for each FFN it goes through (after Korthikanti et al. 2022).
inline auto dense_layer_activation_values(const ModelSpec& m) -> double {
  const double h = m.hidden;
  return 8 * h + (h + 3 * ffn_width(m));
}
inline auto moe_layer_activation_values(const ModelSpec& m) -> double {
  const double h = m.hidden;
  return 8 * h + (m.top_k + m.shared_experts) * (h + 3.0 * m.expert_hidden);
}

/// Activation values stored per token, all layers.
inline auto activation_values_per_token(const ModelSpec& m) -> double {
  return dense_ffn_layers(m) * dense_layer_activation_values(m) + moe_layers(m) * moe_layer_activation_values(m);
}

}  // namespace pipesim::detail
