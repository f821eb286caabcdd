#include "pipesim/custom.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "detail/input_size.h"
#include "detail/json_fields.h"
#include "detail/json_text.h"
#include "detail/specs.h"
#include "detail/text.h"
#include "detail/trace_import.h"
#include "pipesim/error.h"
#include "pipesim/limits.h"

namespace pipesim {

namespace {

// The same bounds as the catalogue's (pipesim/limits.h), so a pasted schedule cannot outgrow a browser tab.
constexpr int max_ranks = limits::max_ranks;
constexpr int max_micro_batches = limits::max_micro_batches;  // per path
constexpr int max_stages = limits::max_ranks * limits::max_virtual_stages;  // per path

using Params = std::vector<std::pair<std::string, std::string>>;

/// Where in a pasted schedule a refusal is: in English for the message ("line 3, token '0X1'",
/// "rank 2, op 5") and as the wording's place (at_kind, at and the token or op index), so a page
/// words the place as well as the rule (web/src/i18n/refusals.ts, PLACES).
struct Place {
  std::string text;
  Params params;
  /// The wording of rule `key` with its own values, said at this place.
  [[nodiscard]] auto wording(std::string key, Params values = {}) const -> Wording {
    values.insert(values.end(), params.begin(), params.end());
    return {std::move(key), std::move(values)};
  }
};

auto line_token_place(int line, std::string_view token) -> Place {
  return {"line " + std::to_string(line) + ", token '" + std::string(token) + "'",
          {{"at_kind", "line_token"}, {"at", std::to_string(line)}, {"token", std::string(token)}}};
}
auto rank_place(std::size_t rank) -> Place {
  return {"rank " + std::to_string(rank), {{"at_kind", "rank"}, {"at", std::to_string(rank)}}};
}
auto rank_op_place(std::size_t rank, std::size_t k) -> Place {
  return {"rank " + std::to_string(rank) + ", op " + std::to_string(k),
          {{"at_kind", "rank_op"}, {"at", std::to_string(rank)}, {"op", std::to_string(k)}}};
}
/// The same place with the op written out ("rank 2, op 5 (1F0)"), as the engine's own rules name it.
auto rank_op_place(std::size_t rank, std::size_t k, const Op& op) -> Place {
  return {"rank " + std::to_string(rank) + ", op " + std::to_string(k) + " (" + describe(op) + ")",
          {{"at_kind", "rank_op_named"}, {"at", std::to_string(rank)}, {"op", std::to_string(k)}, {"op_text", describe(op)}}};
}

/// Per-rank op lists read from text, and the stage -> rank map they imply. Ranks and ops are counted
/// as they are read and refused at the first one over its limit, so a hostile text (millions of empty
/// ranks, of ops) never costs more memory than the largest schedule accepted.
struct Draft {
  int directions = 1;
  std::vector<std::vector<Op>> per_rank;
  /// Per rank, the program torch's runtime would run for the text's SEND/RECV actions (only when it has any).
  std::vector<std::vector<CommStep>> comm;
  bool has_comm = false;
  std::map<std::pair<int, int>, int> owner;  ///< (path, stage) -> the rank that runs it
  std::size_t op_count = 0;

