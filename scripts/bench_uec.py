#!/usr/bin/python3
"""rdma-sim and UEC's htsim_uec side by side on cases of UEC's validation plan.

Usage: bench_uec.py --htsim-uec BIN [--sim RDMA_SIM] [--cases NAME,...] [--runs N | --seeds N]
                    [--instructions] [--cc nscc] [--out DIR]

The peer is the Ultra Ethernet Consortium's simulator, htsim_uec
(github.com/ultraethernet/uet-htsim, htsim/sim/datacenter/main_uec.cpp),
built where BIN is; its connection matrices and topology files are read
from ``connection_matrices/`` and ``topologies/`` beside BIN. Each case is
one of its validation plan's (validate_uec_sender.txt): a .cm file and
htsim_uec's options. htsim_uec runs with them and its defaults: a 3-tier
fat tree of the .cm's node count (or the 2-tier leaf-spine of ``-topo``),
100 Gb/s links, 1 us per hop, 4,150-byte packets, trimming, per-port queues
of one BDP of its unloaded RTT (178,450 bytes in 3 tiers, 120,350 in 2),
ECN marked on dequeue from 0.2 to 0.8 of it (every packet above), a
retransmission timeout of 15 us plus six queues' drain time (100.7 us in 3
tiers), NSCC, and its mixed load balancing over --paths entropies.

rdma-sim runs the same case with the same matrix (traffic.pattern =
connection-matrix) on the same network: topology.type = fat-tree with k^3/4
= the node count (or leaf-spine with the .topo's leaves, spines and hosts
per leaf, uplinks at 100 Gb/s), 100 Gb/s and 1 us links,
link.WireOverhead = 0 (htsim_uec's queues time a packet by its size alone:
no preamble, FCS or gap; the 24 bytes a frame otherwise adds made each
64-byte trimmed header 37 % longer on the wire), transport.pathMtu = 4096, PFC off, link.queue.MaxBytes = htsim_uec's queue
on every port (the shared buffer set large enough never to decide first),
ECN from its low to its high threshold with pmax 1 (marking at dequeue, on
the bytes behind), trimming of the data class (switch.trim.Classes = 8) with
twice the data queue for trimmed headers (switch.trim.MaxBytes, as htsim's
CompositeQueue), IRN's RtoLow and RtoHigh both at htsim_uec's timeout, the arriving frame trimmed (--queued-victim sets
switch.trim.QueuedVictimProbability; htsim_uec's CompositeQueue trims the
newest queued frame half the time), IRN's selective repeat with a reorder
window of 64 and its BDP-FC cap at 3 BDPs (UEC has none; NSCC's window, at
most 1.5 BDPs, limits the QP), an ACK or SACK every 16,384 bytes received
and at once for a CE mark, a request that asks and a trimmed header
(transport.irn.AckBytes; UecSink's _bytes_unacked_threshold), ACKs in class
7 with the trimmed headers (htsim_uec serves control packets first), no
CNPs (cc.cnp.Enabled = false: UEC's NICs send none, whatever the plan), --cc (nscc by default) and
htsim_uec's default load balancing for a case with many paths (nic.Entropy = mixed: REPS's
recycled entropies, else the next of -paths entropies not penalized by ECN or trimming;
nic.EntropyPaths = -paths), one path per QP
for ``-paths 1``. An htsim ``-cwnd N`` (packets) becomes
cc.nscc.InitialWindow = N x 4,150 bytes; ``-planes P`` topology.planes = P
(a NIC port on each of P fat trees; the BDP-FC cap at 3 BDPs of the P
ports' rate); ``-failed N`` topology.slowLinks, the first aggregation
switch's links from its first N cores at 25 % in that direction, their
queue and ECN band scaled with them (htsim's failed links). RCCC alone
(--plan rcv, eqds) on a ``-topo`` oversubscribed above 1:1 also controls
the receivers' credit rate (cc.rccc.OversubscribedCc, its lowest rate 0.9 /
the ratio), as htsim_uec turns on its OversubscribedCC there.

The two alternate per run (which goes first flips each run), so both see
the same machine. Tail FCT is the last flow's end (htsim's "finished at",
rdma-sim's start + FCT in fct.csv), in microseconds; wall time is each
process's own (os.wait4), and so is htsim_uec's peak RSS, which cannot read
below this Python's own (Linux keeps the forking process's high-water mark
across execve: such a peak prints as "at most"); rdma-sim's peak RSS is its
summary.json's (the kernel's VmHWM). Prints one row per case (medians over
--runs) with the tail FCTs, their ratio, and each side's wall time and peak
RSS; writes them as JSON to OUT/bench-uec.json. Exit 2 on bad input, 1 on a
failed run.

--instructions runs each side once under Valgrind's callgrind (Debian's
valgrind) and reports the instructions each executes (its "I refs", the
whole process: start-up, simulation, outputs) instead of wall time: a count
that does not move with the machine's load or clock, as wall time on a
shared machine does, so two sides compare on any day.

--seeds N runs each case N times with another placement each time: run i
gives htsim_uec ``-seed i+1`` and rdma-sim ``switch.EcmpSeed = i``. Where
flows keep one path (``-paths 1``) the tail is the worst link's collision,
a draw of each simulator's hash; the medians over N draws compare the
models, one draw each compares two placements.
"""

