// ZB-V (Qi et al., Zero Bubble paper §6): one model cut into 2p stages folded into a V, so rank r holds
// stage r (leg 0, going down) and stage 2p-1-r (leg 1, coming back); backwards are split into I + W and
// the W's fill what would be bubbles. The op order is Sea AI Lab's handcrafted_zb_v as PyTorch's
// ScheduleZBVZeroBubble writes it: it plans max(2p-1, m) micro-batches, enough to fill the V, and drops
// the ops of the ones that do not exist.
#include <algorithm>
#include <array>

#include "detail/formulas.h"
#include "detail/rank_program.h"
#include "detail/spec_helpers.h"
#include "detail/specs.h"

namespace pipesim::detail {

namespace {

/// One rank's program over `planned` micro-batches per leg, FIFO within each leg.
void zb_v_rank(int ranks, int rank, int planned, OpColumn<Op>& out) {
  RankProgram prog{RankOps(out)};
  std::array<int, 2> forwards{};
  std::array<int, 2> backwards{};
  std::array<int, 2> weights{};
  const std::array<int, 2> stage{rank, 2 * ranks - 1 - rank};
  const auto at = [](int leg) { return static_cast<std::size_t>(leg); };
  const auto F = [&](int leg) { prog.forward({forwards[at(leg)]++, leg, stage[at(leg)]}); };
  const auto I = [&](int leg) { prog.input_backward({backwards[at(leg)]++, leg, stage[at(leg)]}); };
  const auto W = [&](int leg) {
    prog.weight_of_phase(leg);
    ++weights[at(leg)];
  };

  // Step 1: nF0 (fill the way down)
  const int step_1 = 2 * (ranks - rank) - 1;
  for (int i = 0; i < step_1; ++i) F(0);
  // Step 2: nF1F0
  const int step_2 = rank;
  for (int i = 0; i < step_2; ++i) {
    F(1);
    F(0);
  }
  // Step 3: nF1I1W1 (the turn of the V reaches this rank)
  const int step_3 = ranks - rank;
  for (int i = 0; i < step_3; ++i) {
    F(1);
    I(1);
    W(1);
  }
  // Step 4 (main step): nF0I0W0F1I1W1, the F0 only while leg-0 forwards remain
  while (forwards[1] < forwards[0] || forwards[0] < planned) {
    if (forwards[0] < planned) F(0);
    I(0);
    W(0);
    F(1);
    I(1);
    W(1);
  }
  // Step 5: nI0I1 (their W's wait: they fill the cool-down below)
  const int step_5 = rank;
  for (int i = 0; i < step_5; ++i) {
    I(0);
    I(1);
  }
  // Step 6: nI0W0
  const int step_6 = ranks - rank;
  for (int i = 0; i < step_6; ++i) {
    I(0);
    W(0);
  }
  // Step 7: nW1W0 (every parked W of leg 1, then of leg 0)
  while (weights[1] < backwards[1]) W(1);
  while (weights[0] < backwards[0]) W(0);
}

auto generate(const ScheduleParams& p) -> Schedule {
  ScheduleBuilder builder("zb-v", p, v_layout(p.ranks));
  const int planned = std::max(2 * p.ranks - 1, p.micro_batches);
  // One scratch list for every rank: each rank has at most 3 ops (F, I, W) per chunk of its two legs.
  OpColumn<Op> ops;
  ops.reserve(6 * static_cast<std::size_t>(planned));
  for (int r = 0; r < p.ranks; ++r) {
    ops.clear();
    zb_v_rank(p.ranks, r, planned, ops);
    // The planned micro-batches past m do not exist: torch turns their ops into idle slots.
    std::erase_if(ops, [&](const Op& op) { return op.chunk.mb >= p.micro_batches; });
    builder.rank(r).append(ops);
  }
  return std::move(builder).build();
}

// ZB-V's bubble on rank r, with PP = 2 x ranks stages on the V (as for DualPipeV): under the
// formula's condition no rank idles inside its span, so all that is left is the skew around it. The
// fill waits r forwards (the first F0 walks down the ranks); every rank then runs the same busy time
// without a gap, so the last rank, which started last, ends last, and rank r waits PP/2-1-r forwards
// after its own last W.
auto zb_v_terms(int ranks, const Costs& c) -> std::vector<RankTerms> {
  std::vector<RankTerms> out(static_cast<std::size_t>(ranks), std::vector<BubbleTerm>{});
  for (int r = 0; r < ranks; ++r) {
    auto& terms = *out[static_cast<std::size_t>(r)];
    add_term(terms, "rF", r, c.f, IdlePhase::fill);
    add_term(terms, "(PP/2-1-r)F", ranks - 1 - r, c.f, IdlePhase::drain);
  }
  return out;
}

PIPESIM_ONCE_PER_RUN auto formula(const ScheduleParams& p, const Costs& c) -> Formula {
  Formula f{"0 over the span",
                 "span bubble = 0",
                 0,
                 c.f == c.i() && c.i() == c.w && c.comm == 0 && p.micro_batches >= 2 * p.ranks - 1,
                 {.en = "span bubble (first op to last op of a rank), exact when F = B-W = W (per chunk), "
                        "micro-batches >= 2 x ranks - 1 and comm = 0; the global makespan adds the start-up skew "
                        "(ranks-1)F",
                  .pt_br = "bolha no span (da primeira à última op de um rank), exata quando F = B-W = W (por "
                           "chunk), micro-batches >= 2 x ranks - 1 e comm = 0; o makespan global soma o atraso "
                           "inicial (ranks-1)F",
                  .zh_cn = "跨度气泡（一个 rank 从第一个操作到最后一个操作），当 F = B-W = W（每个 chunk）、"
                           "微批次数 >= 2 x rank 数 - 1 且 comm = 0 时精确；全局 makespan 还要加上启动错位 "
                           "(ranks-1)F"},
                 "Zero Bubble paper (Qi et al., ICLR 2024) §6; torch ScheduleZBVZeroBubble docstring",
                 true};
  // NOTE: below 2 x ranks - 1 micro-batches the V is never full and ranks idle inside the span; no split.
  if (p.micro_batches >= 2 * p.ranks - 1) f.rank_terms = zb_v_terms(p.ranks, c);
  return f;
}

}  // namespace

const ScheduleSpec zb_v_spec{
    .name = "zb-v",
    .texts =
        {
            .en =
                {
                    .title = "ZB-V",
                    .summary = "Zero Bubble V: two stages per rank in a V shape; zero bubble within the span when F "
                               "= B−W = W, with 1F1B’s memory.",
                    .constraints = "ranks ≥ 1; micro-batches ≥ 1",
                    .caption = "ZB-V folds the model into a V, like DualPipeV: rank r holds stages r and "
                               "{vlast}−r, so rank 0 runs the first and the last stage. With F = B−W = W no rank "
                               "idles between its first and last op (zero bubble over the span), with 1F1B’s "
                               "activation memory.",
                },
            .pt_br =
                {
                    .title = "ZB-V",
                    .summary = "Zero Bubble V: dois estágios por rank em forma de V; bolha zero dentro do intervalo "
                               "quando F = B−W = W, com a memória do 1F1B.",
                    .constraints = "ranks ≥ 1; micro-batches ≥ 1",
                    .caption = "O ZB-V dobra o modelo em V, como o DualPipeV: o rank r guarda os estágios r e "
                               "{vlast}−r, então o rank 0 executa o primeiro e o último estágio. Com F = B−W "
                               "= W, nenhum rank fica ocioso entre sua primeira e sua última operação (bolha zero "
                               "no intervalo), com a memória de ativações do 1F1B.",
                },
            .zh_cn =
                {
                    .title = "ZB-V",
                    .summary = "Zero Bubble V：每个 rank 以 V 形持有两个阶段；当 F = B−W = W 时跨度内零气泡，激活内存与 1F1B 相同。",
                    .constraints = "rank 数 ≥ 1；微批次数 ≥ 1",
                    .caption = "ZB-V 像 DualPipeV 一样把模型折成 V 形：rank r 持有阶段 r 和 {vlast}−r，因此 rank 0 "
                               "同时运行第一个和最后一个阶段。当 F = B−W = W 时，任何 rank "
                               "在其第一个与最后一个操作之间都不空闲（跨度内零气泡），激活内存与 1F1B 相同。",
                },
        },
    .source = "Qi et al., Zero Bubble Pipeline Parallelism (arXiv 2401.10241) §6; order as torch ScheduleZBVZeroBubble "
              "(= Sea AI Lab handcrafted_zb_v)",
    .colour = {.light = "#b07aa1", .dark = "#b07aa1"},
    .defaults = {.ranks = 8, .micro_batches = 20, .virtual_stages = 1},
    .check = any_size,
    .generate = generate,
    .formula = formula,
};

}  // namespace pipesim::detail
