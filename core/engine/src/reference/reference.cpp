// The reference timing engine (reference.h). Requests follow NCCL point-to-point: per directed link,
// the k-th send launched matches the k-th receive launched. DeepSeek's DualPipe (`_commit_and_wait_comm`:
// one `dist.batch_isend_irecv` of everything queued, then `req.wait()` on each) and torch's runtime
// (a `_batch_p2p` per action, a receive waited for by the op that consumes it) are both programs of
// the steps of comm.h; this file knows neither.
#include <algorithm>
#include <cstring>
#include <optional>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "detail/chunk_index.h"
#include "detail/chunk_rules.h"
#include "detail/prefetch.h"
#include "detail/ready_ranks.h"
#include "pipesim/error.h"
#include "pipesim/stage_costs.h"
#include "pipesim/reference.h"
#include "pipesim/parse.h"

namespace pipesim {

namespace {

using detail::ChunkGrid;

constexpr int none = -1;
constexpr double unknown = -1;  // a time not known yet (every real time is >= 0)


[[nodiscard]] constexpr auto is_send(CommAction a) -> bool {
  return a == CommAction::send_forward || a == CommAction::send_backward;
}
// A message is a chunk's input crossing ranks: its forward input (activation) or its output gradient.
[[nodiscard]] constexpr auto carries_gradient(CommAction a) -> bool {
  return a == CommAction::recv_backward || a == CommAction::send_backward;
}

// One message: a chunk's input crossing ranks (its forward input, or its output gradient), keyed
// 2 x row of the consuming chunk (+1 for a gradient). Both sides live in one slot; completion times
// follow from the two launch times and the send semantics, so they are never stored.
struct Message {
  double send_at;  // when the send was launched; unknown until then
  double recv_at;  // when the receive was launched
  int send_seq;    // its launch number among the sends of its link (NCCL matches the k-th with the k-th);
  int recv_seq;    // not_queued, or queued (not launched yet)
};
constexpr int not_queued = -1;
constexpr int queued = -2;

// An entry of a rank's queued / launched / waited lists: one side of one message.
[[nodiscard]] constexpr auto entry_of(std::size_t key, bool send) -> std::size_t { return 2 * key + (send ? 1 : 0); }
[[nodiscard]] constexpr auto key_of(std::size_t entry) -> std::size_t { return entry / 2; }
[[nodiscard]] constexpr auto is_send_entry(std::size_t entry) -> bool { return (entry & 1) != 0; }
constexpr std::size_t no_entry = static_cast<std::size_t>(-1);

// A queued or launched side of a message with the rank at its other end, found once when it is
// queued: launching and waking then never rebuild it from the key (a division per look-up).
struct Request {
  std::size_t entry;
  int peer;
  int link;  // its directed link (sender, receiver), whose launches NCCL numbers
};
// A side waited for since the last compute, with the time it completed: the compute that follows
// attributes its wait from these without looking the messages up again.
struct Completed {
  std::size_t entry = no_entry;
  double done = -1;  // before any real time
};

// What the next compute needs of the sides its rank waited for since the last one: the send that
// completed last and the three receives that did, latest first (ties in the order they were waited
// for, the first of them being the one a wait is blamed on). The compute leaves out the receives it
// consumes, at most two, so the latest of the others is among the three. Kept as each side is waited
// for: a list of them cost a store per side and a second walk over it per op.
struct WaitedSides {
  Completed send;
  Completed receives[3];

  // Adding a side again changes nothing (a wait_all that parks runs again once woken, adding the
  // sides it had already waited for): a completion time, once known, never changes, and a side that
  // fell out of the three is later than none of them.
  void add(std::size_t entry, double done) {
    if (is_send_entry(entry)) {
      if (done > send.done) send = {entry, done};
      return;
    }
    if (!(done > receives[2].done) || entry == receives[0].entry || entry == receives[1].entry) return;
    int k = 2;
    for (; k > 0 && done > receives[k - 1].done; --k) receives[k] = receives[k - 1];
    receives[k] = {entry, done};
  }
  // The latest receive other than the consumed ones, if any.
  [[nodiscard]] auto latest_receive_besides(const std::size_t (&used)[2]) const -> Completed {
    for (const Completed& c : receives)
      if (c.entry != used[0] && c.entry != used[1]) return c;
    return {};
  }
};

struct RankState {
  int step = 0;                        // next step of the program
  int next_op = 0;                     // next op of the rank's list
  double now = 0;                      // when the rank is free to go on
  double last_end = 0;                 // end of its last compute
  std::size_t blocked_on = no_entry;   // the side of a message it waits for, while parked
  std::vector<Request> queued;         // queued, not launched
  std::vector<Request> launched;       // launched, not waited for by a wait_all
  WaitedSides waited;                  // waited for since the last compute (a compute attributes them)
};

class ReferenceEngine {
 public:
  ReferenceEngine(const Schedule& s, const StageCosts& costs, SendMode sends, bool with_transfers)
      : s_(s), p_(s.comm), costs_(costs), uniform_(costs.uniform()), sends_(sends), with_transfers_(with_transfers), grid_(s),
        phase_of_stage_(phases_of_stages(s)), ready_(s.ranks()) {
    number_links();
    if (uniform_) {
      for (int k = 0; k < op_kind_count; ++k) uniform_duration_[k] = costs.stages.front().duration(static_cast<OpKind>(k));
      uniform_comm_ = costs.stages.front().comm;
    }
    const auto n = s.ops.size();
    timeline_.start.resize(n);
    timeline_.end.resize(n);
    timeline_.waited_for.resize(n);
    // Unwritten (resize_leaves_unwritten<OpWait>): compute() writes op i's wait before the op counts as
    // run, and run() throws unless every op ran.
    timeline_.waits.resize(n);
    if (with_transfers) timeline_.transfers.reserve(2 * n);  // at most two consumed receives per op
    ranks_.resize(static_cast<std::size_t>(s.ranks()));
    for (int r = 0; r < s.ranks(); ++r) {
      rank(r).step = p_.rank_begin[static_cast<std::size_t>(r)];
      rank(r).next_op = s.rank_begin[static_cast<std::size_t>(r)];
    }
    progress_.resize(grid_.chunks());
    std::memset(static_cast<void*>(progress_.data()), 0, grid_.chunks() * sizeof(detail::ChunkProgress));
    messages_.resize(2 * grid_.chunks());
    // All bytes 0xff: every time -NaN (never a real time, so `unknown` is tested with is_known), every int -1.
    std::memset(static_cast<void*>(messages_.data()), 0xff, messages_.size() * sizeof(Message));
  }

