"""Figure plumbing shared by the plot scripts: headless matplotlib (Agg), one
house style, the common command-line options, and saving as PNG and PDF.

Reading and reducing the data lives in rdmasim_analysis; this module only
draws.
"""

import argparse
import os
import sys

import matplotlib

matplotlib.use('Agg')  # headless: no display is needed or used
import matplotlib.pyplot as plt  # noqa: E402

import rdmasim_analysis as ra  # noqa: E402

#: the figure formats every script writes
FORMATS = ('png', 'pdf')

STYLE = {
    'figure.dpi': 100,
    'savefig.dpi': 150,
    'font.size': 9,
    'axes.grid': True,
    'grid.alpha': 0.3,
    'axes.spines.top': False,
    'axes.spines.right': False,
    'legend.frameon': False,
    'lines.markersize': 4,
}


def parser(description):
    """An argparse parser with the options every plot script has (-o, --title)."""
    p = argparse.ArgumentParser(description=description)
    p.add_argument('-o', '--output', required=True,
                   help='output path without extension: writes OUTPUT.png and OUTPUT.pdf')
    p.add_argument('--title', help='figure title')
    return p


def figure(ncols=1, width=4.0, height=3.0, sharey=False):
    """A new figure of ncols axes in the house style: (fig, [axes])."""
    with plt.rc_context(STYLE):
        fig, axes = plt.subplots(1, ncols, figsize=(width * ncols, height), squeeze=False,
                                 sharey=sharey, layout='constrained')
    return fig, list(axes[0])


def save(fig, output):
    """Write the figure as OUTPUT.png and OUTPUT.pdf; return the paths."""
    with plt.rc_context(STYLE):
        os.makedirs(os.path.dirname(os.path.abspath(output)), exist_ok=True)
        paths = []
        for fmt in FORMATS:
            path = '%s.%s' % (output, fmt)
            fig.savefig(path, format=fmt)
            paths.append(path)
    plt.close(fig)
    return paths


def run_label(path):
    """A legend label for a run folder: its folder name."""
    return os.path.basename(os.path.normpath(path))


def run_main(build_parser, draw, argv=None):
    """A plot script's command line: parse, draw, save as PNG and PDF, print the
    paths. An OutputError (a missing or malformed input) is reported as
    'script: message' with exit status 2; returns the exit status."""
    args = build_parser().parse_args(argv)
    try:
        paths = save(draw(args), args.output)
    except ra.OutputError as e:
        sys.stderr.write('%s: %s\n' % (os.path.basename(sys.argv[0]), e))
        return 2
    for path in paths:
        print(path)
    return 0
