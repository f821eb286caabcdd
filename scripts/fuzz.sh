#!/usr/bin/env bash
# Fuzzes every input surface of the core (tests/fuzz/): builds the libFuzzer targets with clang-14 under
# AddressSanitizer and UndefinedBehaviorSanitizer, then runs each, as many at once as there are cores,
# from a scratch copy of its seed corpus (the repository's stays as is).
#
# Usage: scripts/fuzz.sh            the bounded run of `npm test`: every target executes its whole seed
#                                   corpus, then a fixed number of mutations (its `mutations` below)
#                                   from a fixed random seed. It does the same work on any machine, at
#                                   any load, and finds the same inputs: a finding reproduces.
#        scripts/fuzz.sh SECONDS    a campaign: a wall-clock budget shared by all targets, random
#                                   seeds (`npm run fuzz -- 600`, or PIPESIM_FUZZ_SECONDS=600 npm test)
#
# A finding is a crash, a sanitizer report, an exception other than pipesim::Error, a broken property,
# an input slower than $timeout seconds or one that takes more than $rss_limit_mb MB. Its input is saved
# as artifacts/fuzz/<target>/crash-* (timeout-*, oom-*, leak-*), its log as artifacts/fuzz/<target>.log,
# and the run exits 1. Every run writes artifacts/fuzz/summary.json: per target, the seeds, the inputs
# executed, the corpus it grew to and the outcome. Replay an input: build-sanitized/fuzz/<target> FILE
set -euo pipefail
cd "$(dirname "$0")/.."

budget="${1:-}"
if [[ -n "$budget" && ! "$budget" =~ ^[1-9][0-9]*$ ]]; then
  echo "fuzz.sh: the budget must be a whole number of seconds, got '$budget'" >&2
  exit 2
fi
timeout=10
rss_limit_mb=2048
random_seed=1

targets=(fuzz_costs fuzz_numbers fuzz_custom_schedule fuzz_plan fuzz_overlap fuzz_run fuzz_inputs fuzz_profile_trace)
declare -A surface=(
  [fuzz_costs]="cost strings (parse_costs)"
  [fuzz_numbers]="numbers (parse_finite, parse_whole_in, parse_number_in)"
  [fuzz_custom_schedule]="custom schedules: JSON, PyTorch actions, Chrome traces (parse_custom_schedule), then run and every export"
  [fuzz_plan]="planner JSON (parse_plan_input, plan)"
  [fuzz_overlap]="chunk model: durations, SM split, ratio, workload JSON (make_overlap_input, run_overlap)"
  [fuzz_run]="run() with arbitrary schedules, sizes, costs and trace scales, then every export"
  [fuzz_inputs]="document checks (BOM, NUL, size), bounded JSON parsing, message escaping, exports within a budget"
  [fuzz_profile_trace]="PyTorch profiler traces: the reader, one pair measured (run_measured_overlap), a pipeline of up to 3 ranks (measure_pipeline)"
)
# The bounded run's mutations per target, after its seeds: each about 6 CPU seconds on this machine,
# so that every surface gets a comparable share. Measured per input (CPU time of the target alone,
# sanitized build, seed 1): fuzz_costs 58 us, fuzz_numbers 314 us, fuzz_custom_schedule 386 us,
# fuzz_plan 210 us, fuzz_overlap 669 us, fuzz_run 4.4 ms (whole pipelines and every export),
# fuzz_inputs 2.9 ms (exports within a budget), fuzz_profile_trace 1.9 ms; the earlier budgets, meant
# as 3 s each, took 3.5 to 17 s.
declare -A mutations=(
  [fuzz_costs]=100000 [fuzz_numbers]=19000 [fuzz_custom_schedule]=15500 [fuzz_plan]=28500
  [fuzz_overlap]=9000 [fuzz_run]=1200 [fuzz_inputs]=2000 [fuzz_profile_trace]=3000
)

scripts/setup.sh hardening
scripts/build-sanitized.sh pipesim_fuzzers
source scripts/sanitizer-env.sh