  auto add_rank() -> std::vector<Op>& {
    if (per_rank.size() >= static_cast<std::size_t>(max_ranks))
      throw Error(ErrorCode::limit_exceeded, "a custom schedule may have at most " + std::to_string(max_ranks) + " ranks",
                  {"custom.too_many_ranks", {{"max", std::to_string(max_ranks)}}});
    comm.emplace_back();
    return per_rank.emplace_back();
  }
  /// One step of the last rank's communication program; an op's own step is counted with the op.
  void add_comm(const CommStep& step) {
    if (++comm_count > max_comm_steps)
      throw Error(ErrorCode::limit_exceeded, "a custom schedule may have at most " + std::to_string(max_comm_steps / 2) +
                                                 " send and receive actions",
                  {"custom.too_many_comm", {{"max", std::to_string(max_comm_steps / 2)}}});
    comm.back().push_back(step);
  }
  // Each SEND / RECV is two steps (the action and its launch): twice the ops of the largest run.
  static constexpr std::size_t max_comm_steps = 4 * static_cast<std::size_t>(limits::max_ops);
  std::size_t comm_count = 0;
  void add_op(std::vector<Op>& ops, const Op& op) {
    if (++op_count > static_cast<std::size_t>(limits::max_ops))
      throw Error(ErrorCode::limit_exceeded, "a custom schedule may have at most " + std::to_string(limits::max_ops) + " ops, the limit of one run",
                  {"custom.too_many_ops", {{"max", std::to_string(limits::max_ops)}}});
    ops.push_back(op);
  }
};

/// Records that `rank` runs `stage` of `path`; torch's rule: a stage on two ranks is an error.
void claim(Draft& d, int path, int stage, int rank, const Place& where) {
  const auto [it, added] = d.owner.try_emplace({path, stage}, rank);
  if (!added && it->second != rank)
    throw Error(ErrorCode::bad_import, where.text + ": stage " + std::to_string(stage) + (d.directions == 2 ? " of direction " + std::to_string(path) : "") +
                " already runs on rank " + std::to_string(it->second) + "; a stage lives on one rank",
                where.wording(d.directions == 2 ? "custom.stage_two_ranks_direction" : "custom.stage_two_ranks",
                              {{"stage", std::to_string(stage)}, {"direction", std::to_string(path)}, {"rank", std::to_string(it->second)}}));
}

void claim_op(Draft& d, const Op& op, int rank, const Place& where) {
  const auto path = [&](const Chunk& c) { return d.directions == 2 ? c.phase : 0; };
  claim(d, path(op.chunk), op.chunk.stage, rank, where);
  if (op.kind == OpKind::FB) claim(d, path(op.backward), op.backward.stage, rank, where);
}

/// The number of virtual stages when the stages are looped over the ranks (stage s on rank s % ranks,
/// at least 2 per rank), as interleaved schedules place them; else 1.
[[nodiscard]] auto looped_virtual_stages(const Layout& layout, int ranks) -> int {
  if (layout.directions != 1 || layout.stages < 2 * ranks || layout.stages % ranks != 0) return 1;
  for (int s = 0; s < layout.stages; ++s)
    if (layout.rank_of_stage[static_cast<std::size_t>(s)] != s % ranks) return 1;
  return layout.stages / ranks;
}

/// Turns a draft into a validated Schedule. `stages` is the declared stage count, if any.
[[nodiscard]] auto finish(Draft d, int micro_batches, std::optional<int> stages) -> Schedule {
  const int ranks = static_cast<int>(d.per_rank.size());
  if (ranks < 1) throw Error(ErrorCode::bad_import, "a custom schedule needs at least one rank", {"custom.no_rank", {}});
  if (d.owner.empty()) throw Error(ErrorCode::bad_import, "a custom schedule needs at least one op", {"custom.no_op", {}});
  int inferred = 0;
  for (const auto& [key, rank] : d.owner) inferred = std::max(inferred, key.second + 1);
  Layout layout{d.directions, stages.value_or(inferred), {}};
  for (int path = 0; path < d.directions; ++path)
    for (int s = 0; s < layout.stages; ++s) {
      const auto it = d.owner.find({path, s});
      if (it == d.owner.end())
        throw Error(ErrorCode::bad_import, "stage " + std::to_string(s) + (d.directions == 2 ? " of direction " + std::to_string(path) : "") +
                    " is run by no rank; stages are numbered 0 .. " + std::to_string(layout.stages - 1) + " without gaps",
                    {d.directions == 2 ? "custom.stage_unowned_direction" : "custom.stage_unowned",
                     {{"stage", std::to_string(s)}, {"direction", std::to_string(path)}, {"max", std::to_string(layout.stages - 1)}}});
      layout.rank_of_stage.push_back(it->second);
    }
  const int per_path = micro_batches / d.directions;
  if (per_path < 1 || per_path > max_micro_batches)
    throw Error(ErrorCode::bad_import, "a custom schedule needs 1 to " + std::to_string(max_micro_batches) + " micro-batches per direction (got " +
                std::to_string(per_path) + ")",
                {"custom.micro_batches", {{"max", std::to_string(max_micro_batches)}, {"value", std::to_string(per_path)}}});
  const ScheduleParams params{ranks, micro_batches, looped_virtual_stages(layout, ranks)};
  ScheduleBuilder builder("custom", params, std::move(layout));
  for (int r = 0; r < ranks; ++r) {
    std::vector<Op>& mine = d.per_rank[static_cast<std::size_t>(r)];
    builder.rank(r).append(mine);
    std::vector<Op>().swap(mine);  // free as we go: a pasted schedule can be large
  }
  Schedule schedule = std::move(builder).build();
  validate_schedule(schedule);
  if (d.has_comm) {
    CommWriter writer(schedule.comm);
    for (int r = 0; r < ranks; ++r) {
      writer.begin_rank(r);
      for (const CommStep& step : d.comm[static_cast<std::size_t>(r)]) writer.add(step.action, step.chunk);
      writer.add(CommAction::wait_all);  // torch's runtime waits for its sends at the end of the step
    }
    writer.finish(ranks);
  }
  return schedule;
}

// ---- action notation ------------------------------------------------------------------------------

auto upper(std::string_view text) -> std::string {
  std::string out(text);
  for (char& ch : out) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return out;
}

/// One `{stage}{kind}{microbatch}` action: a compute op, or (comm != compute) one of torch's
/// SEND_F / RECV_F / SEND_B / RECV_B.
struct Action {
  int stage = 0;
  OpKind kind = OpKind::F;
  int mb = 0;
  CommAction comm = CommAction::compute;
};

/// torch's communication actions, as comm.h names them.
auto comm_action_of(const std::string& kind) -> std::optional<CommAction> {
  for (const CommAction a : {CommAction::send_forward, CommAction::recv_forward, CommAction::send_backward, CommAction::recv_backward})
    if (kind == comm_action_name(a)) return a;
  return std::nullopt;
}

/// Reads the digits at `pos`; nullopt when there are none or the number exceeds `limit`.
auto read_number(std::string_view text, std::size_t& pos, int limit) -> std::optional<int> {
  const std::size_t begin = pos;
  long long value = 0;
  while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos])) != 0) {
    value = value * 10 + (text[pos++] - '0');
    if (value > limit) return std::nullopt;
  }
  if (pos == begin) return std::nullopt;
  return static_cast<int>(value);
}