  // Numbers every directed link between the ranks of neighbouring slots, once: a message's launch
  // number is then one counter increment, not a search of the rank's peers.
  void number_links() {
    const int stages = s_.layout.stages;
    const auto slots = static_cast<std::size_t>(s_.layout.directions * stages);
    std::vector<std::pair<int, int>> links;  // (sender, receiver)
    const auto link_id = [&](int sender, int receiver) {
      const auto it = std::find(links.begin(), links.end(), std::pair{sender, receiver});
      if (it != links.end()) return static_cast<int>(it - links.begin());
      links.emplace_back(sender, receiver);
      return static_cast<int>(links.size()) - 1;
    };
    to_next_.assign(slots, none);
    from_next_.assign(slots, none);
    for (std::size_t slot = 0; slot < slots; ++slot) {
      if (static_cast<int>(slot) % stages == stages - 1) continue;  // the last stage of its path
      const int here = s_.layout.rank_of_stage[slot];
      const int next = s_.layout.rank_of_stage[slot + 1];
      if (here == next) continue;  // handed over on one rank: no message
      to_next_[slot] = link_id(here, next);
      from_next_[slot] = link_id(next, here);
    }
    sends_on_link_.assign(links.size(), 0);
    receives_on_link_.assign(links.size(), 0);
  }

  auto run() -> Timeline {
    while (!ready_.empty()) advance(ready_.take());
    for (int r = 0; r < s_.ranks(); ++r)
      if (!finished(r)) report_deadlock();
    for (int r = 0; r < s_.ranks(); ++r)
      if (rank(r).next_op != s_.rank_begin[static_cast<std::size_t>(r) + 1])
      {
        const std::string op = std::to_string(rank(r).next_op - s_.rank_begin[static_cast<std::size_t>(r)]);
        const std::string op_text = describe(s_.ops[static_cast<std::size_t>(rank(r).next_op)]);
        const Wording w{"comm.fewer_steps", {{"op", op}, {"op_text", op_text}}};
        fail_program(r, "has fewer compute steps than ops: op " + op + " (" + op_text + ") never runs", w);
      }
    if (forwards_ != grid_.chunks() || backwards_ != grid_.chunks() || splits_ != weights_) [[unlikely]]
      explain_rule_failure();
    if (sends_launched_ != matched_ || receives_launched_ != matched_) report_unmatched();
    return std::move(timeline_);
  }

 private:
  [[nodiscard]] static auto is_known(double t) -> bool { return t >= 0; }
  auto rank(int r) -> RankState& { return ranks_[static_cast<std::size_t>(r)]; }
  [[nodiscard]] auto rank(int r) const -> const RankState& { return ranks_[static_cast<std::size_t>(r)]; }
  [[nodiscard]] auto finished(int r) const -> bool {
    return rank(r).step == p_.rank_begin[static_cast<std::size_t>(r) + 1] && rank(r).launched.empty();
  }

  // Runs rank r's steps until one must wait (r is parked on a message) or the program ends.
  void advance(int r) {
    RankState& st = rank(r);
    const int last = p_.rank_begin[static_cast<std::size_t>(r) + 1];
    // The position in a local, written back when the rank parks: the calls below write memory the
    // compiler cannot tell apart from st.step, so it would reload and store it at every step.
    const CommStep* const steps = p_.steps.data();
    int at = st.step;
    while (at < last) {
      const CommStep& step = steps[at];
      detail::prefetch_for_reading(&step, 4);
      switch (step.action) {
        case CommAction::compute:
          if (!compute(r)) {
            st.step = at;
            return;
          }
          break;
        case CommAction::post:
          for (const Request& q : st.queued) launch(q, st.now);
          if (st.launched.empty()) {
            std::swap(st.launched, st.queued);  // the usual case (DualPipe waits before it posts again): no copy
          } else {
            st.launched.insert(st.launched.end(), st.queued.begin(), st.queued.end());
          }
          st.queued.clear();
          break;
        case CommAction::wait_all:
          if (!wait_all(r)) {
            st.step = at;
            return;
          }
          break;
        default:
          st.queued.push_back(queue(r, step));
      }
      ++at;
    }
    st.step = at;
    if (!st.queued.empty()) {
      const Wording w{"comm.never_launched", {{"step", step_value(step_of(st.queued.front().entry))}}};
      fail_program(r, "queues " + describe_entry(st.queued.front().entry) + " and never launches it", w);
    }
    wait_all(r);  // the end of the step waits for what is still in flight; compute ends are the makespan
  }

