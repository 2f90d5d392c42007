#!/usr/bin/python3
"""An FPGA NIC's WRITE throughput against message size, beside the published FPGA RDMA stacks.

  scripts/fpga_throughput_study.py -o out/fpga-throughput [--bench PATH]

Runs rdma-qp-scaling with one QP keeping 256 WRITEs posted (the NIC as
hardware at its defaults: an FPGA NIC of Corundum's kind, on-chip tables)
for message sizes of 64 bytes to 256 KiB, with a path MTU of 1024 and of
4096 bytes, and holds the goodput against what FPGA RDMA stacks state
(data/nic-measurements/): RASHPA's 90 Gb/s for packets above 1 KB and 95
Gb/s above 32 KB (Mansour et al., arXiv:1806.08939) and SRNIC's 97 Gb/s
(NSDI 2023, no size stated). Writes:

  OUT/fpga-throughput.csv   bytes, path_mtu, writes_per_s, goodput_gbps,
                            bound_gbps (the RoCEv2 goodput bound)
  OUT/study.txt             each published point against the model
  OUT/fpga-throughput.png   (and .pdf) goodput against size, the bound, the points

The bound: a WRITE of S bytes in packets of M is ceil(S / M) frames, each
82 bytes more on the wire than its payload (Ethernet header 14, FCS 4,
preamble 8, gap 12, IPv4 20, UDP 8, BTH 12, ICRC 4) and the first a RETH
(16) more: 100 Gb/s x S / (S + 82 ceil(S / M) + 16).
Exit status 0; 1 if rdma-qp-scaling fails; 2 for bad arguments.
"""

import argparse
import csv
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nic_measurements as nm  # noqa: E402
import rdmasim_plotting as rp  # noqa: E402

SIZES = (64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 262144)
MTUS = (1024, 4096)
TARGET = 0.25


def bound(size, mtu, gbps=100.0):
    """RoCEv2 WRITE goodput at line rate, Gb/s (module docstring)."""
    packets = math.ceil(size / mtu)
    return gbps * size / (size + 82 * packets + 16)


def published(rows_by_file):
    """(label, size or None, Gb/s, path MTU to compare with) of every stated
    FPGA stack throughput."""
    points = []
    for r in rows_by_file['rashpa-esrf-rdma-100gbe.csv']:
        if r['y_name'] == 'max_stable_link_throughput':
            size = int(float(r['x_value']) * 1024)
            points.append(('RASHPA, packets > %s KB' % r['x_value'], size, float(r['y_value']),
                           1024 if size <= 1024 else 4096))
    for r in rows_by_file['srnic-nsdi23-abstract.csv']:
        if r['y_name'] == 'throughput':
            points.append(('SRNIC (size not stated)', None, float(r['y_value']), 4096))
    return points


def compare(model, points):
    """For each published point, the model's goodput: at the sizes above it
    (the least of them: the text gives a floor), or at the largest size."""
    table = []
    for label, size, gbps, mtu in points:
        rows = [r for r in model if r['path_mtu'] == mtu and (size is None or r['bytes'] >= size)]
        value = min(r['goodput'] for r in rows) if size else max(r['goodput'] for r in rows)
        table.append({'label': label, 'size': size, 'published': gbps, 'mtu': mtu,
                      'model': value, 'ratio': value / gbps})
    return table


def summary(table):
    lines = ['rdma-qp-scaling (one QP, 256 WRITEs posted) against FPGA RDMA stacks',
             '%-26s %10s %10s %10s %8s' % ('published', 'Gb/s', 'model', 'path MTU', 'off')]
    for p in table:
        lines.append('%-26s %10.1f %10.1f %10d %+7.1f%%%s' % (
            p['label'], p['published'], p['model'], p['mtu'], 100 * (p['ratio'] - 1),
            '' if abs(p['ratio'] - 1) <= TARGET else '  (outside 25 %)'))
    lines.append('model: the least goodput at the sizes above a "greater than" point, the '
                 'largest where no size is stated')
    return '\n'.join(lines) + '\n'


def draw(model, points):
    fig, (ax,) = rp.figure(width=5.0, height=3.2)
    for mtu in MTUS:
        rows = [r for r in model if r['path_mtu'] == mtu]
        x = [r['bytes'] for r in rows]
        line, = ax.plot(x, [r['goodput'] for r in rows], marker='o', markersize=3,
                        label='model, path MTU %d' % mtu)
        ax.plot(x, [bound(s, mtu) for s in x], ':', color=line.get_color(),
                label='RoCEv2 bound, MTU %d' % mtu)
    for label, size, gbps, _ in points:
        if size is None:
            ax.axhline(gbps, color='grey', linestyle='--', linewidth=1)
            ax.annotate(label, (SIZES[0], gbps), xytext=(0, 3), textcoords='offset points',
                        fontsize='x-small')
        else:
            ax.plot([size, SIZES[-1]], [gbps, gbps], color='black', linewidth=1)
            ax.plot([size], [gbps], 'k>', label=None)
            ax.annotate(label, (size, gbps), xytext=(0, -11), textcoords='offset points',
                        fontsize='x-small')
    ax.set_xscale('log', base=2)
    ax.set_xlabel('WRITE size (bytes)')
    ax.set_ylabel('goodput (Gb/s)')
    ax.set_ylim(0, 105)
    ax.legend(fontsize='x-small', loc='lower right')
    fig.suptitle('The FPGA NIC model (defaults) against FPGA RDMA stacks at 100 Gb/s',
                 fontsize='small')
    return fig


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('-o', '--output', required=True, help='output folder')
    p.add_argument('--bench', default=nm.default_example('rdma-qp-scaling'),
                   help='rdma-qp-scaling (default: $RDMA_BUILD_DIR or build/, examples/)')
    p.add_argument('--data', default=nm.DIR, help='the published points\' folder '
                   '(default %(default)s)')
    args = p.parse_args(argv)
    try:
        files = {name: nm.read(os.path.join(args.data, name))[1]
                 for name in ('rashpa-esrf-rdma-100gbe.csv', 'srnic-nsdi23-abstract.csv')}
        points = published(files)
    except (OSError, nm.MeasurementError, ValueError) as e:
        sys.stderr.write('fpga_throughput_study.py: %s\n' % e)
        return 2
    model = []
    try:
        for mtu in MTUS:
            for r in nm.run_example([args.bench, '--cacheEntries=1024', '--maxQps=1',
                                     '--window=256', '--warm=100us', '--span=1ms',
                                     '--pathMtu=%d' % mtu,
                                     '--bytes=' + ','.join(str(s) for s in SIZES)]):
                model.append({'bytes': int(r['bytes']), 'path_mtu': mtu,
                              'writes': float(r['writes_per_s']),
                              'goodput': float(r['payload_gbps'])})
    except (OSError, RuntimeError) as e:
        sys.stderr.write('fpga_throughput_study.py: %s\n' % e)
        return 1
    os.makedirs(args.output, exist_ok=True)
    with open(os.path.join(args.output, 'fpga-throughput.csv'), 'w', newline='') as f:
        w = csv.writer(f)
        w.writerow(('bytes', 'path_mtu', 'writes_per_s', 'goodput_gbps', 'bound_gbps'))
        for r in model:
            w.writerow((r['bytes'], r['path_mtu'], '%.6g' % r['writes'], '%.4f' % r['goodput'],
                        '%.4f' % bound(r['bytes'], r['path_mtu'])))
    nm.write_outputs(args.output, summary(compare(model, points)), draw(model, points),
                     'fpga-throughput')
    return 0


if __name__ == '__main__':
    sys.exit(main())
