#pragma once
// The planner: from a cluster and a model to per-op costs, one simulation per schedule of the
// registry, memory per GPU, and a recommendation whose reasons are computed from those numbers.
// Every sentence it writes (reasons, the text view, the units note) comes from
// core/data/planner_text.json in the input's language, with the numbers written that language's way;
// errors about bad input stay English, and a schedule's own refusal is quoted as the engine wrote it.
//
// Cost model (per micro-batch of T = seq_len x micro_batch_size tokens, for the whole model; a stage
// of a schedule with S stages along its path gets 1/S of every term):
//   * forward FLOPs = T x (2 x N_matmul + 2 x layers x seq_len x hidden): 2 FLOPs per active
//     parameter and token (one multiply-add) of every weight used in a matmul, plus causal attention
//     scores (QK^T and AV over seq_len/2 keys on average). Backward = 2 x forward, split evenly into
//     backward for input (I) and for weights (W), so F : B : W = 1 : 2 : 1 in compute. N_matmul is the
//     active parameters less the input embedding: the LM head is a matmul (2 x hidden x vocab FLOPs
//     per token forward, 4 x backward), the input embedding is not.
//   * the input embedding is a lookup: its forward gathers T rows of the table (reads T x hidden x
//     weight_bytes, writes T x hidden x activation_bytes), its backward scatter-adds the gradient rows
//     into the table's gradient (reads T x hidden x activation_bytes, reads and writes T x hidden x
//     grad_bytes), both memory-bound over the GPU's HBM (cluster.gpu.hbm_gb_s) and no matmul FLOPs.
//     Token ids have no gradient, so its backward is all W (its B = its W).
//   * compute time = FLOPs / (tflops x 1e12 x mfu).
//   * MoE all-to-all per MoE layer = T x top_k x hidden x (dispatch_bytes + combine_bytes) over the
//     slower link the expert-parallel group spans (InfiniBand when EP > gpus_per_node, else NVLink);
//     the backward moves the same bytes. Pessimistic: node-limited routing (one IB crossing per target
//     node) and the share staying inside a node are ignored.
//   * op costs: F = F_compute + A2A_fwd and B = B_compute + A2A_bwd (in a lone chunk the all-to-all
//     cannot overlap, the next component needs its result), W = W_compute (no communication), and
//     F&B = max((F_c + B_c) x total_sms / (total_sms - comm_sms), A2A_fwd + A2A_bwd), clamped to
//     [max(F, B), F + B]: in a pair the computation of one chunk hides the communication of the other
//     (report §3.2.1), on the SMs left after the communication kernels take theirs (§3.2.2: 20 of 132).
//     A dense model has nothing to hide, so its F&B is F + B.
//   * comm (pipeline send) = T x hidden x 2 bytes over InfiniBand (NVLink on a one-node cluster).
// Every candidate takes the one path of `pipesim simulate --model` (model_stages.h: model_request):
// the model's layers go to the schedule's stages (balanced; embedding on the first, LM head on the
// last), each stage is priced with its own part, and the engine times every op with its stage's costs.
// plan() and the search price a configuration with one function: the engine's metrics-only run
// (simulate_metrics) gives the makespan, the data-parallel all-reduce (SearchPoint, below) is added
// after it, and the sum, the iteration, is what both rank by: the same configuration has the same
// makespan_ms, allreduce_ms and iteration_ms in `pipesim plan` and `pipesim plan --search`.
// Memory per GPU, of the rank that needs the most: weights, gradients and optimizer state of the
// stages a rank holds (routed experts divided by EP; optimizer state divided by the data-parallel
// degree and by the number of parameter copies, as ZeRO-1 shards it), plus the peak over time of the
// rank's live chunks, each weighing its own stage's activations: per token and layer, 8 x hidden
// values for attention and norms, and hidden + 3 x width for each FFN the token goes through (the
// dense FFN, or its top_k + shared experts), times activation_bytes (after Korthikanti et al. 2022, without storing attention scores).
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pipesim/costs.h"
#include "pipesim/course_data.h"
#include "pipesim/error.h"
#include "pipesim/json_document.h"

