#!/usr/bin/python3
"""One line of whole-run figures per rdma-sim output folder.

Usage: run_figures.py FOLDER [FOLDER ...]

A FOLDER with a summary.json is one run; any other FOLDER stands for every
run folder below it (a sweep's output root), in name order. Per run:

  RUN: flows N, FCT mean M p99 P us, slowdown mean S p99 Q, small p99 R,
       drops D, PFC pauses X, timeouts T, ECN marks E

FCTs and slowdowns are of the flows that completed (fct.csv); p99 is the
nearest rank (rdmasim_analysis.bucket_percentiles, as rdma-sim's own
buckets); "small" is the flows under 100 kB; drops, PFC pause frames,
recovery timeouts and ECN marks are summary.json's. Exit status 2 if a
FOLDER holds no run or a run's files cannot be read.
"""

import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rdmasim_analysis as ra  # noqa: E402

#: flows under this size (bytes) are "small"
SMALL_BYTES = 100000


def run_folders(folder):
    """The run folders a FOLDER argument stands for, in name order."""
    if ra.has_complete_summary(folder):
        return [folder]
    found = []
    for parent, dirs, _ in os.walk(folder):
        found += [os.path.join(parent, d) for d in dirs
                  if ra.has_complete_summary(os.path.join(parent, d))]
    return sorted(found)


def p99(sizes, values, hi=math.inf):
    """Nearest-rank p99 of the values of flows under hi bytes (NaN if none)."""
    return ra.bucket_percentiles(sizes, values, [{'lo': 0.0, 'hi': hi}])[0]['p99']


def figures(run):
    """The figures of one run folder, as one line of text."""
    summary = ra.read_summary(run)
    fct = ra.completed(ra.read_fct(run))
    sizes, fct_us, slowdown = fct['size'], fct['fct_ns'] / 1000.0, fct['slowdown']
    mean = (lambda v: float(v.mean()) if v.size else math.nan)
    return ('%s: flows %d, FCT mean %.1f p99 %.1f us, slowdown mean %.3f p99 %.2f, '
            'small p99 %.2f, drops %d, PFC pauses %d, timeouts %d, ECN marks %d'
            % (run, sizes.size, mean(fct_us), p99(sizes, fct_us), mean(slowdown),
               p99(sizes, slowdown), p99(sizes, slowdown, SMALL_BYTES), summary['drops'],
               summary['pfc']['pause_frames'], summary.get('recovery', {}).get('timeouts', 0),
               summary.get('ecn_marks', 0)))


def main(argv=None):
    folders = sys.argv[1:] if argv is None else argv
    if not folders or folders[0] in ('-h', '--help'):
        print(__doc__)
        return 0 if folders else 2
    try:
        for folder in folders:
            runs = run_folders(folder)
            if not runs:
                raise ra.OutputError('%s: no rdma-sim run (summary.json) in it or below' % folder)
            for run in runs:
                print(figures(run))
    except ra.OutputError as e:
        print('run_figures.py: %s' % e, file=sys.stderr)
        return 2
    return 0


if __name__ == '__main__':
    sys.exit(main())