/// Parses one action; nullopt for torch's FSDP actions, which are not simulated.
auto parse_action(std::string_view token, const Place& where) -> std::optional<Action> {
  const std::string expected = where.text + ": expected {stage}{F|I|W|B}{microbatch}, e.g. 0F1";
  std::size_t pos = 0;
  const auto stage = read_number(token, pos, max_stages - 1);
  std::size_t kind_end = pos;
  while (kind_end < token.size() && std::isdigit(static_cast<unsigned char>(token[kind_end])) == 0) ++kind_end;
  const std::string kind = upper(token.substr(pos, kind_end - pos));
  if (stage && (kind == "UNSHARD" || kind == "RESHARD" || kind == "REDUCE_GRAD")) return std::nullopt;
  pos = kind_end;
  const auto mb = read_number(token, pos, max_micro_batches - 1);
  const auto comm = comm_action_of(kind);
  const bool known = kind == "F" || kind == "I" || kind == "W" || kind == "B" || comm;
  if (!stage || !known || !mb || pos != token.size())
    throw Error(ErrorCode::bad_import, expected, where.wording("custom.action_syntax"));
  if (comm) return Action{*stage, OpKind::F, *mb, *comm};
  return Action{*stage, *parse_kind(kind), *mb};
}

/// `(0F7;7B3)OVERLAP_F_B`: torch's overlapped forward and full backward, our FB.
auto parse_overlap(std::string_view token, const Place& where) -> Op {
  const std::size_t close = token.find(')');
  const std::string_view inner = token.substr(1, close - 1);
  const std::size_t semicolon = inner.find(';');
  const std::string rule = where.text + ": expected (sF m;sB m)OVERLAP_F_B, one forward F and one full backward B";
  if (upper(token.substr(close + 1)) != "OVERLAP_F_B" || semicolon == std::string_view::npos)
    throw Error(ErrorCode::bad_import, rule, where.wording("custom.overlap_syntax"));
  auto first = parse_action(detail::trim(inner.substr(0, semicolon)), where);
  auto second = parse_action(detail::trim(inner.substr(semicolon + 1)), where);
  if (!first || !second || first->comm != CommAction::compute || second->comm != CommAction::compute)
    throw Error(ErrorCode::bad_import, rule, where.wording("custom.overlap_syntax"));
  if (first->kind == OpKind::B) std::swap(first, second);
  if (first->kind != OpKind::F || second->kind != OpKind::B)
    throw Error(ErrorCode::bad_import, rule, where.wording("custom.overlap_syntax"));
  return Op{OpKind::FB, {first->mb, 0, first->stage}, {second->mb, 0, second->stage}};
}

