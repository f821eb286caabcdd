#pragma once
// The DualPipe lesson's four exercises, answered by the engine: every number is simulated or derived
// here from stated inputs, and every string comes from core/data/lesson_text.json in the requested
// language. Each exercise is also available as typed results for tests and for the web page.
#include <optional>
#include <string>

#include "pipesim/costs.h"
#include "pipesim/course_data.h"
#include "pipesim/json_document.h"
#include "pipesim/op.h"
#include "pipesim/run.h"

namespace pipesim {

/// DeepSeek-V3's pre-training cost, report §1 and Table 1: 180K H800 GPU-hours per trillion tokens.
inline constexpr double deepseek_gpu_hours_per_trillion_tokens = 180'000;

/// The lesson's exercises are numbered 1 to lesson_exercises.
inline constexpr int lesson_exercises = 4;

struct LessonRequest {
  int exercise = 1;               ///< 1 to lesson_exercises
  std::string language = "en";    ///< en, pt-BR or zh-CN
  Costs costs = default_costs();  ///< per-stage op costs, exercises 1, 2 and 4
  double bytes_per_param = 2;     ///< exercise 3: bytes counted per parameter (2 = bf16 weights only)
  double gpu_memory_gb = 80;      ///< exercise 3: memory of one GPU, GB (H800: 80)
};

/// Exercise 1: DualPipe vs 1F1B and the GPU-hours recovered per million tokens.
/// DeepSeek's 0.18 GPU-hours per million tokens was reached with DualPipe. The same tokens on the same
/// GPUs take makespan_1f1b / makespan_dualpipe as long with 1F1B, so
///   cost_1f1b = baseline x time_ratio and recovered = cost_1f1b - baseline = baseline x (time_ratio - 1).
/// When F&B = F + B both schedules do the same busy work and time_ratio = u_dualpipe / u_1f1b.
struct RecoveredGpuHours {
  Run dualpipe;
  Run one_f_one_b;
  double busy_dualpipe = 0;         ///< op time summed over ranks, time units
  double busy_1f1b = 0;
  double utilisation_dualpipe = 0;  ///< busy / (ranks x makespan)
  double utilisation_1f1b = 0;
  double difference = 0;            ///< utilisation_dualpipe - utilisation_1f1b
  double baseline = 0;              ///< GPU-hours per million tokens with DualPipe (0.18)
  double time_ratio = 0;            ///< makespan_1f1b / makespan_dualpipe
  double cost_1f1b = 0;             ///< GPU-hours per million tokens with 1F1B
  double recovered = 0;             ///< GPU-hours per million tokens saved by DualPipe
  double share_saved = 0;           ///< recovered / cost_1f1b
};
[[nodiscard]] auto recovered_gpu_hours(const Costs& costs, int ranks = 8, int micro_batches = 16) -> RecoveredGpuHours;

/// Exercise 2: an op in which one rank runs both directions at once (an F&B whose forward and
/// backward belong to different directions), located in a simulated timeline.
struct TwoDirectionSlot {
  int rank = 0;
  int op_index = 0;  ///< into Run::schedule.ops
  double start = 0;
  double end = 0;
  Chunk forward;
  Chunk backward;
};
/// The earliest such op over all ranks (lowest rank on a tie), or nothing.
[[nodiscard]] auto first_two_direction_slot(const Run& run) -> std::optional<TwoDirectionSlot>;
/// The earliest such op on one rank.
[[nodiscard]] auto first_two_direction_slot(const Run& run, int rank) -> std::optional<TwoDirectionSlot>;

/// Exercise 3: one model's second parameter copy under DualPipe.
struct CopyCost {
  double params = 0;               ///< whole model
  double routed = 0;               ///< routed-expert parameters (0 for a dense model)
  int stages = 0;                  ///< pipeline stages
  int ep = 1;                      ///< expert-parallel group size
  double stage_params_per_gpu = 0; ///< one stage on one GPU: other / stages + routed / (stages x ep)
  int stages_held = 0;             ///< DualPipe's stages per rank, from the engine
  double extra_params = 0;         ///< (stages_held - 1) x stage_params_per_gpu
  double extra_bytes = 0;          ///< extra_params x bytes per parameter
  double gpu_share = 0;            ///< extra_bytes / GPU memory
  double model_share = 0;          ///< extra_params / params
};
struct SecondCopyCost {
  CopyCost dense;       ///< dense 70B at 8 stages
  CopyCost moe;         ///< DeepSeek-V3 (671B) at PP16, EP64
  int moe_layers = 0;   ///< 61 - 3
  int experts = 0;      ///< 256 routed experts per MoE layer
  double ratio = 0;     ///< dense.extra_bytes / moe.extra_bytes
};
[[nodiscard]] auto second_copy_cost(double bytes_per_param, double gpu_memory_gb) -> SecondCopyCost;

/// One exercise as data: {"exercise", "language", "title", "question", "steps": [{"key", "label",
/// "formula", "value", "unit"}], "answer", "assumptions": [...], plus the exercise's own fields
/// (exercise 2: "table", "first_two_directions"; exercise 4: "statements", "engine"). Throws Error on
/// an exercise number other than 1-4, an unknown language or invalid costs. Its words are
/// core/data/lesson_text.json, as `course` holds it.
[[nodiscard]] auto lesson_exercise(const CourseData& course, const LessonRequest& request) -> JsonDocument;

/// The same, for a terminal (`exercise` as lesson_exercise returned it).
[[nodiscard]] auto render_lesson_text(const CourseData& course, const JsonDocument& exercise) -> std::string;

}  // namespace pipesim
