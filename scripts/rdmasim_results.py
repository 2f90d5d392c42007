"""A sweep's results.csv (scripts/sweep.py) reduced over its runs: the swept
parameters, the rows of the points that succeeded, their grouping into the
series of a figure, and the mean of a metric over a group's runs with a
95 % Student's t confidence interval (scipy.stats.t).

results.csv's columns are: point, the swept parameters, seed, status,
resumed, error, then the metrics (rdmasim_analysis.flatten_summary and
derived_metrics). An empty metric cell (a failed point, an FCT bucket
without flows) is NaN here and left out of every mean.
"""

import numpy as np
from scipy import stats

import rdmasim_analysis as ra

#: the confidence level of the intervals drawn as error bars
CONFIDENCE = 0.95


class Results:
    """A sweep's results.csv: path, rows (every row, dicts of str), params
    (the swept keys, in column order) and metrics (the metric columns)."""

    def __init__(self, path):
        rows = ra.read_table(path)
        if not rows:
            raise ra.OutputError('%s: no rows' % path)
        cols = list(rows[0])
        if not {'point', 'seed', 'error'} <= set(cols):
            raise ra.OutputError('%s: not a sweep results.csv (no point/seed columns)' % path)
        self.path = path
        self.rows = rows
        self.params = cols[cols.index('point') + 1:cols.index('seed')]
        self.metrics = cols[cols.index('error') + 1:]

    def check_param(self, key, what='parameter'):
        """Raise OutputError, listing the swept keys, unless key is one."""
        if key not in self.params:
            raise ra.OutputError('%s: %s %r is not a swept parameter (swept: %s)' %
                                 (self.path, what, key, ', '.join(self.params) or 'none'))

    def check_metric(self, name):
        """Raise OutputError, listing the metric columns, unless name is one."""
        if name not in self.metrics:
            raise ra.OutputError('%s: no metric column %r (metrics: %s)' %
                                 (self.path, name, ', '.join(self.metrics)))

    def select(self, where):
        """The rows of the points that succeeded (status ok) and have every
        value of where ({swept key: value text}); OutputError if none."""
        for key in where:
            self.check_param(key, '--where key')
        rows = [r for r in self.rows
                if r['status'] == 'ok' and all(r[k] == v for k, v in where.items())]
        if not rows:
            raise ra.OutputError('%s: no successful point matches' % self.path)
        return rows

    def series_keys(self, where, group_by, x=None):
        """The swept keys whose values make the series: group_by when given
        (each checked), else every swept key but x and those fixed by where."""
        if group_by:
            for key in group_by:
                self.check_param(key, '--group-by key')
            return list(group_by)
        return [k for k in self.params if k != x and k not in where]

    def pooled(self, rows, keys):
        """The swept keys, other than keys, that take more than one value in
        rows: what a mean over a group pools besides the seeds."""
        return [k for k in self.params if k not in keys and len({r[k] for r in rows}) > 1]


def group(rows, keys):
    """rows grouped by their values of keys: {tuple of value texts: [rows]},
    in the order the values first appear."""
    out = {}
    for r in rows:
        out.setdefault(tuple(r[k] for k in keys), []).append(r)
    return out


def label(keys, values):
    """A series' raw label: 'key=value' pairs joined by ', ' ('all' for none)."""
    return ', '.join('%s=%s' % kv for kv in zip(keys, values)) or 'all'


def mean_ci(values):
    """Means over runs with their Student's t confidence intervals.

    values: array of shape (runs, points) (or (runs,)), NaN where a run has
    no value (left out). Returns (mean, half, n), each of shape (points,)
    (or scalars): n the runs with a value, mean their mean (NaN for n = 0),
    half the half-width of the CONFIDENCE interval of the mean,
    t_{(1+CONFIDENCE)/2, n-1} x s / sqrt(n) with s the sample standard
    deviation (ddof 1), in the values' unit; NaN for n < 2.
    """
    v = np.asarray(values, dtype=float)
    ok = np.isfinite(v)
    n = ok.sum(axis=0)
    with np.errstate(invalid='ignore', divide='ignore'):
        mean = np.where(ok, v, 0.0).sum(axis=0) / n
        dev = np.where(ok, v - mean, 0.0)
        s = np.sqrt((dev ** 2).sum(axis=0) / (n - 1))
        t = stats.t.ppf(0.5 + CONFIDENCE / 2, np.maximum(n - 1, 1))
        half = np.where(n >= 2, t * s / np.sqrt(n), np.nan)
    return mean, half, n


def runs_unit(pooled):
    """What the runs behind a mean are: 'seeds', or 'runs, pooling KEY, ...'
    when the mean pools the values of other swept keys (Results.pooled)."""
    return 'runs, pooling %s' % ', '.join(pooled) if pooled else 'seeds'


def interval_note(ns, unit='seeds'):
    """The words a legend gives the error bars: 'bars: 95 % t-interval over
    3 seeds' (or '2-4 seeds'; unit names what was counted). ns: the run
    counts of the drawn points, those under 2 having no bar; None if no
    point has a bar."""
    ns = [int(n) for n in ns if n >= 2]
    if not ns:
        return None
    count = '%d' % ns[0] if min(ns) == max(ns) else '%d-%d' % (min(ns), max(ns))
    return 'bars: %g %% t-interval\nover %s %s' % (CONFIDENCE * 100, count, unit)


def series_note(series):
    """interval_note for a figure's series: dicts with runs (the run count
    of each point) and pooled (the swept keys their means pool)."""
    return interval_note([n for s in series for n in s['runs']],
                         runs_unit(sorted({k for s in series for k in s['pooled']})))
