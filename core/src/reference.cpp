// The reference timing engine (reference.h). Requests follow NCCL point-to-point: per directed link,
// the k-th send launched matches the k-th receive launched. DeepSeek's DualPipe (`_commit_and_wait_comm`:
// one `dist.batch_isend_irecv` of everything queued, then `req.wait()` on each) and torch's runtime
// (a `_batch_p2p` per action, a receive waited for by the op that consumes it) are both programs of
// the steps of comm.h; this file knows neither.
#include <algorithm>
#include <cstdint>
#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

#include "detail/chunk_rules.h"
#include "pipesim/error.h"
#include "pipesim/reference.h"

namespace pipesim {

namespace {

using detail::ChunkGrid;

constexpr int none = -1;
constexpr double unknown = -1;  // a time not known yet (every real time is >= 0)

// The one place an op's duration is read, so per-stage costs plug in here.
[[nodiscard]] auto duration_of(const Costs& costs, const Op& op) -> double { return costs.duration(op.kind); }

[[nodiscard]] constexpr auto is_send(CommAction a) -> bool {
  return a == CommAction::send_forward || a == CommAction::send_backward;
}
[[nodiscard]] constexpr auto is_transfer(CommAction a) -> bool {
  return a == CommAction::recv_forward || a == CommAction::recv_backward || is_send(a);
}
// A message is a chunk's input crossing ranks: its forward input (activation) or its output gradient.
[[nodiscard]] constexpr auto carries_gradient(CommAction a) -> bool {
  return a == CommAction::recv_backward || a == CommAction::send_backward;
}

struct Request {
  CommAction action;
  Chunk chunk;           // the owner's chunk (torch's notation: `1SEND_F3` is stage 1's output of mb 3)
  int owner;
  int peer;
  std::size_t message;   // 2 x row of the consuming chunk + (1 if a gradient)
  int producer = none;   // sends: the op that computed the payload
  int mate = none;       // the matched request on the other side
  double launched = unknown;
  double done = unknown;
};

struct Link {
  std::deque<int> sends;     // launched, not yet matched, in launch order
  std::deque<int> receives;
};

struct RankState {
  int step = 0;              // next step of the program
  int next_op = 0;           // next op of the rank's list
  double now = 0;            // when the rank is free to go on
  double last_end = 0;       // end of its last compute
  int blocked_on = none;     // the request it waits for, while parked
  std::vector<int> queued;   // queued, not launched
  std::vector<int> launched; // launched, not waited for by a wait_all
  std::vector<int> waited;   // waited for since the last compute (a compute attributes them)
};

class ReferenceEngine {
 public:
  ReferenceEngine(const Schedule& s, const Costs& costs, SendMode sends)
      : s_(s), p_(s.comm), costs_(costs), comm_(costs.comm), sends_(sends), grid_(s) {
    const auto n = s.ops.size();
    timeline_.start.assign(n, 0);
    timeline_.end.assign(n, 0);
    timeline_.waited_for.assign(n, none);
    timeline_.waits.assign(n, OpWait{});
    ranks_.resize(static_cast<std::size_t>(s.ranks()));
    for (int r = 0; r < s.ranks(); ++r) {
      rank(r).step = p_.rank_begin[static_cast<std::size_t>(r)];
      rank(r).next_op = s.rank_begin[static_cast<std::size_t>(r)];
    }
    receive_of_.assign(2 * grid_.chunks(), none);
    computed_.assign(2 * grid_.chunks(), none);
  }

  auto run() -> Timeline {
    for (int r = s_.ranks() - 1; r >= 0; --r) ready_.push_back(r);
    while (!ready_.empty()) {
      const int r = ready_.back();
      ready_.pop_back();
      advance(r);
    }
    for (int r = 0; r < s_.ranks(); ++r)
      if (!finished(r)) report_deadlock();
    for (const Request& q : requests_)
      if (q.mate == none) report_unmatched(q);
    return std::move(timeline_);
  }

 private:
  auto rank(int r) -> RankState& { return ranks_[static_cast<std::size_t>(r)]; }
  [[nodiscard]] auto rank(int r) const -> const RankState& { return ranks_[static_cast<std::size_t>(r)]; }
  [[nodiscard]] auto finished(int r) const -> bool {
    return rank(r).step == p_.rank_begin[static_cast<std::size_t>(r) + 1] && rank(r).launched.empty();
  }

