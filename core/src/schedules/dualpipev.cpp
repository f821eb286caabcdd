// DualPipeV (deepseek-ai/DualPipe `dualpipev.py`; Sea AI Lab's "cut-in-half" of DualPipe): one copy
// of a 2N-stage model folded into a V. Rank r holds stage r (leg 0, going down) and stage 2N-1-r
// (leg 1, coming back); every micro-batch enters at rank 0 and turns on rank N-1.
#include "detail/dualpipe_steps.h"
#include "detail/formulas.h"
#include "detail/spec_helpers.h"
#include "detail/specs.h"

namespace pipesim::detail {

namespace {

void check(const ScheduleParams& p) {
  require(p.micro_batches >= 2 * p.ranks, "dualpipev",
          "needs at least 2 x ranks = " + std::to_string(2 * p.ranks) + " micro-batches (as many as stages)",
          micro_batches_text(p), {"dualpipev.micro_batches", size_params(p)});
}

// With `with_comm`, also the communication program of dualpipev.py's step() (reference timing).
auto generate_dualpipev(const ScheduleParams& p, bool with_comm) -> Schedule {
  const int n = p.ranks;
  const auto rank_program = [&](int r) {
    return DualPipeRank{r, n, p.micro_batches, false, {r, 2 * n - 1 - r}, 2 * n, r == n - 1, true};
  };
  return dualpipe_schedule("dualpipev", p, v_layout(n), rank_program, with_comm);
}

auto generate(const ScheduleParams& p) -> Schedule { return generate_dualpipev(p, false); }
auto generate_with_comm(const ScheduleParams& p) -> Schedule { return generate_dualpipev(p, true); }

}  // namespace

const ScheduleSpec dualpipev_spec{
    .name = "dualpipev",
    .texts =
        {
            .en =
                {
                    .title = "DualPipeV",
                    .summary = "DualPipe cut in half: one model copy folded into a V over N ranks (2N stages), same "
                               "bubble formula.",
                    .constraints = "ranks ≥ 1; micro-batches ≥ 2 × ranks",
                    .caption = "DualPipeV folds one copy of a {stages}-stage model into a V over {ranks} ranks: "
                               "every micro-batch enters at rank 0, goes down, turns on rank {last} and comes back "
                               "(in the second shade of each colour). It is DualPipe cut in half: the first {ranks} "
                               "ranks of DualPipe with twice the ranks and micro-batches.",
                },
            .pt_br =
                {
                    .title = "DualPipeV",
                    .summary = "O DualPipe cortado ao meio: uma única cópia do modelo dobrada em V sobre N ranks "
                               "(2N estágios), com a mesma fórmula de bolha.",
                    .constraints = "ranks ≥ 1; micro-batches ≥ 2 × ranks",
                    .caption = "O DualPipeV dobra uma cópia de um modelo de {stages} estágios em V sobre {ranks} "
                               "ranks: cada micro-batch entra pelo rank 0, desce, faz a volta no rank {last} e "
                               "retorna (no segundo tom de cada cor). É o DualPipe cortado ao meio: os {ranks} "
                               "primeiros ranks do DualPipe com o dobro de ranks e de micro-batches.",
                },
            .zh_cn =
                {
                    .title = "DualPipeV",
                    .summary = "对半切开的 DualPipe：一份模型副本在 N 个 rank 上折成 V 形（2N 个阶段），气泡公式相同。",
                    .constraints = "rank 数 ≥ 1；微批次数 ≥ 2 × rank 数",
                    .caption = "DualPipeV 把一个 {stages} 阶段模型的单份副本在 {ranks} 个 rank 上折成 V 形：每个微批次从 rank 0 "
                               "进入，向下走，在 rank {last} 折返后再回来（用每种颜色的第二色调）。它就是对半切开的 DualPipe：rank "
                               "数和微批次数都加倍的 DualPipe 的前 {ranks} 个 rank。",
                },
        },
    .source = "deepseek-ai/DualPipe dualpipev.py; Sea AI Lab, \"Cut-in-half\" (hackmd.io/@ufotalent/r1lVXsa9Jg)",
    .colour = {.light = "#8e44ad"},
    .defaults = {.ranks = 8, .micro_batches = 20, .virtual_stages = 1},
    .check = check,
    .generate = generate,
    .formula = [](const ScheduleParams& p, const Costs& c) { return dualpipe_formula(2 * p.ranks, c); },
    .generate_with_comm = generate_with_comm,
};

}  // namespace pipesim::detail
