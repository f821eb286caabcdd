// Interleaved 1F1B (Narayanan et al., SC'21; Megatron-LM's virtual pipeline): each rank holds v model
// chunks, stages r, r+p, r+2p, ... (the looped layout), and runs 1F1B over all of them. Forwards cycle
// through the chunks in groups of micro-batches ("rounds"), backwards through the chunks in reverse.
// The op order is PyTorch's ScheduleInterleaved1F1B ("flex" rounds, so m need not be a multiple of p);
// when m % p == 0 it is also Megatron's order.
#include <algorithm>
#include <utility>

#include "detail/formulas.h"
#include "detail/rank_program.h"
#include "detail/spec_helpers.h"
#include "detail/specs.h"

namespace pipesim::detail {

namespace {

/// PyTorch's rounds: max(1, m // p) groups of micro-batches; each group visits every chunk in turn.
[[nodiscard]] auto rounds(const ScheduleParams& p) -> int { return std::max(1, p.micro_batches / p.ranks); }

PIPESIM_ONCE_PER_RUN void check(const ScheduleParams& p) {
  // NOTE: we refuse v = 1 rather than treat it as 1F1B: torch's interleaved order with one chunk is not
  // 1F1B (its warm-up is 2(p-1-r), not p-1-r), so either reading would surprise someone.
  require(p.virtual_stages >= 2, "interleaved-1f1b",
          "needs at least 2 virtual stages per rank (with 1 it is plain 1f1b)",
          virtual_stages_text(p), {"interleaved.virtual_stages", size_params(p)});
  const int r = rounds(p);
  require(p.micro_batches % r == 0, "interleaved-1f1b",
          "needs micro-batches to be a multiple of the rounds max(1, micro-batches / ranks) = " + std::to_string(r) +
              ", as PyTorch's ScheduleInterleaved1F1B requires",
          micro_batches_text(p), {"interleaved.micro_batches", [&] {
            auto params = size_params(p);
            params.emplace_back("rounds", std::to_string(r));
            return params;
          }()});
}

/// One rank's program. `k` counts forwards (and, from the end of the warm-up, backwards) on this rank.
void interleaved_rank(const ScheduleParams& p, int rank, RankOps out) {
  const int v = p.virtual_stages;
  const int per_round = p.micro_batches / rounds(p);
  const int total = p.micro_batches * v;  // forwards, and as many backwards, on this rank
  // The last rank runs ahead one round per extra chunk; each rank above it 2 more, one per hop and back.
  const int warm_up = std::min((v - 1) * per_round + 2 * (p.ranks - 1 - rank), total);
  std::vector<int> next_forward(static_cast<std::size_t>(v), 0);
  std::vector<int> next_backward(static_cast<std::size_t>(v), 0);
  const auto chunk = [&](int c, std::vector<int>& next) {
    return Chunk{next[static_cast<std::size_t>(c)]++, c, c * p.ranks + rank};
  };
  RankProgram prog(out);
  const auto F = [&](int k) { prog.forward(chunk((k / per_round) % v, next_forward)); };
  const auto B = [&](int k) { prog.full_backward(chunk(v - 1 - (k / per_round) % v, next_backward)); };

  // Step 1: nF (warm-up)
  const int step_1 = warm_up;
  for (int k = 0; k < step_1; ++k) F(k);
  // Step 2: nFB (steady state: the next forward, then the oldest backward)
  const int step_2 = total - warm_up;
  for (int k = 0; k < step_2; ++k) {
    F(step_1 + k);
    B(k);
  }
  // Step 3: nB (cool-down: the warm-up's backwards)
  const int step_3 = warm_up;
  for (int k = 0; k < step_3; ++k) B(step_2 + k);
}

auto generate(const ScheduleParams& p) -> Schedule {
  ScheduleBuilder builder("interleaved-1f1b", p, looped_layout(p.ranks, p.virtual_stages), 2);  // F and B only
  for (int r = 0; r < p.ranks; ++r) interleaved_rank(p, r, builder.rank(r));
  return std::move(builder).build();
}

// Interleaved 1F1B's (PP-1)(F+B) on rank r, per chunk, when comm = 0 and micro-batches >= ranks: the
// fill waits r forwards (the first chunk-0 forward passes r ranks), the drain r backwards (the last
// chunk-0 backward passes them back), and the rest, (PP-1-r)(F+B), lies between the rank's first op and
// its last (checked on grids of sizes, v and random costs). Not v-fold: F and B are already per chunk,
// and the v chunks' round trips overlap. How that span falls into warm-up, steady state and cool-down
// turns on max()s the closed form drops: whether B >= F (else the warm-up has no gap), and, at each
// round's turn to the next chunk, whether that chunk's forward arrives in time (a gap in the steady
// state when the round holds few micro-batches beyond the ranks, e.g. 4 ranks x 8, F = 1, B = 2). So
// the span is one range term over warm-up..cool-down, checked against those three phases summed.
auto interleaved_terms(int ranks, const Costs& c) -> std::vector<RankTerms> {
  std::vector<RankTerms> out(static_cast<std::size_t>(ranks), std::vector<BubbleTerm>{});
  for (int r = 0; r < ranks; ++r) {
    auto& terms = *out[static_cast<std::size_t>(r)];
    add_term(terms, "rF", r, c.f, IdlePhase::fill);
    add_range_term(terms, "(PP-1-r)(F+B)", ranks - 1 - r, c.f + c.b, IdlePhase::warm_up, IdlePhase::cool_down);
    add_term(terms, "rB", r, c.b, IdlePhase::drain);
  }
  return out;
}

/// (p-1)(f+b) with per-chunk costs: 1F1B's fill and drain shrunk by v.
PIPESIM_ONCE_PER_RUN auto formula(const ScheduleParams& p, const Costs& c) -> Formula {
  const int n = p.ranks;
  const double value = (n - 1) * (c.f + c.b);
  Formula f{"(PP-1)(F+B)",
                 "(" + std::to_string(n) + "-1)(" + num(c.f) + "+" + num(c.b) + ") = " + num(value),
                 value,
                 p.micro_batches >= n && c.comm == 0,
                 {.en = "F and B per chunk (a whole stage share costs v x F); exact on every rank when "
                        "micro-batches >= ranks and comm = 0 (also for torch's flex rounds, e.g. 4 ranks, 10 "
                        "micro-batches); ratio to the ideal time (PP-1)/(v x micro-batches)",
                  .pt_br = "F e B por chunk (a parte de um estágio inteiro custa v x F); exata em todos os ranks "
                           "quando micro-batches >= ranks e comm = 0 (também nas rodadas flexíveis do torch, p. ex. "
                           "4 ranks, 10 micro-batches); razão em relação ao tempo ideal (PP-1)/(v x micro-batches)",
                  .zh_cn = "F 和 B 按 chunk 计（整个阶段的份额代价为 v x F）；当微批次数 >= rank 数且 comm = 0 "
                           "时在每个 rank 上都精确（torch 的弹性轮次也是如此，例如 4 个 rank、10 个微批次）；"
                           "与理想时间之比为 (PP-1)/(v x 微批次数)"},
                 "Narayanan et al., Megatron-LM (arXiv 2104.04473) §2.2"};
  // NOTE: with fewer micro-batches than ranks some ranks never reach the steady state; no split then.
  if (p.micro_batches >= n) f.rank_terms = interleaved_terms(n, c);
  return f;
}

}  // namespace

const ScheduleSpec interleaved_1f1b_spec{
    .name = "interleaved-1f1b",
    .texts =
        {
            .en =
                {
                    .title = "Interleaved 1F1B",
                    .summary = "Megatron’s interleaved 1F1B: each rank holds several non-adjacent stages, "
                               "shrinking the bubble by the number of virtual stages.",
                    .constraints = "virtual stages ≥ 2; micro-batches a multiple of max(1, micro-batches / ranks), "
                                   "as PyTorch requires",
                    .caption = "Interleaved 1F1B: each rank holds {vs} non-adjacent stages (rank r holds r, "
                               "r+{ranks}, …), so a micro-batch visits every rank {vs} times. Warm-up and "
                               "cool-down shrink by that factor; the price is more sends and more activations held "
                               "during the warm-up.",
                },
            .pt_br =
                {
                    .title = "1F1B intercalado",
                    .summary = "1F1B intercalado do Megatron: cada rank guarda vários estágios não adjacentes, o "
                               "que reduz a bolha pelo número de estágios virtuais.",
                    .constraints = "estágios virtuais ≥ 2; micro-batches em múltiplo de max(1, micro-batches / "
                                   "ranks), como o PyTorch exige",
                    .caption = "1F1B intercalado: cada rank guarda {vs} estágios não adjacentes (o rank r guarda "
                               "r, r+{ranks}, …), então um micro-batch passa {vs} vezes por cada rank. O warm-up "
                               "e o cool-down diminuem por esse fator; o preço são mais envios e mais ativações "
                               "guardadas durante o warm-up.",
                },
            .zh_cn =
                {
                    .title = "交错式 1F1B",
                    .summary = "Megatron 的交错 1F1B：每个 rank 持有多个不相邻的阶段，气泡按虚拟阶段数成比例缩小。",
                    .constraints = "虚拟阶段数 ≥ 2；微批次数须为 max(1, 微批次数 / rank 数) 的倍数（PyTorch 的要求）",
                    .caption = "交错 1F1B：每个 rank 持有 {vs} 个不相邻的阶段（rank r 持有 "
                               "r、r+{ranks}、…），因此一个微批次会经过每个 rank {vs} "
                               "次。预热和收尾按这一倍数缩短；代价是更多的发送，以及预热期间保留更多激活。",
                },
        },
    .source = "Narayanan et al., Megatron-LM (arXiv 2104.04473); order as torch ScheduleInterleaved1F1B",
    .colour = {.light = "#edc948", .dark = "#edc948"},
    .defaults = {.ranks = 8, .micro_batches = 20, .virtual_stages = 2},
    .uses_virtual_stages = true,
    .check = check,
    .generate = generate,
    .formula = formula,
};

}  // namespace pipesim::detail