  // An op's duration on rank r: its stage's costs (an F&B by the pairing rule of stage_costs.h) at the
  // rank's speed, as the dataflow engine times it.
  [[nodiscard]] auto duration_of(int r, const Op& op) const -> double {
    if (uniform_) return uniform_duration_[static_cast<std::size_t>(op.kind)];
    const auto& stages = costs_.stages;
    const double work = op.kind == OpKind::FB
                            ? pair_duration(stages[static_cast<std::size_t>(op.chunk.stage)], stages[static_cast<std::size_t>(op.backward.stage)])
                            : stages[static_cast<std::size_t>(op.chunk.stage)].duration(op.kind);
    return work / costs_.rank_speed[static_cast<std::size_t>(r)];
  }

  // The latency of the stage boundary a message crosses: an activation into stage s crosses the boundary
  // after s-1, a gradient into stage s the one after s (stage_costs.h: a stage's comm is the boundary after it).
  // done() asks it several times per message, so every stage alike (the usual case) skips the divisions.
  [[nodiscard]] auto latency(std::size_t key) const -> double {
    if (uniform_) return uniform_comm_;
    const int stage = static_cast<int>(slot_of(key) % static_cast<std::uint32_t>(grid_.stages()));
    const bool gradient = (key & 1) != 0;
    return costs_.stages[static_cast<std::size_t>(gradient ? stage : stage - 1)].comm;
  }

  // When one side of a message completes, once that is known (else a negative number).
  [[nodiscard]] auto done(std::size_t entry) const -> double {
    const Message& m = messages_[key_of(entry)];
    if (is_send_entry(entry)) {
      if (sends_ == SendMode::async) return m.send_at;
      if (sends_ == SendMode::eager) return m.send_at + latency(key_of(entry));
      return is_known(m.recv_at) ? std::max(m.send_at, m.recv_at) + latency(key_of(entry)) : unknown;
    }
    if (!is_known(m.send_at)) return unknown;
    const double comm = latency(key_of(entry));
    return sends_ == SendMode::rendezvous ? std::max(m.send_at, m.recv_at) + comm : std::max(m.recv_at, m.send_at + comm);
  }

  [[gnu::always_inline]] auto wait_all(int r) -> bool {
    RankState& st = rank(r);
    double until = st.now;
    for (const Request& q : st.launched) {
      const double t = done(q.entry);
      if (!is_known(t)) return park(r, q.entry);  // it runs again once woken
      until = std::max(until, t);
      st.waited.add(q.entry, t);
    }
    st.now = until;
    st.launched.clear();
    return true;
  }

  auto park(int r, std::size_t entry) -> bool {
    rank(r).blocked_on = entry;
    return false;
  }
  void wake(int owner, std::size_t entry) {
    if (rank(owner).blocked_on != entry) return;
    rank(owner).blocked_on = no_entry;
    ready_.add(owner);
  }

  // --- messages --------------------------------------------------------------------------------

  // The two ranks of a message: the consumer's (receiver) and its producer's (sender).
  // The (path, stage) slot of a message's consumer. Rows fit 32 bits (limits::max_ops bounds the
  // chunks), and a 32-bit division is several times cheaper than a 64-bit one on the hot path.
  [[nodiscard]] auto slot_of(std::size_t key) const -> std::uint32_t {
    return static_cast<std::uint32_t>(key / 2) / static_cast<std::uint32_t>(grid_.per_path());
  }
  [[nodiscard]] auto receiver_of(std::size_t key) const -> int { return s_.layout.rank_of_stage[slot_of(key)]; }
  // The producer is one slot before the consumer (an activation) or one after it (a gradient).
  [[nodiscard]] auto sender_of(std::size_t key) const -> int {
    return s_.layout.rank_of_stage[(key & 1) != 0 ? slot_of(key) + 1 : slot_of(key) - 1];
  }