import argparse
import csv
import json
import math
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

#: htsim_uec's packet and ACK bytes, hop latency (us) and link rate (bytes/us)
PACKET_BYTES = 4150
ACK_BYTES = 64
HOP_US = 1.0
BYTES_PER_US = 12500.0


def network(tiers):
    """htsim_uec's sizes for a fat tree of `tiers` tiers (main_uec.cpp's
    calculate_rtt and calculate_bdp_pkt): its unloaded RTT's BDP, its per-port
    queue (one BDP, rounded up to whole packets) and its ECN band (0.2 and
    0.8 of the BDP's packets, rounded up), bytes."""
    hops = 2 * tiers
    rtt_us = 2 * hops * HOP_US + (PACKET_BYTES + ACK_BYTES) * 8 / 100e3 * hops
    bdp = rtt_us * BYTES_PER_US
    pkts = math.ceil(bdp / PACKET_BYTES)
    queue = pkts * PACKET_BYTES
    return {'bdp': int(bdp), 'queue': queue,
            'ecn_low': math.ceil(pkts * 0.2) * PACKET_BYTES,
            'ecn_high': math.ceil(pkts * 0.8) * PACKET_BYTES,
            # its retransmission timeout: 15 us and six queues' drain time (main_uec.cpp)
            'rto_ns': round(15000 + queue * 6 * 8 / (BYTES_PER_US * 8 / 1000))}


#: UEC's validation plans (validate_uec_sender.txt, _rcv.txt, _both.txt): name ->
#: (htsim_uec's congestion-control options, rdma-sim's RCCC, rdma-sim's cc.algorithm)
PLANS = {
    'sender': (['-sender_cc_only'], False, 'nscc'),
    'rcv': (['-receiver_cc_only'], True, 'none'),
    'both': (['-sender_cc', '-receiver_cc'], True, 'nscc'),
    # Broadcom's csg-htsim, htsim_eqds (sim/datacenter/validate.txt): EQDS, the
    # receiver-driven transport RCCC comes from, with trimming; --htsim-uec names
    # its binary. Its queues hold 35 packets, its RTO is 150 us and six drains.
    'eqds': ([], True, 'none'),
}

#: htsim_uec's sink answers once this many bytes arrived (uec.cpp
#: UecSink::_bytes_unacked_threshold), or at once for ECN, AR or a duplicate
ACK_BYTES_THRESHOLD = 16384

#: csg-htsim's EQDS queue (main_eqds.cpp DEFAULT_QUEUE_SIZE, packets)
EQDS_QUEUE_PACKETS = 35