/// Splits a line into tokens at commas and whitespace; a parenthesised group is one token.
auto tokens_of(std::string_view line, int line_no) -> std::vector<std::string_view> {
  std::vector<std::string_view> out;
  const auto separator = [](char ch) { return ch == ',' || std::isspace(static_cast<unsigned char>(ch)) != 0; };
  std::size_t pos = 0;
  while (pos < line.size()) {
    if (separator(line[pos])) {
      ++pos;
      continue;
    }
    const std::size_t begin = pos;
    if (line[pos] == '(') {
      pos = line.find(')', pos);
      if (pos == std::string_view::npos)
        throw Error(ErrorCode::bad_import, "line " + std::to_string(line_no) + ", token '" + std::string(line.substr(begin)) + "': '(' is never closed",
                    line_token_place(line_no, line.substr(begin)).wording("custom.unclosed_paren"));
    }
    while (pos < line.size() && !separator(line[pos])) ++pos;
    out.push_back(line.substr(begin, pos - begin));
  }
  return out;
}

/// On one path a chunk's phase is the index of its stage among the stages its rank holds, lowest
/// first: the virtual chunk of an interleaved schedule, the leg of a V, else 0.
class PathPhases {
 public:
  explicit PathPhases(const Draft& d) {
    for (const auto& [key, rank] : d.owner) stages_of_rank_[rank].push_back(key.second);  // map order: ascending
    for (const auto& [rank, held] : stages_of_rank_)
      if (held.size() > static_cast<std::size_t>(max_chunk_phase) + 1)
        throw Error(ErrorCode::limit_exceeded, "rank " + std::to_string(rank) + " holds " + std::to_string(held.size()) +
                                                   " stages; a rank may hold at most " +
                                                   std::to_string(max_chunk_phase + 1) + " stages",
                    {"custom.rank_stages", {{"rank", std::to_string(rank)}, {"held", std::to_string(held.size())},
                                            {"max", std::to_string(max_chunk_phase + 1)}}});
  }
  [[nodiscard]] auto of(int rank, int stage) const -> int {
    const auto& held = stages_of_rank_.at(rank);
    return static_cast<int>(std::lower_bound(held.begin(), held.end(), stage) - held.begin());
  }

 private:
  std::map<int, std::vector<int>> stages_of_rank_;
};

/// Action notation has no phases: derive them.
void assign_phases(Draft& d) {
  const PathPhases phases(d);
  for (std::size_t r = 0; r < d.per_rank.size(); ++r)
    for (Op& op : d.per_rank[r]) {
      op.chunk.phase = phases.of(static_cast<int>(r), op.chunk.stage);
      if (op.kind == OpKind::FB) op.backward.phase = phases.of(static_cast<int>(r), op.backward.stage);
    }
}