  // Checks one queued transfer and returns it. Inlined into advance(), as launch() and wait_all() are:
  // the three run once or more per step of every rank (3.6 M steps on DualPipe 64 x 8192), and as
  // calls their state went through memory (the Request returned, the rank's vectors reloaded);
  // inlining them took the reference run about 10% faster.
  [[gnu::always_inline]] auto queue(int r, const CommStep& step) -> Request {
    ChunkGrid::Place at{};
    if (!grid_.place_on(r, step.chunk, at)) {
      const Wording w{"comm.chunk_not_here", {{"action", std::string(comm_action_name(step.action))},
                                              {"mb", std::to_string(step.chunk.mb)}, {"stage", std::to_string(step.chunk.stage)}}};
      fail_program(r, std::string(comm_action_name(step.action)) + " names a chunk (micro-batch " +
                          std::to_string(step.chunk.mb) + ", stage " + std::to_string(step.chunk.stage) +
                          ") whose stage is not on this rank", w);
    }
    // Receives of forward inputs and sends of input gradients talk to the previous stage.
    const bool toward_previous = step.action == CommAction::recv_forward || step.action == CommAction::send_backward;
    if (toward_previous ? grid_.first_stage(at) : grid_.last_stage(at)) {
      const Wording w{toward_previous ? "comm.no_previous" : "comm.no_next",
                      {{"action", std::string(comm_action_name(step.action))}, {"stage", std::to_string(at.stage)}}};
      fail_program(r, std::string(comm_action_name(step.action)) + " at stage " + std::to_string(at.stage) +
                          ", which has no " + (toward_previous ? "previous" : "next") + " stage", w);
    }
    const int peer = toward_previous ? grid_.rank_upstream(at) : grid_.rank_downstream(at);
    if (peer == r) {
      const Wording w{"comm.to_itself", {{"action", std::string(comm_action_name(step.action))}, {"stage", std::to_string(at.stage)}}};
      fail_program(r, std::string(comm_action_name(step.action)) + " of stage " + std::to_string(at.stage) +
                          " to this rank itself: a stage next to one on the same rank is handed over locally", w);
    }
    std::size_t consumer = at.row;
    if (step.action == CommAction::send_forward) consumer = grid_.downstream(at);
    if (step.action == CommAction::send_backward) consumer = grid_.upstream(at);
    const std::size_t key = 2 * consumer + (carries_gradient(step.action) ? 1 : 0);
    Message& m = messages_[key];
    // The messages of one stream are 48 bytes apart (a micro-batch's two, then the next one's): 8 lines
    // is about ten micro-batches ahead, far enough for the 64 ranks' turns in between.
    detail::prefetch_for_writing(&m, 8);
    const bool send = is_send(step.action);
    if (send) {
      // The payload must have been computed here: a forward's output, or a backward's input gradient.
      const detail::ChunkProgress& c = progress_[at.row];
      if ((step.action == CommAction::send_backward ? c.backward : c.forward) == 0) [[unlikely]] {
        const Wording w{"comm.send_before_compute", {{"step", step_value(step)}}};
        fail_program(r, "queues " + describe_step(step) + " before computing what it sends", w);
      }
      if (m.send_seq != not_queued) [[unlikely]] {
        const Wording w{"comm.sends_twice", {{"step", step_value(step)}}};
        fail_program(r, "sends " + describe_step(step) + " twice", w);
      }
      m.send_seq = queued;
    } else {
      if (m.recv_seq != not_queued) [[unlikely]] {
        const Wording w{"comm.receives_twice", {{"step", step_value(step)}}};
        fail_program(r, "receives " + describe_step(step) + " twice", w);
      }
      m.recv_seq = queued;
    }
    // The link from the sender's slot to the receiver's, by the boundary the message crosses.
    const auto boundary = static_cast<std::size_t>(toward_previous ? at.slot - 1 : at.slot);
    const bool from_lower_slot = step.action == CommAction::send_forward || step.action == CommAction::recv_forward;
    return {entry_of(key, send), peer, from_lower_slot ? to_next_[boundary] : from_next_[boundary]};
  }

  [[gnu::always_inline]] void launch(const Request& q, double at) {
    const std::size_t key = key_of(q.entry);
    Message& m = messages_[key];
    if (is_send_entry(q.entry)) {
      m.send_at = at;
      m.send_seq = sends_on_link_[static_cast<std::size_t>(q.link)]++;
      ++sends_launched_;
      if (!is_known(m.recv_at)) return;
      check_order(key);
      wake(q.peer, entry_of(key, false));
    } else {
      m.recv_at = at;
      m.recv_seq = receives_on_link_[static_cast<std::size_t>(q.link)]++;
      ++receives_launched_;
      if (!is_known(m.send_at)) return;
      check_order(key);
      wake(q.peer, entry_of(key, true));  // a rendezvous send completes now
    }
    ++matched_;
  }

  // NCCL pairs the k-th send of a link with its k-th receive: the two must be the same message.
  // Inline, its explanation apart: every message is checked once, and as a call (it was 1.4% of the
  // bench's samples) it also looked the message up again.
  void check_order(std::size_t key) const {
    if (messages_[key].send_seq != messages_[key].recv_seq) [[unlikely]]
      report_out_of_order(key);
  }
  [[noreturn, gnu::cold, gnu::noinline]] void report_out_of_order(std::size_t key) const {
    const Message& m = messages_[key];
    const int receiver = receiver_of(key);
    const int sender = sender_of(key);
    std::string instead = "rank " + std::to_string(sender) + "'s send number " + std::to_string(m.recv_seq + 1) + " to it";
    std::string instead_step;  // the send that took that place, when one did
    for (std::size_t k = 0; k < messages_.size(); ++k)  // the cold path: which send took that place
      if (messages_[k].send_seq == m.recv_seq && is_known(messages_[k].send_at) && sender_of(k) == sender &&
          receiver_of(k) == receiver) {
        instead = describe_entry(entry_of(k, true));
        instead_step = step_value(step_of(entry_of(k, true)));
      }
    const Wording w{instead_step.empty() ? "comm.order_number" : "comm.order_step",
                    {{"step", step_value(step_of(entry_of(key, false)))}, {"sender", std::to_string(sender)},
                     {"number", std::to_string(m.recv_seq + 1)}, {"instead", instead_step}}};
    fail_program(receiver, "expects " + describe_entry(entry_of(key, false)) + " from rank " + std::to_string(sender) +
                               ", but the next send launched on that link is " + instead +
                               ": sends and receives of a link must come in the same order", w);
  }