  // Runs rank r's steps until one must wait (r is parked on a request) or the program ends.
  void advance(int r) {
    RankState& st = rank(r);
    const int last = p_.rank_begin[static_cast<std::size_t>(r) + 1];
    while (st.step < last) {
      const CommStep& step = p_.steps[static_cast<std::size_t>(st.step)];
      if (is_transfer(step.action)) {
        st.queued.push_back(new_request(r, step));
      } else if (step.action == CommAction::post) {
        for (const int q : st.queued) launch(q, st.now);
        st.launched.insert(st.launched.end(), st.queued.begin(), st.queued.end());
        st.queued.clear();
      } else if (step.action == CommAction::wait_all) {
        if (!wait_all(r)) return;
      } else if (!compute(r)) {
        return;
      }
      ++st.step;
    }
    if (!st.queued.empty()) fail_program(r, "queues " + describe_request(requests_[static_cast<std::size_t>(st.queued.front())]) + " and never launches it");
    wait_all(r);  // the end of the step waits for what is still in flight; compute ends are the makespan
  }

  auto wait_all(int r) -> bool {
    RankState& st = rank(r);
    for (const int q : st.launched)
      if (requests_[static_cast<std::size_t>(q)].done == unknown) return park(r, q);
    for (const int q : st.launched) st.now = std::max(st.now, requests_[static_cast<std::size_t>(q)].done);
    st.waited.insert(st.waited.end(), st.launched.begin(), st.launched.end());
    st.launched.clear();
    return true;
  }

  auto park(int r, int q) -> bool {
    rank(r).blocked_on = q;
    return false;
  }
  void wake(int q) {
    const int owner = requests_[static_cast<std::size_t>(q)].owner;
    if (rank(owner).blocked_on != q) return;
    rank(owner).blocked_on = none;
    ready_.push_back(owner);
  }

  // --- requests -------------------------------------------------------------------------------

  auto new_request(int r, const CommStep& step) -> int {
    ChunkGrid::Place at{};
    if (!grid_.place_on(r, step.chunk, at))
      fail_program(r, std::string(comm_action_name(step.action)) + " names a chunk (micro-batch " +
                          std::to_string(step.chunk.mb) + ", stage " + std::to_string(step.chunk.stage) +
                          ") whose stage is not on this rank");
    const bool forward_path = step.action == CommAction::recv_forward || step.action == CommAction::send_backward;
    // Receives of forward inputs and sends of input gradients talk to the previous stage.
    const bool toward_previous = forward_path;
    if (toward_previous ? grid_.first_stage(at) : grid_.last_stage(at))
      fail_program(r, std::string(comm_action_name(step.action)) + " at stage " + std::to_string(at.stage) +
                          ", which has no " + (toward_previous ? "previous" : "next") + " stage");
    const int peer = toward_previous ? grid_.rank_upstream(at) : grid_.rank_downstream(at);
    if (peer == r)
      fail_program(r, std::string(comm_action_name(step.action)) + " of stage " + std::to_string(at.stage) +
                          " to this rank itself: a stage next to one on the same rank is handed over locally");
    // The consuming chunk: the receiver's own, or for a send the neighbour's.
    std::size_t consumer = at.row;
    if (step.action == CommAction::send_forward) consumer = grid_.downstream(at);
    if (step.action == CommAction::send_backward) consumer = grid_.upstream(at);
    Request q{step.action, step.chunk, r, peer, 2 * consumer + (carries_gradient(step.action) ? 1 : 0), none, none,
              unknown, unknown};
    if (is_send(step.action)) {
      // The payload must have been computed: a forward's output, or a backward's input gradient.
      q.producer = computed_[2 * at.row + (step.action == CommAction::send_backward ? 1 : 0)];
      if (q.producer == none) fail_program(r, "queues " + describe_request(q) + " before computing what it sends");
    } else {
      if (receive_of_[q.message] != none) fail_program(r, "receives " + describe_request(q) + " twice");
      receive_of_[q.message] = static_cast<int>(requests_.size());
    }
    requests_.push_back(q);
    return static_cast<int>(requests_.size()) - 1;
  }

