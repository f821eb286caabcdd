// DualPipe (DeepSeek-V3 report §3.2.1; deepseek-ai/DualPipe `dualpipe.py`): two copies of the model
// fed from both ends. Rank r holds stage r of direction 0 and stage N-1-r of direction 1; ranks r and
// N-1-r run the same program with the directions swapped.
#include "detail/dualpipe_steps.h"
#include "detail/formulas.h"
#include "detail/spec_helpers.h"
#include "detail/specs.h"

namespace pipesim::detail {

namespace {

void check(const ScheduleParams& p) {
  require(p.ranks >= 2 && p.ranks % 2 == 0, "dualpipe",
          "needs an even number of ranks, at least 2: rank r is paired with rank N-1-r", ranks_text(p),
          {"dualpipe.even_ranks", size_params(p)});
  require(p.micro_batches % 2 == 0 && p.micro_batches >= 2 * p.ranks, "dualpipe",
          "needs an even number of micro-batches (half enter at each end), at least 2 x ranks = " +
              std::to_string(2 * p.ranks),
          micro_batches_text(p), {"dualpipe.micro_batches", size_params(p)});
}

// With `with_comm`, also the communication program of dualpipe.py's step() (reference timing).
auto generate_dualpipe(const ScheduleParams& p, bool with_comm) -> Schedule {
  const int n = p.ranks;
  const auto rank_program = [&](int r) {
    return DualPipeRank{std::min(r, n - 1 - r), n / 2, p.micro_batches / 2, r >= n / 2, {r, n - 1 - r}, n, false, false};
  };
  return dualpipe_schedule("dualpipe", p, two_way_layout(n), rank_program, with_comm);
}

auto generate(const ScheduleParams& p) -> Schedule { return generate_dualpipe(p, false); }
auto generate_with_comm(const ScheduleParams& p) -> Schedule { return generate_dualpipe(p, true); }

}  // namespace

/// (PP/2-1)(F&B+B-3W) with PP stages; shared by DualPipeV, whose PP is twice its ranks.
auto dualpipe_formula(int pp, const Costs& c) -> Formula {
  const double k = pp / 2.0 - 1;
  const double value = k * (c.fb + c.b - 3 * c.w);
  return Formula{"(PP/2-1)(F&B+B-3W)",
                 "(" + std::to_string(pp) + "/2-1)(" + num(c.fb) + "+" + num(c.b) + "-3*" + num(c.w) + ") = " + num(value),
                 value,
                 c.f == c.i() && c.i() == c.w && c.comm == 0,
                 "exact, as the largest per-rank bubble, when F = B-W = W and comm = 0",
                 "DualPipe README; DeepSeek-V3 report Table 2"};
}

const ScheduleSpec dualpipe_spec{
    .name = "dualpipe",
    .texts =
        {
            .en =
                {
                    .title = "DualPipe",
                    .summary = "Bidirectional pipeline: micro-batches enter at both ends and a forward of one "
                               "direction overlaps a backward of the other (F&B).",
                    .constraints = "ranks even and ≥ 2; micro-batches even and ≥ 2 × ranks",
                    .caption = "DualPipe feeds micro-batches from both ends: {half} enter at rank 0 (direction 0) "
                               "and {half} at rank {last} (direction 1, in the second shade of each colour). After "
                               "the warm-up each rank pairs the forward of one direction with the backward of the "
                               "other in one bordered F&B cell, so the all-to-all of one chunk hides behind the "
                               "computation of the other (DeepSeek-V3 report §3.2.1). Each rank holds two stages, r "
                               "and {last}−r: two copies of the model.",
                },
            .pt_br =
                {
                    .title = "DualPipe",
                    .summary = "Pipeline bidirecional: os micro-batches entram pelas duas pontas, e o forward de uma "
                               "direção se sobrepõe ao backward da outra (F&B).",
                    .constraints = "ranks em número par e ≥ 2; micro-batches em número par e ≥ 2 × ranks",
                    .caption = "O DualPipe alimenta micro-batches pelas duas pontas: {half} entram pelo rank 0 "
                               "(direção 0) e {half} pelo rank {last} (direção 1, no segundo tom de cada cor). "
                               "Depois do warm-up, cada rank junta o forward de uma direção ao backward da outra "
                               "numa célula F&B com borda, de modo que o all-to-all de um chunk fica escondido "
                               "atrás da computação do outro (relatório do DeepSeek-V3, §3.2.1). Cada rank "
                               "guarda dois estágios, r e {last}−r: duas cópias do modelo.",
                },
            .zh_cn =
                {
                    .title = "DualPipe",
                    .summary = "双向流水线：微批次从两端进入，一个方向的前向与另一个方向的反向相互重叠（F&B）。",
                    .constraints = "rank 数为偶数且 ≥ 2；微批次数为偶数且 ≥ 2 × rank 数",
                    .caption = "DualPipe 从两端送入微批次：{half} 个从 rank 0 进入（方向 0），{half} 个从 rank {last} 进入（方向 "
                               "1，用每种颜色的第二色调）。预热之后，每个 rank "
                               "把一个方向的前向与另一个方向的反向放进同一个带边框的 F&B 格子，使一个 chunk 的 all-to-all "
                               "隐藏在另一个 chunk 的计算之后（DeepSeek-V3 报告 §3.2.1）。每个 rank 持有 r 和 {last}−r "
                               "两个阶段，即两份模型副本。",
                },
        },
    .source = "DeepSeek-V3 report §3.2.1 and Fig. 5; deepseek-ai/DualPipe dualpipe.py",
    .colour = {.light = "#d6246e"},
    .defaults = {.ranks = 8, .micro_batches = 20, .virtual_stages = 1},
    .two_way = true,
    .check = check,
    .generate = generate,
    .formula = [](const ScheduleParams& p, const Costs& c) { return dualpipe_formula(p.ranks, c); },
    .generate_with_comm = generate_with_comm,
};

}  // namespace pipesim::detail
