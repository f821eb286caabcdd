# Usage: python3 make_pipeline_4rank.py pipeline_4rank
# A measured 4-rank 1F1B run with 4 micro-batches in the PyTorch profiler's shape (hand-made, not a
# real run): F = 100 us and B = 200 us on every stage, except rank 1's backward of micro-batch 2, which
# takes 260 us, and rank 2's forward of micro-batch 3, which starts 37.5 us late.
import json, os, sys
P, M = 4, 4
F, B = 100.0, 200.0
def order(r):
    warm = min(P - 1 - r, M)
    ops = [("F", i) for i in range(warm)]
    f, b = warm, 0
    while f < M:
        ops.append(("F", f)); f += 1
        ops.append(("B", b)); b += 1
    while b < M:
        ops.append(("B", b)); b += 1
    return ops
dur = {(r, k, mb): (F if k == "F" else B) for r in range(P) for k in "FB" for mb in range(M)}
dur[(1, "B", 2)] = 260.0
delay = {(2, "F", 3): 37.5}
end = {}
times = {r: [] for r in range(P)}
pending = {r: order(r) for r in range(P)}
free = [0.0] * P
progress = True
while progress:
    progress = False
    for r in range(P):
        while pending[r]:
            k, mb = pending[r][0]
            dep = (r - 1, "F", mb) if k == "F" else ((r + 1, "B", mb) if r < P - 1 else (r, "F", mb))
            if k == "F" and r == 0: dep = None
            if dep is not None and dep not in end: break
            s = max(free[r], end[dep] if dep else 0.0) + delay.get((r, k, mb), 0.0)
            e = s + dur[(r, k, mb)]
            end[(r, k, mb)] = e; free[r] = e
            times[r].append((k, mb, s, e)); pending[r].pop(0); progress = True
print("makespan", max(end.values()), file=sys.stderr)
for r in range(P):
    print("rank", r, "busy", sum(e - s for _, _, s, e in times[r]), file=sys.stderr)
EPOCH = 1740461679000000.0   # host clock, Unix-epoch microseconds, as Kineto writes it
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
for r in range(P):
    pid, main, autograd = 3000 + r, 3000 + r, 3100 + r
    base_ns = 1_000_000 if r == 2 else 0   # rank 2's file counts from a base 1 ms later
    shift = base_ns / 1000.0
    ev = [{"name": "process_name", "ph": "M", "ts": EPOCH - shift, "pid": pid, "tid": 0, "args": {"name": "python3"}},
          {"name": "thread_name", "ph": "M", "ts": EPOCH - shift, "pid": pid, "tid": autograd, "args": {"name": "pt_autograd_0"}},
          {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#7", "pid": pid, "tid": main, "ts": EPOCH - 200 - shift, "dur": 3000}]
    corr = 1000 * (r + 1)
    cpu = EPOCH - 150 - shift
    for (k, mb, s, e) in times[r]:
        name = f"PP:{r}{k}{mb}"
        ev.append({"ph": "X", "cat": "user_annotation", "name": name, "pid": pid, "tid": main, "ts": cpu, "dur": 4})
        # the backward's kernels come from autograd's thread, while the main thread sits in backward()
        thread = main if k == "F" else autograd
        mid = s + (e - s) / 2
        kernels = [(7, s, mid, "void cutlass::Kernel<fprop>(Params)" if k == "F" else "void cutlass::Kernel<dgrad>(Params)"),
                   (7 if k == "F" else 23, mid, e, "void flash_fwd_kernel(Params)" if k == "F" else "void cutlass::Kernel<wgrad>(Params)")]
        for n, (stream, ks, ke, kname) in enumerate(kernels):
            corr += 1
            launch = cpu + 1 + n
            ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": pid, "tid": thread, "ts": launch, "dur": 0.5,
                       "args": {"correlation": corr}})
            ev.append({"ph": "s", "id": corr, "pid": pid, "tid": thread, "ts": launch, "cat": "ac2g", "name": "ac2g"})
            ev.append({"ph": "f", "id": corr, "pid": 0, "tid": stream, "ts": EPOCH + ks - shift, "cat": "ac2g", "name": "ac2g", "bp": "e"})
            ev.append({"ph": "X", "cat": "kernel", "name": kname, "pid": 0, "tid": stream, "ts": EPOCH + ks - shift, "dur": ke - ks,
                       "args": {"device": 0, "stream": stream, "correlation": corr}})
        # a send after each forward except the last stage's: torch's SEND_F, not a computation
        if k == "F" and r < P - 1:
            corr += 1
            ev.append({"ph": "X", "cat": "user_annotation", "name": f"PP:{r}SEND_F{mb}", "pid": pid, "tid": main, "ts": cpu + 4, "dur": 1})
            ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": pid, "tid": main, "ts": cpu + 4.25, "dur": 0.5,
                       "args": {"correlation": corr}})
            ev.append({"ph": "X", "cat": "kernel", "name": "ncclDevKernel_SendRecv(ncclDevComm*)", "pid": 0, "tid": 27,
                       "ts": EPOCH + e - shift, "dur": 2, "args": {"device": 0, "stream": 27, "correlation": corr}})
        cpu += 6
    doc = {"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "NVIDIA H800", "numSms": 132}],
           "distributedInfo": {"backend": "nccl", "rank": 8 * r, "world_size": 32},
           "traceEvents": ev, "traceName": f"pipesim fixture: 1F1B, pipeline rank {r} (hand-made, not a real run)"}
    if base_ns: doc["baseTimeNanoseconds"] = base_ns
    # files named so that their order by name is not the pipeline order: distributedInfo decides
    with open(os.path.join(out, f"trace_{'dcba'[r]}.json"), "w") as fh:
        json.dump(doc, fh, indent=0)
