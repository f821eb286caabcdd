#!/usr/bin/env python3
# An independent check of pipesim's reference timing against DeepSeek's own, unmodified DualPipe and
# DualPipeV step(). Needs a checkout of github.com/deepseek-ai/DualPipe (not part of pipesim) and a
# built CLI; not run by `npm test`:
#   python3 scripts/check-dualpipe-reference.py /path/to/DualPipe [build/pipesim]
# Each rank's step() runs alone under a stand-in for torch (written to a temporary folder) that records
# what the rank hands to dist.batch_isend_irecv (each P2POp's kind and peer, in order) and its computes
# (the three compute methods are overridden to record and keep the bookkeeping lists the send calls
# read; everything that decides communication runs as DeepSeek wrote it). A separate replay then times
# those programs, matching the k-th send with the k-th receive of each directed link as NCCL does, under
# rendezvous, eager and async sends, and every op's start is compared with `pipesim simulate --timing
# reference`.
import os, sys, tempfile
FAKE_TORCH = {'torch/__init__.py': "# A stand-in for torch, just enough to run DualPipe's unmodified step() with recorded communication.\nfrom . import nn, distributed, autograd, cuda\nclass Tensor:\n    def __init__(self, *a, **k):\n        self._base = None\n        self.data = None\n        self.grad = None\n    def tensor_split(self, chunks, dim=0):\n        return [Tensor() for _ in range(chunks)]\n    def detach(self): return Tensor()\n    def requires_grad_(self): return self\n    def detach_(self): return self\n    def backward(self): pass\ndef device(x): return ('cuda', x)\ndef is_grad_enabled(): return True\ndef empty(*a, **k): return Tensor()\ndef stack(x): return Tensor()\ndef cat(x, dim=0): return Tensor()\nfloat32 = 'float32'\ndtype = type('dtype', (), {})\n", 'torch/cuda.py': 'def current_device(): return 0\n', 'torch/nn/__init__.py': "class _Param:\n    device = ('cuda', 0)\nclass Module:\n    def __init__(self, *a, **k): pass\n    def parameters(self): yield _Param()\nclass ModuleList(list, Module):\n    def __init__(self, mods): list.__init__(self, mods)\n", 'torch/autograd/__init__.py': 'class Variable:\n    class _execution_engine:\n        @staticmethod\n        def run_backward(*a, **k): pass\n', 'torch/distributed/__init__.py': 'from . import distributed_c10d\nclass ProcessGroup: pass\ndef irecv(*a): pass\ndef isend(*a): pass\nclass P2POp:\n    def __init__(self, op, tensor, peer):\n        self.op, self.tensor, self.peer = op, tensor, peer\nclass _Req:\n    def wait(self): pass\nRECORDER = None\ndef batch_isend_irecv(ops):\n    RECORDER.flush(ops)\n    return [_Req() for _ in ops]\n', 'torch/distributed/distributed_c10d.py': "def _get_default_group(): raise RuntimeError('pass a process group')\ndef get_global_rank(group, r): return r\n"}
DUALPIPE = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else sys.exit(__doc__ or 'usage: check-dualpipe-reference.py DUALPIPE_CHECKOUT [PIPESIM_CLI]')
PIPESIM = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), '..', 'build', 'pipesim')
_fake_dir = tempfile.mkdtemp(prefix='fake-torch-')
for rel, text in FAKE_TORCH.items():
    os.makedirs(os.path.join(_fake_dir, os.path.dirname(rel)), exist_ok=True)
    open(os.path.join(_fake_dir, rel), 'w').write(text)
sys.path.insert(0, _fake_dir)
sys.path.insert(0, DUALPIPE)
import json, subprocess
import torch, torch.distributed as dist
import dualpipe.comm as comm
from dualpipe.utils import WeightGradStore
from dualpipe import DualPipe, DualPipeV

class Recorder:
    def __init__(self): self.events = []
    def flush(self, ops):
        self.events.append(('flush', [('send' if o.op is dist.isend else 'recv', o.peer) for o in ops]))
    def compute(self, kind): self.events.append(('compute', kind))

class Group:
    def __init__(self, r, n): self.r, self.n = r, n
    def rank(self): return self.r
    def size(self): return self.n

def recording(base, v):
    class Rec(base):
        def _fwd(self, phase):
            if not v: phase ^= self.is_in_second_half
            cid = self.current_f_chunk_id[phase]; self.current_f_chunk_id[phase] += 1
            last = (self.is_first_rank and phase == 1) if v else ((self.is_first_rank and phase == 1) or (self.is_last_rank and phase == 0))
            if last: self.loss_chunks.append(torch.Tensor())
            if (not last) or self.return_outputs: self.output_chunks[phase].append([torch.Tensor()])
        def _bwd(self, phase):
            if not v: phase ^= self.is_in_second_half
            self.current_b_chunk_id[phase] += 1
            self.input_grad_chunks[phase].append([torch.Tensor()])
        def _forward_compute_chunk(self, phase):
            self.rec.compute('F'); self._fwd(phase)
        def _backward_compute_chunk(self, phase, enable_zb=False):
            if enable_zb:
                self.rec.compute('I'); WeightGradStore.put(lambda: self.rec.compute('W')); WeightGradStore.flush()
            else:
                self.rec.compute('B')
            self._bwd(phase)
        def _forward_backward_compute_chunk(self, p0, p1):
            self.rec.compute('FB'); self._fwd(p0); self._bwd(p1)
    return Rec

