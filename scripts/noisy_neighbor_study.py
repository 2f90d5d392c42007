#!/usr/bin/python3
"""A victim tenant's bandwidth while another tenant on its NIC sweeps a context table.

  scripts/noisy_neighbor_study.py -o out/noisy-neighbor [--tables mtt,qpc] [--bench PATH]

Runs rdma-noisy-neighbor for each table (the attacker sweeps E entries of
the MTT, the MPT or the QPC; E = 0 is the victim alone, E = 1 an attacker
that sweeps nothing) and each isolation: none (a shared cache, QPs taking
turns at the TX arbiter), cache (two way partitions), arbiter (tenants
taking turns before QPs) and both; and writes:

  OUT/noisy-neighbor.csv   rdma-noisy-neighbor's rows, every table
  OUT/study.txt            per table and isolation: the loss of an attacker
                           that sweeps nothing, the largest loss, and the
                           victim's misses
  OUT/noisy-neighbor.png   (and .pdf) the victim's bandwidth loss against E,
                           a panel a table, with the published BlueField-3
                           point ("up to 93.9 %", data/nic-measurements/
                           noisy-neighbor-bluefield3-2025-abstract.csv)

Exit status 0; 1 if rdma-noisy-neighbor fails; 2 for bad arguments.
"""

import argparse
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nic_measurements as nm  # noqa: E402
import rdmasim_plotting as rp  # noqa: E402

DATA = os.path.join(nm.DIR, 'noisy-neighbor-bluefield3-2025-abstract.csv')
TABLES = ('mtt', 'mpt', 'qpc')
SWEEP = (0, 1, 16, 64, 256, 512, 1024, 2048, 4096)
ISOLATIONS = ('none', 'cache', 'arbiter', 'both')
NAMES = {'none': 'none (shared)', 'cache': 'cache partitions', 'arbiter': 'arbiter by tenant',
         'both': 'both'}


def run_bench(bench, table, sweep):
    """rdma-noisy-neighbor's rows for one table, every isolation."""
    return nm.run_example([bench, '--table=' + table, '--isolation=' + ','.join(ISOLATIONS),
                           '--sweep=' + ','.join(str(e) for e in sweep)])


def published_loss(path):
    """The published largest bandwidth loss, percent (the abstract's 'up to')."""
    _, rows = nm.read(path)
    for r in rows:
        if r['y_name'] == 'bandwidth_loss_pct_max':
            return float(r['y_value'])
    raise nm.MeasurementError('%s: no bandwidth_loss_pct_max row' % path)


def summary(rows, published):
    lines = ['rdma-noisy-neighbor: the victim\'s bandwidth loss against the victim alone '
             '(published: BlueField-3, up to %.1f %%)' % published,
             '%-5s %-18s %15s %13s %7s %14s' % ('table', 'isolation', 'no sweep (E=1)',
                                                'largest loss', 'at E', 'victim misses')]
    for table in dict.fromkeys(r['table'] for r in rows):
        for isolation in ISOLATIONS:
            pts = [r for r in rows if r['table'] == table and r['isolation'] == isolation]
            one = [r for r in pts if r['attacker_entries'] == '1']
            worst = max(pts, key=lambda r: float(r['victim_loss_pct']))
            misses = sum(int(r['victim_misses']) for r in pts)
            lines.append('%-5s %-18s %14.1f%% %12.1f%% %7s %14d' % (
                table, NAMES[isolation],
                float(one[0]['victim_loss_pct']) if one else float('nan'),
                float(worst['victim_loss_pct']), worst['attacker_entries'], misses))
    lines.append('victim misses: the swept table\'s misses of the victim, summed over the sweep')
    return '\n'.join(lines) + '\n'


def draw(rows, published):
    tables = list(dict.fromkeys(r['table'] for r in rows))
    fig, axes = rp.figure(ncols=len(tables), width=3.2, height=3.0, sharey=True)
    for ax, table in zip(axes, tables):
        for isolation, style in zip(ISOLATIONS, ('-', '--', '-.', ':')):
            pts = [r for r in rows if r['table'] == table and r['isolation'] == isolation
                   and int(r['attacker_entries']) > 0]
            ax.plot([int(r['attacker_entries']) for r in pts],
                    [float(r['victim_loss_pct']) for r in pts], style, marker='o',
                    markersize=3, label=NAMES[isolation])
        ax.axhline(published, color='black', linestyle=':', linewidth=1)
        ax.set_title('attacker sweeps the %s' % table.upper(), fontsize='small')
        ax.set_xscale('log', base=2)
        ax.set_xlabel('entries swept (E)')
        ax.set_ylim(0, 100)
    axes[0].set_ylabel('victim bandwidth lost (%)')
    axes[0].annotate('BlueField-3, up to %.1f %%' % published, (1, published),
                     xytext=(0, -12), textcoords='offset points', fontsize='x-small')
    axes[-1].legend(fontsize='x-small', loc='lower right')
    fig.suptitle('A victim QP beside a tenant sweeping the NIC\'s tables (model defaults)',
                 fontsize='small')
    return fig


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('-o', '--output', required=True, help='output folder')
    p.add_argument('--tables', default=','.join(TABLES),
                   help='tables to sweep, comma separated (default %(default)s)')
    p.add_argument('--sweep', default=','.join(str(e) for e in SWEEP),
                   help='the attacker\'s entries E, comma separated, 0 first '
                        '(default %(default)s)')
    p.add_argument('--bench', default=nm.default_example('rdma-noisy-neighbor'),
                   help='rdma-noisy-neighbor (default: $RDMA_BUILD_DIR or build/, examples/)')
    p.add_argument('--data', default=DATA, help='the published point (default %(default)s)')
    args = p.parse_args(argv)
    tables = args.tables.split(',')
    bad = [t for t in tables if t not in TABLES]
    if bad:
        p.error('--tables: %s is not one of %s' % (', '.join(bad), ', '.join(TABLES)))
    try:
        sweep = [int(e) for e in args.sweep.split(',')]
    except ValueError:
        p.error('--sweep: %r is not a list of numbers' % args.sweep)
    if not sweep or sweep[0] != 0 or any(e < 0 for e in sweep):
        p.error('--sweep: expected 0 (the victim alone) first, then positive numbers')
    try:
        published = published_loss(args.data)
    except (OSError, nm.MeasurementError) as e:
        sys.stderr.write('noisy_neighbor_study.py: %s\n' % e)
        return 2
    try:
        rows = [r for t in tables for r in run_bench(args.bench, t, sweep)]
    except (OSError, RuntimeError) as e:
        sys.stderr.write('noisy_neighbor_study.py: %s\n' % e)
        return 2 if 'exited 2' in str(e) else 1
    os.makedirs(args.output, exist_ok=True)
    with open(os.path.join(args.output, 'noisy-neighbor.csv'), 'w', newline='') as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    nm.write_outputs(args.output, summary(rows, published), draw(rows, published),
                     'noisy-neighbor')
    return 0


if __name__ == '__main__':
    sys.exit(main())
