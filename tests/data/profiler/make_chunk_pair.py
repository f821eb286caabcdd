# Writes chunk_pair.json: one overlapped F&B pair in the PyTorch profiler's shape (hand-made, not a real
# run), with times chosen so test_profile_trace.cpp can assert every measure exactly.
# Usage: python3 make_chunk_pair.py > chunk_pair.json
import json
G = 5000100.0   # GPU clock origin of the pair
C = 5000000.0   # CPU annotation origin
MAIN, AUTOGRAD, PID = 4242, 4250, 4242
ann = ["combine(B)", "attn(F)", "mlp(B)", "dispatch(F)", "dispatch(B)", "mlp(W)", "mlp(F)", "attn(B)", "attn(W)",
       "combine(F)", "pp(F)", "pp(B)"]
ann_start = {n: 2 * i for i, n in enumerate(ann)}
# component, stream, start, end, name, launch thread, link: "both" | "no-flow" | "flow-only" | "none"
K = [
 ("combine(B)", 27, 0.5, 6, "void dpsk::ep::internode::combine<false, 8, __nv_bfloat16, 8, 2, 16, 24>(int4*, float*)", AUTOGRAD, "both"),
 ("attn(F)", 7, 0, 10.5, "void flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4>>(Flash_fwd_params)", MAIN, "no-flow"),
 ("mlp(B)", 7, 10.5, 16, "void cutlass::device_kernel<dpsk::grouped_gemm::cuda::fp8_ptp128c::GemmKernel>(dgrad)", AUTOGRAD, "both"),
 ("dispatch(F)", 27, 10.75, 11, "void cuda::per_token_cast_to_fp8_with_channels<__nv_bfloat16, 128>(__nv_bfloat16 const*)", MAIN, "both"),
 ("dispatch(F)", 27, 11, 20.5, "void dpsk::ep::internode::dispatch<false, 8, true, 8>(int4*, float*, long*)", MAIN, "both"),
 ("mlp(W)", 23, 16, 19.25, "void cutlass::device_kernel<dpsk::grouped_gemm::cuda::fp8_dptp128c_acc::GemmKernel>(wgrad)", AUTOGRAD, "both"),
 ("mlp(F)", 7, 20, 28, "void cutlass::device_kernel<dpsk::grouped_gemm::cuda::fp8_ptp128c::GemmKernel>(fprop)", MAIN, "both"),
 ("dispatch(B)", 27, 21, 26, "void dpsk::ep::internode::combine<false, 8, __nv_bfloat16, 8, 2, 16, 24>(int4*, float*)", AUTOGRAD, "both"),
 ("attn(B)", 7, 28, 34, "void flash_bwd_dq_dk_dv_loop_seqk_parallel_kernel<Flash_bwd_kernel_traits>(Flash_bwd_params)", AUTOGRAD, "both"),
 ("attn(B)", 7, 34, 40, "void flash_bwd_convert_dq_kernel<Flash_bwd_kernel_traits>(Flash_bwd_params)", AUTOGRAD, "none"),
 ("combine(F)", 27, 29, 35, "void dpsk::ep::internode::combine<false, 8, __nv_bfloat16, 8, 2, 16, 24>(int4*, float*)", MAIN, "both"),
 ("pp(F)", 27, 35, 36, "ncclDevKernel_SendRecv(ncclDevComm*, unsigned long, ncclWork*)", MAIN, "both"),
 ("attn(W)", 23, 40, 42.5, "void cutlass::Kernel2<cutlass_80_wmma_tensorop_bf16_s161616gemm_bf16_32x32_128x1_tn_align8>(Params)", AUTOGRAD, "flow-only"),
 ("pp(B)", 27, 40.5, 41.5, "ncclDevKernel_SendRecv(ncclDevComm*, unsigned long, ncclWork*)", MAIN, "both"),
 (None, 7, 43, 44, "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<TensorListMetadata<4>>(adam)", MAIN, "both"),
]
ev = [
 {"name": "process_name", "ph": "M", "ts": C - 5, "pid": PID, "tid": 0, "args": {"name": "python3"}},
 {"name": "process_labels", "ph": "M", "ts": C - 5, "pid": 0, "tid": 0, "args": {"labels": "GPU 0"}},
 {"name": "thread_name", "ph": "M", "ts": C - 5, "pid": PID, "tid": AUTOGRAD, "args": {"name": "thread 4250 (pt_autograd_0)"}},
 {"name": "Iteration Start: PyTorch Profiler", "ph": "i", "s": "g", "pid": "Traces", "tid": "Trace PyTorch Profiler", "ts": C - 2},
 {"ph": "X", "cat": "Trace", "ts": C - 2, "dur": 200, "pid": "Spans", "tid": "PyTorch Profiler", "name": "PyTorch Profiler (0)", "args": {"Op count": 0}},
 {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#3", "pid": PID, "tid": MAIN, "ts": C - 1, "dur": 31},
 {"ph": "X", "cat": "user_annotation", "name": "1F1B", "pid": PID, "tid": MAIN, "ts": C - 0.5, "dur": 29.5},
 {"ph": "X", "cat": "user_annotation", "name": "optimizer.step", "pid": PID, "tid": MAIN, "ts": C + 25, "dur": 2},
 # another process with a component-looking range around the optimizer's launch: it must not claim it
 {"ph": "X", "cat": "user_annotation", "name": "attn(F)", "pid": 5151, "tid": 5151, "ts": C + 25.5, "dur": 1},
 {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": PID, "tid": MAIN, "ts": C + 2.25, "dur": 0.5, "args": {"External id": 7}},
 {"ph": "X", "cat": "python_function", "name": "torch/nn/modules/module.py(1532): _call_impl", "pid": PID, "tid": MAIN, "ts": C + 2.1, "dur": 1},
 {"ph": "C", "name": "gpu_mem", "pid": 0, "tid": 0, "ts": C + 3, "args": {"bytes": 1234}},
 {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pinned -> Device)", "pid": 0, "tid": 7, "ts": G + 44.5, "dur": 0.25, "args": {"stream": 7}},
 {"ph": "X", "cat": "some_future_category", "name": "whatever", "pid": PID, "tid": MAIN, "ts": C + 1, "dur": 1, "args": {"nested": {"deep": [1, 2, {"x": "y"}]}}},
]
for n in ann:
    ev.append({"ph": "X", "cat": "user_annotation", "name": n, "pid": PID, "tid": MAIN, "ts": C + ann_start[n], "dur": 2,
               "args": {"External id": 1, "Record function id": 0}})
seen = {}
for i, (comp, stream, s, e, name, thread, link) in enumerate(K):
    corr = 100 + i
    if comp is None:
        launch = C + 26
    else:
        seen[comp] = seen.get(comp, 0) + 1
        launch = C + ann_start[comp] + 0.5 * seen[comp]
    kargs = {"External id": corr, "queued": 0, "device": 0, "context": 1, "stream": stream, "correlation": corr,
             "registers per thread": 32, "grid": [132, 1, 1], "block": [128, 1, 1]}
    if link in ("flow-only", "none"):
        del kargs["correlation"]
    ev.append({"ph": "X", "cat": "kernel", "name": name, "pid": 0, "tid": stream, "ts": G + s, "dur": e - s, "args": kargs})
    if link != "none":
        ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": PID, "tid": thread, "ts": launch, "dur": 0.25,
                   "args": {"External id": corr, "cbid": 211, "correlation": corr}})
    if link in ("both", "flow-only"):
        ev.append({"ph": "s", "id": corr, "pid": PID, "tid": thread, "ts": launch, "cat": "ac2g", "name": "ac2g"})
        ev.append({"ph": "f", "id": corr, "pid": 0, "tid": stream, "ts": G + s, "cat": "ac2g", "name": "ac2g", "bp": "e"})
doc = {"schemaVersion": 1,
       "deviceProperties": [{"id": 0, "name": "NVIDIA H800", "numSms": 132}],
       "distributedInfo": {"backend": "nccl", "rank": 3, "world_size": 8},
       "traceEvents": ev,
       "traceName": "pipesim fixture: one overlapped F&B pair (hand-made, not a real run)"}
print(json.dumps(doc, indent=1))