def programs(name, n, c):
    comm.set_p2p_tensor_shapes([(1,)]); comm.set_p2p_tensor_dtype(torch.float32)
    out = []
    for r in range(n):
        rec = Recorder(); dist.RECORDER = rec
        cls = recording(DualPipeV if name == 'dualpipev' else DualPipe, name == 'dualpipev')
        m = cls((torch.nn.Module(), torch.nn.Module()), process_group=Group(r, n))
        m.rec = rec
        crit = (lambda *a: torch.Tensor())
        first, last = r == 0, r == n - 1
        inputs = (torch.Tensor(),) if (first or (last and name == 'dualpipe')) else ()
        m.step(*inputs, num_chunks=c, criterion=crit if (first or last) else None, labels=[])
        out.append(rec.events)
    return out

def replay(progs, cost, sends):
    F, B, W, FB, C = cost
    dur = {'F': F, 'B': B, 'I': B - W, 'W': W, 'FB': FB}
    n = len(progs)
    # per link lists of [post time] for sends and receives, in launch order
    links = {}
    pc = [0] * n; now = [0.0] * n; pending = [None] * n; starts = [[] for _ in range(n)]
    def link(s, d): return links.setdefault((s, d), {'send': [], 'recv': []})
    def done(kind, s, d, k):
        L = link(s, d)
        if len(L['send']) <= k and kind == 'recv': return None
        if kind == 'send':
            ts = L['send'][k]
            if sends == 'async': return ts
            if sends == 'eager': return ts + C
            if len(L['recv']) <= k: return None
            return max(ts, L['recv'][k]) + C
        ts = L['send'][k]; tr = L['recv'][k]
        return max(ts, tr) + C if sends == 'rendezvous' else max(tr, ts + C)
    progress = True
    while progress:
        progress = False
        for r in range(n):
            while pc[r] < len(progs[r]):
                ev = progs[r][pc[r]]
                if ev[0] == 'compute':
                    starts[r].append(now[r]); now[r] += dur[ev[1]]; pc[r] += 1; progress = True; continue
                if pending[r] is None:  # launch the batch
                    reqs = []
                    for kind, peer in ev[1]:
                        s, d = (r, peer) if kind == 'send' else (peer, r)
                        L = link(s, d); L[kind].append(now[r]); reqs.append((kind, s, d, len(L[kind]) - 1))
                    pending[r] = reqs; progress = True
                ts = [done(*q) for q in pending[r]]
                if any(t is None for t in ts): break
                now[r] = max([now[r]] + ts); pending[r] = None; pc[r] += 1; progress = True
    assert all(pc[r] == len(progs[r]) for r in range(n)), 'deadlock'
    return starts

def pipesim(name, n, c, cost, sends):
    F, B, W, FB, C = cost
    out = subprocess.run([PIPESIM, 'simulate', '--schedule', name, '--ranks', str(n), '--micro-batches', str(c),
                          '--cost', f'F={F},B={B},W={W},FB={FB},comm={C}', '--timing', 'reference', '--sends', sends, '--format', 'json'],
                         capture_output=True, text=True, check=True).stdout
    d = json.loads(out)
    return [[o['start'] for o in rk['ops']] for rk in d['per_rank']], d['makespan']

if __name__ == '__main__':
    import random, itertools
    random.seed(15)
    cases = []
    for (name, n, c) in [('dualpipe', 2, 4), ('dualpipe', 4, 8), ('dualpipe', 4, 10), ('dualpipe', 6, 12), ('dualpipe', 8, 20), ('dualpipe', 10, 40),
                         ('dualpipev', 1, 2), ('dualpipev', 2, 4), ('dualpipev', 2, 5), ('dualpipev', 3, 7), ('dualpipev', 4, 10), ('dualpipev', 5, 13)]:
        costs = [(1, 2, 1, 3, 0), (2, 2, 1.5, 2.48, 0), (1, 2, 1, 3, 0.5)]
        for _ in range(3):
            F = random.choice([0.5, 1, 1.5, 2]); B = random.choice([1, 2, 3]); W = random.choice([0.25, 0.5, 1]) * B / 2
            FB = max(F, B) + random.random() * min(F, B); C = random.choice([0, 0.25, 0.5, 1, 2])
            costs.append((F, B, round(W, 4), round(FB, 4), C))
        for cost in costs: cases.append((name, n, c, cost))
    bad = 0; total = 0
    for name, n, c, cost in cases:
        progs = programs(name, n, c)
        for sends in ('rendezvous', 'eager', 'async'):
            ref = replay(progs, cost, sends)
            mine, mk = pipesim(name, n, c, cost, sends)
            total += 1
            ok = all(len(a) == len(b) and all(abs(x - y) < 1e-9 for x, y in zip(a, b)) for a, b in zip(ref, mine))
            if not ok:
                bad += 1; print('MISMATCH', name, n, c, cost, sends)
    print('cases', total, 'mismatches', bad)
    sys.exit(1 if bad else 0)
