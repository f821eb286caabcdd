// pipesim: compute, simulate and measure pipeline-parallel training schedules.
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <exception>
#include <new>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "commands.h"
#include "output.h"
#include "pipesim/error.h"
#include "pipesim/export.h"
#include "pipesim/limits.h"
#include "pipesim/parse.h"
#include "pipesim/version.h"

namespace {

// FORMATS stands for simulate's --format choices, read from the table of export formats (usage()).
constexpr std::string_view usage_template = R"(pipesim: pipeline-parallel schedules (DualPipe, DualPipeV, 1F1B, GPipe, Zero Bubble), simulated and measured

usage:
  pipesim simulate [--schedule NAME] [--ranks N] [--micro-batches M] [--virtual-stages V]
                   [--cost F=1,B=2,W=1,FB=3,comm=0] [--color auto|always|never] [--schedule-file PATH]
                   [--format FORMATS] [--us-per-unit 1000]
                   [--timing dataflow|reference [--sends rendezvous|eager|async]]
                   [--model-cost F=..,B=..,W=..,FB=.. | --model-stages N] [--stage-cost STAGE:KEY=V,...]...
                   [--stage-costs FILE] [--rank-speed RANK:FACTOR]... [--model FILE [--layers-per-stage L,L,...]]
      Without options: DualPipe with 8 ranks and 20 micro-batches (DeepSeek-V3 Fig. 5).
      --cost is every stage's; --model-cost is one micro-batch through the whole model, which each
      schedule divides over its own stages (--model-stages N: --cost is one of N model stages).
      --stage-cost overrides one stage (an index, first or last), --stage-costs FILE every stage (a
      JSON list), --rank-speed slows one rank (0.5: half speed). --model FILE divides a planner model
      (core/data/plan_examples/) into the schedule's stages and adds memory in bytes per rank; its
      pipeline size is --ranks (the file's GPUs cut into that many stages) or else the file's model.pp,
      and --micro-batches defaults to its model.micro_batches.
      --timing reference times the ops as the reference runtime issues its sends and receives
      (DualPipe/DualPipeV: DeepSeek's dualpipe.py; the others: torch's pipelining lowering);
      --sends says when a transfer starts and completes (default rendezvous). dataflow is the ideal.
      --schedule custom --schedule-file PATH ('-' = stdin) runs your own order: JSON as --format json
      writes it, PyTorch actions (one line per rank, e.g. 0F0,0F1,0B0,0B1) as --format actions does,
      or a Chrome trace as --format chrome-trace writes it (for Perfetto; 1 cost unit = --us-per-unit
      microseconds, 1000 by default). csv is one row per op; svg is a standalone picture.
      B is the full backward; an input-only backward costs B-W; FB is an overlapped forward+backward
      pair and defaults to F+B when --cost omits it.
  pipesim simulate --measured TRACE.json,...|FOLDER [--op-names '{"F": "REGEX", ...}']
                   [--align profiler|first-ops] [--format text|json]
      A measured pipeline: one PyTorch profiler trace per rank, ops named as torch pipelining names
      them (PP:0F0) or by --op-names (per kind a regular expression: stage, then micro-batch).
      Per rank busy and bubble, costs fitted per stage and kind, the model run with them, late ops.
      --align first-ops: clocks not synchronised, each rank's first op placed where the model starts it.
  pipesim list [--format text|json|markdown] [--lang en|pt-BR|zh-CN]
      The schedules, their rules and sources (text in the language of --lang; json has every
      language, each schedule's colour and the sizes a front end starts it with; markdown is the
      README's schedules table).
  pipesim presets [--format text|json] [--lang en|pt-BR|zh-CN]
      The page's presets (published figures, the lesson's exercises), each with the simulate command
      that runs it.
  pipesim overlap [--forward attn=A,dispatch=D,mlp=M,combine=C
                   --backward combine=C,mlp_b=M,mlp_w=W,dispatch=D,attn_b=A,attn_w=W [--pp-comm X]
                   | --workload FILE | --trace PROFILE.json] [--comm-sms 20 [--total-sms 132] [--saturation-sms 20]]
                  [--ratio 1:1] [--simulate NAME [--ranks N] [--micro-batches M] [--virtual-stages V]]
                  [--format text|json] [--color auto|always|never] [--lang en|pt-BR|zh-CN]
      One forward and one backward chunk overlapped on compute and communication SMs (DeepSeek-V3
      Fig. 4): f, b, the pair's fb, exposed communication. Without inputs: a DeepSeek-V3 workload.
      --simulate runs a schedule with F, B, W, FB derived from the chunk model.
      --trace reads a PyTorch profiler trace of one F&B pair ('-' = stdin): the measured pair next to
      the model, its components' times as the model's inputs, the measured span as FB.
      --lang words the derivation of each component's duration (default en).
  pipesim quiz --course [--lang en|pt-BR|zh-CN]
  pipesim quiz --bank [--lang en|pt-BR|zh-CN]
      The lesson's quiz: --course prints the course's quiz.json (6 questions, each one's options in
      the order the course's scripts/debias_quizzes.py --check requires); --bank prints every sourced
      question (all languages unless --lang).
  pipesim lesson --exercise 1|2|3|4 [--format text|json] [--lang en|pt-BR|zh-CN]
                 [--cost F=1,B=2,W=1,FB=3] [--bytes-per-param 2] [--gpu-memory-gb 80]
      The lesson's exercises computed by the engine, every step as data.
  pipesim plan --input FILE.json [--format text|json] [--lang en|pt-BR|zh-CN] [--search]
      Ranks every schedule for a cluster and a model (see core/data/plan_examples/) and recommends one,
      explaining why in the language of --lang (default: the input's "language", else en).
      --search runs every schedule, pipeline size, virtual stages and layers per stage instead and
      prints the fastest configurations.
  pipesim help
      This text. pipesim COMMAND --help (or -h) shows one command's part of it.
  pipesim --version
      The version, as "pipesim X.Y.Z".

Every command takes --output PATH: its output is written to a temporary file next to PATH, which
replaces PATH only once complete (a failed or interrupted run leaves PATH as it was).

Bad input prints one line "pipesim: error[CODE]: MESSAGE" and exits with status 2. CODE is one of
usage, bad_value, unknown_name, limit_exceeded, schedule_rule, bad_import, invalid_schedule, deadlock,
io, internal. Output that cannot be written (a full disk) prints such a line and exits with status 1.
)";

/// The usage text with simulate's format choices filled in.
auto usage() -> std::string {
  std::string text(usage_template);
  const std::string_view token = "FORMATS";
  text.replace(text.find(token), token.size(), pipesim::cli::simulate_format_choices());
  return text;
}

struct Command {
  std::string_view name;
  int (*run)(pipesim::cli::Argv);
};

const Command commands[] = {
    {"simulate", pipesim::cli::run_simulate},
    {"list", pipesim::cli::run_list},
    {"presets", pipesim::cli::run_presets},
    {"overlap", pipesim::cli::run_overlap},
    {"quiz", pipesim::cli::run_quiz},
    {"lesson", pipesim::cli::run_lesson},
    {"plan", pipesim::cli::run_plan},
};

/// The bounds of pipesim/limits.h, stated in the help so nobody meets them by surprise.
auto limits_text() -> std::string {
  namespace lim = pipesim::limits;
  return "Limits of one run: " + std::to_string(lim::max_ranks) + " ranks, " + std::to_string(lim::max_micro_batches) +
         " micro-batches, " + std::to_string(lim::max_virtual_stages) + " virtual stages, " +
         std::to_string(lim::max_ops) + " ops (ranks x stages per rank x micro-batches x ops per chunk; DualPipe's F&B pairs count once); a custom schedule of at most " +
         std::to_string(lim::max_schedule_text_bytes >> 20) + " MiB.\n";
}

auto command_names() -> std::string {
  std::string names;
  for (const Command& c : commands) names += (names.empty() ? "" : ", ") + std::string(c.name);
  return names;
}

/// One command's part of the usage text: its "  pipesim NAME" lines and what follows, up to the next
/// command, so that `pipesim NAME --help` and `pipesim help` say the same thing.
auto command_usage(std::string_view name) -> std::string {
  const std::string head = "  pipesim " + std::string(name);
  std::string out = "usage:\n";
  bool inside = false;
  std::size_t at = 0;
  const std::string text = usage();
  const std::string_view all = text;
  while (at < all.size()) {
    const std::size_t end = std::min(all.find('\n', at), all.size());
    const std::string_view line = all.substr(at, end - at);
    at = end + 1;
    if (line.starts_with("  pipesim ")) inside = line.starts_with(head) && (line.size() == head.size() || line[head.size()] == ' ');
    else if (!line.starts_with("   ")) inside = false;
    if (inside) out += std::string(line) + "\n";
  }
  return out;
}

/// --help or -h anywhere after a command asks for that command's usage (as in git and cargo), even
/// among options that would be refused.
auto asks_for_help(pipesim::cli::Argv args) -> bool {
  return std::any_of(args.begin(), args.end(), [](std::string_view a) { return a == "--help" || a == "-h"; });
}

auto run_command(const std::vector<std::string_view>& args) -> int {
  if (args.empty())
    throw pipesim::Error(pipesim::ErrorCode::usage, "no command given; commands are " + command_names() + " (pipesim help shows their options)");
  const pipesim::cli::Argv rest = pipesim::cli::Argv(args).subspan(1);
  if (args[0] == "--version" || args[0] == "-V") {
    if (!rest.empty())
      throw pipesim::Error(pipesim::ErrorCode::usage, "unexpected argument '" + std::string(rest[0]) + "' after --version; it takes none");
    std::cout << "pipesim " << pipesim::version() << "\n";
    return 0;
  }
  if (args[0] == "help" || args[0] == "--help" || args[0] == "-h") {
    if (!rest.empty())
      throw pipesim::Error(pipesim::ErrorCode::usage, "unexpected argument '" + std::string(rest[0]) + "' for 'help'; it takes none (pipesim COMMAND --help shows one command)");
    std::cout << usage() << limits_text();
    return 0;
  }
  for (const Command& c : commands) {
    if (c.name != args[0]) continue;
    if (asks_for_help(rest)) {
      std::cout << command_usage(c.name) << limits_text();
      return 0;
    }
    return c.run(rest);
  }
  throw pipesim::Error(pipesim::ErrorCode::usage, "unknown command '" + pipesim::quoted_input(args[0]) + "'; commands are " + command_names() + ", help, --version");
}

/// Bad input: one line on standard error in the form `pipesim: error[CODE]: MESSAGE` (CODE is the
/// core's ErrorCode name, for scripts), and status 2.
auto refuse(pipesim::ErrorCode code, const char* message) -> int {
  std::cerr << "pipesim: error[" << pipesim::code_name(code) << "]: " << message << "\n";
  return 2;
}

/// Output that never arrived (a full disk, /dev/full) is a failure of the run, not bad input: exit 1.
/// The flush writes what is still buffered; errno then holds the reason of the write that failed,
/// whether it was this one or an earlier one that left the stream bad.
auto finish_output(int status) -> int {
  if (std::cout.flush()) return status;
  const int code = errno;
  if (status != 0) return status;  // the command has already said what went wrong
  std::cerr << "pipesim: error[io]: cannot write the output: " << (code != 0 ? std::strerror(code) : "the write failed")
            << "\n";
  return 1;
}

}  // namespace

/// The command, with its output sent to --output PATH when given (output.h): committed only when the
/// command succeeded.
auto run_with_output(const std::vector<std::string_view>& args) -> int {
  const auto [rest, path] = pipesim::cli::take_output_option(args);
  if (!path) return run_command(rest);
  pipesim::cli::OutputFile output(*path);
  const int status = run_command(rest);
  if (status == 0) output.commit();
  return status;
}

auto main(int argc, char** argv) -> int {
  const std::vector<std::string_view> args(argv + 1, argv + argc);
  int status = 0;
  try {
    status = run_with_output(args);
  } catch (const pipesim::cli::OutputFailed& e) {
    refuse(e.code(), e.what());
    status = 1;  // output that never arrived: exit 1, as for standard output
  } catch (const pipesim::Error& e) {
    status = refuse(e.code(), e.what());
  } catch (const std::bad_alloc&) {
    status = refuse(pipesim::ErrorCode::limit_exceeded, "out of memory: the request needs more memory than this machine has");
  } catch (const std::exception& e) {  // anything else the standard library throws is a bug of pipesim's
    status = refuse(pipesim::ErrorCode::internal, e.what());
  }
  return finish_output(status);
}