#: the validation plans' cases: name -> (matrix, htsim_uec options)
CASES = {
    'single': ('one.cm', ['-end', '1000']),
    'bidir': ('bidir.cm', ['-end', '1000']),
    'incast16': ('incast.cm', ['-end', '3000']),
    'incast128': ('incast_128.cm', ['-end', '30000']),
    'incast1024': ('incast_1024_100K.cm', ['-end', '15000', '-cwnd', '50']),
    'outcast-incast': ('outcast_incast.cm', ['-end', '3000']),
    'perm16': ('perm_16n_16c_2MB.cm', ['-end', '1000', '-paths', '128']),
    'perm16-1path': ('perm_16n_16c_2MB.cm', ['-end', '2000', '-paths', '1']),
    'perm1024': ('perm_1024n_1024c_0u_2000000b.cm', ['-end', '400', '-paths', '128']),
    'incast3-1': ('incast_3-1_overlapped.tm', ['-end', '1000', '-cwnd', '50']),
    'perm16-inc': ('perm_16n_16c_2MB.cm', ['-failed', '1', '-end', '2000', '-paths', '128']),
    'perm1024-inc': ('perm_1024n_1024c_0u_2000000b.cm',
                     ['-failed', '1', '-end', '1500', '-paths', '128']),
    'perm1024-1path': ('perm_1024n_1024c_0u_2000000b.cm', ['-end', '3000', '-paths', '1']),
    'oversub4': ('perm_1024n_1024c_0u_2000000b.cm',
                 ['-end', '2000', '-paths', '128', '-topo',
                  'topologies/leaf_spine_1024_oversub.topo']),
    'oversub8': ('perm_1024n_1024c_0u_2000000b.cm',
                 ['-end', '2000', '-paths', '128', '-topo',
                  'topologies/leaf_spine_1024_oversub_8-1.topo']),
    # Not in the plan: htsim_uec asserts on -planes above 1 (main_uec.cpp, "If all
    # the planes have the same tiers, you can remove this check"); run it with that
    # assert removed.
    'perm16-2planes': ('perm_16n_16c_2MB.cm', ['-end', '1000', '-paths', '128', '-planes', '2']),
}


CALLGRIND = ['valgrind', '--tool=callgrind', '--callgrind-out-file=/dev/null']


def instructions(stderr):
    """The instructions callgrind counted ("I refs") in its stderr, or None."""
    m = re.search(r'I\s+refs:\s+([\d,]+)', stderr)
    return int(m.group(1).replace(',', '')) if m else None


def python_peak_mb():
    """This Python's own peak RSS, MiB: the least a child's ru_maxrss reads
    (Linux keeps the forking process's high-water mark across execve)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def run_timed(cmd, cwd=None):
    """Run cmd; return (returncode, stdout, stderr, wall s, peak RSS MB)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.monotonic()
        p = subprocess.Popen(cmd, cwd=cwd, stdout=out, stderr=err)
        _, status, usage = os.wait4(p.pid, 0)
        wall = time.monotonic() - t0
        out.seek(0)
        err.seek(0)
        return (os.waitstatus_to_exitcode(status), out.read().decode(errors='replace'),
                err.read().decode(errors='replace'), wall, usage.ru_maxrss / 1024.0)


def matrix_nodes(path):
    """The node count on a .cm file's first line ("Nodes N")."""
    with open(path) as f:
        m = re.match(r'\s*Nodes\s+(\d+)', f.readline())
    if not m:
        raise ValueError('%s:1: expected "Nodes N"' % path)
    return int(m.group(1))


def fat_tree_k(nodes):
    """The even k with k^3/4 = nodes (htsim's 3-tier fat tree), or ValueError."""
    for k in range(2, 130, 2):
        if k ** 3 // 4 == nodes:
            return k
    raise ValueError('%d nodes is no 3-tier fat tree (k^3/4)' % nodes)


