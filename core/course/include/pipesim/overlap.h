#pragma once
// Inside one DualPipe F&B: how a forward chunk and a backward chunk of two different micro-batches
// overlap their computation with their communication, and what the pair costs.
//
// Sources: [R] DeepSeek-V3 Technical Report, arXiv 2412.19437, §3.2.1 and Fig. 4 ("Overlapping
// strategy for a pair of individual forward and backward chunks"), §3.2.2 (all-to-all kernels);
// [PD] github.com/deepseek-ai/profile-data, train.json (one such pair, measured).
//
// The components ([R] §3.2.1). A forward chunk is ATTN(F), DISPATCH(F), MLP(F), COMBINE(F): attention
// and the experts compute, the two all-to-alls move tokens to and from the experts. A backward chunk
// runs them in reverse and, as in Zero Bubble, splits attention and MLP into backward for input (B)
// and backward for weights (W): COMBINE(B), MLP(B), MLP(W), DISPATCH(B), ATTN(B), ATTN(W). Each chunk
// also sends its output to the next stage: PP(F) the activations, PP(B) the input gradient.
//
// Two resources per GPU. DeepSeek gives the all-to-all kernels their own SMs ([R] §3.2.2: 20 SMs, 10
// channels), so computation and communication run at the same time on disjoint SMs. We model a GPU
// as two lanes, compute and comm, each running one component at a time.
//
// The interleaving ([R] Fig. 4). Every communication component runs under a computation component of
// the other chunk. Starting at the chunk boundary (the forward chunk starts with attention, the
// backward chunk with the combine; the figure itself is drawn with block boundaries misaligned, i.e.
// one period of the steady state), the lanes run, in this fixed order:
//
//   compute  ATTN(F)     MLP(B) MLP(W)   MLP(F)        ATTN(B)      ATTN(W)
//   comm     COMBINE(B)  DISPATCH(F)     DISPATCH(B)   COMBINE(F)   PP(F) PP(B)
//
// so COMBINE(B) hides under ATTN(F), DISPATCH(F) under MLP(B)+MLP(W), DISPATCH(B) under MLP(F),
// COMBINE(F) under ATTN(B) and PP under ATTN(W). Megatron-LM's combined 1F1B (`schedule_layer_1f1b`)
// pairs them the same way.
//
// Dependencies inside a chunk. Forward: a chain, ATTN → DISPATCH → MLP → COMBINE → PP. Backward:
// COMBINE → MLP(B); MLP(B) → MLP(W) and MLP(B) → DISPATCH; DISPATCH → ATTN(B); ATTN(B) → ATTN(W) and
// ATTN(B) → PP. Weight gradients feed nothing, which is what lets them fill gaps.
//
// Timing: list scheduling. A component starts when its lane has finished the component before it in
// the lane order and all its dependencies have finished. Start times are then longest paths in a DAG
// (lane edges plus dependency edges), so every time grows monotonically with every duration.
// A chunk alone runs the same way with only its own components (the lane orders restricted to it):
//   f = ATTN(F) + DISPATCH(F) + MLP(F) + COMBINE(F) + PP(F)               (a chain: nothing overlaps)
//   b = COMBINE(B) + MLP(B) + max(MLP(W), DISPATCH(B)) + ATTN(B) + max(ATTN(W), PP(B))
// Bounds, always: max(f, b) <= fb <= f + b. Lower: every path of a chunk alone is a path of the pair.
// Upper: no path of the pair holds both MLP(W) and DISPATCH(B), nor both ATTN(W) and PP(B), so its
// backward part is at most b and its forward part at most f.
//
// Outputs. exposed communication = fb - (sum of the pair's compute) = the time the compute lane waits;
// hidden fraction = 1 - exposed / (sum of the pair's communication). When the compute lane is idle
// the comm lane is busy (the lane orders are consistent), so the fraction lies in [0, 1].
//
// SMs. Durations are given as measured on a GPU whose SMs all compute, with communication at full link
// bandwidth. Giving `comm_sms` of `total_sms` to communication:
//   * stretches computation by total / (total - comm): GEMM throughput scales with the SMs left;
//   * stretches communication by max(1, saturation / comm): [R] §3.2.2 says 20 SMs suffice to
//     saturate IB and NVLink, so below that bandwidth falls in proportion to the SMs, above it
//     extra SMs buy nothing. `saturation_sms` defaults to 20.
// Both are first-order approximations (memory-bound kernels and L2 interference are ignored).
//
// Into the pipeline engine (overlap_costs): F = f, B = b, W = MLP(W) + ATTN(W), FB = fb, comm = 0.
// W is the weight-gradient compute, so an input-only backward costs b - W. comm is 0 because the PP
// send is already inside f, b and fb.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pipesim/costs.h"
#include "pipesim/json_document.h"