/// JSON gives phases: on one path they must agree with the stages they label, or every view would
/// shade and name the chunk wrongly.
void check_phases(const Draft& d) {
  const PathPhases phases(d);
  for (std::size_t r = 0; r < d.per_rank.size(); ++r)
    for (std::size_t k = 0; k < d.per_rank[r].size(); ++k) {
      const Op& op = d.per_rank[r][k];
      for (const Chunk* c : {&op.chunk, op.kind == OpKind::FB ? &op.backward : nullptr}) {
        if (c == nullptr) continue;
        const int expected = phases.of(static_cast<int>(r), c->stage);
        if (c->phase != expected)
          throw Error(ErrorCode::bad_import, "rank " + std::to_string(r) + ", op " + std::to_string(k) + " (" + describe(op) + "): phase " +
                      std::to_string(c->phase) + " does not match stage " + std::to_string(c->stage) +
                      ", which is number " + std::to_string(expected) + " of the stages rank " + std::to_string(r) +
                      " holds (on one path the phase is that number)",
                      rank_op_place(r, k, op).wording("custom.phase_mismatch", {{"phase", std::to_string(c->phase)},
                                                  {"stage", std::to_string(c->stage)}, {"index", std::to_string(expected)}, {"rank", std::to_string(r)}}));
      }
    }
}

/// format_actions writes a two-direction schedule in the one list of stage ids action notation has:
/// direction d's stage s as d x stages + s and its micro-batch m as d x M + m (M per direction). Read
/// back, a text whose lower half of stage ids runs exactly micro-batches [0, M) and whose upper half
/// runs [M, 2M) is those two directions again. A one-path schedule runs every micro-batch through
/// every stage, so it never splits.
auto split_directions(Draft& d, int micro_batches) -> bool {
  int stages = 0;
  for (const auto& [key, rank] : d.owner) stages = std::max(stages, key.second + 1);
  if (stages % 2 != 0 || micro_batches % 2 != 0) return false;
  const int half = stages / 2;
  const int per_path = micro_batches / 2;
  const auto in_step = [&](const Chunk& c) { return (c.stage < half) == (c.mb < per_path); };
  for (const auto& ops : d.per_rank)
    for (const Op& op : ops)
      if (!in_step(op.chunk) || (op.kind == OpKind::FB && !in_step(op.backward))) return false;
  for (const auto& steps : d.comm)
    for (const CommStep& step : steps)
      if (step.action != CommAction::compute && step.action != CommAction::post && !in_step(step.chunk)) return false;
  const auto to_direction = [&](Chunk& c) {
    c.phase = c.stage < half ? 0 : 1;
    c.stage -= c.phase * half;
    c.mb -= c.phase * per_path;
  };
  d.directions = 2;
  d.owner.clear();
  for (std::size_t r = 0; r < d.per_rank.size(); ++r)
    for (Op& op : d.per_rank[r]) {
      to_direction(op.chunk);
      if (op.kind == OpKind::FB) to_direction(op.backward);
      claim_op(d, op, static_cast<int>(r), rank_place(r));
    }
  for (auto& steps : d.comm)
    for (CommStep& step : steps)
      if (step.action != CommAction::compute && step.action != CommAction::post) to_direction(step.chunk);
  return true;
}

auto parse_actions(std::string_view text) -> Schedule {
  Draft d;
  int micro_batches = 0;
  int line_no = 0;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    const std::size_t end = std::min(text.find('\n', pos), text.size());
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    while (!line.empty() && std::isspace(static_cast<unsigned char>(line.front())) != 0) line.remove_prefix(1);
    if (line.empty() || line.front() == '#') continue;
    const int rank = static_cast<int>(d.per_rank.size());
    auto& ops = d.add_rank();
    for (const std::string_view token : tokens_of(line, line_no)) {
      if (token == "-" || upper(token) == "NONE") continue;  // an idle slot
      const Place where = line_token_place(line_no, token);
      Op op;
      if (token.front() == '(') {
        op = parse_overlap(token, where);
      } else {
        const auto action = parse_action(token, where);
        if (!action) continue;
        if (action->comm != CommAction::compute) {
          // torch's runtime launches each SEND / RECV as it reaches it (`_batch_p2p`).
          d.add_comm({action->comm, {action->mb, 0, action->stage}});
          d.add_comm({CommAction::post, {}});
          d.has_comm = true;
          continue;
        }
        op = Op{action->kind, {action->mb, 0, action->stage}, {}};
      }
      claim_op(d, op, rank, where);
      micro_batches = std::max({micro_batches, op.chunk.mb + 1, op.kind == OpKind::FB ? op.backward.mb + 1 : 0});
      d.add_op(ops, op);
      d.comm.back().push_back({CommAction::compute, {}});
    }
  }
  if (!split_directions(d, micro_batches)) assign_phases(d);
  return finish(std::move(d), micro_batches, std::nullopt);
}