  void launch(int id, double at) {
    Request& q = requests_[static_cast<std::size_t>(id)];
    q.launched = at;
    const bool send = is_send(q.action);
    if (send && sends_ != SendMode::rendezvous) q.done = sends_ == SendMode::async ? at : at + comm_;
    const int from = send ? q.owner : q.peer;
    const int to = send ? q.peer : q.owner;
    Link& link = links_[static_cast<std::uint64_t>(from) * static_cast<std::uint64_t>(s_.ranks()) +
                        static_cast<std::uint64_t>(to)];
    std::deque<int>& other = send ? link.receives : link.sends;
    if (other.empty()) {
      (send ? link.sends : link.receives).push_back(id);
      return;
    }
    const int mate = other.front();
    other.pop_front();
    send ? match(id, mate) : match(mate, id);
  }

  void match(int send_id, int receive_id) {
    Request& send = requests_[static_cast<std::size_t>(send_id)];
    Request& receive = requests_[static_cast<std::size_t>(receive_id)];
    if (send.message != receive.message)
      fail_program(receive.owner, "expects " + describe_request(receive) + " from rank " + std::to_string(receive.peer) +
                                      ", but the next send launched on that link is " + describe_request(send) +
                                      ": sends and receives of a link must come in the same order");
    send.mate = receive_id;
    receive.mate = send_id;
    if (sends_ == SendMode::rendezvous) {
      send.done = receive.done = std::max(send.launched, receive.launched) + comm_;
      wake(send_id);
    } else {
      receive.done = std::max(receive.launched, send.launched + comm_);
    }
    wake(receive_id);
  }

  // --- compute ---------------------------------------------------------------------------------

  // The receive of another rank's output that op consumes, `none` for an input made on this rank;
  // throws when it consumes a remote output it never receives, parks on an own later op's output.
  void consumed_receive(int r, const ChunkGrid::Place& at, bool gradient, int& receive) {
    receive = none;
    if (gradient ? grid_.last_stage(at) : grid_.first_stage(at)) return;  // the loss / the data
    const int from = gradient ? grid_.rank_downstream(at) : grid_.rank_upstream(at);
    const std::size_t message = 2 * at.row + (gradient ? 1 : 0);
    if (from == r) {  // handed over on this rank: its producer must have run before
      const std::size_t produced = 2 * (gradient ? grid_.downstream(at) : grid_.upstream(at)) + (gradient ? 1 : 0);
      if (computed_[produced] == none)
        fail_deadlock("deadlock: rank " + std::to_string(r) + " waits at op " + std::to_string(rank(r).next_op - s_.rank_begin[static_cast<std::size_t>(r)]) +
                      " (" + describe(s_.ops[static_cast<std::size_t>(rank(r).next_op)]) +
                      ") for an input its own later op makes");
      return;
    }
    receive = receive_of_[message];
    if (receive == none || requests_[static_cast<std::size_t>(receive)].launched == unknown)
      fail_program(r, "runs op " + std::to_string(rank(r).next_op - s_.rank_begin[static_cast<std::size_t>(r)]) + " (" +
                          describe(s_.ops[static_cast<std::size_t>(rank(r).next_op)]) + ") without launching the receive of its " +
                          (gradient ? "output gradient" : "forward input") + " from rank " + std::to_string(from) + " first");
  }

