// ZB-H1 and ZB-H2, the twins of Sea AI Lab's handcrafted zero-bubble schedules (Zero Bubble paper,
// Fig. 3; `efficiency.py` on the `arxiv` branch of sail-sg/zero-bubble-pipeline-parallelism).
//
// ZB-H1: 1F1B with each backward split into I and W, and the W's of the first r micro-batches deferred
// to fill the cool-down. Same memory as 1F1B.
// ZB-H2: twice ZB-H1's warm-up, so the steady state has no bubble; it holds up to 2p-1 micro-batches'
// activations. Published "zero bubble" measures the span.
//
// ZB-H2 is ZB-H1 with one substitution, `ahead` = 1 -> 2: rank r runs ahead(p-1-r) forwards before its
// first backward (ZB-H1 p-1-r, ZB-H2 2(p-1-r)) and defers the W's of its first ahead x r backwards.
#include <algorithm>
#include <utility>

#include "detail/formulas.h"
#include "detail/rank_program.h"
#include "detail/spec_helpers.h"
#include "detail/specs.h"
#include "pipesim/error.h"

namespace pipesim::detail {

namespace {

constexpr int zb_h1_ahead = 1;
constexpr int zb_h2_ahead = 2;

// One rank's program, written like DualPipe's step(): numbered steps, each with its count.
void zb_h_step(const ScheduleParams& p, int r, int ahead, RankOps out) {
  RankProgram prog(out);
  const int m = p.micro_batches;
  const auto chunk = [r](int mb) { return Chunk{mb, 0, r}; };
  int forwards = 0;

  // Step 1: nF (warm-up)
  const int step_1 = std::min(m, ahead * (p.ranks - 1 - r));
  for (int i = 0; i < step_1; ++i) prog.forward(chunk(forwards++));

  // Step 2: nFIW (steady state: one F while any remain, the I of micro-batch i, the oldest W)
  const int step_2 = m;
  const int deferred_weights = ahead * r;
  for (int i = 0; i < step_2; ++i) {
    if (forwards < m) prog.forward(chunk(forwards++));
    prog.input_backward(chunk(i));
    // NOTE: the first `deferred_weights` gradients wait: their W's fill the cool-down instead.
    if (i >= deferred_weights) prog.weight();
  }

  // Step 3: nW (cool-down: the deferred W's)
  const int step_3 = std::min(m, deferred_weights);
  for (int i = 0; i < step_3; ++i) prog.weight();
  if (prog.parked() != 0) throw Error(ErrorCode::internal, "internal: weight-gradient queue not empty at the end of ZB-H");
}

auto zb_h_schedule(const char* name, const ScheduleParams& p, int ahead) -> Schedule {
  ScheduleBuilder builder(name, p, straight_layout(p.ranks));  // F, I and W: three ops a chunk
  for (int r = 0; r < p.ranks; ++r) zb_h_step(p, r, ahead, builder.rank(r));
  return std::move(builder).build();
}

// ---- ZB-H1 ----------------------------------------------------------------------------------------

auto generate_zb_h1(const ScheduleParams& p) -> Schedule { return zb_h_schedule("zb-h1", p, zb_h1_ahead); }

// ZB-H1's (PP-1)(F+B-2W) on rank r, timed from the op order when W <= min(F, B-W), comm = 0 and at
// least PP micro-batches (B-W is the input backward I). The fill waits r forwards. After its PP-r
// forwards rank r waits for I(0) to come back up the PP-1-r ranks below it, each running one I. In
// the cool-down each of its last PP-1-r I's waits for the forward that the rank below runs before
// passing it on, less the W that rank r runs meanwhile: F-W each. After its last W it waits for the
// ranks above, each of whose last I's ends B-2W (= I-W) later than its own W's would.
auto zb_h1_terms(int p, const Costs& c) -> std::vector<RankTerms> {
  std::vector<RankTerms> out(static_cast<std::size_t>(p), std::vector<BubbleTerm>{});
  for (int r = 0; r < p; ++r) {
    auto& terms = *out[static_cast<std::size_t>(r)];
    add_term(terms, "rF", r, c.f, IdlePhase::fill);
    add_term(terms, "(PP-1-r)(B-W)", p - 1 - r, c.i(), IdlePhase::warm_up);
    add_term(terms, "(PP-1-r)(F-W)", p - 1 - r, c.f - c.w, IdlePhase::cool_down);
    add_term(terms, "r(B-2W)", r, c.i() - c.w, IdlePhase::drain);
  }
  return out;
}

PIPESIM_ONCE_PER_RUN auto zb_h1_formula(const ScheduleParams& p, const Costs& c) -> Formula {
  const int n = p.ranks;
  const double value = (n - 1) * (c.f + c.b - 2 * c.w);
  Formula f{"(PP-1)(F+B-2W)",
                 "(" + std::to_string(n) + "-1)(" + num(c.f) + "+" + num(c.b) + "-2*" + num(c.w) + ") = " + num(value),
                 value,
                 c.w <= std::min(c.f, c.i()) && p.micro_batches >= n && c.comm == 0,
                 {.en = "exact when W <= min(F, B-W), micro-batches >= ranks and comm = 0; the paper writes it "
                        "(p-1)(F+B_in-W)",
                  .pt_br = "exata quando W <= min(F, B-W), micro-batches >= ranks e comm = 0; o artigo a escreve "
                           "como (p-1)(F+B_in-W)",
                  .zh_cn = "当 W <= min(F, B-W)、微批次数 >= rank 数且 comm = 0 时精确；论文写作 (p-1)(F+B_in-W)"},
                 "Zero Bubble paper (Qi et al., ICLR 2024); DualPipe README (ZB1P row)"};
  // NOTE: with fewer micro-batches than ranks some ranks never reach the steady state; no split then.
  if (p.micro_batches >= n) f.rank_terms = zb_h1_terms(n, c);
  return f;
}

// ---- ZB-H2 ----------------------------------------------------------------------------------------

auto generate_zb_h2(const ScheduleParams& p) -> Schedule { return zb_h_schedule("zb-h2", p, zb_h2_ahead); }

// ZB-H2's span bubble (PP-1)(F+B-3W+2comm) on rank r, plus the global skew around it, timed from the
// op order under the formula's condition (I = B-W is the input backward). The fill waits r forwards
// and their hops. Inside the span rank r idles (PP-1-r)(F+I-2W+2comm): when I+2comm > F, the part
// I+2comm-F of each of the PP-1-r round trips below it falls before its first I (warm-up) and 2(F-W)
// each in the cool-down, where its I's wait on the forwards of the rank below; otherwise all of it
// falls in the cool-down. Rank r so ends at r(F+comm) + busy + (PP-1-r)(F+I-2W+2comm), a line in r
// of slope 2W-I-comm: the drain is measured against rank 0's end when I+comm >= 2W (r(I-2W+comm))
// and against the last rank's end otherwise ((PP-1-r)(2W-I-comm)). Each branch is exact on its side.
auto zb_h2_terms(int p, const Costs& c) -> std::vector<RankTerms> {
  std::vector<RankTerms> out(static_cast<std::size_t>(p), std::vector<BubbleTerm>{});
  const bool waits_before_first_i = c.i() + 2 * c.comm > c.f;
  const bool rank_0_ends_last = c.i() + c.comm >= 2 * c.w;
  for (int r = 0; r < p; ++r) {
    auto& terms = *out[static_cast<std::size_t>(r)];
    const int below = p - 1 - r;
    add_term(terms, "r(F+comm)", r, c.f + c.comm, IdlePhase::fill);
    if (waits_before_first_i) {
      add_term(terms, "(PP-1-r)(B-W+2comm-F)", below, c.i() + 2 * c.comm - c.f, IdlePhase::warm_up);
      add_term(terms, "2(PP-1-r)(F-W)", 2 * below, c.f - c.w, IdlePhase::cool_down);
    } else {
      add_term(terms, "(PP-1-r)(F+B-3W+2comm)", below, c.f + c.i() - 2 * c.w + 2 * c.comm, IdlePhase::cool_down);
    }
    if (rank_0_ends_last)
      add_term(terms, "r(B-3W+comm)", r, c.i() - 2 * c.w + c.comm, IdlePhase::drain);
    else
      add_term(terms, "(PP-1-r)(3W-B-comm)", below, 2 * c.w - c.i() - c.comm, IdlePhase::drain);
  }
  return out;
}

PIPESIM_ONCE_PER_RUN auto zb_h2_formula(const ScheduleParams& p, const Costs& c) -> Formula {
  const int n = p.ranks;
  const double value = (n - 1) * (c.f + c.i() + 2 * c.comm - 2 * c.w);
  Formula f{"(PP-1)(F+B-3W+2comm), over the span",
                 "(" + std::to_string(n) + "-1)(" + num(c.f) + "+" + num(c.b) + "-3*" + num(c.w) + "+2*" +
                     num(c.comm) + ") = " + num(value),
                 value,
                 // 2comm <= F+B-W: checked on grids and random draws, and by Sea AI Lab's own code at
                 // the paper's costs with comm = 601 (issue 15).
                 c.w <= c.f && 2 * c.w <= c.f + c.i() && p.micro_batches >= 2 * n - 1 && 2 * c.comm <= c.f + c.i(),
                 {.en = "span bubble (first op to last op of a rank), exact when W <= F, 2W <= F+B-W, "
                        "micro-batches >= 2 x ranks - 1 and 2comm <= F+B-W; the paper writes "
                        "(p-1)(F+B_in+2c-2W); the global makespan adds the warm-up skew",
                  .pt_br = "bolha no span (da primeira à última op de um rank), exata quando W <= F, 2W <= F+B-W, "
                           "micro-batches >= 2 x ranks - 1 e 2comm <= F+B-W; o artigo escreve "
                           "(p-1)(F+B_in+2c-2W); o makespan global soma o atraso do warm-up",
                  .zh_cn = "跨度气泡（一个 rank 从第一个操作到最后一个操作），当 W <= F、2W <= F+B-W、"
                           "微批次数 >= 2 x rank 数 - 1 且 2comm <= F+B-W 时精确；论文写作 "
                           "(p-1)(F+B_in+2c-2W)；全局 makespan 还要加上预热的错位"},
                 "Zero Bubble paper (Qi et al., ICLR 2024)",
                 true};
  // NOTE: below 2 x ranks - 1 micro-batches the doubled warm-up is cut short; no split then.
  if (p.micro_batches >= 2 * n - 1) f.rank_terms = zb_h2_terms(n, c);
  return f;
}

}  // namespace

// ---- specs ----------------------------------------------------------------------------------------

const ScheduleSpec zb_h1_spec{
    .name = "zb-h1",
    .texts =
        {
            .en =
                {
                    .title = "ZB-H1",
                    .summary = "1F1B with split backwards: weight gradients fill the bubbles, same activation memory "
                               "as 1F1B.",
                    .constraints = "ranks ≥ 1; micro-batches ≥ 1",
                    .caption = "ZB-H1 splits each backward into I (input gradient, on the critical path) and W "
                               "(weight gradient, deferrable). Deferred W’s fill the cool-down, shrinking the "
                               "bubble to (PP−1)(F+B−2W) with 1F1B’s memory.",
                },
            .pt_br =
                {
                    .title = "ZB-H1",
                    .summary = "1F1B com backwards divididos: os gradientes dos pesos preenchem as bolhas, com a "
                               "mesma memória de ativações do 1F1B.",
                    .constraints = "ranks ≥ 1; micro-batches ≥ 1",
                    .caption = "O ZB-H1 divide cada backward em I (gradiente da entrada, no caminho crítico) e W "
                               "(gradiente dos pesos, adiável). Os W adiados preenchem o cool-down, reduzindo a "
                               "bolha para (PP−1)(F+B−2W) com a memória do 1F1B.",
                },
            .zh_cn =
                {
                    .title = "ZB-H1",
                    .summary = "拆分反向的 1F1B：权重梯度填充气泡，激活内存与 1F1B 相同。",
                    .constraints = "rank 数 ≥ 1；微批次数 ≥ 1",
                    .caption = "ZB-H1 把每个反向拆成 I（输入梯度，位于关键路径上）和 W（权重梯度，可推迟）。推迟的 W "
                               "填充收尾阶段，把气泡缩小到 (PP−1)(F+B−2W)，激活内存与 1F1B 相同。",
                },
        },
    .source = "Qi et al., Zero Bubble Pipeline Parallelism (arXiv 2401.10241), handcrafted ZB-H1",
    .colour = {.light = "#2a9d8f", .dark = "#2a9d8f"},
    .defaults = {.ranks = 8, .micro_batches = 20, .virtual_stages = 1},
    .check = any_size,
    .generate = generate_zb_h1,
    .formula = zb_h1_formula,
};

const ScheduleSpec zb_h2_spec{
    .name = "zb-h2",
    .texts =
        {
            .en =
                {
                    .title = "ZB-H2",
                    .summary = "ZB-H1 with twice the warm-up: no bubble inside each rank’s span, at about twice "
                               "1F1B’s activation memory.",
                    .constraints = "ranks ≥ 1; micro-batches ≥ 1",
                    .caption = "ZB-H2 doubles the warm-up so no rank idles between its first and last op: “zero "
                               "bubble” measured over each rank’s span. The start-up skew remains in the global "
                               "makespan, and activations reach 2p−1.",
                },
            .pt_br =
                {
                    .title = "ZB-H2",
                    .summary = "ZB-H1 com o dobro de warm-up: nenhuma bolha dentro do intervalo de cada rank, com "
                               "cerca do dobro da memória de ativações do 1F1B.",
                    .constraints = "ranks ≥ 1; micro-batches ≥ 1",
                    .caption = "O ZB-H2 dobra o warm-up para que nenhum rank fique ocioso entre sua primeira e sua "
                               "última operação: “bolha zero” medida no intervalo de cada rank. A defasagem "
                               "da partida continua no makespan global, e as ativações chegam a 2p−1.",
                },
            .zh_cn =
                {
                    .title = "ZB-H2",
                    .summary = "预热加倍的 ZB-H1：每个 rank 的跨度内没有气泡，激活内存约为 1F1B 的两倍。",
                    .constraints = "rank 数 ≥ 1；微批次数 ≥ 1",
                    .caption = "ZB-H2 把预热加倍，使任何 rank 在其第一个与最后一个操作之间都不空闲：这是按每个 rank "
                               "的跨度衡量的“零气泡”。启动时的错位仍然计入全局 makespan，激活数达到 2p−1。",
                },
        },
    .source = "Qi et al., Zero Bubble Pipeline Parallelism (arXiv 2401.10241), handcrafted ZB-H2",
    .colour = {.light = "#e76f51", .dark = "#e76f51"},
    .defaults = {.ranks = 8, .micro_batches = 20, .virtual_stages = 1},
    .check = any_size,
    .generate = generate_zb_h2,
    .formula = zb_h2_formula,
};

}  // namespace pipesim::detail
