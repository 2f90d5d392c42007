#!/usr/bin/python3
"""rdma-sim and csg-htsim's RoCE simulator side by side on a fat-tree permutation.

Usage: bench_htsim.py (--htsim-run SCRIPT | --htsim BIN) [--sim RDMA_SIM]
                      [--floor RDMA_HOP_FLOOR] [--hosts 128,1024] [--runs N]
                      [--mtu 4096] [--size 2000000] [--out DIR]

The peer is Broadcom's csg-htsim (github.com/Broadcom/csg-htsim), binary
sim/datacenter/htsim_roce (main_roce.cpp): a 3-tier fat tree of K^3/4 hosts,
100 Gb/s links, 1 us per hop, permutation traffic (every host sends one flow
of --size bytes and receives one, all at t = 0), lossless with PFC at every
switch ingress, per-flow ECMP, no congestion control. Two ways to run it:

--htsim-run SCRIPT  a script called as ``SCRIPT HOSTS FLOW_BYTES MTU OUTDIR``
                    that prints (see parse_htsim) ``wall_s .. cpu_s ..
                    max_rss_mb ..`` and ``flows_completed a/b data_pkts ..``,
                    and optionally ``events N ...``. With --htsim as well, BIN
                    is passed to it in the environment as BIN.
--htsim BIN         run BIN directly: the permutation from the repository's
                    connection_matrices/gen_permutation.py next to BIN (seed 1),
                    then ``-tiers 3 -strat ecmp_host -queue_type lossless_input
                    -pfc_thresholds 12 15 -mtu MTU -linkspeed 100000
                    -hop_latency 1``. Stock htsim seeds its ECMP choice with
                    time(), so its paths (and FCTs) change from run to run.

rdma-sim runs the same experiment: topology.type=fat-tree, topology.k=K,
traffic.pattern=permutation, traffic.size, cc.algorithm=none, PFC on
(pfc.PfcEnabled=true), transport.pathMtu=MTU, output.qlenInterval=0s, -q.
The two alternate per run (which goes first flips each run). Wall time and
peak RSS of rdma-sim are its process's own (os.wait4); events and data
packets delivered come from its summary.json. htsim's come from its output.

With --floor, each run also runs ns-3's own floor on the same fat tree and
permutation (rdma-hop-floor --fatTreeK=K --permutationBytes=SIZE --mtu=MTU,
frames as ns-3 Packets and as 16-byte structs: one event per hop, nothing
else, no PFC), its process's wall time beside the two simulators'.

Data packets are comparable when both count ceil(size / MTU) packets per
flow: the MTU is payload bytes in both (htsim adds a 64-byte header, the
IB path MTU excludes the headers, IB spec 1.4 section 9.7.7), so 2 MB at 4096
is 489 packets per flow, 62,592 for 128 hosts. The table flags a mismatch.

Prints one row per host count (medians over --runs): hosts, wall s, events,
data packets delivered and peak RSS MB of each, our/htsim wall ratio, and
with --floor the floor's wall s with Packets and with structs;
writes the rows as JSON to OUT/bench-htsim.json. Exit 2 on bad input or a
failed run.
"""

import argparse
import json
import math
import os
import re
import statistics
import subprocess
import sys
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MTUS = (256, 512, 1024, 2048, 4096)  # IB path MTUs (IB spec 1.4 section 9.7.7)


class BenchError(Exception):
    """A failed step or bad input; the message says which."""


def fat_tree_k(hosts):
    """The even arity k with k^3/4 == hosts (3-tier fat tree); BenchError if none."""
    k = 2
    while k ** 3 // 4 < hosts:
        k += 2
    if k ** 3 // 4 != hosts:
        raise BenchError('--hosts: %d is not k^3/4 for an even k (16, 54, 128, 250, 432, '
                         '686, 1024, ...)' % hosts)
    return k