  // --- compute ---------------------------------------------------------------------------------

  // The receive entry of the input an op consumes from another rank, or no_entry for an input made on
  // this rank (whose producer must have run already) or none at all (the data, the loss).
  auto consumed_receive(int r, const ChunkGrid::Place& at, bool gradient) -> std::size_t {
    if (gradient ? grid_.last_stage(at) : grid_.first_stage(at)) return no_entry;
    const int from = gradient ? grid_.rank_downstream(at) : grid_.rank_upstream(at);
    if (from == r) {  // handed over on this rank: its producer must have run before
      const detail::ChunkProgress& producer = progress_[gradient ? grid_.downstream(at) : grid_.upstream(at)];
      if ((gradient ? producer.backward : producer.forward) == 0) [[unlikely]]
        report_own_input_later(r);
      return no_entry;
    }
    const std::size_t key = 2 * at.row + (gradient ? 1 : 0);
    if (!is_known(messages_[key].recv_at)) [[unlikely]]
      report_unlaunched_receive(r, gradient, from);
    return entry_of(key, false);
  }
  // consumed_receive's failures, out of line: building their messages kept it from being inlined
  // into compute(), which asks it once or twice per op.
  [[noreturn, gnu::cold, gnu::noinline]] void report_own_input_later(int r) const {
    const Wording w{"deadlock.own_input", {{"rank", std::to_string(r)}, {"where", where_value(r)}}};
    fail_deadlock("deadlock: rank " + std::to_string(r) + " waits " + where(r) + " for an input its own later op makes", w);
  }
  [[noreturn, gnu::cold, gnu::noinline]] void report_unlaunched_receive(int r, bool gradient, int from) const {
    const std::string op = std::to_string(rank(r).next_op - s_.rank_begin[static_cast<std::size_t>(r)]);
    const std::string op_text = describe(s_.ops[static_cast<std::size_t>(rank(r).next_op)]);
    const Wording w{gradient ? "comm.unlaunched_gradient" : "comm.unlaunched_forward",
                    {{"op", op}, {"op_text", op_text}, {"from", std::to_string(from)}}};
    fail_program(r, "runs op " + op + " (" + op_text + ") without launching the receive of its " +
                        (gradient ? "output gradient" : "forward input") + " from rank " + std::to_string(from) + " first", w);
  }

  // Inlined into advance() with attribute_wait(), as queue() is: once per op, and out of line it
  // reloaded the rank's state through memory (callgrind: 3% fewer instructions per reference run).
  [[gnu::always_inline]] auto compute(int r) -> bool {
    RankState& st = rank(r);
    if (st.next_op >= s_.rank_begin[static_cast<std::size_t>(r) + 1]) [[unlikely]] {
      const Wording w{"comm.more_steps", {}};
      fail_program(r, "has more compute steps than ops", w);
    }
    const int i = st.next_op;
    const Op& op = s_.ops[static_cast<std::size_t>(i)];
    detail::prefetch_for_reading(&op, 2);  // the rank's op list, a stream among 64 ranks' interleaved ones
    // The rules of chunk_rules.h, checked as the dataflow engine checks them.
    ChunkGrid::Place forward_at{};
    ChunkGrid::Place backward_at{};
    // The chunk whose backward this op runs (B, I, or FB's backward half).
    const std::optional<Chunk> back = op.kind == OpKind::B || op.kind == OpKind::I ? std::optional<Chunk>(op.chunk)
                                      : op.kind == OpKind::FB                     ? std::optional<Chunk>(op.backward)
                                                                                  : std::nullopt;
    if (has_forward(op.kind) && (!grid_.place_on(r, op.chunk, forward_at) || !detail::may_run_forward(progress_[forward_at.row])))
      explain_rule_failure();
    if (back && (!grid_.place_on(r, *back, backward_at) || !detail::may_run_backward(progress_[backward_at.row]) ||
                 (op.kind == OpKind::FB && backward_at.row == forward_at.row)))
      explain_rule_failure();
    ChunkGrid::Place weight_at{};
    if (op.kind == OpKind::W && (!grid_.place_on(r, op.chunk, weight_at) || !detail::may_run_weight(progress_[weight_at.row])))
      explain_rule_failure();
    // The streams this rank walks (its chunks' rows, its ops' timeline entries), a line ahead.
    detail::prefetch_for_writing(&progress_[has_forward(op.kind) ? forward_at.row : back ? backward_at.row : weight_at.row]);
    if (op.kind == OpKind::FB) detail::prefetch_for_writing(&progress_[backward_at.row]);
    detail::prefetch_for_writing(&timeline_.start[static_cast<std::size_t>(i)]);
    detail::prefetch_for_writing(&timeline_.end[static_cast<std::size_t>(i)]);
    detail::prefetch_for_writing(&timeline_.waits[static_cast<std::size_t>(i)], 2);
    const std::size_t used[2] = {has_forward(op.kind) ? consumed_receive(r, forward_at, false) : no_entry,
                                 back ? consumed_receive(r, backward_at, true) : no_entry};
    double used_done[2] = {unknown, unknown};
    for (int k = 0; k < 2; ++k)
      if (used[k] != no_entry && !is_known(used_done[k] = done(used[k]))) return park(r, used[k]);

    attribute_wait(st, i, used, used_done);
    if (with_transfers_)
      for (const std::size_t e : used)
        if (e != no_entry) record_transfer(e, i);

    const double start = timeline_.start[static_cast<std::size_t>(i)];
    const double end = start + duration_of(r, op);
    timeline_.end[static_cast<std::size_t>(i)] = end;
    if (has_forward(op.kind)) {
      detail::record_forward(progress_[forward_at.row], i);
      ++forwards_;
    }
    if (back) {
      detail::record_backward(progress_[backward_at.row], i, op.kind == OpKind::I);
      ++backwards_;
      splits_ += op.kind == OpKind::I ? 1 : 0;
    }
    if (op.kind == OpKind::W) {
      detail::record_weight(progress_[weight_at.row]);
      ++weights_;
    }
    st.now = st.last_end = end;
    ++st.next_op;
    return true;
  }

