// Chimera (Li & Hoefler, SC'21, arXiv 2107.06925): two pipelines in opposite directions over the same
// D ranks, like DualPipe's layout: rank r holds stage r of the "down" pipeline (direction 0) and stage
// D-1-r of the "up" pipeline (direction 1). A basic unit is D micro-batches, D/2 per direction, each
// pipeline scheduled 1F1B-style so the two fill each other's bubbles.
//
// Variant: DIRECT CONCATENATION of m/D basic units, in the op order of the authors' runtime
// (Shigangli/Chimera, chimera_bert/bert/main_with_runtime_direct.py): a unit's last backwards of the
// rank's own ("primary") pipeline are issued in the next unit's first step, one before each forward.
// Not modelled: the paper's forward doubling and backward halving (which fill the gaps between units
// with recomputation), gradient synchronisation between the two replicas, and any overlap; backwards
// are full (no I/W split), as in the paper.
#include <algorithm>
#include <array>

#include "detail/formulas.h"
#include "detail/rank_program.h"
#include "detail/spec_helpers.h"
#include "detail/specs.h"

namespace pipesim::detail {

namespace {

PIPESIM_ONCE_PER_RUN void check(const ScheduleParams& p) {
  require(p.ranks >= 2 && p.ranks % 2 == 0, "chimera",
          "needs an even number of ranks (stages), at least 2: the two pipelines meet in the middle", ranks_text(p),
          {"chimera.even_ranks", size_params(p)});
  require(p.micro_batches % p.ranks == 0, "chimera",
          "needs micro-batches to be a multiple of the stage count = " + std::to_string(p.ranks) +
              ": each basic unit is one micro-batch per stage, half entering at each end",
          micro_batches_text(p), {"chimera.micro_batches", size_params(p)});
}

/// One rank's program. The "primary" pipeline is the one whose first half of stages this rank holds
/// (direction 0 on ranks 0 .. D/2-1, direction 1 above); `a` and `b` are the runtime's
/// schedule_number_a and schedule_number_b.
void chimera_rank(int stages, int rank, int units, RankOps out) {
  const int half = stages / 2;
  const int primary = rank < half ? 0 : 1;
  const int primary_stage = primary == 0 ? rank : stages - 1 - rank;
  const std::array<int, 2> stage_of{rank, stages - 1 - rank};  // per direction, as two_way_layout places them
  const int a = half - primary_stage;
  const int b = primary_stage;
  std::array<int, 2> forwards{};
  std::array<int, 2> backwards{};
  RankProgram prog(out);
  const auto at = [](int dir) { return static_cast<std::size_t>(dir); };
  const auto F = [&](int dir) { prog.forward({forwards[at(dir)]++, dir, stage_of[at(dir)]}); };
  const auto B = [&](int dir) { prog.full_backward({backwards[at(dir)]++, dir, stage_of[at(dir)]}); };
  const int secondary = 1 - primary;

  // Steps 1-4 once per basic unit, then step 5 once.
  for (int unit = 0; unit < units; ++unit) {
    // Step 1: nF (first unit) or nBF (later units: the previous unit's remaining primary backwards)
    const int step_1 = a;
    for (int i = 0; i < step_1; ++i) {
      // NOTE: the runtime issues the previous unit's last primary backwards here, one before each forward.
      if (unit > 0) B(primary);
      F(primary);
    }
    // Step 2: nF'F (the other pipeline's forwards arrive)
    const int step_2 = b;
    for (int i = 0; i < step_2; ++i) {
      F(secondary);
      F(primary);
    }
    // Step 3: nF'B' (the other pipeline, deep in its second half, turns around)
    const int step_3 = a;
    for (int i = 0; i < step_3; ++i) {
      F(secondary);
      B(secondary);
    }
    // Step 4: nBB'
    const int step_4 = b;
    for (int i = 0; i < step_4; ++i) {
      B(primary);
      B(secondary);
    }
  }
  // Step 5: nB (the tail: the last unit's remaining primary backwards)
  const int step_5 = a;
  for (int i = 0; i < step_5; ++i) B(primary);
}

auto generate(const ScheduleParams& p) -> Schedule {
  ScheduleBuilder builder("chimera", p, two_way_layout(p.ranks), 2);  // F and B only
  for (int r = 0; r < p.ranks; ++r) chimera_rank(p.ranks, r, p.micro_batches / p.ranks, builder.rank(r));
  return std::move(builder).build();
}

/// (D/2-1)(F+B) per rank, i.e. the paper's bubble ratio (D-2)/(2N+D-2) for N micro-batches per rank.
/// The paper draws forwards and backwards equally long; with F = B the simulation gives exactly this for
/// any number of units. Otherwise a unit idles (D-2)max(F,B) and each further unit (D-2)|B-F| more
/// (measured, not published): the gaps that forward doubling and backward halving exist to fill.
// Chimera's (PP/2-1)(F+B) on rank r, timed from the op order when F = B and comm = 0, with h =
// min(r, PP-1-r) the stage it holds in its own ("primary") pipeline. The fill waits h forwards of that
// pipeline; the other pipeline's first forward then needs PP/2-1-h more hops than the rank's own
// forwards last (warm-up), its last backward as many at the end (cool-down), and the rank waits h
// backwards above it after its last op. Ranks r and PP-1-r mirror each other; each basic unit after
// the first adds no idle time when F = B.
auto chimera_terms(int d, const Costs& c) -> std::vector<RankTerms> {
  std::vector<RankTerms> out(static_cast<std::size_t>(d), std::vector<BubbleTerm>{});
  for (int r = 0; r < d; ++r) {
    auto& terms = *out[static_cast<std::size_t>(r)];
    const int h = std::min(r, d - 1 - r);
    add_term(terms, "hF", h, c.f, IdlePhase::fill);
    add_term(terms, "(PP/2-1-h)F", d / 2 - 1 - h, c.f, IdlePhase::warm_up);
    add_term(terms, "(PP/2-1-h)B", d / 2 - 1 - h, c.b, IdlePhase::cool_down);
    add_term(terms, "hB", h, c.b, IdlePhase::drain);
  }
  return out;
}

PIPESIM_ONCE_PER_RUN auto formula(const ScheduleParams& p, const Costs& c) -> Formula {
  const int d = p.ranks;
  const double value = (d / 2.0 - 1) * (c.f + c.b);
  Formula f{"(PP/2-1)(F+B)",
                 "(" + std::to_string(d) + "/2-1)(" + num(c.f) + "+" + num(c.b) + ") = " + num(value),
                 value,
                 c.f == c.b && c.comm == 0,
                 {.en = "the paper's bubble ratio (PP-2)/(2N+PP-2) with N micro-batches; exact on every rank "
                        "when F = B (as the paper draws them) and comm = 0; otherwise a basic unit idles "
                        "(PP-2)max(F,B) and each further concatenated unit (PP-2)|B-F| more",
                  .pt_br = "a razão de bolha do artigo (PP-2)/(2N+PP-2) com N micro-batches; exata em todos os "
                           "ranks quando F = B (como o artigo os desenha) e comm = 0; caso contrário, uma unidade "
                           "básica fica ociosa (PP-2)max(F,B) e cada unidade concatenada a mais, (PP-2)|B-F| a mais",
                  .zh_cn = "论文的气泡比例 (PP-2)/(2N+PP-2)，N 为微批次数；当 F = B（与论文的画法一致）且 "
                           "comm = 0 时在每个 rank 上都精确；否则一个基本单元空闲 (PP-2)max(F,B)，"
                           "每多拼接一个单元再多空闲 (PP-2)|B-F|"},
                 "Li & Hoefler, Chimera (SC'21, arXiv 2107.06925), Table 1"};
  f.rank_terms = chimera_terms(d, c);
  return f;
}

}  // namespace

const ScheduleSpec chimera_spec{
    .name = "chimera",
    .texts =
        {
            .en =
                {
                    .title = "Chimera (direct concatenation)",
                    .summary = "Chimera: two pipelines in opposite directions over the same ranks, each rank holding "
                               "two stages.",
                    .constraints = "ranks even and ≥ 2; micro-batches a multiple of the ranks (DeepSeek-V3 §3.2.1 "
                                   "contrasts this with DualPipe)",
                    .caption = "Chimera runs two pipelines in opposite directions over the same ranks, like "
                               "DualPipe: each rank holds two stages (two copies of the model), {half} micro-batches "
                               "go down and {half} come up, in basic units of {ranks} micro-batches. It needs the "
                               "micro-batch count to be a multiple of the stage count; DualPipe needs only even "
                               "counts.",
                },
            .pt_br =
                {
                    .title = "Chimera (concatenação direta)",
                    .summary = "Chimera: dois pipelines em direções opostas sobre os mesmos ranks, e cada rank "
                               "guarda dois estágios.",
                    .constraints = "ranks em número par e ≥ 2; micro-batches em múltiplo do número de ranks (a "
                                   "§3.2.1 do DeepSeek-V3 contrasta isso com o DualPipe)",
                    .caption = "O Chimera executa dois pipelines em direções opostas sobre os mesmos ranks, como o "
                               "DualPipe: cada rank guarda dois estágios (duas cópias do modelo), {half} "
                               "micro-batches descem e {half} sobem, em unidades básicas de {ranks} micro-batches. "
                               "Ele exige que o número de micro-batches seja múltiplo do número de estágios; o "
                               "DualPipe só exige números pares.",
                },
            .zh_cn =
                {
                    .title = "Chimera（直接拼接）",
                    .summary = "Chimera：在同一组 rank 上运行两条方向相反的流水线，每个 rank 持有两个阶段。",
                    .constraints = "rank 数为偶数且 ≥ 2；微批次数为 rank 数的倍数（DeepSeek-V3 §3.2.1 将这一点与 DualPipe 作了对比）",
                    .caption = "Chimera 像 DualPipe 一样，在同一组 rank 上运行两条方向相反的流水线：每个 rank "
                               "持有两个阶段（两份模型副本），{half} 个微批次向下、{half} 个向上，以 {ranks} "
                               "个微批次为一个基本单元。它要求微批次数是阶段数的倍数；DualPipe 只要求偶数。",
                },
        },
    .source = "Li & Hoefler, Chimera (SC'21, arXiv 2107.06925); order as Shigangli/Chimera main_with_runtime_direct.py",
    .colour = {.light = "#9c755f", .dark = "#a37d68"},
    .defaults = {.ranks = 8, .micro_batches = 16, .virtual_stages = 1},
    .two_way = true,
    .check = check,
    .generate = generate,
    .formula = formula,
};

}  // namespace pipesim::detail
