#pragma once
// One measured F&B pair next to the chunk model (overlap.h): a PyTorch profiler trace of one
// overlapped forward and backward chunk (profile_trace.h) turned into the model's ten components.
//
// Lanes (the rule, in order):
//   1. a kernel whose name reads as communication (is_communication_kernel: NCCL, DeepEP `::ep::`,
//      all-to-all, send/recv, dispatch, combine, notify) runs on the communication lane;
//   2. a stream is a communication stream when more than half of its kernel time is such kernels; any
//      other kernel on it runs on the communication lane when it belongs to a communication component
//      (DISPATCH, COMBINE, PP: e.g. the FP8 cast DeepEP runs before its dispatch), else on compute;
//   3. every other kernel runs on the compute lane (all compute streams together: DeepSeek's trace runs
//      the weight-gradient GEMMs on a second compute stream).
// Components: a kernel belongs to the component its launch ran under (attribute_kernels: the
// launching thread's annotation, else another thread's, e.g. autograd's, else the kernel before it on
// its stream). An annotation names a component when it contains `attn(F)`, `mlp(B)`, `dispatch(F)`,
// ... (component_of_annotation); the innermost such range wins.
//
// Measures, in microseconds: span = first kernel start to last kernel end (all kernels of the device);
// compute / communication busy = the union of that lane's kernels; hidden communication = the time both
// lanes are busy; exposed = communication busy - hidden; each component = the union of its kernels.
// The model's inputs are the components' times (PP: the mean of PP(F) and PP(B) when both ran).
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pipesim/costs.h"
#include "pipesim/json_document.h"
#include "pipesim/overlap.h"
#include "pipesim/profile_trace.h"

namespace pipesim {

/// The component an annotation names: "attn(F)", "MLP(B)", "mlp(W)", "dispatch(B)", "pp(F)", with
/// `attention` for attn and `moe` for mlp accepted, case-insensitive, anywhere in the name; or nullopt.
[[nodiscard]] auto component_of_annotation(std::string_view name) -> std::optional<Component>;

struct MeasuredComponent {
  Component component;
  int kernels = 0;
  double busy_us = 0;  ///< union of its kernels
};

/// A stretch of one lane busy with one component's kernels (nullopt: kernels no component claims).
struct MeasuredSegment {
  std::optional<Component> component;
  Lane lane = Lane::compute;
  double start = 0;  ///< microseconds after the pair's first kernel start
  double end = 0;
};

struct MeasuredStream {
  std::int64_t stream = 0;
  Lane lane = Lane::compute;  ///< the lane most of its kernel time runs on
  int kernels = 0;
  double busy_us = 0;
};

struct MeasuredChunk {
  std::optional<int> rank;
  std::optional<int> world_size;
  std::int64_t device = 0;        ///< the device with the most kernels; the pair is measured there
  int kernels = 0;                ///< on that device
  int other_device_kernels = 0;   ///< on other devices, left out
  double span_us = 0;
  double compute_busy_us = 0;
  double communication_busy_us = 0;
  double hidden_comm_us = 0;
  double exposed_comm_us = 0;
  std::vector<MeasuredComponent> components;  ///< all twelve, forward chunk then backward chunk
  int unattributed_kernels = 0;
  double unattributed_compute_us = 0;  ///< union of unattributed compute-lane kernels
  double unattributed_comm_us = 0;
  int off_lane_kernels = 0;  ///< attributed kernels on the other lane than their component's
  std::array<int, 4> attributed_by{};  ///< kernels per Attribution (launch, other thread, stream order, none)
  std::vector<MeasuredStream> streams;
  std::vector<MeasuredSegment> timeline;  ///< in start order; gaps under 1/8192 of the span closed (drawing only)
  ChunkDurations durations;               ///< the model's inputs
};

/// Measures the pair. Throws Error (bad_import) when the trace has no kernels, or none belongs to a
/// component (the message says which annotations name components).
[[nodiscard]] auto measure_chunk_pair(const ProfileTrace& trace) -> MeasuredChunk;

/// The chunk model's input: the measured component times, unit "us", with a derivation per component
/// worded in `language` ("en", "pt-BR", "zh-CN"; known_language's Error otherwise).
[[nodiscard]] auto overlap_input_from(const MeasuredChunk& m, std::string_view language = "en") -> OverlapInput;

/// "Use these costs": the model's F, B and W from the measured components and the measured span as
/// FB (within [max(F, B), F + B], as a pipeline's FB must be), comm = 0.
[[nodiscard]] auto measured_costs(const MeasuredChunk& m, const Overlap& model) -> Costs;

/// The `measured` fields the trace adds to overlap_json (README.md documents them).
[[nodiscard]] auto measured_chunk_json(const MeasuredChunk& m, const Overlap& model) -> JsonDocument;

/// A measured pair and its model in one: the trace read and measured, the model run on its
/// components, and overlap_json with the measured fields merged into `measured`. What the CLI's
/// `overlap --trace --format json` prints and the WebAssembly module's overlapTrace returns. `language`
/// words the derivation ("en", "pt-BR", "zh-CN"; known_language's Error, about "language", otherwise).
struct MeasuredOverlap {
  MeasuredChunk measured;
  Overlap model;
};
[[nodiscard]] auto run_measured_overlap(std::string_view trace_text, std::string_view language = "en") -> MeasuredOverlap;
[[nodiscard]] auto measured_overlap_json(const MeasuredOverlap& m) -> JsonDocument;

/// The measured pair drawn on two text lanes at the model's scale, then its numbers.
[[nodiscard]] auto render_measured_chunk_text(const MeasuredChunk& m, const Overlap& model) -> std::string;

}  // namespace pipesim