  // Sets op i's start and its wait, in layers: until the consumed receives were done, then the other
  // receives waited for since the last compute, then the sends.
  [[gnu::always_inline]] void attribute_wait(RankState& st, int i, const std::size_t (&used)[2], const double (&done_at)[2]) {
    double used_done = st.last_end;
    std::size_t bound_by = no_entry;
    for (int k = 0; k < 2; ++k)
      if (used[k] != no_entry && done_at[k] > used_done) {
        used_done = done_at[k];
        bound_by = used[k];
      }
    const double start = std::max(st.now, used_done);
    const Completed other = st.waited.latest_receive_besides(used);
    const double receives_done = other.done > used_done ? other.done : used_done;
    const std::size_t receive_bound = other.done > used_done ? other.entry : no_entry;
    const std::size_t send_bound = st.waited.send.done > used_done ? st.waited.send.entry : no_entry;
    st.waited = {};
    OpWait& wait = timeline_.waits[static_cast<std::size_t>(i)];
    const double t1 = std::min(start, used_done);
    const double t2 = std::min(start, std::max(t1, receives_done));
    wait = OpWait{t1 - st.last_end, t2 - t1, start - t2, {}, -1};
    if (wait.send > 0) bound_by = send_bound;
    else if (wait.unused_receive > 0) bound_by = receive_bound;
    else if (wait.used_receive <= 0) bound_by = no_entry;
    int waited_for = none;
    if (bound_by != no_entry) {
      wait.on = step_of(bound_by);
      const std::size_t key = key_of(bound_by);
      wait.peer = is_send_entry(bound_by) ? receiver_of(key) : sender_of(key);
      if (!is_send_entry(bound_by)) waited_for = producer_of(key);
    }
    timeline_.start[static_cast<std::size_t>(i)] = start;
    timeline_.waited_for[static_cast<std::size_t>(i)] = waited_for;
  }

  // The op whose output a message carries: the previous stage's forward, or the next stage's backward.
  [[nodiscard]] auto producer_of(std::size_t key) const -> int {
    const std::size_t row = key / 2;
    const auto per_path = static_cast<std::size_t>(grid_.per_path());
    return (key & 1) != 0 ? detail::op_of(progress_[row + per_path].backward) : detail::op_of(progress_[row - per_path].forward);
  }

  // The transfer behind a consumed receive: it moved from when both sides were launched (rendezvous)
  // or the send was (eager, async) until the receive completed.
  void record_transfer(std::size_t entry, int consumer) {
    const Message& m = messages_[key_of(entry)];
    const double start = sends_ == SendMode::rendezvous ? std::max(m.send_at, m.recv_at) : m.send_at;
    timeline_.transfers.push_back({producer_of(key_of(entry)), consumer, (key_of(entry) & 1) != 0, start, done(entry)});
  }

  // --- failures --------------------------------------------------------------------------------

  // The program step of one side of a message, rebuilt from its key: the receiver names its own
  // chunk (the consumer), the sender the producer's chunk, one stage before or after it.
  [[nodiscard]] auto step_of(std::size_t entry) const -> CommStep {
    const std::size_t key = key_of(entry);
    const bool gradient = (key & 1) != 0;
    const bool send = is_send_entry(entry);
    std::size_t row = key / 2;
    const auto per_path = static_cast<std::size_t>(grid_.per_path());
    if (send) row = gradient ? row + per_path : row - per_path;
    const auto slot = static_cast<int>(row / per_path);
    const int path = slot / grid_.stages();
    const int stage = slot % grid_.stages();
    const int phase = s_.layout.directions == 2 ? path : phase_of_stage_[static_cast<std::size_t>(stage)];
    const CommAction action = send ? (gradient ? CommAction::send_backward : CommAction::send_forward)
                                   : (gradient ? CommAction::recv_backward : CommAction::recv_forward);
    return {action, Chunk{static_cast<int>(row % per_path), phase, stage}};
  }