out=artifacts/fuzz
rm -rf "$out"
mkdir -p "$out"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# Targets run side by side, one per core: a campaign's budget buys cores x budget seconds of fuzzing.
parallel=$(nproc)
if [[ -n "$budget" ]]; then
  waves=$(( (${#targets[@]} + parallel - 1) / parallel ))
  per_target=$(( budget / waves > 0 ? budget / waves : 1 ))
  echo "fuzz: ${#targets[@]} targets, ${per_target} s each, ${parallel} at a time"
else
  echo "fuzz: ${#targets[@]} targets, each its seeds then a fixed number of mutations (seed $random_seed), ${parallel} at a time"
fi

# The bound of one target: time for a campaign; for the bounded run, libFuzzer's -runs, which counts
# the seed inputs too, so it is set to seeds + mutations, and a fixed -seed.
bound_of() {
  local target=$1
  if [[ -n "$budget" ]]; then
    echo "-max_total_time=$per_target"
  else
    local seeds
    seeds=$(find tests/fuzz/corpus/"$target" -type f | wc -l)
    echo "-runs=$(( seeds + ${mutations[$target]} )) -seed=$random_seed"
  fi
}

fuzz_one() {
  local target=$1
  mkdir -p "$scratch/$target" "$out/$target"
  cp tests/fuzz/corpus/"$target"/* "$scratch/$target/"
  local dict=()
  [[ -f tests/fuzz/dict/$target.dict ]] && dict=(-dict="tests/fuzz/dict/$target.dict")
  local status=0
  build-sanitized/fuzz/"$target" "$scratch/$target" "${dict[@]}" $(bound_of "$target") \
    -timeout="$timeout" -rss_limit_mb="$rss_limit_mb" -artifact_prefix="$out/$target/" -print_final_stats=1 \
    >"$out/$target.log" 2>&1 || status=$?
  echo "$status" >"$scratch/$target.status"
}

running=0
for target in "${targets[@]}"; do
  fuzz_one "$target" &
  running=$((running + 1))
  if ((running == parallel)); then
    wait -n || true
    running=$((running - 1))
  fi
done
wait

# The outcome a log shows; the first matching line of libFuzzer or a sanitizer wins.
outcome_of() {
  local log=$1 status=$2
  if ((status == 0)); then echo clean; return; fi
  if grep -q "pipesim fuzz finding" "$log"; then echo property-or-exception
  elif grep -q "ERROR: libFuzzer: timeout" "$log"; then echo timeout
  elif grep -q "ERROR: libFuzzer: out-of-memory\|malloc(.*) exceeds limit" "$log"; then echo out-of-memory
  elif grep -q "ERROR: LeakSanitizer" "$log"; then echo leak
  elif grep -q "ERROR: AddressSanitizer" "$log"; then echo address-sanitizer
  elif grep -q "runtime error:" "$log"; then echo undefined-behaviour
  elif grep -q "ERROR: libFuzzer: deadly signal" "$log"; then echo crash
  else echo "failed-status-$status"; fi
}

stat_of() { sed -n "s/^stat::$1: *//p" "$2" | tail -n 1; }

failed=0
entries=()
printf '%-22s %8s %10s %9s %8s  %s\n' target seeds executed execs/s corpus outcome
for target in "${targets[@]}"; do
  log="$out/$target.log"
  status=$(cat "$scratch/$target.status")
  outcome=$(outcome_of "$log" "$status")
  seeds=$(find tests/fuzz/corpus/"$target" -type f | wc -l)
  corpus=$(find "$scratch/$target" -type f | wc -l)
  executed=$(stat_of number_of_executed_units "$log")
  per_second=$(stat_of average_exec_per_sec "$log")
  peak_rss=$(stat_of peak_rss_mb "$log")
  slowest=$(stat_of slowest_unit_time_sec "$log")
  artifacts=$(find "$out/$target" -type f -printf '"%p",' | sed 's/,$//')
  [[ "$outcome" == clean ]] || failed=1
  printf '%-22s %8s %10s %9s %8s  %s\n' "$target" "$seeds" "${executed:-?}" "${per_second:-?}" "$corpus" "$outcome"
  entries+=("$(printf '    {"target": "%s", "surface": "%s", "bound": "%s", "seeds": %s, "executed": %s, "execs_per_second": %s, "corpus": %s, "slowest_input_seconds": %s, "peak_rss_mb": %s, "outcome": "%s", "findings": [%s]}' \
    "$target" "${surface[$target]}" "$(bound_of "$target")" "$seeds" "${executed:-0}" "${per_second:-0}" "$corpus" \
    "${slowest:-0}" "${peak_rss:-0}" "$outcome" "$artifacts")")
done

{
  echo "{"
  echo "  \"budget_seconds\": ${budget:-null}, \"parallel\": $parallel, \"timeout_seconds\": $timeout, \"rss_limit_mb\": $rss_limit_mb,"
  echo "  \"sanitizers\": \"address,undefined\", \"compiler\": \"$(clang++-14 --version | head -n 1)\","
  echo "  \"targets\": ["
  (IFS=$'\n'; echo "${entries[*]}" | sed '$!s/$/,/')
  echo "  ]"
  echo "}"
} >"$out/summary.json"
echo "fuzz: summary in $out/summary.json"

if ((failed)); then
  echo "fuzz: FINDINGS above; inputs and logs in $out/ (replay: build-sanitized/fuzz/<target> <input>)" >&2
  exit 1
fi
