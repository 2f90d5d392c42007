#!/usr/bin/python3
"""The NIC's PCIe model against pcie-bench's published DMA measurements.

  scripts/pcie_dma_study.py -o out/pcie-dma [--preset nfp6000] [--bench PATH]

Runs rdma-pcie-bench (pcie-bench's LAT_DMA_RD, BW_DMA_RD and BW_DMA_WR
against PcieLink) with a nic.preset's pcie keys at every size the published
data give (data/nic-measurements/pcie-bench-nfp6000-bdw.csv: the NFP-6000 on
a Broadwell Xeon, Neugebauer et al., SIGCOMM 2018), and writes:

  OUT/pcie-dma.csv   test, bytes, measured, model, unit, model/measured
  OUT/study.txt      the largest errors, and the points off by more than 25 %
  OUT/pcie-dma.png   (and .pdf) latency and bandwidth against size: the
                     model's curves with the published points on them

Sizes that are not a multiple of 16 bytes (63, 65, 127, ...) are listed
apart: the published reads of them are 30-40 % slower than their aligned
neighbours, which the model does not represent. Exit status 0; 1 if
rdma-pcie-bench fails; 2 for bad arguments or a malformed data file.
"""

import argparse
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nic_measurements as nm  # noqa: E402
import rdmasim_plotting as rp  # noqa: E402

DATA = os.path.join(nm.DIR, 'pcie-bench-nfp6000-bdw.csv')
#: (test, operation, y_name, rdma-pcie-bench column, unit)
TESTS = (('LAT_DMA_RD', 'DMA_READ', 'latency_ns_median', 'latency_ns', 'ns'),
         ('BW_DMA_RD', 'DMA_READ', 'bandwidth', 'gbps', 'Gb/s'),
         ('BW_DMA_WR', 'DMA_WRITE', 'bandwidth', 'gbps', 'Gb/s'))
TARGET = 0.25


def run_bench(bench, preset, test, sizes):
    """rdma-pcie-bench's rows for one test: {bytes: row dict}."""
    rows = nm.run_example([bench, '--preset=' + preset, '--tests=' + test,
                           '--sizes=' + ','.join(str(int(s)) for s in sizes)])
    return {int(row['bytes']): row for row in rows}


def compare(bench, preset, rows):
    """One dict per published point: test, bytes, measured, model, unit, ratio, aligned."""
    table = []
    for test, operation, y_name, column, unit in TESTS:
        published = nm.points(rows, operation, y_name)
        model = run_bench(bench, preset, test, [b for b, _ in published])
        for size, measured in published:
            value = float(model[int(size)][column])
            table.append({'test': test, 'bytes': int(size), 'measured': measured,
                          'model': value, 'unit': unit, 'ratio': value / measured,
                          'aligned': int(size) % 16 == 0})
    return table


def summary(table, preset):
    lines = ['rdma-pcie-bench --preset=%s against pcie-bench (NFP-6000, Xeon E5-2630 v4)' % preset,
             '%-11s %-9s %6s %12s %12s' % ('test', 'sizes', 'points', 'worst', 'outside 25%')]
    for aligned in (True, False):
        for test, *_ in TESTS:
            pts = [p for p in table if p['test'] == test and p['aligned'] == aligned]
            if not pts:
                continue
            worst = max(pts, key=lambda p: abs(p['ratio'] - 1))
            off = [p for p in pts if abs(p['ratio'] - 1) > TARGET]
            lines.append('%-11s %-9s %6d %+11.1f%% %12s' % (
                test, 'aligned' if aligned else 'unaligned', len(pts),
                100 * (worst['ratio'] - 1), ', '.join('%d B' % p['bytes'] for p in off) or '-'))
    lines.append('aligned: a multiple of 16 bytes; worst: model / measured - 1 at the '
                 'point farthest off')
    return '\n'.join(lines) + '\n'


def draw(table, preset):
    fig, (lat, bw) = rp.figure(ncols=2, width=4.2, height=3.0)
    for ax, tests, ylabel in ((lat, ('LAT_DMA_RD',), 'DMA read latency (ns)'),
                              (bw, ('BW_DMA_RD', 'BW_DMA_WR'), 'DMA bandwidth (Gb/s)')):
        for test in tests:
            pts = sorted((p for p in table if p['test'] == test), key=lambda p: p['bytes'])
            aligned = [p for p in pts if p['aligned']]
            line, = ax.plot([p['bytes'] for p in aligned], [p['model'] for p in aligned],
                            label='model, %s' % test)
            ax.plot([p['bytes'] for p in aligned], [p['measured'] for p in aligned], 'o',
                    color=line.get_color(), label='pcie-bench, %s' % test)
            rest = [p for p in pts if not p['aligned']]
            if rest:
                ax.plot([p['bytes'] for p in rest], [p['measured'] for p in rest], 'x',
                        color=line.get_color(), label='pcie-bench, unaligned sizes')
        ax.set_xlabel('transfer size (bytes)')
        ax.set_ylabel(ylabel)
        ax.set_ylim(bottom=0)
        ax.legend(fontsize='x-small')
    fig.suptitle('PcieLink (nic.preset = %s) against the NFP-6000 on a Xeon E5-2630 v4'
                 % preset, fontsize='small')
    return fig


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('-o', '--output', required=True, help='output folder')
    p.add_argument('--preset', default='nfp6000', help='the nic.preset to run (default nfp6000)')
    p.add_argument('--bench', default=nm.default_example('rdma-pcie-bench'),
                   help='rdma-pcie-bench (default: $RDMA_BUILD_DIR or build/, examples/)')
    p.add_argument('--data', default=DATA, help='the published points (default %(default)s)')
    args = p.parse_args(argv)
    try:
        _, rows = nm.read(args.data)
    except (OSError, nm.MeasurementError) as e:
        sys.stderr.write('pcie_dma_study.py: %s\n' % e)
        return 2
    try:
        table = compare(args.bench, args.preset, rows)
    except (OSError, RuntimeError) as e:
        sys.stderr.write('pcie_dma_study.py: %s\n' % e)
        return 2 if 'exited 2' in str(e) else 1
    os.makedirs(args.output, exist_ok=True)
    with open(os.path.join(args.output, 'pcie-dma.csv'), 'w', newline='') as f:
        w = csv.writer(f)
        w.writerow(('test', 'bytes', 'measured', 'model', 'unit', 'model_over_measured'))
        for p in table:
            w.writerow((p['test'], p['bytes'], p['measured'], '%.6g' % p['model'], p['unit'],
                        '%.4f' % p['ratio']))
    nm.write_outputs(args.output, summary(table, args.preset), draw(table, args.preset), 'pcie-dma')
    return 0


if __name__ == '__main__':
    sys.exit(main())