def read_topo(path):
    """htsim's 2-tier .topo file (topologies/*.topo) as rdma-sim's leaf-spine:
    {'leaves', 'spines', 'hostsPerLeaf'}, and its oversubscription ratio (its
    tier 0's Oversubscribed, 1 if absent: FatTreeTopology's
    get_oversubscription_ratio); ValueError on what it does not map (other
    tiers, rates, latencies or switch latency)."""
    tiers, where, nodes = {}, None, None
    with open(path) as f:
        for line in f:
            words = line.split()
            if len(words) != 2:
                continue
            key, value = words
            if key == 'Nodes':
                nodes = int(value)
            elif key == 'Tier':
                where = tiers.setdefault(int(value), {})
            elif where is not None:
                where[key] = value
    t0, t1 = tiers.get(0, {}), tiers.get(1, {})
    if (sorted(tiers) != [0, 1] or not nodes
            or any(t.get('Downlink_speed_Gbps') != '100' or t.get('Downlink_Latency_ns') != '1000'
                   or t.get('Switch_Latency_ns', '0') != '0' for t in (t0, t1))):
        raise ValueError('%s: only 2 tiers of 100 Gb/s, 1 us links map to a leaf-spine' % path)
    per_leaf = int(t0['Radix_Down'])
    return ({'leaves': nodes // per_leaf, 'spines': int(t0['Radix_Up']), 'hostsPerLeaf': per_leaf},
            int(t0.get('Oversubscribed', '1')))


def our_args(matrix, options, cc, out, topo_dir=None, victim=0, rccc=False, eqds=False,
             ack_bytes=ACK_BYTES_THRESHOLD):
    """rdma-sim's arguments for one case."""
    opts = dict(zip(options[::2], options[1::2]))
    paths = int(opts.get('-paths', '64'))
    planes = int(opts.get('-planes', '1'))
    nodes = matrix_nodes(matrix)
    ratio = 1
    if '-topo' in opts:
        ls, ratio = read_topo(os.path.join(topo_dir, opts['-topo']))
        net = network(2)
        fabric = (['--topology.type=leaf-spine', '--topology.oversubscription=0',
                   '--topology.fabricRate=100Gbps']
                  + ['--topology.%s=%d' % kv for kv in ls.items()])
    else:
        k = fat_tree_k(nodes)
        net = network(3)
        fabric = ['--topology.type=fat-tree', '--topology.k=%d' % k]
        failed = int(opts.get('-failed', '0'))
        if failed:
            # htsim's failed links (fat_tree_topology.cpp): the first aggregation
            # switch's downlinks from its first `failed` cores, at 25 % of their speed,
            # queue and ECN band. Here the first aggregation switch is node
            # nodes + k^2/2 and its cores are the first k/2 cores (RdmaTopologySpec::FatTree).
            if failed > k // 2:
                raise ValueError('-failed %d: the first aggregation switch has %d cores'
                                 % (failed, k // 2))
            agg0 = nodes + k * k // 2
            core0 = agg0 + k * k // 2
            fabric.append('--topology.slowLinks=' + ','.join(
                '%d>%d:0.25' % (core0 + c, agg0) for c in range(failed)))
    if eqds:
        net = dict(net, queue=EQDS_QUEUE_PACKETS * PACKET_BYTES,
                   ecn_high=min(net['ecn_high'], EQDS_QUEUE_PACKETS * PACKET_BYTES),
                   rto_ns=round(150000 + EQDS_QUEUE_PACKETS * PACKET_BYTES * 6 * 8 / 100))
    args = ['--topology.planes=%d' % planes] + fabric + [
            '--traffic.pattern=connection-matrix', '--traffic.connectionMatrix=%s' % matrix,
            '--link.WireOverhead=0', '--transport.pathMtu=4096', '--pfc.PfcEnabled=false',
            '--pfc.BufferSize=1000000000', '--link.queue.MaxBytes=%d' % net['queue'],
            '--ecn.kmin=%d' % net['ecn_low'], '--ecn.kmax=%d' % net['ecn_high'], '--ecn.pmax=1',
            '--switch.trim.Classes=8', '--switch.trim.MaxBytes=%d' % (2 * net['queue']),
            '--switch.trim.QueuedVictimProbability=%s' % victim,
            '--transport.recovery=irn',
            '--transport.irn.ReorderWindow=64', '--cc.algorithm=%s' % cc,
            '--transport.irn.RtoLow=%dns' % net['rto_ns'],
            '--transport.irn.RtoHigh=%dns' % net['rto_ns'],
            '--transport.irn.BdpBytes=%d' % (3 * net['bdp'] * planes),
            '--transport.irn.AckBytes=%d' % ack_bytes,
            '--nic.AckPriority=7', '--cc.cnp.Enabled=false',
            '--nic.Entropy=%s' % ('qp' if paths == 1 else 'mixed'),
            '--sim.stopTime=%sus' % opts.get('-end', '1000'),
            '--output.qlenInterval=0s', '--output.dir=%s' % out, '--force', '-q']
    if paths > 1:
        args.append('--nic.EntropyPaths=%d' % paths)
    if rccc:
        args.append('--cc.rccc.Enabled=true')
        if cc == 'none' and ratio > 1:
            # htsim_uec turns on its receiver's OversubscribedCC for RCCC alone on
            # an oversubscribed topology, its lowest rate 0.9 / the ratio (>= 0.01).
            args += ['--cc.rccc.OversubscribedCc=true',
                     '--cc.rccc.OversubscribedMinRate=%g' % max(0.9 / ratio, 0.01)]
    if '-cwnd' in opts and cc == 'nscc':
        args.append('--cc.nscc.InitialWindow=%d' % (int(opts['-cwnd']) * PACKET_BYTES))
    return args


def our_tail_us(out):
    """The last flow's end in rdma-sim's fct.csv, microseconds, and the flows
    that finished; an unfinished flow makes the tail None."""
    ends = []
    with open(os.path.join(out, 'fct.csv')) as f:
        for r in csv.DictReader(f):
            if not r['fct_ns'] or r['fct_ns'] == 'nan':
                return None, len(ends)
            ends.append(float(r['start_ns']) + float(r['fct_ns']))
    return max(ends) / 1e3, len(ends)


def htsim_tail_us(stdout):
    """htsim_uec's last "finished at" time, microseconds, and the flow count."""
    ends = [float(m.group(1)) for m in re.finditer(r' finished at ([0-9.]+)', stdout)]
    return (max(ends) if ends else None), len(ends)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--htsim-uec', required=True, help='the built htsim_uec binary')
    ap.add_argument('--sim', default=os.path.join(TOP, 'build', 'examples', 'rdma-sim'))
    ap.add_argument('--cases', default='single,bidir,incast16,perm16,perm16-1path')
    ap.add_argument('--runs', type=int, default=1)
    ap.add_argument('--seeds', type=int, default=0,
                    help='N runs, run i with htsim_uec -seed i+1 and rdma-sim '
                         'switch.EcmpSeed=i (another placement of the flows each); '
                         'replaces --runs; default 0: the defaults, --runs times')
    ap.add_argument('--plan', choices=sorted(PLANS), default='sender',
                    help="which of UEC's validation plans: sender (NSCC, htsim_uec "
                         "-sender_cc_only), rcv (RCCC, -receiver_cc_only) or both "
                         "(-sender_cc -receiver_cc); or eqds: csg-htsim's htsim_eqds "
                         "(given as --htsim-uec) against RCCC alone; default sender")
    ap.add_argument('--cc', default=None,
                    help="rdma-sim's cc.algorithm (default: nscc, none for --plan rcv)")
    ap.add_argument('--queued-victim', type=float, default=0,
                    help="rdma-sim's switch.trim.QueuedVictimProbability (default 0, the "
                         "module's; htsim's CompositeQueue: 0.5)")
    ap.add_argument('--ack-bytes', type=int, default=ACK_BYTES_THRESHOLD,
                    help="rdma-sim's transport.irn.AckBytes (default %d, htsim_uec's; 0: an "
                         "answer for each request)" % ACK_BYTES_THRESHOLD)
    ap.add_argument('--instructions', action='store_true',
                    help="count each side's instructions under callgrind (valgrind), once")
    ap.add_argument('--out', default='out/bench-uec')
    a = ap.parse_args()
    htsim_cc, rccc, default_cc = PLANS[a.plan]
    a.cc = a.cc or default_cc
    cases = a.cases.split(',')
    bad = [c for c in cases if c not in CASES]
    binary = os.path.abspath(a.htsim_uec)
    if bad or a.runs < 1 or a.seeds < 0 or not os.access(binary, os.X_OK) \
            or not os.access(a.sim, os.X_OK):
        print('bench_uec.py: %s' % ('unknown case %s (known: %s)' % (bad, ', '.join(CASES))
                                    if bad else 'no runnable htsim_uec or rdma-sim, --runs '
                                    'below 1 or --seeds below 0'), file=sys.stderr)
        sys.exit(2)
    if a.seeds:
        a.runs = a.seeds
    prefix = []
    if a.instructions:
        if a.seeds or a.runs > 1 or not shutil.which('valgrind'):
            print('bench_uec.py: --instructions %s' % (
                'counts one run: no --runs or --seeds' if a.seeds or a.runs > 1 else
                'needs valgrind (Debian: apt install valgrind)'), file=sys.stderr)
            sys.exit(2)
        prefix = CALLGRIND
    cm_dir = os.path.join(os.path.dirname(binary), 'connection_matrices')
    os.makedirs(a.out, exist_ok=True)
    rows = []
    for name in cases:
        cm, options = CASES[name]
        matrix = os.path.join(cm_dir, cm)
        if not os.path.isfile(matrix):
            print('bench_uec.py: no connection matrix %s' % matrix, file=sys.stderr)
            sys.exit(2)
        ours_dir = os.path.join(a.out, name)
        samples = {'ours': [], 'htsim': []}
        for run in range(a.runs):
            order = ['ours', 'htsim'] if run % 2 == 0 else ['htsim', 'ours']
            for who in order:
                if who == 'ours':
                    seed = ['--switch.EcmpSeed=%d' % run] if a.seeds else []
                    rc, _, err, wall, rss = run_timed(
                        prefix + [a.sim] + our_args(matrix, options, a.cc, ours_dir, os.path.dirname(binary),
                                 a.queued_victim, rccc, a.plan == 'eqds', a.ack_bytes) + seed)
                    if rc != 0:
                        print('bench_uec.py: rdma-sim failed on %s:\n%s' % (name, err[-2000:]),
                              file=sys.stderr)
                        sys.exit(1)
                    tail, flows = our_tail_us(ours_dir)
                    if not a.instructions:
                        with open(os.path.join(ours_dir, 'summary.json')) as f:
                            rss = json.load(f)['peak_rss_mb']  # its own VmHWM
                else:
                    seed = ['-seed', str(run + 1)] if a.seeds else []
                    rc, out, err, wall, rss = run_timed(
                        prefix + ['./' + os.path.basename(binary), '-tm', matrix] + htsim_cc
                        + options + seed, cwd=os.path.dirname(binary))
                    if rc != 0:
                        print('bench_uec.py: htsim_uec failed on %s:\n%s' % (name, (out + err)
                                                                              [-2000:]),
                              file=sys.stderr)
                        sys.exit(1)
                    tail, flows = htsim_tail_us(out)
                samples[who].append({'tail_us': tail, 'flows': flows, 'wall_s': wall,
                                     'peak_rss_mb': rss, 'instructions': instructions(err)})
        row = {'case': name, 'matrix': cm, 'htsim_options': ' '.join(htsim_cc + options),
               'plan': a.plan, 'cc': a.cc, 'rccc': rccc,
               'runs': a.runs, 'seeds': a.seeds}
        for who, s in samples.items():
            tails = [x['tail_us'] for x in s]
            row[who] = {'tail_us': None if None in tails else statistics.median(tails),
                        'tails_us': tails,
                        'flows': s[0]['flows'],
                        'wall_s': statistics.median(x['wall_s'] for x in s),
                        'peak_rss_mb': statistics.median(x['peak_rss_mb'] for x in s),
                        'peak_rss_at_most': who == 'htsim' and statistics.median(
                            x['peak_rss_mb'] for x in s) <= python_peak_mb(),
                        'instructions': s[0]['instructions'] if a.instructions else None}
        o, h = row['ours']['tail_us'], row['htsim']['tail_us']
        row['tail_ratio'] = o / h if o and h else None
        rows.append(row)
        if a.instructions:
            oi, hi = row['ours']['instructions'], row['htsim']['instructions']
            row['instruction_ratio'] = oi / hi if oi and hi else None
            cost = 'instructions %.1f M (%.1f M, %s)' % (
                (oi or 0) / 1e6, (hi or 0) / 1e6,
                '%.2fx' % row['instruction_ratio'] if row['instruction_ratio'] else '-')
        else:
            cost = 'wall %.3f s (%.3f s)  peak %.0f MB (%s%.0f MB)' % (
                row['ours']['wall_s'], row['htsim']['wall_s'], row['ours']['peak_rss_mb'],
                'at most ' if row['htsim']['peak_rss_at_most'] else '',
                row['htsim']['peak_rss_mb'])
        print('%-15s tail %s us (htsim_uec %s us, %s)  %s  flows %d (%d)' % (
                  name, '%.1f' % o if o else 'unfinished', '%.1f' % h if h else 'unfinished',
                  '%.3fx' % row['tail_ratio'] if row['tail_ratio'] else '-', cost,
                  row['ours']['flows'], row['htsim']['flows']),
              flush=True)
    with open(os.path.join(a.out, 'bench-uec.json'), 'w') as f:
        json.dump(rows, f, indent=1)


if __name__ == '__main__':
    main()
