#pragma once
// Schedules given as text: imported from JSON or PyTorch's action notation, and exported as actions.
//
// Action notation (torch.distributed.pipelining `_Action`): one line per rank, actions separated by
// commas or whitespace, each `{stage}{kind}{microbatch}` with kind F (forward), I (backward for
// inputs), W (weight gradient) or B (full backward), e.g. `0F0,0F1,0B0`. An overlapped pair is written
// as torch prints it, `(0F7;7B3)OVERLAP_F_B`, and becomes an FB. Empty cells, `None` and `-` are idle
// slots and are dropped; torch's FSDP actions (UNSHARD, RESHARD, REDUCE_GRAD) are skipped. Its
// communication actions (SEND_F, RECV_F, SEND_B, RECV_B), when the text has any, become the schedule's
// communication program (Schedule::comm) as torch's runtime runs it: each launched where it stands, a
// receive waited for by the op that consumes it, the sends at the end; `--timing reference` then
// honours their order, and the dataflow timing ignores them. Blank lines and lines
// starting with `#` are not ranks. Action notation has one path: stage s lives on the one rank that runs
// it, and a chunk's phase is the index of its stage among the stages of its rank, lowest first (the
// virtual chunk of a looped layout, the leg of a V).
#include <string>
#include <string_view>

#include "pipesim/schedule.h"

namespace pipesim {

/// Parses a custom schedule: JSON (text starting with `{`) or action notation. JSON with `traceEvents` is
/// a Chrome trace and must be one that to_chrome_trace wrote (otherData.generator "pipesim"): its compute
/// events, in timestamp order per rank, give the ops (export.h). Otherwise the JSON shape is that of
/// `pipesim simulate --format json`: `micro_batches` (in total, over both directions), optional
/// `directions` (1 or 2) and `stages`, and `per_rank[].ops[]` with `op`, `mb`, `phase`, `stage` (FB:
/// `f_mb`, `f_phase`, `f_stage`, `b_mb`, `b_phase`, `b_stage`); other fields are ignored, so an export
/// reads back as the same schedule. The result passes validate_schedule. Throws Error with one line,
/// naming the line and token (actions) or the rank and op (JSON) at fault.
[[nodiscard]] auto parse_custom_schedule(std::string_view text) -> Schedule;

/// The schedule of a run whose schedule is given as text (ScheduleSpec::given_as_text: custom), from
/// RunRequest::custom_schedule: parse_custom_schedule, but a blank text (none given) is refused with
/// usage, asking for it (--schedule-file PATH).
[[nodiscard]] auto schedule_from_text(std::string_view text) -> Schedule;

/// Any schedule in action notation, one line per rank, actions separated by commas: the CSV that
/// torch's `_load_csv` reads. A two-direction schedule's stage s of direction d is written as stage id
/// d x stages + s and its micro-batch m as d x M + m (M micro-batches per direction), so ids never
/// collide; pipesim reads that back as the same two directions. Every built-in schedule reads back op
/// for op.
[[nodiscard]] auto format_actions(const Schedule& schedule) -> std::string;

}  // namespace pipesim
