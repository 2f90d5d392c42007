#!/usr/bin/python3
"""The slow-receiver study: NIC address-translation misses that reach the fabric.

  scripts/slow_receiver.py -o out/slow-receiver-sweep \\
      --page 4096,2097152 --entries 2048,16384 --footprint 32MiB,64MiB,256MiB,1GiB

Sweeps cache.mtt.PageBytes x cache.mtt.Entries x traffic.target.FootprintBytes
over examples/configs/slow-receiver.ini (or -c CONFIG) with scripts/sweep.py
(the same folders, resumption, parallel points and Dask options), then writes
OUT/slow-receiver.csv (one row per point: page size, MTT entries, footprint,
MTT working set in entries = footprint / page size, PFC pause frames sent by
hosts and per simulated second, victims' flow count and p50/p99 FCT slowdown,
MTT hit rate) and plots OUT/slow-receiver.{png,pdf}: pause frames per
second sent by hosts, and the victims' p99 slowdown, against the MTT working
set, one line per (page size, MTT entries). Victims are the flows whose
destination is not the incast receiver (traffic.receiver). The study's
model is Guo et al., "RDMA over Commodity Ethernet at Scale", SIGCOMM 2016,
section 4.4. Exit status: 0, 1 if a point failed, 2 for bad arguments or a
configuration rdma-sim --check refuses (then nothing is written).
"""

import argparse
import configparser
import csv
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rdmasim_analysis as ra  # noqa: E402
import rdmasim_plotting as rp  # noqa: E402
import sweep  # noqa: E402

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CONFIG = os.path.join(TOP, 'examples', 'configs', 'slow-receiver.ini')
UNITS = {'KiB': 1 << 10, 'MiB': 1 << 20, 'GiB': 1 << 30, '': 1}
COLUMNS = ('point', 'page_bytes', 'mtt_entries', 'footprint_bytes', 'working_set_entries',
           'host_pause_frames', 'host_pauses_per_s', 'victims', 'victim_p50', 'victim_p99',
           'mtt_hit_rate')


def parse_bytes(text):
    """'64MiB' -> 67108864; raises ValueError naming the text."""
    for unit in ('KiB', 'MiB', 'GiB', ''):
        if text.endswith(unit):
            number = text[:len(text) - len(unit)] if unit else text
            if number.isdigit() and int(number) > 0:
                return int(number) * UNITS[unit]
    raise ValueError('%r is not a size (a positive integer, optionally with KiB, MiB or GiB)' % text)


def receiver_of(config_path, overrides):
    """The incast receiver: traffic.receiver from the overrides, the INI, or 0."""
    if 'traffic.receiver' in overrides:
        return int(overrides['traffic.receiver'])
    ini = configparser.ConfigParser()
    ini.read(config_path)
    return int(ini.get('traffic', 'receiver', fallback='0'))


def point_row(folder, page, entries, footprint, receiver):
    """One row of slow-receiver.csv from a finished point's folder."""
    summary = ra.read_summary(folder)
    fct = ra.completed(ra.read_fct(folder))
    victims = fct['slowdown'][fct['dst'] != receiver]
    sim_s = float(summary.get('sim_time_s') or 0.0)
    first_ns = float(fct['start_ns'].min()) if fct['start_ns'].size else 0.0
    span_s = sim_s - first_ns * 1e-9
    host_pauses = int(summary.get('pfc', {}).get('pause_frames_from_hosts', 0))
    mtt = summary.get('cache', {}).get('mtt', {})

    def pct(q):
        return float(np.percentile(victims, q, method='inverted_cdf')) if victims.size else math.nan

    return {'point': os.path.basename(folder), 'page_bytes': page, 'mtt_entries': entries,
            'footprint_bytes': footprint, 'working_set_entries': footprint // page,
            'host_pause_frames': host_pauses,
            'host_pauses_per_s': host_pauses / span_s if span_s > 0 else math.nan,
            'victims': int(victims.size), 'victim_p50': pct(50), 'victim_p99': pct(99),
            'mtt_hit_rate': mtt.get('hit_rate', '')}