  auto compute(int r) -> bool {
    RankState& st = rank(r);
    if (st.next_op >= s_.rank_begin[static_cast<std::size_t>(r) + 1])
      fail_program(r, "has more compute steps than ops");
    const int i = st.next_op;
    const Op& op = s_.ops[static_cast<std::size_t>(i)];
    int used[2] = {none, none};
    ChunkGrid::Place forward_at{};
    ChunkGrid::Place backward_at{};
    if (has_forward(op.kind)) {
      forward_at = grid_.place(op.chunk);  // validate_schedule put it on this rank
      consumed_receive(r, forward_at, false, used[0]);
    }
    const std::optional<Chunk> back = backward_chunk(op);
    if (back) {
      backward_at = grid_.place(*back);
      consumed_receive(r, backward_at, true, used[1]);
    }
    for (const int q : used)
      if (q != none && requests_[static_cast<std::size_t>(q)].done == unknown) return park(r, q);

    // The wait, in layers: until the consumed receives were done, then the other receives, then sends.
    double used_done = st.last_end;
    int bound_by = none;
    for (const int q : used)
      if (q != none && requests_[static_cast<std::size_t>(q)].done > used_done) {
        used_done = requests_[static_cast<std::size_t>(q)].done;
        bound_by = q;
      }
    const double start = std::max(st.now, used_done);
    double receives_done = used_done;
    double sends_done = used_done;
    int receive_bound = none;
    int send_bound = none;
    for (const int q : st.waited) {
      const Request& req = requests_[static_cast<std::size_t>(q)];
      if (q == used[0] || q == used[1]) continue;
      if (is_send(req.action)) {
        if (req.done > sends_done) { sends_done = req.done; send_bound = q; }
      } else if (req.done > receives_done) {
        receives_done = req.done;
        receive_bound = q;
      }
    }
    OpWait& wait = timeline_.waits[static_cast<std::size_t>(i)];
    const double t1 = std::min(start, used_done);
    const double t2 = std::min(start, std::max(t1, receives_done));
    wait.used_receive = t1 - st.last_end;
    wait.unused_receive = t2 - t1;
    wait.send = start - t2;
    if (wait.send > 0) bound_by = send_bound;
    else if (wait.unused_receive > 0) bound_by = receive_bound;
    else if (wait.used_receive <= 0) bound_by = none;
    if (bound_by != none) {
      const Request& q = requests_[static_cast<std::size_t>(bound_by)];
      wait.on = {q.action, q.chunk};
      wait.peer = q.peer;
      if (!is_send(q.action)) timeline_.waited_for[static_cast<std::size_t>(i)] = requests_[static_cast<std::size_t>(q.mate)].producer;
    }
    st.waited.clear();
    for (const int q : used)
      if (q != none) record_transfer(q, i);

    const double end = start + duration_of(costs_, op);
    timeline_.start[static_cast<std::size_t>(i)] = start;
    timeline_.end[static_cast<std::size_t>(i)] = end;
    if (has_forward(op.kind)) computed_[2 * forward_at.row] = i;
    if (back && op.kind != OpKind::W) computed_[2 * backward_at.row + 1] = i;
    st.now = st.last_end = end;
    ++st.next_op;
    return true;
  }

  // The transfer behind receive q, consumed by op i: it moved from when both sides were launched
  // (rendezvous) or the send was (eager, async) until the receive completed.
  void record_transfer(int q, int i) {
    const Request& receive = requests_[static_cast<std::size_t>(q)];
    const Request& send = requests_[static_cast<std::size_t>(receive.mate)];
    const double start = sends_ == SendMode::rendezvous ? std::max(send.launched, receive.launched) : send.launched;
    timeline_.transfers.push_back({send.producer, i, carries_gradient(receive.action), start, receive.done});
  }

  // --- failures --------------------------------------------------------------------------------

  [[nodiscard]] auto describe_request(const Request& q) const -> std::string {
    // torch's spelling: stage, action, micro-batch (`3SEND_F5`); the phase marks a second direction.
    std::string out = std::to_string(q.chunk.stage) + std::string(comm_action_name(q.action)) + std::to_string(q.chunk.mb);
    if (s_.layout.directions == 2) out += " of direction " + std::to_string(q.chunk.phase);
    return out;
  }

  [[noreturn]] void fail_program(int r, const std::string& what) const {
    throw Error(ErrorCode::invalid_schedule, "communication of rank " + std::to_string(r) + ": " + what);
  }
  [[noreturn]] static void fail_deadlock(const std::string& message) { throw Error(ErrorCode::deadlock, message); }

  [[nodiscard]] auto where(int r) const -> std::string {
    const RankState& st = rank(r);
    if (st.next_op >= s_.rank_begin[static_cast<std::size_t>(r) + 1]) return "at the end of its step";
    return "before op " + std::to_string(st.next_op - s_.rank_begin[static_cast<std::size_t>(r)]) + " (" +
           describe(s_.ops[static_cast<std::size_t>(st.next_op)]) + ")";
  }

