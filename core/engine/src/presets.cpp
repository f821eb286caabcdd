#include "pipesim/presets.h"

#include <array>

namespace pipesim {

namespace {

constexpr std::array<std::string_view, 2> compare_fig5 = {"1f1b", "zb-h1"};
constexpr std::array<std::string_view, 2> compare_dualpipev = {"dualpipe", "1f1b"};
constexpr std::array<std::string_view, 1> compare_exercise1 = {"1f1b"};
constexpr std::array<std::string_view, 1> compare_exercise2 = {"1f1b"};
constexpr std::array<std::string_view, 2> compare_zerobubble = {"1f1b", "zb-h2"};

// The published figures first, then the lesson's exercises. Each one's numbers are checked by
// tests/test_registry.cpp (its schedule accepts its sizes, its costs parse).
const std::array<Preset, 5> all = {{
    {
        .id = "fig5",
        .name =
            {
                .en = "DeepSeek-V3 Fig. 5: DualPipe, 8 ranks, 20 micro-batches",
                .pt_br = "DeepSeek-V3, Fig. 5: DualPipe, 8 ranks, 20 micro-batches",
                .zh_cn = "DeepSeek-V3 图 5：DualPipe，8 个 rank，20 个微批次",
            },
        .schedule = "dualpipe",
        .ranks = 8,
        .micro_batches = 20,
        .cost = "F=1,B=2,W=1,FB=3",
        .compare = compare_fig5,
    },
    {
        .id = "dualpipev",
        .name =
            {
                .en = "DualPipe README: DualPipeV, 4 ranks, 10 micro-batches",
                .pt_br = "README do DualPipe: DualPipeV, 4 ranks, 10 micro-batches",
                .zh_cn = "DualPipe README：DualPipeV，4 个 rank，10 个微批次",
            },
        .schedule = "dualpipev",
        .ranks = 4,
        .micro_batches = 10,
        .cost = "F=1,B=2,W=1,FB=3",
        .compare = compare_dualpipev,
    },
    {
        .id = "exercise1",
        .name =
            {
                .en = "Lesson exercise 1: DualPipe vs 1F1B, 8 ranks, 16 micro-batches",
                .pt_br = "Exercício 1 da aula: DualPipe vs 1F1B, 8 ranks, 16 micro-batches",
                .zh_cn = "课程练习 1：DualPipe 对比 1F1B，8 个 rank，16 个微批次",
            },
        .schedule = "dualpipe",
        .ranks = 8,
        .micro_batches = 16,
        .cost = "F=1,B=2,W=1,FB=3",
        .compare = compare_exercise1,
    },
    {
        .id = "exercise2",
        .name =
            {
                .en = "Lesson exercise 2: DualPipe, 4 ranks, 8 micro-batches",
                .pt_br = "Exercício 2 da aula: DualPipe, 4 ranks, 8 micro-batches",
                .zh_cn = "课程练习 2：DualPipe，4 个 rank，8 个微批次",
            },
        .schedule = "dualpipe",
        .ranks = 4,
        .micro_batches = 8,
        .cost = "F=1,B=2,W=1,FB=3",
        .compare = compare_exercise2,
    },
    {
        .id = "zerobubble",
        .name =
            {
                .en = "Zero Bubble paper: ZB-H1 vs 1F1B, 4 ranks, 8 micro-batches",
                .pt_br = "Artigo do Zero Bubble: ZB-H1 vs 1F1B, 4 ranks, 8 micro-batches",
                .zh_cn = "Zero Bubble 论文：ZB-H1 对比 1F1B，4 个 rank，8 个微批次",
            },
        .schedule = "zb-h1",
        .ranks = 4,
        .micro_batches = 8,
        .cost = "F=1,B=2,W=1,FB=3",
        .compare = compare_zerobubble,
    },
}};

// The guided lesson: from 1F1B's bubble (steps 1-2), through Zero Bubble's split backward (3),
// DualPipe's two directions, its bubble and a bubble that does not grow with micro-batches (4-6), to
// DualPipeV folding the same 8 stages onto 4 GPUs (7) and the four side by side (8).
constexpr LessonRun one_f_one_b_4x8 = {.schedule = "1f1b", .ranks = 4, .micro_batches = 8};
constexpr LessonRun dualpipe_8x20 = {.schedule = "dualpipe", .ranks = 8, .micro_batches = 20};
constexpr std::array<LessonRun, 1> beside_1f1b_4x8 = {one_f_one_b_4x8};
constexpr std::array<LessonRun, 1> beside_dualpipe_8x20 = {dualpipe_8x20};
// Step 8: the same 8 stages, so DualPipeV runs on 4 ranks.
constexpr std::array<LessonRun, 4> same_eight_stages = {{
    {.schedule = "1f1b", .ranks = 8, .micro_batches = 20},
    {.schedule = "zb-h1", .ranks = 8, .micro_batches = 20},
    dualpipe_8x20,
    {.schedule = "dualpipev", .ranks = 4, .micro_batches = 20},
}};

const std::array<LessonStep, 8> lesson = {{
    {.id = "s1", .run = one_f_one_b_4x8, .compared = {}},
    {.id = "s2", .run = {.schedule = "1f1b", .ranks = 4, .micro_batches = 16}, .compared = beside_1f1b_4x8},
    {.id = "s3", .run = {.schedule = "zb-h1", .ranks = 4, .micro_batches = 8}, .compared = beside_1f1b_4x8},
    {.id = "s4", .run = dualpipe_8x20, .compared = {}},
    {.id = "s5", .run = dualpipe_8x20, .compared = {}},
    {.id = "s6", .run = {.schedule = "dualpipe", .ranks = 8, .micro_batches = 40}, .compared = beside_dualpipe_8x20},
    {.id = "s7", .run = {.schedule = "dualpipev", .ranks = 4, .micro_batches = 20}, .compared = beside_dualpipe_8x20},
    {.id = "s8", .run = dualpipe_8x20, .compared = same_eight_stages},
}};

}  // namespace

auto presets() -> std::span<const Preset> { return all; }

auto lesson_cost() -> std::string_view { return "F=1,B=2,W=1,FB=3"; }

auto lesson_steps() -> std::span<const LessonStep> { return lesson; }

}  // namespace pipesim