def binary_bytes(n):
    """4096 -> '4 KiB', 2097152 -> '2 MiB' (powers of two as page sizes are named)."""
    for unit in ('GiB', 'MiB', 'KiB'):
        if n >= UNITS[unit] and n % UNITS[unit] == 0:
            return '%d %s' % (n // UNITS[unit], unit)
    return '%d B' % n


def draw(rows, title=None):
    """Two panels against the MTT working set: host pauses/s and victim p99."""
    fig, (a, b) = rp.figure(ncols=2, width=4.2, height=3.2)
    lines = sorted({(r['page_bytes'], r['mtt_entries']) for r in rows})
    for page, entries in lines:
        sel = sorted((r for r in rows if (r['page_bytes'], r['mtt_entries']) == (page, entries)),
                     key=lambda r: r['working_set_entries'])
        x = [r['working_set_entries'] for r in sel]
        label = '%s pages, %d MTT entries' % (binary_bytes(page), entries)
        style = dict(marker='o' if entries == min(e for _, e in lines) else 's',
                     linestyle='-' if entries == min(e for _, e in lines) else '--', label=label)
        a.plot(x, [r['host_pauses_per_s'] for r in sel], **style)
        b.plot(x, [r['victim_p99'] for r in sel], **style)
    for ax in (a, b):
        ax.set_xscale('log')
        ax.set_xlabel('MTT working set (footprint / page size, entries)')
    a.set_ylabel('PFC pause frames sent by hosts per second')
    b.set_ylabel('victim flows: p99 FCT slowdown')
    a.legend(fontsize=7)
    if title:
        fig.suptitle(title)
    return fig


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('-o', '--output', required=True, help='output root (the sweep\'s folders)')
    p.add_argument('-c', '--config', default=CONFIG, help='base config (default: %(default)s)')
    p.add_argument('--page', default='4096,2097152', help='cache.mtt.PageBytes values')
    p.add_argument('--entries', default='2048', help='cache.mtt.Entries values')
    p.add_argument('--footprint', default='32MiB,64MiB,256MiB,1GiB',
                   help='traffic.target.FootprintBytes values (KiB, MiB, GiB suffixes)')
    p.add_argument('--set', action='append', default=[], metavar='KEY=VALUE',
                   help='a fixed key for every point (repeatable)')
    p.add_argument('--sim', default=None, help='rdma-sim binary (default: sweep.py\'s)')
    p.add_argument('-j', '--jobs', default=None, help='parallel points (sweep.py -j)')
    p.add_argument('--title', help='figure title')
    args = p.parse_args(argv)
    try:
        args.pages = [parse_bytes(v) for v in args.page.split(',')]
        args.entry_list = [int(parse_bytes(v)) for v in args.entries.split(',')]
        args.footprints = [parse_bytes(v) for v in args.footprint.split(',')]
    except ValueError as e:
        p.error(str(e))
    for page in args.pages:
        if page < 4096 or page & (page - 1):
            p.error('--page %d: expected a power of two of at least 4096' % page)
    args.fixed = {}
    for text in args.set:
        key, sep, value = text.partition('=')
        if not sep or not key:
            p.error('--set %r: expected KEY=VALUE' % text)
        args.fixed[key] = value
    return args


def main(argv=None):
    args = parse_args(argv)
    sweep_args = ['-c', args.config, '-o', args.output, '--no-progress',
                  '--grid', 'cache.mtt.PageBytes=' + ','.join(map(str, args.pages)),
                  '--grid', 'cache.mtt.Entries=' + ','.join(map(str, args.entry_list)),
                  '--grid', 'traffic.target.FootprintBytes=' + ','.join(map(str, args.footprints))]
    for key, value in args.fixed.items():
        sweep_args += ['--set', '%s=%s' % (key, value)]
    if args.sim:
        sweep_args += ['--sim', args.sim]
    if args.jobs:
        sweep_args += ['-j', args.jobs]
    status = sweep.main(sweep_args)
    if status == 2:  # a configuration refused: nothing was run or written
        return status
    receiver = receiver_of(args.config, args.fixed)
    rows = []
    with open(os.path.join(args.output, sweep.RESULTS), newline='') as f:
        for r in csv.DictReader(f):
            if r['status'] != 'ok':
                continue
            rows.append(point_row(os.path.join(args.output, r['point']),
                                  int(r['cache.mtt.PageBytes']), int(r['cache.mtt.Entries']),
                                  int(r['traffic.target.FootprintBytes']), receiver))
    rows.sort(key=lambda r: (r['page_bytes'], r['mtt_entries'], r['footprint_bytes']))
    table = os.path.join(args.output, 'slow-receiver.csv')
    with open(table + '.tmp', 'w', newline='') as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS)
        w.writeheader()
        w.writerows(rows)
    os.replace(table + '.tmp', table)
    for r in rows:
        print('page %8d  entries %6d  working set %8d  host pauses %6d (%9.0f /s)  '
              'victims p50 %6.2f p99 %7.2f' % (r['page_bytes'], r['mtt_entries'],
                                                r['working_set_entries'], r['host_pause_frames'],
                                                r['host_pauses_per_s'], r['victim_p50'],
                                                r['victim_p99']))
    if rows:
        for path in rp.save(draw(rows, args.title), os.path.join(args.output, 'slow-receiver')):
            print(path)
    print(table)
    return status


if __name__ == '__main__':
    sys.exit(main())