// ---- JSON -----------------------------------------------------------------------------------------

using nlohmann::json;

/// The top of a JSON schedule as a place: the document itself (PLACES' document).
auto document_place(const std::string& what) -> Place { return {what, {{"at_kind", "document"}, {"what", what}}}; }

/// A whole number in [lo, hi] at `key` of `object`, named "WHERE: 'key'" in errors and worded at
/// `where` with the key as {name}.
auto whole(const json& object, const char* key, int lo, int hi, std::optional<int> fallback, const Place& where) -> int {
  return detail::whole_field(object, key, lo, hi, fallback,
                             [&] { return detail::FieldPlace{where.text + ": '" + key + "'", where.params}; });
}

auto json_chunk(const json& op, const std::string& prefix, const Place& where) -> Chunk {
  return Chunk{whole(op, (prefix + "mb").c_str(), 0, max_micro_batches - 1, std::nullopt, where),
               whole(op, (prefix + "phase").c_str(), 0, max_chunk_phase, 0, where),
               whole(op, (prefix + "stage").c_str(), 0, max_stages - 1, std::nullopt, where)};
}

auto json_op(const json& op, const Place& where) -> Op {
  if (!op.is_object() || !op.contains("op") || !op["op"].is_string())
    throw Error(ErrorCode::bad_import, where.text + ": an op is an object with \"op\": \"F\", \"B\", \"I\", \"W\" or \"FB\"",
                where.wording("custom.op_not_object"));
  const auto kind = parse_kind(op["op"].get<std::string>());
  if (!kind)
    throw Error(ErrorCode::bad_import, where.text + ": unknown op '" + op["op"].get<std::string>() + "'; ops are F, B, I, W and FB",
                where.wording("custom.unknown_op", {{"name", op["op"].get<std::string>()}}));
  if (*kind == OpKind::FB) return Op{OpKind::FB, json_chunk(op, "f_", where), json_chunk(op, "b_", where)};
  return Op{*kind, json_chunk(op, "", where), {}};
}

/// A Chrome trace written by pipesim, as the JSON contract; nlohmann's own errors become one line.
auto trace_schedule(const json& trace) -> json {
  try {
    return detail::schedule_json_from_trace(trace);
  } catch (const json::exception& e) {
    // nlohmann's kind of failure as a reason key (REASONS), not its English words.
    throw Error(ErrorCode::bad_import, std::string("pipesim trace is malformed: ") + e.what(),
                {"custom.trace_malformed", {{"reason", detail::json_failure_reason(e.id, e.what())}}});
  }
}