def packets_per_flow(size, mtu):
    """Data packets of one flow of size bytes: ceil(size / mtu).

    RoCE segments a message into packets of one path MTU of payload each
    (IB spec 1.4 section 9.7.7), the last one shorter.
    """
    return -(-size // mtu)


def parse_htsim(text):
    """Figures from the peer's run script output.

    Reads ``wall_s W  cpu_s C  max_rss_mb R``, ``flows_completed A/B  data_pkts
    D ...`` and, if present, ``events E ...`` (an instrumented htsim). Returns a
    dict with wall_s, cpu_s, max_rss_mb, flows_completed, flows, data_pkts and
    events (None if not printed). BenchError naming the missing field.
    """
    out = {'events': None}
    for key, pat, conv in (('wall_s', r'\bwall_s\s+([0-9.]+)', float),
                           ('cpu_s', r'\bcpu_s\s+([0-9.]+)', float),
                           ('max_rss_mb', r'\bmax_rss_mb\s+([0-9.]+)', float),
                           ('data_pkts', r'\bdata_pkts\s+([0-9]+)', int)):
        m = re.search(pat, text)
        if not m:
            raise BenchError('htsim output: no %s' % key)
        out[key] = conv(m.group(1))
    m = re.search(r'\bflows_completed\s+([0-9]+)/([0-9]+)', text)
    if not m:
        raise BenchError('htsim output: no flows_completed')
    out['flows_completed'], out['flows'] = int(m.group(1)), int(m.group(2))
    m = re.search(r'^(?:htsim-counters: )?events\s+([0-9]+)', text, re.M)
    if m:
        out['events'] = int(m.group(1))
    return out


def parse_summary(summary):
    """Figures from rdma-sim's summary.json (a dict): the same keys as parse_htsim."""
    return {'wall_s': summary['wall_time_s'], 'events': summary['events'],
            'data_pkts': summary['data_packets_delivered'],
            'max_rss_mb': summary['peak_rss_mb'],
            'flows_completed': summary['flows']['completed'],
            'flows': summary['flows']['total']}


def timed(cmd, log_path, env=None, cwd=None):
    """Run cmd with stdout+stderr to log_path.

    Returns (wall s, peak RSS MB, CPU s) of the process (os.wait4); BenchError
    naming the log if it exits non-zero.
    """
    with open(log_path, 'w') as log:
        t0 = time.monotonic()
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=cwd)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.monotonic() - t0
    rc = os.waitstatus_to_exitcode(status)
    if rc != 0:
        raise BenchError('%s exited with %d (log %s)' % (cmd[0], rc, log_path))
    return wall, usage.ru_maxrss / 1024.0, usage.ru_utime + usage.ru_stime


def run_htsim_script(script, binary, hosts, size, mtu, out):
    """One run through the peer's run script; parse_htsim's dict."""
    env = dict(os.environ)
    if binary:
        env['BIN'] = binary
    log_path = out + '.log'
    timed([script, str(hosts), str(size), str(mtu), out], log_path, env=env)
    with open(log_path) as f:
        return parse_htsim(f.read())