namespace pipesim {

/// Which chunk of the pair a component belongs to.
enum class Pass : std::uint8_t { forward, backward };

/// Which SMs run a component.
enum class Lane : std::uint8_t { compute, comm };

/// A kind of component. Forward chunks use attn, dispatch, mlp, combine, pp; backward chunks use
/// combine, mlp_b, mlp_w, dispatch, attn_b, attn_w, pp.
enum class Part : std::uint8_t { attn, dispatch, mlp, combine, mlp_b, mlp_w, attn_b, attn_w, pp };

/// One component of one chunk, e.g. {backward, dispatch} = DISPATCH(B).
struct Component {
  Pass pass = Pass::forward;
  Part part = Part::attn;
  friend auto operator==(const Component&, const Component&) -> bool = default;
};

/// Durations of a forward chunk's components, in any one unit (the workload form uses microseconds).
struct ForwardDurations {
  double attn = 0;      ///< attention (compute)
  double dispatch = 0;  ///< all-to-all dispatch to the experts (comm)
  double mlp = 0;       ///< MLP: shared and routed experts (compute)
  double combine = 0;   ///< all-to-all combine back from the experts (comm)
};

/// Durations of a backward chunk's components, same unit.
struct BackwardDurations {
  double combine = 0;   ///< gradient of the combine (comm)
  double mlp_b = 0;     ///< MLP backward for input (compute)
  double mlp_w = 0;     ///< MLP backward for weights (compute)
  double dispatch = 0;  ///< gradient of the dispatch (comm)
  double attn_b = 0;    ///< attention backward for input (compute)
  double attn_w = 0;    ///< attention backward for weights (compute)
};

/// Everything the model needs, measured on a GPU whose SMs all compute, comm at full bandwidth.
struct ChunkDurations {
  ForwardDurations forward;
  BackwardDurations backward;
  double pp = 0;  ///< one chunk's pipeline send to the neighbouring stage (comm), paid by each chunk
};

/// How a GPU's SMs are split. H800: 132 SMs, DeepSeek-V3 gave 20 to communication ([R] §3.2.2).
struct SmSplit {
  int comm_sms = 20;        ///< SMs running the all-to-all and PP kernels, 1 <= comm_sms < total_sms
  int total_sms = 132;      ///< SMs on the GPU
  int saturation_sms = 20;  ///< fewest comm SMs that reach full link bandwidth ([R] §3.2.2: 20)
};

/// How one duration was obtained: formula in symbols, the numbers plugged in, the results.
struct Derivation {
  Component component;
  std::string formula;  ///< e.g. "T·(k+s)·6·h·h_e / throughput × total/(total-comm)"
  std::string worked;   ///< the same with numbers, ending in "= <value> <unit>"
  double measured = 0;  ///< before the ratio scaling and the SM split
  double value = 0;     ///< what the model uses
};

/// A request: durations (given or derived from a workload), optionally rescaled and SM-split.
struct OverlapInput {
  ChunkDurations durations;        ///< measured with every SM computing
  std::optional<SmSplit> sms;      ///< absent: durations are used as given
  std::optional<double> compute_to_comm;  ///< scale the all-to-alls so Σcompute / Σall-to-all = this
  std::vector<Derivation> derivation;     ///< from derive_durations; empty means "given"
  std::string unit;                       ///< "us" for workloads, "" for unitless durations
  std::string language = "en";            ///< the derivation's words (pipesim::languages)
};

/// One component placed on a lane.
struct Slot {
  Component component;
  Lane lane = Lane::compute;
  double start = 0;
  double end = 0;
};

/// A two-lane schedule of some components.
struct LaneSchedule {
  std::vector<Slot> slots;  ///< in start order
  double makespan = 0;
  double compute = 0;       ///< busy time of the compute lane
  double comm = 0;          ///< busy time of the comm lane
  double exposed_comm = 0;  ///< makespan - compute: the time the compute lane waits
};

/// The result the CLI and the page show.
struct Overlap {
  OverlapInput input;
  ChunkDurations durations;            ///< the durations simulated (after ratio and SM split)
  std::vector<Derivation> derivation;  ///< one entry per component, in chunk order
  double comm_scale = 1;               ///< factor applied to the all-to-alls to reach the ratio
  LaneSchedule forward;                ///< the forward chunk alone
  LaneSchedule backward;               ///< the backward chunk alone
  LaneSchedule pair;                   ///< both, interleaved as in [R] Fig. 4
  double f = 0;                        ///< forward chunk alone
  double b = 0;                        ///< backward chunk alone
  double fb = 0;                       ///< the overlapped pair, in [max(f, b), f + b]
  double sequential = 0;               ///< f + b
  double exposed_comm = 0;             ///< of the pair
  double hidden_fraction = 1;          ///< of the pair's communication; 1 when there is none
};

/// "attn", "dispatch", ..., as the CLI keys and the JSON name them.
[[nodiscard]] auto part_name(Part part) -> std::string_view;
/// [R] Fig. 4's label: "ATTN(F)", "MLP(B)", "MLP(W)", "DISPATCH(B)", "PP(F)".
[[nodiscard]] auto figure_label(Component c) -> std::string;
[[nodiscard]] auto lane_of(Part part) -> Lane;
/// The components of a chunk in dependency order (forward: 5, backward: 7).
[[nodiscard]] auto chunk_components(Pass pass) -> std::vector<Component>;
[[nodiscard]] auto duration_of(const ChunkDurations& d, Component c) -> double;
[[nodiscard]] auto duration_of(ChunkDurations& d, Component c) -> double&;

/// Parses "attn=1,dispatch=2,mlp=1,combine=2": all four keys, each once, finite and >= 0.
[[nodiscard]] auto parse_forward_durations(std::string_view text) -> ForwardDurations;
/// Parses "combine=..,mlp_b=..,mlp_w=..,dispatch=..,attn_b=..,attn_w=..": all six keys.
[[nodiscard]] auto parse_backward_durations(std::string_view text) -> BackwardDurations;

/// Throws Error unless every duration is finite and >= 0.
void validate_durations(const ChunkDurations& d);
/// Throws Error unless 1 <= comm_sms < total_sms and saturation_sms >= 1.
void validate_sm_split(const SmSplit& sms);

/// total / (total - comm): how much longer computation takes on the SMs left to it.
[[nodiscard]] auto compute_stretch(const SmSplit& sms) -> double;
/// max(1, saturation / comm): how much longer communication takes below saturation.
[[nodiscard]] auto comm_stretch(const SmSplit& sms) -> double;
/// Compute components × compute_stretch, communication × comm_stretch.
[[nodiscard]] auto apply_sm_split(const ChunkDurations& d, const SmSplit& sms) -> ChunkDurations;

/// The page's ratio knob: scales the four all-to-all components (not PP, not compute) so that the
/// pair's compute time divided by its all-to-all time equals `compute_to_comm` ([R] §3.2.1 reports
/// about 1 for DeepSeek-V3). Throws Error if the ratio is not finite and > 0 or no all-to-all is > 0.
[[nodiscard]] auto scale_to_ratio(const ChunkDurations& d, double compute_to_comm) -> ChunkDurations;

/// Runs the forward chunk alone, the backward chunk alone and the pair on the two lanes.
/// `d` is used as is (no SM split). Throws Error on invalid durations, and when the chunk's F, B or W
/// could not be a pipeline's cost (above max_cost, or below min_cost and not 0), or are both F and B 0.
[[nodiscard]] auto simulate_overlap(const ChunkDurations& d) -> Overlap;

/// Validates, applies the ratio then the SM split, simulates, and records every step's derivation.
[[nodiscard]] auto run_overlap(const OverlapInput& input) -> Overlap;

/// The pipeline engine's costs derived from the chunk model: F = f, B = b, W = MLP(W) + ATTN(W),
/// FB = fb, comm = 0 (the PP send is inside f, b, fb). Always passes validate_costs.
[[nodiscard]] auto overlap_costs(const Overlap& o) -> Costs;

/// The JSON the CLI prints and the page animates (documented in README.md).
[[nodiscard]] auto overlap_json(const Overlap& o) -> JsonDocument;

/// A two-lane text timeline of the forward chunk, the backward chunk and the pair, then the numbers.
[[nodiscard]] auto render_overlap_text(const Overlap& o) -> std::string;

/// One line: "communication 100% hidden; the pair takes 1.35 x the forward chunk, 0.74 x F+B".
[[nodiscard]] auto overlap_sentence(const Overlap& o) -> std::string;

}  // namespace pipesim