  // On one path a chunk's phase is the index of its stage among the stages its rank holds, lowest
  // first, as the generators and the action reader number them.
  static auto phases_of_stages(const Schedule& s) -> std::vector<int> {
    std::vector<int> out(static_cast<std::size_t>(s.layout.stages), 0);
    if (s.layout.directions == 2) return out;
    std::vector<int> held(static_cast<std::size_t>(s.ranks()), 0);
    for (int stage = 0; stage < s.layout.stages; ++stage)
      out[static_cast<std::size_t>(stage)] = held[static_cast<std::size_t>(s.layout.rank_of(0, stage))]++;
    return out;
  }
  // torch's spelling: stage, action, micro-batch (`3SEND_F5`); the phase marks a second direction.
  [[nodiscard]] auto describe_step(const CommStep& step) const -> std::string {
    std::string out = std::to_string(step.chunk.stage) + std::string(comm_action_name(step.action)) + std::to_string(step.chunk.mb);
    if (s_.layout.directions == 2) out += " of direction " + std::to_string(step.chunk.phase);
    return out;
  }
  [[nodiscard]] auto describe_entry(std::size_t entry) const -> std::string { return describe_step(step_of(entry)); }
  // The same step for a wording: its notation, and its direction after a space in a two-direction
  // schedule (web/src/i18n/refusals.ts, LISTS' step, words " of direction d").
  [[nodiscard]] auto step_value(const CommStep& step) const -> std::string {
    std::string out = std::to_string(step.chunk.stage) + std::string(comm_action_name(step.action)) + std::to_string(step.chunk.mb);
    if (s_.layout.directions == 2) out += " " + std::to_string(step.chunk.phase);
    return out;
  }

  // `wording` words `what` in any language; the rank's communication is its place (PLACES' comm_rank).
  [[noreturn]] static void fail_program(int r, const std::string& what, Wording wording) {
    wording.params.emplace_back("at_kind", "comm_rank");
    wording.params.emplace_back("at", std::to_string(r));
    throw Error(ErrorCode::invalid_schedule, "communication of rank " + std::to_string(r) + ": " + what, std::move(wording));
  }
  [[noreturn]] static void fail_deadlock(const std::string& message, Wording wording) {
    throw Error(ErrorCode::deadlock, message, std::move(wording));
  }
  // An op breaks a rule of chunk_rules.h: the ChunkIndex names the first offending op, as
  // validate_schedule does.
  [[noreturn, gnu::cold]] void explain_rule_failure() const {
    const detail::ChunkIndex index(s_);
    throw Error(ErrorCode::internal, "internal: the reference engine refused a schedule that validation accepts");
  }

  [[nodiscard]] auto where(int r) const -> std::string {
    const RankState& st = rank(r);
    if (st.next_op >= s_.rank_begin[static_cast<std::size_t>(r) + 1]) return "at the end of its step";
    return "before op " + std::to_string(st.next_op - s_.rank_begin[static_cast<std::size_t>(r)]) + " (" +
           describe(s_.ops[static_cast<std::size_t>(st.next_op)]) + ")";
  }

  /// where(r) for a wording: "" at the end of its step, else the op's index and notation after a space.
  [[nodiscard]] auto where_value(int r) const -> std::string {
    const RankState& st = rank(r);
    if (st.next_op >= s_.rank_begin[static_cast<std::size_t>(r) + 1]) return "";
    return std::to_string(st.next_op - s_.rank_begin[static_cast<std::size_t>(r)]) + " " +
           describe(s_.ops[static_cast<std::size_t>(st.next_op)]);
  }

  [[nodiscard]] auto peer_of(std::size_t entry) const -> int {
    return is_send_entry(entry) ? receiver_of(key_of(entry)) : sender_of(key_of(entry));
  }

  [[noreturn]] void report_deadlock() const {
    // Follow "rank r waits for a message whose other side rank r' has not launched" until a rank repeats.
    int r = 0;
    while (finished(r)) ++r;
    std::vector<int> order;
    std::vector<int> seen_at(static_cast<std::size_t>(s_.ranks()), none);
    std::string message = "deadlock in the reference communication: ";
    while (seen_at[static_cast<std::size_t>(r)] == none) {
      seen_at[static_cast<std::size_t>(r)] = static_cast<int>(order.size());
      order.push_back(r);
      const std::size_t e = rank(r).blocked_on;
      if (e == no_entry) break;
      const int peer = peer_of(e);
      if (finished(peer)) {
        message += "rank " + std::to_string(r) + " waits " + where(r) + " for " + describe_entry(e) + ", which rank " +
                   std::to_string(peer) + " never matches; ";
        const Wording w{"deadlock.never_matched_wait", {{"rank", std::to_string(r)}, {"where", where_value(r)},
                                                         {"step", step_value(step_of(e))}, {"peer", std::to_string(peer)}}};
        fail_deadlock(message + "no rank can go on", w);
      }
      r = peer;
    }
    // The cycle's links for a wording: "rank|where|step|peer" each, ';' between (LISTS' comm_cycle).
    std::string cycle;
    for (std::size_t k = static_cast<std::size_t>(seen_at[static_cast<std::size_t>(r)]); k < order.size(); ++k) {
      const int rank_k = order[k];
      const std::size_t e = rank(rank_k).blocked_on;
      message += "rank " + std::to_string(rank_k) + " waits " + where(rank_k) + " for " + describe_entry(e) + " (rank " +
                 std::to_string(peer_of(e)) + " has not launched its side); ";
      cycle += (cycle.empty() ? "" : ";") + std::to_string(rank_k) + "|" + where_value(rank_k) + "|" + step_value(step_of(e)) + "|" +
               std::to_string(peer_of(e));
    }
    const Wording w{"deadlock.comm_cycle", {{"comm_cycle", cycle}}};
    fail_deadlock(message + "no rank in this cycle can go on", w);
  }

