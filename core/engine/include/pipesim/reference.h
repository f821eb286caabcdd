#pragma once
// The second timing model: a schedule timed the way its reference runtime issues communication, next
// to the dataflow ideal of simulate.h. It replays each rank's CommProgram (comm.h): transfers are
// queued, launched in batches and waited for, so an op can wait for a receive it does not consume or
// for a send that has not completed. The engine knows no schedule by name; the program is data.
#include <cstdint>
#include <string_view>

#include "pipesim/comm.h"
#include "pipesim/costs.h"
#include "pipesim/schedule.h"
#include "pipesim/simulate.h"
#include "pipesim/stage_costs.h"

namespace pipesim {

/// Which timing model a run uses.
enum class Timing : std::uint8_t {
  dataflow,   ///< an op starts when its rank is free and the inputs it consumes have arrived
  reference,  ///< the reference runtime's queue / launch / wait structure (Schedule::comm)
};

/// When a point-to-point transfer starts and when each side completes, in `reference` timing.
enum class SendMode : std::uint8_t {
  rendezvous,  ///< starts when both sides are launched; both complete `comm` later (NCCL, large tensors)
  eager,       ///< starts when the send is launched; the send completes `comm` later, the receive when
               ///< the data has arrived and it was launched
  async,       ///< as eager, but the send completes at once
};

[[nodiscard]] auto timing_name(Timing timing) -> std::string_view;
[[nodiscard]] auto send_mode_name(SendMode mode) -> std::string_view;
/// "dataflow" or "reference"; throws Error (unknown_name) naming `field` and the choices otherwise.
[[nodiscard]] auto parse_timing(std::string_view text, std::string_view field = "timing") -> Timing;
/// "rendezvous", "eager" or "async"; throws Error (unknown_name) naming `field` otherwise.
[[nodiscard]] auto parse_send_mode(std::string_view text, std::string_view field = "sends") -> SendMode;

/// Times `schedule` by its communication program (schedule.comm, which must not be empty). Each rank
/// walks its steps in order: a queued transfer is launched at the next `post`; `wait_all` blocks until
/// every launched request has completed; a `compute` runs the rank's next op once the receives it
/// consumes have completed. Sends and receives of one directed link match in launch order (as NCCL
/// does), and must carry the same message. The makespan counts compute ends only. Fills
/// Timeline::waits, and Timeline::transfers when `with_transfers` (the Chrome trace draws them).
/// Throws Error: invalid_schedule for a program that sends what was not computed, consumes what it
/// never receives or mismatches a link; deadlock naming the waits of the cycle.
/// The send semantics are a setting of reference timing: a request that names one (`sends_given`)
/// with another timing is refused (usage, field "sends"), by the CLI and the module alike. The two
/// spell the setting and the timing their own way: "--sends applies only to --timing reference".
void check_sends_apply(Timing timing, bool sends_given, std::string_view sends_spelling,
                       std::string_view reference_spelling);

[[nodiscard]] auto simulate_reference(const Schedule& schedule, const Costs& costs, SendMode sends,
                                      bool with_transfers = false) -> Timeline;

/// The same with costs per stage and speeds per rank (stage_costs.h), timed as simulate() times them:
/// each op at its stage's cost over its rank's speed, each message after its stage boundary's latency.
[[nodiscard]] auto simulate_reference(const Schedule& schedule, const StageCosts& costs, SendMode sends,
                                      bool with_transfers = false) -> Timeline;

/// torch.distributed.pipelining's lowering of a compute-only schedule (`_add_send_recv` in
/// torch/distributed/pipelining/schedules.py): the ranks are visited round-robin in rank order, each
/// placing its next op once its input is there (its own earlier op, or a receive already placed on its
/// list); an op whose output crosses to another rank is followed by its SEND on its own list and the
/// matching RECV is appended to the receiver's list at that moment. Torch's runtime
/// (`_PipelineScheduleRuntime._step_microbatches`) launches each SEND and RECV as it reaches it, waits
/// for a receive only when the op consuming it runs, and waits for its sends at the end of the step:
/// here a `post` after every transfer, the consuming op's own wait, and one `wait_all` at the end.
/// Throws Error (deadlock) when no rank can place its next op, like torch's "Malformed compute schedule".
[[nodiscard]] auto lower_send_recv(const Schedule& schedule) -> CommProgram;

}  // namespace pipesim
