#!/usr/bin/env python3
"""The Python side of `npm run bench`: pipesim against a list-scheduling evaluation in pure Python.

Python tools for pipeline schedules (the Zero Bubble repository's simulator, course notebooks,
hand-rolled visualizers) time a schedule by list scheduling: sweep the ranks over and over, start
each rank's next op once the ops it depends on have ended, until every op has run. This script
does exactly that, in plain Python with dicts keyed by chunk, on the very schedule pipesim built
(read from `pipesim simulate --format json`), checks that both agree on every op's start and end,
and compares the time:

  python_s   the list-scheduling loop alone (reading the JSON and building the op lists excluded)
  pipesim_s  the whole `pipesim simulate --format summary` process: start, generate, validate,
             simulate, measure, print (so the ratio understates pipesim's engine, never flatters it)

Medians over repeated runs, in this session. Writes artifacts/bench/python.json.
Usage: python3 scripts/bench-python.py [--quick] [--json-out FILE] [--cli build/pipesim]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The schedule and its (ranks, micro-batches), as core/bench/cases.json lists them: Fig. 5, then three
# sizes up to the native target's 64 x 8192 (--quick: the first three).
with open(os.path.join(ROOT, "core/bench/cases.json"), encoding="utf-8") as cases_file:
    _PYTHON_REFERENCE = json.load(cases_file)["python_reference"]
SCHEDULE = _PYTHON_REFERENCE["schedule"]
CASES = [tuple(size) for size in _PYTHON_REFERENCE["sizes"]]
QUICK_CASES = CASES[:3]


def load_schedule(cli, ranks, micro_batches):
    """The schedule and pipesim's timings, as the CLI's JSON gives them."""
    out = subprocess.run(
        [cli, "simulate", "--schedule", SCHEDULE, "--ranks", str(ranks), "--micro-batches", str(micro_batches),
         "--format", "json"], check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def op_lists(run):
    """Per rank, its ops in order as tuples: (kind, forward key, backward key, pipesim's start, end).

    A key names a chunk: (path, stage, micro-batch); the path is the direction in two-direction
    schedules. An FB's forward half is its chunk, its backward half `b_*`."""
    two_way = run["directions"] == 2
    ranks = []
    for rank in run["per_rank"]:
        ops = []
        for op in rank["ops"]:
            if op["op"] == "FB":
                key = (op["f_phase"] if two_way else 0, op["f_stage"], op["f_mb"])
                back = (op["b_phase"] if two_way else 0, op["b_stage"], op["b_mb"])
            else:
                key = back = (op["phase"] if two_way else 0, op["stage"], op["mb"])
            ops.append((op["op"], key, back, op["start"], op["end"]))
        ranks.append(ops)
    return ranks


def list_schedule(ranks, cost, stages):
    """Start and end of every op, by list scheduling: the way Python peers compute timings."""
    last = stages - 1
    duration = {"F": cost["F"], "B": cost["B"], "I": cost["B"] - cost["W"], "W": cost["W"], "FB": cost["FB"]}
    comm = cost["comm"]
    forward_end = {}   # chunk -> when its forward ended (F or FB)
    backward_end = {}  # chunk -> when its backward ended (B, I or FB)
    rank_of = {}       # chunk -> the rank that ran it, to add comm across ranks
    free = [0.0] * len(ranks)
    position = [0] * len(ranks)
    times = [[None] * len(ops) for ops in ranks]
    remaining = sum(len(ops) for ops in ranks)

    def forward_ready(key, rank):
        path, stage, mb = key
        if stage == 0:
            return 0.0
        producer = (path, stage - 1, mb)
        if producer not in forward_end:
            return None
        return forward_end[producer] + (comm if rank_of[producer] != rank else 0)

    def backward_ready(key, rank):
        path, stage, mb = key
        if stage == last:
            return forward_end.get(key)
        producer = (path, stage + 1, mb)
        if producer not in backward_end:
            return None
        return backward_end[producer] + (comm if rank_of[producer] != rank else 0)

    while remaining:
        progressed = False
        for r, ops in enumerate(ranks):
            while position[r] < len(ops):
                kind, key, back, _, _ = ops[position[r]]
                if kind == "F":
                    ready = forward_ready(key, r)
                elif kind in ("B", "I"):
                    ready = backward_ready(key, r)
                elif kind == "W":
                    ready = backward_end.get(key)
                else:  # FB: both halves' inputs
                    f, b = forward_ready(key, r), backward_ready(back, r)
                    ready = None if f is None or b is None else max(f, b)
                if ready is None:
                    break
                start = max(free[r], ready)
                end = start + duration[kind]
                if kind in ("F", "FB"):
                    forward_end[key] = end
                    rank_of[key] = r
                if kind in ("B", "I"):
                    backward_end[key] = end
                if kind == "FB":
                    backward_end[back] = end
                    rank_of[back] = r
                times[r][position[r]] = (start, end)
                free[r] = end
                position[r] += 1
                remaining -= 1
                progressed = True
        if not progressed:
            raise RuntimeError("deadlock: no rank can start its next op")
    return times


def median_seconds(call, runs):
    samples = []
    for _ in range(runs):
        t0 = time.perf_counter()
        call()
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer runs, without the 532K-op case")
    parser.add_argument("--json-out", default=os.path.join(ROOT, "artifacts/bench/python.json"))
    parser.add_argument("--cli", default=os.path.join(ROOT, "build/pipesim"))
    args = parser.parse_args()
    if not os.access(args.cli, os.X_OK):
        print(f"bench-python: no CLI at {args.cli}; build it with scripts/build-native.sh", file=sys.stderr)
        return 2

    rows = []
    print(f"{SCHEDULE:<16}{'ops':>9}{'python':>12}{'pipesim CLI':>14}{'ratio':>9}   agree")
    for ranks, micro_batches in (QUICK_CASES if args.quick else CASES):
        run = load_schedule(args.cli, ranks, micro_batches)
        lists = op_lists(run)
        ops = sum(len(r) for r in lists)
        times = list_schedule(lists, run["cost"], run["stages"])
        agree = all(times[r][k] == (op[3], op[4]) for r, rank_ops in enumerate(lists) for k, op in enumerate(rank_ops))
        makespan = max(end for rank_times in times for _, end in rank_times)
        agree = agree and makespan == run["makespan"]
        python_runs = 3 if ops > 100_000 or args.quick else 7
        python_s = median_seconds(lambda: list_schedule(lists, run["cost"], run["stages"]), python_runs)
        command = [args.cli, "simulate", "--schedule", SCHEDULE, "--ranks", str(ranks), "--micro-batches",
                   str(micro_batches), "--format", "summary"]
        pipesim_s = median_seconds(lambda: subprocess.run(command, check=True, stdout=subprocess.DEVNULL), 5 if args.quick else 11)
        ratio = python_s / pipesim_s
        size = f"{ranks}x{micro_batches}"
        print(f"{size:<16}{ops:>9}{python_s * 1e3:>10.1f}ms{pipesim_s * 1e3:>12.1f}ms{ratio:>8.1f}x   {'yes' if agree else 'NO'}")
        rows.append({"schedule": SCHEDULE, "ranks": ranks, "micro_batches": micro_batches, "ops": ops,
                     "makespan": makespan, "python_s": python_s, "pipesim_cli_s": pipesim_s,
                     "python_over_pipesim": ratio, "same_timings": agree})
    os.makedirs(os.path.dirname(args.json_out), exist_ok=True)
    with open(args.json_out, "w") as out:
        json.dump({"python": sys.version.split()[0], "cases": rows}, out, indent=2)
        out.write("\n")
    if not all(row["same_timings"] for row in rows):
        print("bench-python: the Python evaluation and pipesim disagree on some op's timing", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