def run_htsim_binary(binary, hosts, size, mtu, out):
    """One run of htsim_roce itself (see the module docstring); parse_htsim's dict."""
    gen = os.path.join(os.path.dirname(binary), 'connection_matrices', 'gen_permutation.py')
    if not os.path.isfile(gen):
        raise BenchError('--htsim: no %s next to the binary' % gen)
    os.makedirs(out, exist_ok=True)
    subprocess.run([sys.executable, gen, 'perm.cm', str(hosts), str(hosts), str(size), '0', '1'],
                   cwd=out, check=True, stdout=subprocess.DEVNULL)
    cmd = [binary, '-nodes', str(hosts), '-conns', str(hosts), '-tiers', '3', '-tm', 'perm.cm',
           '-strat', 'ecmp_host', '-paths', '1', '-queue_type', 'lossless_input',
           '-pfc_thresholds', '12', '15', '-q', '100000', '-mtu', str(mtu),
           '-linkspeed', '100000', '-hop_latency', '1', '-end', '100000', '-seed', '1',
           '-o', 'log.dat']
    log_path = os.path.join(out, 'stdout.txt')
    wall, rss, cpu = timed(cmd, log_path, cwd=out)
    flows, acked = 0, 0
    with open(log_path) as f:
        for line in f:
            m = re.search(r' finished at .*\bbytes\s+([0-9]+)', line)
            if m:
                flows += 1
                acked += int(m.group(1))
    text = ('wall_s %.2f  cpu_s %.2f  max_rss_mb %.1f\nflows_completed %d/%d  data_pkts %d\n'
            % (wall, cpu, rss, flows, hosts, acked // mtu))
    return parse_htsim(text)


def run_ours(sim, hosts, size, mtu, out):
    """One rdma-sim run of the permutation: parse_summary's dict, wall and RSS measured here."""
    cmd = [sim, '--topology.type=fat-tree', '--topology.k=%d' % fat_tree_k(hosts),
           '--traffic.pattern=permutation', '--traffic.size=%d' % size,
           '--cc.algorithm=none', '--pfc.PfcEnabled=true', '--transport.pathMtu=%d' % mtu,
           '--output.qlenInterval=0s', '--output.dir=' + out, '--force', '-q']
    wall, rss, _ = timed(cmd, out + '.log')
    with open(os.path.join(out, 'summary.json')) as f:
        fig = parse_summary(json.load(f))
    fig['wall_s'], fig['max_rss_mb'] = wall, max(rss, fig['max_rss_mb'])
    return fig


def run_floor(floor, hosts, size, mtu, frames, out):
    """One rdma-hop-floor run on the permutation: {'wall_s', 'data_pkts'} (process wall)."""
    cmd = [floor, '--fatTreeK=%d' % fat_tree_k(hosts), '--permutationBytes=%d' % size,
           '--mtu=%d' % mtu, '--frames=%s' % frames]
    log_path = out + '.log'
    wall, _, _ = timed(cmd, log_path)
    with open(log_path) as f:
        m = re.search(r'data packets ([0-9]+),', f.read())
    if not m:
        raise BenchError('%s: no data packets line' % log_path)
    return {'wall_s': wall, 'data_pkts': int(m.group(1))}


def median_row(hosts, size, mtu, ours, theirs, floors=None):
    """One table row (a dict) from lists of per-run figures of each side;
    floors: {'packet': [...], 'pod': [...]} of run_floor dicts, or None."""
    def med(runs, key):
        vals = [r[key] for r in runs if r[key] is not None]
        return statistics.median(vals) if vals else None
    row = {'hosts': hosts, 'runs': len(ours), 'expected_pkts': hosts * packets_per_flow(size, mtu)}
    for side, runs in (('ours', ours), ('htsim', theirs)):
        for key in ('wall_s', 'events', 'data_pkts', 'max_rss_mb', 'flows_completed'):
            row['%s_%s' % (side, key)] = med(runs, key)
    row['ratio'] = row['ours_wall_s'] / row['htsim_wall_s'] if row['htsim_wall_s'] else math.nan
    for frames in ('packet', 'pod'):
        runs = (floors or {}).get(frames, [])
        row['floor_%s_wall_s' % frames] = med(runs, 'wall_s') if runs else None
        row['floor_%s_data_pkts' % frames] = med(runs, 'data_pkts') if runs else None
    return row


def format_table(rows):
    """The printed table (a str): one line per row, then a note per packet-count mismatch."""
    def num(v, fmt):
        return '-' if v is None else fmt.format(v)
    floor = any(r.get('floor_packet_wall_s') is not None for r in rows)
    header = ('hosts', 'wall s ours', 'wall s htsim', 'events ours', 'events htsim',
              'data pkts ours', 'data pkts htsim', 'RSS MB ours', 'RSS MB htsim', 'ours/htsim')
    if floor:
        header += ('floor Packets s', 'floor structs s')
    lines = ['  '.join('%15s' % h for h in header)]
    notes = []
    for r in rows:
        cells = (str(r['hosts']), num(r['ours_wall_s'], '{:.2f}'), num(r['htsim_wall_s'], '{:.2f}'),
                 num(r['ours_events'], '{:,}'), num(r['htsim_events'], '{:,}'),
                 num(r['ours_data_pkts'], '{:,}'), num(r['htsim_data_pkts'], '{:,}'),
                 num(r['ours_max_rss_mb'], '{:.1f}'), num(r['htsim_max_rss_mb'], '{:.1f}'),
                 num(r['ratio'], '{:.2f}'))
        if floor:
            cells += (num(r.get('floor_packet_wall_s'), '{:.2f}'),
                      num(r.get('floor_pod_wall_s'), '{:.2f}'))
        lines.append('  '.join('%15s' % c for c in cells))
        sides = ('ours', 'htsim') + (('floor_packet', 'floor_pod') if floor else ())
        for side in sides:
            got = r['%s_data_pkts' % side]
            if got != r['expected_pkts']:
                notes.append('NOT COMPARABLE: %d hosts, %s delivered %s data packets, expected %s '
                             '(hosts x ceil(size / MTU))' % (r['hosts'], side, got,
                                                             '{:,}'.format(r['expected_pkts'])))
    return '\n'.join(lines + notes)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('--htsim', help='the htsim_roce binary')
    p.add_argument('--htsim-run', help='script run as SCRIPT HOSTS FLOW_BYTES MTU OUTDIR')
    p.add_argument('--sim', default=os.path.join(TOP, 'build', 'examples', 'rdma-sim'))
    p.add_argument('--floor', help="rdma-hop-floor, run beside them (ns-3's own per-hop floor)")
    p.add_argument('--hosts', default='128,1024', help='comma-separated, each k^3/4')
    p.add_argument('--runs', type=int, default=1)
    p.add_argument('--mtu', type=int, default=4096, help='bytes of payload per packet')
    p.add_argument('--size', type=int, default=2000000, help='bytes of each flow')
    p.add_argument('--out', default=os.path.join('out', 'bench-htsim'))
    a = p.parse_args(argv)
    try:
        if not (a.htsim or a.htsim_run):
            raise BenchError('give --htsim BIN or --htsim-run SCRIPT')
        for path, what in ((a.htsim, '--htsim'), (a.htsim_run, '--htsim-run'), (a.sim, '--sim'),
                           (a.floor, '--floor')):
            if path and not os.access(path, os.X_OK):
                raise BenchError('%s: %s is not an executable file' % (what, path))
        if a.mtu not in MTUS:
            raise BenchError('--mtu: %d is not one of %s' % (a.mtu, MTUS))
        if a.runs < 1 or a.size < 1:
            raise BenchError('--runs and --size must be positive')
        hosts = [int(h) for h in a.hosts.split(',')]
        for h in hosts:
            fat_tree_k(h)
        rows = []
        for h in hosts:
            ours, theirs, floors = [], [], {'packet': [], 'pod': []}
            for i in range(a.runs):
                base = os.path.abspath(os.path.join(a.out, 'h%d-r%d' % (h, i)))
                os.makedirs(os.path.dirname(base), exist_ok=True)
                order = ('htsim', 'ours') if i % 2 == 0 else ('ours', 'htsim')
                for side in order:
                    if side == 'ours':
                        ours.append(run_ours(a.sim, h, a.size, a.mtu, base + '-ours'))
                    elif a.htsim_run:
                        theirs.append(run_htsim_script(a.htsim_run, a.htsim, h, a.size, a.mtu,
                                                       base + '-htsim'))
                    else:
                        theirs.append(run_htsim_binary(a.htsim, h, a.size, a.mtu, base + '-htsim'))
                    print('bench_htsim: %d hosts run %d %s: %.2f s' %
                          (h, i + 1, side, (ours if side == 'ours' else theirs)[-1]['wall_s']),
                          file=sys.stderr)
                for frames in ('packet', 'pod') if a.floor else ():
                    floors[frames].append(run_floor(a.floor, h, a.size, a.mtu, frames,
                                                    base + '-floor-' + frames))
                    print('bench_htsim: %d hosts run %d floor (%s): %.2f s' %
                          (h, i + 1, frames, floors[frames][-1]['wall_s']), file=sys.stderr)
            rows.append(median_row(h, a.size, a.mtu, ours, theirs, floors))
        print(format_table(rows))
        with open(os.path.join(a.out, 'bench-htsim.json'), 'w') as f:
            json.dump(rows, f, indent=1)
    except (BenchError, ValueError, OSError, KeyError, subprocess.CalledProcessError) as e:
        print('bench_htsim: %s' % e, file=sys.stderr)
        return 2
    return 0


if __name__ == '__main__':
    sys.exit(main())