auto parse_json(std::string_view text) -> Schedule {
  json j;
  try {
    j = detail::parse_json_within(text, "schedule JSON");
  } catch (const json::exception& e) {  // parse_error, and out_of_range for a number such as 1e400
    // The page words where and why from facts, not from nlohmann's English.
    const detail::JsonFailure failure = detail::json_failure(text);
    throw Error(ErrorCode::bad_import, std::string("schedule JSON does not parse: ") + e.what(),
                {"custom.json_parse",
                 {{"line", std::to_string(failure.line)}, {"column", std::to_string(failure.column)}, {"reason", failure.reason}}});
  }
  const Place top = document_place("schedule JSON");
  if (!j.is_object())
    throw Error(ErrorCode::bad_import, top.text + ": expected an object with micro_batches and per_rank", {"custom.json_not_object", {}});
  if (detail::is_chrome_trace(j)) j = trace_schedule(j);
  Draft d;
  d.directions = whole(j, "directions", 1, 2, 1, top);
  const int micro_batches = whole(j, "micro_batches", 1, 2 * max_micro_batches, std::nullopt, top);
  if (micro_batches % d.directions != 0)
    throw Error(ErrorCode::bad_import, top.text + ": micro_batches counts both directions, so it must be even when directions is 2 (got " +
                std::to_string(micro_batches) + ")",
                {"custom.micro_batches_even", {{"value", std::to_string(micro_batches)}}});
  std::optional<int> stages;
  if (j.contains("stages")) stages = whole(j, "stages", 1, max_stages, std::nullopt, top);
  if (!j.contains("per_rank") || !j["per_rank"].is_array())
    throw Error(ErrorCode::bad_import, top.text + ": 'per_rank' must be an array with one entry per rank", {"custom.per_rank_array", {}});
  const json& per_rank = j["per_rank"];
  if (per_rank.size() > static_cast<std::size_t>(max_ranks))
    throw Error(ErrorCode::limit_exceeded, "a custom schedule may have at most " + std::to_string(max_ranks) + " ranks (got " +
                std::to_string(per_rank.size()) + ")",
                {"custom.too_many_ranks_listed", {{"max", std::to_string(max_ranks)}, {"value", std::to_string(per_rank.size())}}});
  if (j.contains("ranks") && whole(j, "ranks", 1, max_ranks, std::nullopt, top) != static_cast<int>(per_rank.size()))
    throw Error(ErrorCode::bad_import, top.text + ": 'ranks' says " + std::to_string(j["ranks"].get<int>()) + " but per_rank lists " +
                std::to_string(per_rank.size()),
                {"custom.ranks_mismatch", {{"ranks", std::to_string(j["ranks"].get<int>())}, {"listed", std::to_string(per_rank.size())}}});
  for (std::size_t r = 0; r < per_rank.size(); ++r) {
    const Place where = rank_place(r);
    if (!per_rank[r].is_object() || !per_rank[r].contains("ops") || !per_rank[r]["ops"].is_array())
      throw Error(ErrorCode::bad_import, where.text + ": 'ops' is missing (a --format summary export has no ops; use --format json)",
                  where.wording("custom.ops_missing"));
    auto& ops = d.add_rank();
    const json& listed = per_rank[r]["ops"];
    for (std::size_t k = 0; k < listed.size(); ++k) {
      const Place op_where = rank_op_place(r, k);
      const Op op = json_op(listed[k], op_where);
      claim_op(d, op, static_cast<int>(r), op_where);
      d.add_op(ops, op);
    }
  }
  if (d.directions == 1) check_phases(d);
  return finish(std::move(d), micro_batches, stages);
}

// ---- export ---------------------------------------------------------------------------------------

// Direction d's stage s is stage id d x stages + s and its micro-batch m is d x M + m (split_directions).
auto action_text(const Schedule& s, char kind, const Chunk& c) -> std::string {
  const int path = s.path_of(c);
  return std::to_string(path * s.layout.stages + c.stage) + kind + std::to_string(path * s.micro_batches_per_path() + c.mb);
}

}  // namespace

auto parse_custom_schedule(std::string_view whole) -> Schedule {
  const std::string_view text = detail::document_text(whole, limits::max_schedule_text_bytes, "a custom schedule");
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos)
    throw Error(ErrorCode::bad_import, "a custom schedule is empty; give JSON as `simulate --format json` writes it, or PyTorch actions such as 0F0,0B0",
                {"custom.empty", {}});
  if (text[first] == '[')
    throw Error(ErrorCode::bad_import, "a JSON array (a Chrome trace in array form?) is not a schedule; give a trace from `simulate --format "
                "chrome-trace`, JSON as `simulate --format json` writes it, or PyTorch actions such as 0F0,0B0",
                {"custom.json_array", {}});
  return text[first] == '{' ? parse_json(text) : parse_actions(text);
}

auto schedule_from_text(std::string_view text) -> Schedule {
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) detail::refuse_custom_without_text();
  return parse_custom_schedule(text);
}

auto format_actions(const Schedule& schedule) -> std::string {
  std::string out;
  for (int r = 0; r < schedule.ranks(); ++r) {
    std::string line;
    for (const Op& op : schedule.ops_of(r)) {
      if (!line.empty()) line += ',';
      if (op.kind == OpKind::FB)
        line += "(" + action_text(schedule, 'F', op.chunk) + ";" + action_text(schedule, 'B', op.backward) + ")OVERLAP_F_B";
      else
        line += action_text(schedule, kind_name(op.kind)[0], op.chunk);
    }
    out += (line.empty() ? "-" : line) + "\n";
  }
  return out;
}

}  // namespace pipesim