  [[noreturn]] void report_unmatched() const {
    for (std::size_t key = 0; key < messages_.size(); ++key) {
      const Message& m = messages_[key];
      if (is_known(m.send_at) == is_known(m.recv_at)) continue;
      const std::size_t e = entry_of(key, is_known(m.send_at));
      const int owner = is_send_entry(e) ? sender_of(key) : receiver_of(key);
      const Wording w{"deadlock.never_matched", {{"rank", std::to_string(owner)}, {"step", step_value(step_of(e))},
                                                 {"peer", std::to_string(peer_of(e))}}};
      fail_deadlock("deadlock in the reference communication: rank " + std::to_string(owner) + "'s " + describe_entry(e) +
                        " is never matched by rank " + std::to_string(peer_of(e)),
                    w);
    }
    throw Error(ErrorCode::internal, "internal: the reference engine lost count of its transfers");
  }

  const Schedule& s_;
  const CommProgram& p_;
  const StageCosts& costs_;
  double uniform_duration_[op_kind_count] = {};  // per op kind, when uniform_: Costs::duration's, read once
  double uniform_comm_ = 0;  // when uniform_: every boundary's latency, read once (done() asks it several times per message)
  bool uniform_;  // every stage alike at speed 1: each op's duration is the one Costs', bit for bit
  SendMode sends_;
  bool with_transfers_;
  ChunkGrid grid_;
  std::vector<int> phase_of_stage_;
  Timeline timeline_;
  std::vector<RankState> ranks_;
  OpColumn<detail::ChunkProgress> progress_;  // per chunk, by grid_ row: the ops that ran it
  OpColumn<Message> messages_;                // per message key
  detail::ReadyRanks ready_;
  std::vector<int> to_next_, from_next_;  // per slot: the link to / from the next slot's rank, or none
  std::vector<int> sends_on_link_, receives_on_link_;  // per link: launched so far
  std::size_t forwards_ = 0, backwards_ = 0, splits_ = 0, weights_ = 0;
  std::size_t sends_launched_ = 0, receives_launched_ = 0, matched_ = 0;
};

// The program must cover the schedule's ranks; the engine checks as it runs that each rank's compute
// steps are its ops, one each.
void check_program(const Schedule& s) {
  const CommProgram& p = s.comm;
  if (p.empty()) throw Error(ErrorCode::internal, "internal: " + s.name + " has no communication program for reference timing");
  if (p.rank_begin.size() != static_cast<std::size_t>(s.ranks()) + 1)
    throw Error(ErrorCode::internal, "internal: the communication program of " + s.name + " has the wrong number of ranks");
}

}  // namespace

auto comm_action_name(CommAction action) -> std::string_view {
  switch (action) {
    case CommAction::compute: return "COMPUTE";
    case CommAction::recv_forward: return "RECV_F";
    case CommAction::recv_backward: return "RECV_B";
    case CommAction::send_forward: return "SEND_F";
    case CommAction::send_backward: return "SEND_B";
    case CommAction::post: return "POST";
    case CommAction::wait_all: return "WAIT_ALL";
  }
  return "?";
}

auto timing_name(Timing timing) -> std::string_view { return timing == Timing::reference ? "reference" : "dataflow"; }

auto send_mode_name(SendMode mode) -> std::string_view {
  switch (mode) {
    case SendMode::rendezvous: return "rendezvous";
    case SendMode::eager: return "eager";
    case SendMode::async: return "async";
  }
  return "rendezvous";
}

auto parse_timing(std::string_view text, std::string_view field) -> Timing {
  for (const Timing t : {Timing::dataflow, Timing::reference})
    if (text == timing_name(t)) return t;
  throw Error(ErrorCode::unknown_name, std::string(field) + " must be dataflow or reference (got '" + quoted_input(text) + "')",
              {"timing.unknown", {{"name", std::string(field)}, {"value", quoted_input(text)}}});
}

auto parse_send_mode(std::string_view text, std::string_view field) -> SendMode {
  for (const SendMode m : {SendMode::rendezvous, SendMode::eager, SendMode::async})
    if (text == send_mode_name(m)) return m;
  throw Error(ErrorCode::unknown_name,
              std::string(field) + " must be rendezvous, eager or async (got '" + quoted_input(text) + "')",
              {"sends.unknown", {{"name", std::string(field)}, {"value", quoted_input(text)}}});
}

void check_sends_apply(Timing timing, bool sends_given, std::string_view sends_spelling,
                       std::string_view reference_spelling) {
  if (sends_given && timing != Timing::reference)
    throw Error(ErrorCode::usage, std::string(sends_spelling) + " applies only to " + std::string(reference_spelling),
                {"sends.only_reference", {{"sends", std::string(sends_spelling)}, {"reference", std::string(reference_spelling)}}}, "sends");
}

auto simulate_reference(const Schedule& schedule, const StageCosts& costs, SendMode sends, bool with_transfers) -> Timeline {
  detail::check_shape(schedule);  // before the engine sizes anything from the schedule
  validate_stage_costs(costs, schedule);
  check_program(schedule);
  return ReferenceEngine(schedule, costs, sends, with_transfers).run();
}

auto simulate_reference(const Schedule& schedule, const Costs& costs, SendMode sends, bool with_transfers) -> Timeline {
  validate_costs(costs);
  detail::check_shape(schedule);
  return simulate_reference(schedule, uniform_stage_costs(costs, schedule.layout.stages, schedule.ranks()), sends, with_transfers);
}

}  // namespace pipesim