namespace pipesim {

struct GpuSpec {
  std::string name = "GPU";
  double tflops = 0;     ///< peak dense bf16 throughput, TFLOPS (H800: 989)
  double memory_gb = 0;  ///< HBM per GPU, GB (H800: 80)
  double hbm_gb_s = 3350;  ///< HBM bandwidth, GB/s (H100 and H800 SXM: 3350): prices the embedding lookup
};

struct ClusterSpec {
  int gpus = 0;           ///< GPUs in the job
  int gpus_per_node = 8;  ///< GPUs sharing one NVLink domain
  GpuSpec gpu;
  double nvlink_gb_s = 0;  ///< per-GPU intra-node bandwidth, GB/s (DeepSeek's H800: 160)
  double ib_gb_s = 0;      ///< per-GPU inter-node bandwidth, GB/s (DeepSeek's H800: 50)
};

/// The most pipeline ranks a planner file's model.pp may ask for.
inline constexpr int max_pipeline_size = 256;

struct ModelSpec {
  std::string name = "model";
  int layers = 0;            ///< transformer layers
  int hidden = 0;            ///< hidden size
  int dense_layers = 0;      ///< MoE models: leading layers that keep a dense FFN (DeepSeek-V3: 3)
  int ffn_hidden = 0;        ///< dense FFN width; 0 = 8/3 x hidden (SwiGLU), used to estimate size
  int experts = 0;           ///< routed experts per MoE layer; 0 = dense model
  int shared_experts = 0;    ///< always-active experts per MoE layer
  int top_k = 0;             ///< routed experts per token
  int expert_hidden = 0;     ///< width of one expert's FFN
  int vocab = 32000;         ///< vocabulary, used only to estimate the parameter count
  double params = 0;         ///< total parameters; 0 = estimate from the shape
  double active_params = 0;  ///< parameters used per token; 0 = estimate
  int seq_len = 0;           ///< tokens per sequence
  int micro_batch_size = 1;  ///< sequences per micro-batch
  int micro_batches = 0;     ///< micro-batches per iteration and pipeline (both directions together)
  int pp = 0;                ///< pipeline ranks (devices along one pipeline), 1 to max_pipeline_size
  int ep = 0;                ///< expert-parallel group; 0 = gcd(experts, GPUs per pipeline stage)
};

struct PlanAssumptions {
  double mfu = 0.4;              ///< fraction of peak FLOPS the kernels reach
  double weight_bytes = 2;       ///< per parameter (bf16)
  double grad_bytes = 4;         ///< per parameter (fp32 gradients)
  double optimizer_bytes = 12;   ///< per parameter before ZeRO-1 sharding (fp32 master + 2 moments)
  double activation_bytes = 2;   ///< per stored activation value (bf16; DeepSeek caches FP8: 1)
  double dispatch_bytes = 2;     ///< per value sent by the all-to-all dispatch (DeepSeek: FP8, 1)
  double combine_bytes = 2;      ///< per value sent by the all-to-all combine (bf16)
  int comm_sms = 20;             ///< SMs given to communication kernels during an F&B
  int total_sms = 132;           ///< SMs per GPU (H800: 132)
  int virtual_stages = 2;        ///< for interleaved schedules
  double tolerance = 0.02;       ///< schedules this close to the fastest count as equally fast
};

struct PlanInput {
  ClusterSpec cluster;
  ModelSpec model;
  PlanAssumptions assumptions;
  std::string language = "en";  ///< of the explanations: en, pt-BR or zh-CN (JSON key "language")
};

/// Where a model's parameters sit: routed experts are divided by EP, the rest is not.
struct ParameterSplit {
  double total = 0;
  double routed = 0;  ///< moe_layers x experts x 3 x hidden x expert_hidden (gated FFN experts)
  double other = 0;   ///< total - routed: attention, shared experts, dense FFNs, embeddings
  double active = 0;  ///< used by one token
  bool estimated = false;
};

/// Per micro-batch, whole model, before the split into stages.
struct ModelCosts {
  double tokens = 0;              ///< per micro-batch
  double forward_flops = 0;
  double forward_ms = 0;          ///< F compute (matmuls and the embedding's gather)
  double backward_ms = 0;         ///< B compute (input + weights)
  double weight_ms = 0;           ///< W compute
  double a2a_forward_ms = 0;      ///< dispatch + combine of all MoE layers
  double a2a_backward_ms = 0;
  double pp_send_ms = 0;          ///< one activation or gradient between neighbouring ranks
  std::string a2a_link;           ///< "InfiniBand", "NVLink" or "" (dense)
  double activation_bytes = 0;    ///< stored by one micro-batch through the whole model
};

struct PlanCandidate {
  std::string schedule;
  std::string title;
  int stages = 0;            ///< along one path
  int virtual_stages = 1;
  Costs costs;               ///< per op, milliseconds: the average stage (what the closed forms use)
  std::vector<Costs> stage_costs;     ///< per op of each stage, milliseconds: what the engine timed
  std::vector<int> layers_per_stage;  ///< transformer layers of each stage
  double makespan_ms = 0;
  double allreduce_ms = 0;       ///< the data-parallel all-reduce of the slowest rank, after the makespan (SearchPoint)
  double iteration_ms = 0;       ///< makespan_ms + allreduce_ms: what the plan ranks by
  double bubble_fraction = 0;
  double compute_fraction = 0;   ///< useful computation / (ranks x makespan)
  double overhead_fraction = 0;  ///< exposed communication and SM sharing / (ranks x makespan)
  double tokens_per_gpu_s = 0;   ///< over the iteration (the all-reduce included)
  int stages_held = 0;
  double parameter_copies = 1;   ///< ranks holding each stage (DualPipe, Chimera: 2)
  int peak_activations = 0;      ///< chunks alive at once, max over ranks (engine)
  int overlapped_pairs = 0;      ///< F&B ops per iteration, all ranks
  int heaviest_rank = 0;         ///< the rank whose memory the GB figures are (the most of all ranks)
  double weights_gb = 0, gradients_gb = 0, optimizer_gb = 0, activations_gb = 0, total_gb = 0;
  bool fits = false;
};

/// A schedule the planner could not run on this model and cluster: its refusal, as the engine gave it.
/// `reason` is the English message (the CLI's text); code, wording and field let a page word the
/// same refusal in its own language (web/src/i18n/refusals.ts).
struct NotApplicable {
  std::string schedule;
  std::string reason;
  ErrorCode code = ErrorCode::schedule_rule;
  Wording wording;
  std::string field;
};

struct Plan {
  PlanInput input;
  ParameterSplit parameters;
  ModelCosts model_costs;
  int ep = 1;
  int dp = 1;                            ///< data-parallel replicas of one pipeline
  std::vector<PlanCandidate> ranked;     ///< fitting first, then by iteration_ms
  std::vector<NotApplicable> not_applicable;
  std::string recommended;
  std::vector<std::string> reasons;      ///< computed from the numbers above, in input.language
};

/// Parses the planner's JSON input (see core/data/plan_examples/): "cluster", "model", optional
/// "assumptions" and optional "language" (default "en"). Unknown keys, wrong types and out-of-range
/// values throw Error with one line naming the field and what is allowed.
[[nodiscard]] auto parse_plan_input(std::string_view json_text) -> PlanInput;

/// The same input at another pipeline size, `ranks` (`pipesim simulate --model FILE --ranks N`, the
/// page's ranks): the file's cluster and model cut into that many stages, read as a file whose model.pp
/// said so would be (a model.ep left to its default is chosen again for the new stage's GPUs). The file
/// is first checked as it is; then the rules that involve the pipeline size (1 to max_pipeline_size,
/// cluster.gpus a multiple of it, model.ep dividing one stage's GPUs) are checked at `ranks`, refused
/// naming `ranks_name` (the input that set it: "--ranks", "ranks"), with Error::field "ranks".
[[nodiscard]] auto parse_plan_input(std::string_view json_text, int ranks, std::string_view ranks_name) -> PlanInput;

/// routed, other, active and total parameters, estimated from the shape where not given.
[[nodiscard]] auto parameter_split(const ModelSpec& model) -> ParameterSplit;

/// A part of the model, what the cost model prices: the whole model, or the layers and embeddings of
/// one stage (model_stages.h).
struct ModelPart {
  double active_params = 0;               ///< parameters one token uses in a matmul in this part (not the input embedding)
  int layers = 0;                         ///< transformer layers (attention scores)
  int moe_layers = 0;                     ///< of which MoE (one all-to-all each way)
  double activation_values_per_token = 0; ///< stored activation values per token, all its layers
  bool input_embedding = false;           ///< holds the input embedding: a gather forward, a scatter-add backward
};

/// The cost model above, for one part of the model (per micro-batch).
[[nodiscard]] auto model_part_costs(const PlanInput& input, const ModelPart& part) -> ModelCosts;

/// The cost model above, for the whole model.
[[nodiscard]] auto model_costs(const PlanInput& input, const ParameterSplit& parameters) -> ModelCosts;

/// Per-op costs of one stage that holds `1 / share` of `part` (share = 1: all of it): the op-cost
/// rules above (F and B with their all-to-all, W without, F&B on the SMs communication leaves, comm a
/// pipeline send). The planner passes the whole model and its stage count; a model divided into
/// unequal stages (model_stages.h) passes each stage's own part and 1.
[[nodiscard]] auto stage_op_costs(const ModelCosts& part, double share, const PlanAssumptions& assumptions) -> Costs;

/// Runs every schedule of the registry (except those given as text) at the input's sizes, priced as
/// the search prices a configuration (makespan + all-reduce), and writes the reasons in input.language, in the words of core/data/planner_text.json as `course` holds it.
/// Throws Error on a language other than en, pt-BR or zh-CN.
[[nodiscard]] auto plan(const CourseData& course, const PlanInput& input) -> Plan;

/// What the planner's search varies, besides the schedule (every one of the registry not given as
/// text). The sequences per iteration stay those of the input (model.micro_batches x micro_batch_size
/// x the data-parallel degree), so a pipeline size or a micro-batch size sets the micro-batch count.
struct PlanSearch {
  std::vector<int> pp;                ///< pipeline sizes; empty = every divisor of cluster.gpus up to 64
  std::vector<int> micro_batch_size;  ///< sequences per micro-batch; empty = the input's
  std::vector<int> virtual_stages;    ///< for schedules that use them; empty = 2 and 4
  std::vector<int> lighter_ends;      ///< layers fewer on the first and the last stage; empty = 0 and 1
};

/// One configuration the search ran, on the planner's one path but with the engine's metrics-only
/// run (simulate_metrics): per-stage costs and bytes from the model, no timeline kept.
///
/// The data-parallel all-reduce (every configuration has gpus / pp replicas of its pipeline): after
/// the pipeline's makespan, each rank all-reduces the gradients of the stages it holds (every copy;
/// grad_bytes per parameter) with the replicas of its stages, as a ring: 2 (d - 1) / d x bytes over
/// the group's link. Routed experts are reduced over their own d / ep replicas. The replicas of a
/// stage sit on consecutive GPUs (data-parallel inside, pipeline outside, as Megatron orders its
/// ranks), so a group of at most cluster.gpus_per_node GPUs uses NVLink (cluster.nvlink_gb_s) and a
/// larger one InfiniBand (cluster.ib_gb_s). The slowest rank's all-reduce ends the iteration; it is
/// not overlapped with the pipeline (a bound: real frameworks start reducing the last stages early).
struct SearchPoint {
  std::string schedule;
  bool pipeline = true;  ///< false at pp 1: no pipeline parallelism, one row whatever the schedule
  int pp = 0;
  int micro_batches = 0;
  int micro_batch_size = 1;
  int virtual_stages = 1;
  int lighter_ends = 0;  ///< layers fewer on the first and the last stage than balanced
  std::vector<int> layers_per_stage;
  std::vector<Costs> stage_costs;  ///< per op of each stage, milliseconds: what the engine timed
  double makespan_ms = 0;
  double bubble_fraction = 0;
  double allreduce_ms = 0;  ///< the data-parallel all-reduce of the slowest rank, after the makespan
  double iteration_ms = 0;  ///< makespan_ms + allreduce_ms: what the search ranks by
  double peak_gb = 0;  ///< the heaviest rank: its state plus its peak of live activation bytes
  bool fits = false;
};

struct SearchResult {
  std::size_t configurations = 0;  ///< run through the engine
  std::size_t refused = 0;         ///< of the combinations, those a schedule or the model refused
  std::size_t same_layout = 0;     ///< of the combinations, those giving a layout already run (not run again)
  std::vector<SearchPoint> best;   ///< fitting first, then by iteration time; at most `keep`
};

/// The ring all-reduce of `bytes` over `group` GPUs at `gb_s` GB/s each: 2 (group - 1) / group x
/// bytes / bandwidth, in milliseconds (0 for a group of one).
[[nodiscard]] auto ring_allreduce_ms(double bytes, int group, double gb_s) -> double;

/// Called after every configuration with (done, total); return false to stop the search early.
using SearchProgress = std::function<bool(std::size_t done, std::size_t total)>;

/// Runs every combination of PlanSearch with every schedule. At pipeline size 1 there is no pipeline:
/// one configuration per micro-batch size (each micro-batch's forward then backward on every GPU),
/// not one per schedule. A combination whose layout equals one already run (the same schedule,
/// sizes and layers per stage) is counted in `same_layout` and not run twice. Throws Error on a
/// search list with a value out of range, naming the field; a combination a schedule or the model
/// refuses is counted in `refused` and skipped.
[[nodiscard]] auto plan_search(const PlanInput& input, const PlanSearch& search, std::size_t keep,
                               const SearchProgress& progress = {}) -> SearchResult;

/// The search in steps, for a caller that shows its progress and may stop it between steps (the page's
/// worker): plan_search is `SearchRun` stepped one combination at a time. The combinations are listed
/// once, at construction, in plan_search's order; construction throws Error on a bad search list.
class SearchRun {
 public:
  SearchRun(const PlanInput& input, const PlanSearch& search);
  ~SearchRun();
  SearchRun(const SearchRun&) = delete;
  auto operator=(const SearchRun&) -> SearchRun& = delete;

