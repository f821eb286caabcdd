#!/usr/bin/env python3
# An independent check of pipesim's reference timing against DeepSeek's own, unmodified DualPipe and
# DualPipeV step(). Needs a checkout of github.com/deepseek-ai/DualPipe (not part of pipesim) and a
# built CLI; not run by `npm test`:
#   python3 scripts/check-dualpipe-reference.py /path/to/DualPipe [build/pipesim] [--record]
# Each rank's step() runs alone under a stand-in for torch (written to a temporary folder) that records
# what the rank hands to dist.batch_isend_irecv (each P2POp's kind and peer, in order) and its computes
# (the three compute methods are overridden to record and keep the bookkeeping lists the send calls
# read; everything that decides communication runs as DeepSeek wrote it). A separate replay then times
# those programs, matching the k-th send with the k-th receive of each directed link as NCCL does, under
# rendezvous, eager and async sends, and every op's start is compared with `pipesim simulate --timing
# reference`, and every makespan with the one tests/data/reference/dualpipe_cases.json records.
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

def programs(class_name, n, c):
    comm.set_p2p_tensor_shapes([(1,)]); comm.set_p2p_tensor_dtype(torch.float32)
    out = []
    for r in range(n):
        rec = Recorder(); dist.RECORDER = rec
        v = class_name == 'DualPipeV'
        cls = recording(DualPipeV if v else DualPipe, v)
        m = cls((torch.nn.Module(), torch.nn.Module()), process_group=Group(r, n))
        m.rec = rec
        crit = (lambda *a: torch.Tensor())
        first, last = r == 0, r == n - 1
        inputs = (torch.Tensor(),) if (first or (last and not v)) else ()
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

def pipesim(name, n, c, cost_text, sends):
    out = subprocess.run([PIPESIM, 'simulate', '--schedule', name, '--ranks', str(n), '--micro-batches', str(c),
                          '--cost', cost_text, '--timing', 'reference', '--sends', sends, '--format', 'json'],
                         capture_output=True, text=True, check=True).stdout
    d = json.loads(out)
    return [[o['start'] for o in rk['ops']] for rk in d['per_rank']], d['makespan']

# The cases, shared with the C++ suite (tests/test_reference.cpp reads the same file and checks each
# recorded makespan against pipesim alone, so that the values this check confirmed stay true without a
# DualPipe checkout): each has a schedule, its sizes, its costs in --cost notation and, per send
# semantics, the makespan DeepSeek's programs take under the replay; `deepseek_class` names the class of
# dualpipe.py that runs each schedule.
CASES = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tests', 'data', 'reference', 'dualpipe_cases.json')

def parse_cost(text):
    values = dict(item.split('=') for item in text.split(','))
    return tuple(float(values[k]) for k in ('F', 'B', 'W', 'FB', 'comm'))

def makespan_of(progs, starts, cost):
    F, B, W, FB, C = cost
    dur = {'F': F, 'B': B, 'I': B - W, 'W': W, 'FB': FB}
    ends = [s + dur[kind] for prog, rank_starts in zip(progs, starts)
            for s, kind in zip(rank_starts, (ev[1] for ev in prog if ev[0] == 'compute'))]
    return max(ends)

def write_cases(data):
    # One case a line, so that a diff of the file shows which case changed.
    lines = [json.dumps(case) for case in data['cases']]
    with open(CASES, 'w') as out:
        out.write('{"about": %s,\n "deepseek_class": %s,\n "sends": %s,\n "cases": [\n  %s\n]}\n' % (json.dumps(data['about']), json.dumps(data['deepseek_class']), json.dumps(data['sends']), ',\n  '.join(lines)))

if __name__ == '__main__':
    # --record rewrites the makespans in the cases file from the replay (after adding a case).
    record = '--record' in sys.argv[3:]
    data = json.load(open(CASES))
    bad = 0; total = 0
    for case in data['cases']:
        name, n, c = case['schedule'], case['ranks'], case['micro_batches']
        cost = parse_cost(case['cost'])
        progs = programs(data['deepseek_class'][name], n, c)
        for sends in data['sends']:
            ref = replay(progs, cost, sends)
            ref_makespan = makespan_of(progs, ref, cost)
            mine, mk = pipesim(name, n, c, case['cost'], sends)
            if record: case['makespan'][sends] = round(ref_makespan, 9)
            total += 1
            ok = all(len(a) == len(b) and all(abs(x - y) < 1e-9 for x, y in zip(a, b)) for a, b in zip(ref, mine))
            ok = ok and abs(mk - ref_makespan) < 1e-9 and abs(case['makespan'][sends] - ref_makespan) < 1e-9
            if not ok:
                bad += 1; print('MISMATCH', name, n, c, case['cost'], sends, 'replay makespan', ref_makespan, 'pipesim', mk, 'recorded', case['makespan'][sends])
    if record:
        write_cases(data)
    print('cases', total, 'mismatches', bad)
    sys.exit(1 if bad else 0)
