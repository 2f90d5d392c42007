"""Figure plumbing shared by the plot scripts: headless matplotlib (Agg), one
house style, the common command-line options (-o, --title, --label,
--where, --group-by), means drawn with their error bars, the rule for a log
y axis, and saving as PNG and PDF.

Reading and reducing the data lives in rdmasim_analysis; this module only
draws.
"""

import argparse
import os
import sys

import matplotlib
import numpy as np

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
# Set for the process (these modules serve the plot scripts only): the lines,
# legends and texts a script draws after figure() take the style too.
matplotlib.rcParams.update(STYLE)


def parser(description):
    """An argparse parser with the options every plot script has (-o, --title)."""
    p = argparse.ArgumentParser(description=description)
    p.add_argument('-o', '--output', required=True,
                   help='output path without extension: writes OUTPUT.png and OUTPUT.pdf')
    p.add_argument('--title', help='figure title')
    return p


def _assignment(text):
    """'RAW=TEXT' -> (RAW, TEXT), split at the last '=' (RAW may hold '=')."""
    raw, sep, shown = text.rpartition('=')
    if not sep or not raw:
        raise argparse.ArgumentTypeError('%r: expected RAW=TEXT' % text)
    return raw, shown


def _where(text):
    """'KEY=VALUE' -> (KEY, VALUE), split at the first '='."""
    key, sep, value = text.partition('=')
    if not sep or not key:
        raise argparse.ArgumentTypeError('%r: expected KEY=VALUE' % text)
    return key, value


def add_label_option(p):
    """--label RAW=TEXT (repeatable): legend text for a raw series label."""
    p.add_argument('--label', action='append', default=[], type=_assignment, metavar='RAW=TEXT',
                   help='show TEXT for the series labelled RAW (a run folder name, or a '
                        'sweep label such as cc.algorithm=hpcc); repeatable')


def add_sweep_options(p):
    """--where KEY=VALUE and --group-by KEY (both repeatable), for results.csv inputs."""
    p.add_argument('--where', action='append', default=[], type=_where, metavar='KEY=VALUE',
                   help='results.csv: only points with this parameter value (repeatable)')
    p.add_argument('--group-by', action='append', default=[], metavar='KEY',
                   help='results.csv: one series per value of this swept key (repeatable); '
                        'other keys are averaged over (default: one series per combination)')


def relabel(labels, raw):
    """The legend text for a raw series label, given --label's (RAW, TEXT)
    pairs: the TEXT of raw itself, else raw's ', '-separated parts each
    replaced by its TEXT where it has one."""
    labels = dict(labels)
    if raw in labels:
        return labels[raw]
    return ', '.join(labels.get(part, part) for part in raw.split(', '))


def plot_mean(ax, x, mean, half, label=None, **kw):
    """Draw means as a line with markers, and error bars of +-half where half
    is finite; points whose mean is NaN (no run has a value) are left out.

    x, mean, half: arrays of one shape (half in the unit of mean, NaN for
    no bar). Returns the Line2D of the means.
    """
    x, mean, half = (np.asarray(a, dtype=float) for a in (x, mean, half))
    keep = np.isfinite(mean)
    (line,) = ax.plot(x[keep], mean[keep], marker='o', label=label, **kw)
    bars = keep & np.isfinite(half)
    if bars.any():
        ax.errorbar(x[bars], mean[bars], yerr=half[bars], fmt='none', ecolor=line.get_color(),
                    elinewidth=0.8, capsize=2)
    return line


def log_y_if_wide(axes, values, force=False):
    """Log y scale on every axis if force, or if the finite values are all
    positive and span more than a decade (largest > 10 x smallest)."""
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    if force or (v.size and v.min() > 0 and v.max() > 10 * v.min()):
        for ax in axes:
            ax.set_yscale('log')


def figure(ncols=1, width=4.0, height=3.0, sharey=False):
    """A new figure of ncols axes in the house style: (fig, [axes])."""
    fig, axes = plt.subplots(1, ncols, figsize=(width * ncols, height), squeeze=False,
                             sharey=sharey, layout='constrained')
    return fig, list(axes[0])


def save(fig, output):
    """Write the figure as OUTPUT.png and OUTPUT.pdf; return the paths."""
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