  [[noreturn]] void report_deadlock() const {
    // Follow "rank r waits for a request whose other side rank r' has not launched" until a rank repeats.
    int r = 0;
    while (finished(r)) ++r;
    std::vector<int> order;
    std::vector<int> seen_at(static_cast<std::size_t>(s_.ranks()), none);
    std::string message = "deadlock in the reference communication: ";
    while (seen_at[static_cast<std::size_t>(r)] == none) {
      seen_at[static_cast<std::size_t>(r)] = static_cast<int>(order.size());
      order.push_back(r);
      const int q = rank(r).blocked_on;
      if (q == none) break;
      const int peer = requests_[static_cast<std::size_t>(q)].peer;
      if (finished(peer)) {
        message += "rank " + std::to_string(r) + " waits " + where(r) + " for " + describe_request(requests_[static_cast<std::size_t>(q)]) +
                   ", which rank " + std::to_string(peer) + " never matches; ";
        fail_deadlock(message + "no rank can go on");
      }
      r = peer;
    }
    for (std::size_t k = static_cast<std::size_t>(seen_at[static_cast<std::size_t>(r)]); k < order.size(); ++k) {
      const int rank_k = order[k];
      const int q = rank(rank_k).blocked_on;
      message += "rank " + std::to_string(rank_k) + " waits " + where(rank_k) + " for " +
                 describe_request(requests_[static_cast<std::size_t>(q)]) + " (rank " +
                 std::to_string(requests_[static_cast<std::size_t>(q)].peer) + " has not launched its side); ";
    }
    fail_deadlock(message + "no rank in this cycle can go on");
  }

  [[noreturn]] void report_unmatched(const Request& q) const {
    fail_deadlock("deadlock in the reference communication: rank " + std::to_string(q.owner) + "'s " + describe_request(q) +
                  " is never matched by rank " + std::to_string(q.peer));
  }

  const Schedule& s_;
  const CommProgram& p_;
  const Costs& costs_;
  double comm_;
  SendMode sends_;
  ChunkGrid grid_;
  Timeline timeline_;
  std::vector<RankState> ranks_;
  std::vector<Request> requests_;
  std::vector<int> receive_of_;  // per message: its receive request
  std::vector<int> computed_;    // per chunk: 2 x row (+1 for the backward) -> the op that ran it
  std::unordered_map<std::uint64_t, Link> links_;
  std::vector<int> ready_;
};

// The program must have one compute step per op of each rank.
void check_program(const Schedule& s) {
  const CommProgram& p = s.comm;
  if (p.empty()) throw Error(ErrorCode::internal, "internal: " + s.name + " has no communication program for reference timing");
  if (p.rank_begin.size() != static_cast<std::size_t>(s.ranks()) + 1)
    throw Error(ErrorCode::internal, "internal: the communication program of " + s.name + " has the wrong number of ranks");
  for (int r = 0; r < s.ranks(); ++r) {
    const auto steps = p.steps_of(r);
    const auto computes = std::count_if(steps.begin(), steps.end(), [](const CommStep& c) { return c.action == CommAction::compute; });
    if (computes != static_cast<long>(s.ops_of(r).size()))
      throw Error(ErrorCode::invalid_schedule, "communication of rank " + std::to_string(r) + ": " + std::to_string(computes) +
                                                   " compute steps for " + std::to_string(s.ops_of(r).size()) + " ops");
  }
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
  throw Error(ErrorCode::unknown_name, std::string(field) + " must be dataflow or reference (got '" + std::string(text) + "')");
}

auto parse_send_mode(std::string_view text, std::string_view field) -> SendMode {
  for (const SendMode m : {SendMode::rendezvous, SendMode::eager, SendMode::async})
    if (text == send_mode_name(m)) return m;
  throw Error(ErrorCode::unknown_name,
              std::string(field) + " must be rendezvous, eager or async (got '" + std::string(text) + "')");
}

auto simulate_reference(const Schedule& schedule, const Costs& costs, SendMode sends) -> Timeline {
  validate_costs(costs);
  validate_schedule(schedule);
  check_program(schedule);
  return ReferenceEngine(schedule, costs, sends).run();
}

}  // namespace pipesim