  /// Runs up to `count` more combinations; false once none is left.
  auto step(std::size_t count) -> bool;
  [[nodiscard]] auto done() const -> std::size_t;
  [[nodiscard]] auto total() const -> std::size_t;
  /// What has run so far, ranked (fitting first, then by iteration time), at most `keep` points.
  [[nodiscard]] auto result(std::size_t keep) const -> SearchResult;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

/// The search as JSON: {"configurations", "refused", "same_layout", "best": [{"schedule", "pipeline",
/// "pp", "micro_batches", "micro_batch_size", "virtual_stages", "lighter_ends", "layers_per_stage",
/// "stage_cost_ms", "makespan_ms", "bubble_fraction", "allreduce_ms", "iteration_ms", "peak_gb",
/// "fits"}]}.
[[nodiscard]] auto search_json(const SearchResult& result) -> JsonDocument;

/// The same for a search under way (SearchRun): its result so far, at most `keep` points, with "done"
/// and "total" (combinations run and listed): the module's planSearchResult.
[[nodiscard]] auto search_json(const SearchRun& run, std::size_t keep) -> JsonDocument;

/// The plan as JSON: its "language", input echo, estimates, ranked candidates (each with the
/// search's "makespan_ms", "allreduce_ms" and "iteration_ms"), schedules that do not apply, and the
/// recommendation with its reasons.
[[nodiscard]] auto plan_json(const CourseData& course, const Plan& plan) -> JsonDocument;

/// A table a person can read in a terminal, then the recommendation, in the plan's language.
[[nodiscard]] auto render_plan_text(const CourseData& course, const Plan& plan) -> std::string;

/// One call for the web page: JSON text in, plan_json out, in the input's "language". Throws Error on
/// bad input.
[[nodiscard]] auto plan_from_json(const CourseData& course, std::string_view json_text) -> JsonDocument;

/// The same in `language` (en, pt-BR or zh-CN), whatever the input's "language" says: the page
/// passes the language it is shown in.
[[nodiscard]] auto plan_from_json(const CourseData& course, std::string_view json_text, std::string_view language)
    -> JsonDocument;

}  // namespace pipesim
