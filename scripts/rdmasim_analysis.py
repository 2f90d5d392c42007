"""Reading and reducing rdma-sim outputs: the one place the sweep and plot
scripts share.

rdma-sim writes, into its output folder (--output.dir):

  summary.json  run totals, FCT slowdown percentiles per flow-size bucket,
                PFC, drops, retransmissions, NIC cache counters
  fct.csv       one row per flow: id,src,dst,op,size,start_ns,fct_ns,
                ideal_fct_ns,slowdown,qp,status
  pfc.csv       time_ns,node,port,class,event (pause|resume),sender (host|switch)
  qlen.csv      time_ns,node,port,class,bytes: every output.qlenInterval, a
                row per switch egress (port, class) whose queue is not empty
  cache.csv     nic,table,hits,misses,evictions
  nodes.csv     id,kind,name,pod,tier: each node's kind (host|switch) and
                name (host12, tor3, agg1, core0, sw5); pod and tier may be
                empty (folders of older versions have none)

Here are readers for those files (numpy arrays for the per-flow records),
the flow-size bucketing and percentiles (numpy), the flattening of a
summary into one row of metrics for a sweep's results.csv, and PFC pause
intervals. Nothing here imports matplotlib; rdmasim_plotting does.
"""

import csv
import json
import math
import os
import re

import numpy as np

SUMMARY = 'summary.json'
FCT_CSV = 'fct.csv'
PFC_CSV = 'pfc.csv'
QLEN_CSV = 'qlen.csv'
NODES_CSV = 'nodes.csv'

#: status of a flow that completed (verbs' ibv_wc_status name)
WC_SUCCESS = 'IBV_WC_SUCCESS'
#: fct.csv's status of a flow still running at the run's end
WC_INCOMPLETE = 'INCOMPLETE'

#: the percentiles summary.json and the FCT figures report, by name
PERCENTILES = (('p50', 50.0), ('p95', 95.0), ('p99', 99.0))

#: keys a summary.json must have to count as a finished run (the contract
#: of rdma-sim's output; a run killed part-way leaves none or a partial file)
SUMMARY_REQUIRED = ('config', 'seed', 'wall_time_s', 'sim_time_s', 'flows', 'fct_slowdown', 'pfc',
                    'drops', 'retransmissions', 'cache')


class OutputError(Exception):
    """An rdma-sim output that is missing or malformed; the message names the file."""


# --------------------------------------------------------------------------- summary.json


def read_summary(run_dir):
    """Return summary.json of a run folder as a dict.

    Raises OutputError (naming the file) if it is missing, is not JSON or
    lacks one of SUMMARY_REQUIRED.
    """
    path = os.path.join(run_dir, SUMMARY)
    try:
        with open(path) as f:
            summary = json.load(f)
    except OSError as e:
        raise OutputError('%s: %s' % (path, e.strerror)) from e
    except ValueError as e:
        raise OutputError('%s: not valid JSON (%s)' % (path, e)) from e
    if not isinstance(summary, dict):
        raise OutputError('%s: not a JSON object' % path)
    missing = [k for k in SUMMARY_REQUIRED if k not in summary]
    if missing:
        raise OutputError('%s: incomplete, no %s' % (path, ', '.join(missing)))
    return summary


def has_complete_summary(run_dir):
    """Whether the folder holds a complete summary.json (a finished run)."""
    try:
        read_summary(run_dir)
    except OutputError:
        return False
    return True


def summary_buckets(summary):
    """The FCT-slowdown buckets of a summary, ordered by their lower edge.

    Returns a list of dicts {label, lo, hi, count, p50, p95, p99,
    unfinished, p99_at_least}: lo and hi in bytes (hi math.inf where the
    summary gives none, an open last bucket), count in flows, the
    percentiles as slowdowns; unfinished the flows still running at the
    run's end (left out of the percentiles) and p99_at_least the lower
    bound on p99 with them (NaN without any). A bucket with no flows has
    NaN percentiles: rdma-sim writes null for them (older versions wrote
    0.0, which count 0 overrules).
    """
    out = []
    for label, b in summary.get('fct_slowdown', {}).items():
        hi = b.get('hi')
        out.append(_empty_is_nan({
            'label': label,
            'lo': float(b['lo']),
            'hi': math.inf if hi is None else float(hi),
            'count': int(b.get('count') or 0),
            **{name: _float_or_nan(b.get(name)) for name, _ in PERCENTILES},
            'unfinished': int(b.get('unfinished') or 0),
            'p99_at_least': _float_or_nan((b.get('with_unfinished_at_least') or {}).get('p99')),
        }))
    out.sort(key=lambda b: (b['lo'], b['hi']))
    return out


def _empty_is_nan(bucket):
    """The bucket with NaN percentiles if it holds no flows (count 0)."""
    if bucket['count'] == 0:
        bucket.update((name, math.nan) for name, _ in PERCENTILES)
    return bucket


def flatten_summary(summary):
    """One row of metrics from a summary, as an ordered dict.

    Column names are the summary's JSON paths joined with '.', for example
    'flows.completed', 'pfc.pause_frames', 'cache.qpc.hit_rate',
    'fct_slowdown.<bucket>.p99' (with '.lo', '.hi', '.count' so the buckets
    can be drawn from the row alone, '.unfinished' and '.p99_at_least' for
    the flows still running at the run's end; an open bucket's hi, an empty
    bucket's percentiles and a bound without unfinished flows are '', an
    empty cell in results.csv). The config
    echo and versions are left out: a sweep's row carries its own parameters.
    """
    row = {}
    for key in ('seed', 'wall_time_s', 'sim_time_s', 'events', 'link_transmissions',
                'data_packets_delivered', 'peak_rss_mb', 'drops', 'retransmissions'):
        if key in summary:
            row[key] = summary[key]
    for key, value in summary.get('flows', {}).items():
        row['flows.' + key] = value
    for key, value in summary.get('pfc', {}).items():
        row['pfc.' + key] = value
    for b in summary_buckets(summary):
        prefix = 'fct_slowdown.%s.' % b['label']
        for key in ('lo', 'hi', 'count') + tuple(name for name, _ in PERCENTILES) + (
                'unfinished', 'p99_at_least'):
            value = b[key]
            row[prefix + key] = '' if isinstance(value, float) and not math.isfinite(value) else value
    for table, counters in summary.get('cache', {}).items():
        for key in ('hit_rate', 'hits', 'misses', 'evictions'):
            if key in counters:
                row['cache.%s.%s' % (table, key)] = counters[key]
    row.update(flatten_collectives(summary))
    return row


def flatten_collectives(summary):
    """The collectives block of a summary (traffic.pattern = collective) as
    row columns: collectives.total, .completed, .failed, .not_run, .incomplete; per
    collective and algorithm (and size, where one run has several sizes of
    one) 'collectives.<collective>.<algorithm>[.<bytes>].' + cct_ns.mean,
    cct_ns.p50, cct_ns.p99, cct_ns.max, algbw_gbps, busbw_gbps (Gb/s), done,
    and where the run has one such group the same without the name
    ('collectives.busbw_gbps': a sweep over sizes or algorithms draws one
    column); 'jobs.iteration_time_ns' and 'jobs.exposed_comm_share', means over the
    jobs. Nothing for a run without jobs; '' where nothing was measured."""
    block = summary.get('collectives')
    if not block:
        return {}
    row = {'collectives.' + k: block[k]
           for k in ('total', 'completed', 'failed', 'not_run', 'incomplete')
           if k in block}
    groups = block.get('by_size', [])
    names = [(g['collective'], g['algorithm']) for g in groups]
    for g in groups:
        name = 'collectives.%s.%s.' % (g['collective'], g['algorithm'])
        if names.count((g['collective'], g['algorithm'])) > 1:
            name = name[:-1] + '.%d.' % g['bytes']
        for key in ('mean', 'p50', 'p99', 'max'):
            row[name + 'cct_ns.' + key] = _blank_if_null(g.get('cct_ns', {}).get(key))
        row[name + 'algbw_gbps'] = _blank_if_null(g.get('algbw_gbps'))
        row[name + 'busbw_gbps'] = _blank_if_null(g.get('busbw_gbps'))
        row[name + 'done'] = g.get('done', 0)
    if len(groups) == 1:
        # One collective per run (a sweep over its size or algorithm): the
        # same figures under names that do not change with the sweep.
        one = 'collectives.%s.%s.' % names[0]
        row.update({'collectives.' + k[len(one):]: v for k, v in list(row.items())
                    if k.startswith(one) and not k.endswith('.done')})
    for key, get in (('iteration_time_ns', lambda j: j['iteration_time_ns']['mean']),
                     ('exposed_comm_share', lambda j: j['exposed_comm_share'])):
        values = [get(j) for j in block.get('jobs', []) if get(j) is not None]
        row['jobs.' + key] = sum(values) / len(values) if values else ''
    return row


def _blank_if_null(value):
    """'' for a JSON null (nothing measured), else the value."""
    return '' if value is None else value


def derived_metrics(run_dir, summary):
    """Metrics a summary does not hold, from the run's fct.csv:
    completed_bytes (bytes of flows that completed) and completed_gbps
    (those bytes x 8 / the simulated time, Gb/s: the fabric's goodput)."""
    fct = completed(read_fct(run_dir))
    total = int(fct['size'].sum())
    sim_s = float(summary.get('sim_time_s') or 0.0)
    return {'completed_bytes': total, 'completed_gbps': total * 8 / sim_s / 1e9 if sim_s > 0 else ''}


def results_buckets(row):
    """The FCT buckets of one results.csv row (inverse of flatten_summary's
    fct_slowdown columns): list of {label, lo, hi, count, p50, p95, p99} as
    summary_buckets gives, NaN for an empty cell and for every percentile
    of a bucket with count 0."""
    labels = {}
    for col in row:
        if col.startswith('fct_slowdown.') and col.endswith('.lo'):
            labels[col[len('fct_slowdown.'):-len('.lo')]] = True
    out = []
    for label in labels:
        prefix = 'fct_slowdown.%s.' % label
        hi = row.get(prefix + 'hi', '')
        b = {'label': label, 'lo': float(row[prefix + 'lo']),
             'hi': math.inf if hi in ('', None) else float(hi),
             'count': int(float(row.get(prefix + 'count') or 0)),
             'unfinished': int(float(row.get(prefix + 'unfinished') or 0)),
             'p99_at_least': _float_or_nan(row.get(prefix + 'p99_at_least'))}
        for name, _ in PERCENTILES:
            b[name] = _float_or_nan(row.get(prefix + name))
        out.append(_empty_is_nan(b))
    out.sort(key=lambda b: (b['lo'], b['hi']))
    return out


# --------------------------------------------------------------------------- CSV files

FCT_COLUMNS = ('id', 'src', 'dst', 'op', 'size', 'start_ns', 'fct_ns', 'ideal_fct_ns', 'slowdown',
               'qp', 'status')
_FCT_NUMERIC = {'id': np.int64, 'src': np.int64, 'dst': np.int64, 'size': np.int64,
                'start_ns': np.int64, 'fct_ns': np.int64, 'ideal_fct_ns': np.int64,
                'slowdown': np.float64, 'qp': np.int64}
#: what an empty cell of a flow that did not finish reads as
_UNFINISHED = {'fct_ns': '-1', 'slowdown': 'nan'}
PFC_COLUMNS = ('time_ns', 'node', 'port', 'class', 'event')
NODE_COLUMNS = ('id', 'kind', 'name', 'pod', 'tier')
QLEN_COLUMNS = ('time_ns', 'node', 'port', 'class', 'bytes')
COLLECTIVES_CSV = 'collectives.csv'
COLLECTIVE_COLUMNS = ('job', 'iteration', 'collective', 'algorithm', 'bytes', 'ranks', 'cct_ns',
                      'algbw_gbps', 'busbw_gbps', 'status')


def _read_csv(path, columns):
    """Rows of a CSV file as dicts; checks the header has every column."""
    try:
        f = open(path, newline='')
    except OSError as e:
        raise OutputError('%s: %s' % (path, e.strerror)) from e
    with f:
        reader = csv.DictReader(f)
        missing = [c for c in columns if c not in (reader.fieldnames or ())]
        if missing:
            raise OutputError('%s: header lacks %s' % (path, ', '.join(missing)))
        return list(reader)


def _path(run_or_file, name):
    return os.path.join(run_or_file, name) if os.path.isdir(run_or_file) else run_or_file


def read_fct(run_or_file):
    """Per-flow records of fct.csv (a run folder or the file itself).

    Returns a dict of numpy arrays, one per column of FCT_COLUMNS: integers
    for ids, sizes (bytes) and times (ns), float for slowdown, str for op and
    status. A flow that did not finish (status not IBV_WC_SUCCESS: rdma-sim
    leaves its fct_ns and slowdown empty) has fct_ns -1 and slowdown NaN;
    completed() leaves such flows out. Raises OutputError naming the file and
    line of a bad value.
    """
    path = _path(run_or_file, FCT_CSV)
    rows = _read_csv(path, FCT_COLUMNS)
    out = {}
    for col in FCT_COLUMNS:
        kind = _FCT_NUMERIC.get(col)
        values = [r[col] for r in rows]
        if kind is None:
            out[col] = np.array(values, dtype=str)
            continue
        if col in _UNFINISHED:
            values = [_UNFINISHED[col] if v == '' and r['status'] != WC_SUCCESS else v
                      for v, r in zip(values, rows)]
        try:
            out[col] = np.array([kind(float(v)) if kind is np.int64 else float(v) for v in values],
                                dtype=kind)
        except ValueError:
            line = next(i for i, v in enumerate(values) if not _is_number(v)) + 2
            raise OutputError('%s:%d: %s is not a number' % (path, line, col)) from None
    return out


def completed(fct):
    """The records of flows that completed (status IBV_WC_SUCCESS)."""
    keep = fct['status'] == WC_SUCCESS
    return {k: v[keep] for k, v in fct.items()}


def read_collectives(run_or_file):
    """The collectives that completed, from collectives.csv (a run folder or
    the file itself; traffic.pattern = collective): a list of dicts with
    collective, algorithm (str), bytes, ranks, job, iteration (int), cct_ns,
    algbw_gbps, busbw_gbps (float, Gb/s) and group (str: the job's
    parallelism group, such as tp, dp, ep or pp, '' when the job has none;
    None when the file has no group column, as those of older versions).
    Raises OutputError naming the file and line of a bad value."""
    path = _path(run_or_file, COLLECTIVES_CSV)
    out = []
    for i, r in enumerate(_read_csv(path, COLLECTIVE_COLUMNS)):
        if r['status'] != 'done':
            continue
        try:
            out.append({'collective': r['collective'], 'algorithm': r['algorithm'],
                        'bytes': int(r['bytes']), 'ranks': int(r['ranks']), 'job': int(r['job']),
                        'iteration': int(r['iteration']), 'cct_ns': float(r['cct_ns']),
                        'algbw_gbps': float(r['algbw_gbps']),
                        'busbw_gbps': float(r['busbw_gbps']), 'group': r.get('group')})
        except ValueError:
            raise OutputError('%s:%d: a number is not one' % (path, i + 2)) from None
    return out


def run_folder(run_or_file):
    """The run folder of a folder or of a file in it."""
    return run_or_file if os.path.isdir(run_or_file) else os.path.dirname(os.path.abspath(run_or_file))


#: rdma-sim's transport.pathMtu when a run's summary does not give it (bytes)
DEFAULT_PATH_MTU = 1024
#: wire bytes of a RoCEv2 data packet beyond its payload: Ethernet 14, IPv4
#: 20, UDP 8, BTH 12, ICRC 4, FCS 4, preamble and SFD 8, inter-frame gap 12
#: (IEEE 802.3, IBA Annex A17; model/wire/rdma-wire.h, helper/rdma-fct-stats.h);
#: a WRITE's RETH and an immediate's ImmDt are left out, so the payload
#: share below is an upper bound
PACKET_OVERHEAD_BYTES = 14 + 20 + 8 + 12 + 4 + 4 + 8 + 12


def path_mtu(run_or_file):
    """(path MTU in bytes, whether the run says so): summary.json's
    config['transport.pathMtu'] of the run folder, else (DEFAULT_PATH_MTU,
    False) when there is no summary or it lacks the key."""
    try:
        config = read_summary(run_folder(run_or_file)).get('config', {})
    except OutputError:
        return DEFAULT_PATH_MTU, False
    value = config.get('transport.pathMtu')
    try:
        return int(float(value)), True
    except (TypeError, ValueError):
        return DEFAULT_PATH_MTU, False


#: a rate as rdma-sim writes it ("3600Gbps", "25Gbps", "1.5Tbps"): number and unit
_RATE = re.compile(r'^\s*([0-9.eE+-]+)\s*([kMGT]?)bps\s*$')


def rate_gbps(text):
    """A rate as rdma-sim writes one (summary.json's config: '100Gbps',
    '3600Gbps') in Gb/s; None if it is not one."""
    m = _RATE.match(str(text))
    if not m:
        return None
    return float(m.group(1)) * {'': 1e-9, 'k': 1e-6, 'M': 1e-3, 'G': 1.0, 'T': 1e3}[m.group(2)]


def intra_server_gbps(run_or_file):
    """A rail fabric's intra-server (NVLink) link rate in Gb/s, from the
    run's summary.json (topology.rail.IntraServerRate when topology.type is
    rail), else None."""
    try:
        config = read_summary(run_folder(run_or_file)).get('config', {})
    except OutputError:
        return None
    if config.get('topology.type') != 'rail':
        return None
    return rate_gbps(config.get('topology.rail.IntraServerRate'))


def payload_share(mtu):
    """The share of a link's rate that full packets of a path MTU of mtu
    bytes carry as payload: mtu / (mtu + PACKET_OVERHEAD_BYTES) (1024: 0.926,
    4096: 0.980)."""
    return mtu / float(mtu + PACKET_OVERHEAD_BYTES)


def read_pfc(run_or_file):
    """pfc.csv as a list of (time_ns, node, port, class, event) tuples in file order."""
    path = _path(run_or_file, PFC_CSV)
    out = []
    for i, r in enumerate(_read_csv(path, PFC_COLUMNS)):
        if r['event'] not in ('pause', 'resume'):
            raise OutputError('%s:%d: event %r is neither pause nor resume' % (path, i + 2, r['event']))
        try:
            out.append((int(r['time_ns']), int(r['node']), int(r['port']), int(r['class']), r['event']))
        except ValueError:
            raise OutputError('%s:%d: time_ns, node, port and class must be integers' % (path, i + 2)) from None
    return out


def read_qlen(run_or_file):
    """qlen.csv's queue samples (a run folder or the file itself).

    Returns a dict of int64 numpy arrays of shape (rows,), one per
    QLEN_COLUMNS: time_ns (ns), node, port (device index on the node),
    class, bytes (queued in that egress class). Raises OutputError naming
    the file and line of a value that is not an integer.
    """
    path = _path(run_or_file, QLEN_CSV)
    rows = _read_csv(path, QLEN_COLUMNS)
    out = {c: np.zeros(len(rows), dtype=np.int64) for c in QLEN_COLUMNS}
    for i, r in enumerate(rows):
        try:
            for c in QLEN_COLUMNS:
                out[c][i] = int(r[c])
        except ValueError:
            raise OutputError('%s:%d: %s must be integers' % (path, i + 2, ', '.join(QLEN_COLUMNS))) from None
    return out


def time_ns(text):
    """An ns-3 time value as rdma-sim's config takes it ('10us', '1.5ms',
    '200ns'; a bare number is seconds) in ns (float). Raises ValueError."""
    m = re.fullmatch(r'\s*([-+0-9.eE]+)\s*(s|ms|us|ns|ps|fs|min|h|d)?\s*', str(text))
    if not m:
        raise ValueError('%r is not a time' % text)
    return float(m.group(1)) * _TIME_UNIT_NS[m.group(2) or 's']


_TIME_UNIT_NS = {'d': 86400e9, 'h': 3600e9, 'min': 60e9, 's': 1e9, 'ms': 1e6, 'us': 1e3, 'ns': 1.0,
                 'ps': 1e-3, 'fs': 1e-6}


def read_nodes(run_or_file):
    """nodes.csv of a run folder (or of the folder holding a file of the run)
    as {node id (int): row}, row a dict of str: id, kind, name, pod, tier.
    Returns {} when there is no nodes.csv."""
    folder = run_or_file if os.path.isdir(run_or_file) else os.path.dirname(run_or_file)
    path = os.path.join(folder, NODES_CSV)
    if not os.path.exists(path):
        return {}
    out = {}
    for i, r in enumerate(_read_csv(path, NODE_COLUMNS)):
        try:
            out[int(r['id'])] = r
        except ValueError:
            raise OutputError('%s:%d: id %r is not an integer' % (path, i + 2, r['id'])) from None
    return out


def node_name(nodes, node):
    """How a figure names a node: its name in nodes (read_nodes), else 'node N'."""
    row = nodes.get(node)
    return row['name'] if row and row['name'] else 'node %d' % node


def read_table(path):
    """Any CSV (results.csv, rdma-qp-scaling's output) as a list of dicts of strings."""
    return _read_csv(path, ())


def column(rows, name, path='table'):
    """One column of read_table's rows as a float numpy array (NaN where empty)."""
    if rows and name not in rows[0]:
        raise OutputError('%s: no column %r (columns: %s)' % (path, name, ', '.join(rows[0])))
    return np.array([_float_or_nan(r[name]) for r in rows], dtype=float)


# --------------------------------------------------------------------------- reductions


def default_edges(sizes):
    """Decade bucket edges (bytes) covering the sizes: 0, 10^k, ..., 10^K."""
    sizes = np.asarray(sizes)
    if sizes.size == 0:
        return [0.0, math.inf]
    top = int(math.ceil(math.log10(max(float(sizes.max()), 1.0))))
    bottom = int(math.floor(math.log10(max(float(sizes.min()), 1.0))))
    return [0.0] + [10.0 ** k for k in range(max(bottom, 1), max(top, 1) + 1)]


def bucket_index(sizes, buckets):
    """For each size, the index of the bucket (lo <= size < hi, as rdma-sim's
    summary.json buckets) it falls in, or -1."""
    sizes = np.asarray(sizes, dtype=float)
    idx = np.full(sizes.shape, -1, dtype=np.int64)
    for i, b in enumerate(buckets):
        idx[(sizes >= b['lo']) & (sizes < b['hi'])] = i
    return idx


def edges_to_buckets(edges):
    """Buckets (dicts with label, lo, hi) from ascending edges [e0, e1, ..., en]."""
    out = []
    for lo, hi in zip(edges[:-1], edges[1:]):
        out.append({'label': '%s-%s' % (format_bytes(lo), format_bytes(hi)), 'lo': float(lo),
                    'hi': float(hi)})
    return out


def bucket_percentiles(sizes, slowdowns, buckets):
    """Slowdown percentiles per size bucket (numpy.percentile, nearest rank:
    method 'inverted_cdf', the ceil(p x n)-th smallest, as rdma-sim's
    RdmaPercentile).

    sizes and slowdowns: per-flow arrays; buckets: dicts with lo, hi (bytes,
    lo <= size < hi). Returns copies of the buckets with count and p50, p95,
    p99 (NaN for an empty bucket).
    """
    slowdowns = np.asarray(slowdowns, dtype=float)
    idx = bucket_index(sizes, buckets)
    out = []
    for i, b in enumerate(buckets):
        vals = slowdowns[idx == i]
        row = dict(b, count=int(vals.size))
        for name, q in PERCENTILES:
            row[name] = (float(np.percentile(vals, q, method='inverted_cdf'))
                     if vals.size else math.nan)
        out.append(row)
    return out


def nearest_rank(n, q):
    """The rank (1-based) of the q-th percentile of n values under the nearest-rank
    rule of bucket_percentiles (numpy's 'inverted_cdf'): ceil(q/100 x n); 0 for n = 0."""
    if n <= 0:
        return 0
    return int(np.percentile(np.arange(1, n + 1), q, method='inverted_cdf'))


def percentile_is_max(n, q):
    """Whether the nearest-rank q-th percentile of n values is simply their
    largest (n at most 99 for p99, 19 for p95, 1 for p50): too few values
    for that percentile to say more than the maximum. False for n = 0."""
    return n > 0 and nearest_rank(n, q) == n


def min_count(q):
    """The fewest values whose nearest-rank q-th percentile is not their
    largest: 100 for p99, 20 for p95, 2 for p50."""
    n = 1
    while percentile_is_max(n, q):
        n += 1
    return n


def bucket_range_label(lo, hi):
    """A flow-size bucket [lo, hi) in bytes as a figure names it, in decimal
    units as rdma-sim's bucket edges are: '<10 kB', '10-100 kB', '0.1-1 MB',
    '\u226510 MB' (an en dash between the edges)."""
    if not math.isfinite(hi):
        return '\u2265' + format_size(lo)
    if lo <= 0:
        return '<' + format_size(hi)
    unit, scale = _size_unit(hi)
    return '%s\u2013%s %s' % (_short(lo / scale), _short(hi / scale), unit)


def format_size(n):
    """Bytes in decimal units with a space: 999 B, 10 kB, 1.5 MB, 2 GB."""
    unit, scale = _size_unit(n)
    return '%s %s' % (_short(n / scale), unit)


def _size_unit(n):
    for unit, scale in (('GB', 1e9), ('MB', 1e6), ('kB', 1e3)):
        if n >= scale:
            return unit, scale
    return 'B', 1.0


def _short(x):
    return '%g' % float('%.3g' % x)


def ecdf(values):
    """Empirical CDF: sorted values and the fraction of values <= each."""
    x = np.sort(np.asarray(values, dtype=float))
    y = np.arange(1, x.size + 1, dtype=float) / max(x.size, 1)
    return x, y


def pause_intervals(events, end_ns):
    """Paused intervals per (node, port, class) from pfc.csv events.

    A class is paused from a pause event while not paused until the next
    resume (further pause frames meanwhile refresh the same pause, 802.1Qbb);
    a pause with no resume lasts until end_ns. Returns
    {(node, port, class): [(start_ns, end_ns), ...]} in time order.
    """
    start = {}
    out = {}
    for t, node, port, cls, event in sorted(events, key=lambda e: e[0]):
        key = (node, port, cls)
        out.setdefault(key, [])
        if event == 'pause':
            start.setdefault(key, t)
        elif key in start:
            out[key].append((start.pop(key), t))
    for key, t in start.items():
        out[key].append((t, max(end_ns, t)))
    return out


#: byte units a size key takes, as rdma-sim reads them (RdmaParseByteSize):
#: decimal powers of 1000, binary (IEC 80000-13) powers of 1024
BYTE_UNITS = {'B': 1, 'kB': 1e3, 'KB': 1e3, 'MB': 1e6, 'GB': 1e9, 'TB': 1e12,
              'KiB': 2**10, 'MiB': 2**20, 'GiB': 2**30, 'TiB': 2**40}
_SIZE = re.compile(r'([0-9.]+(?:[eE][+-]?[0-9]+)?)\s*(%s)' % '|'.join(BYTE_UNITS))


def size_bytes(text):
    """A size as rdma-sim's config takes it ('2000000', '200kB', '4MiB') in
    bytes (float). Raises ValueError for anything else."""
    m = _SIZE.fullmatch(str(text).strip())
    return float(m.group(1)) * BYTE_UNITS[m.group(2)] if m else float(text)


def format_time(ns):
    """A duration in ns as words in the largest unit it is half of or more:
    '0.5 ms', '200 \u00b5s', '80 ns'."""
    for unit, scale in (('s', 1e9), ('ms', 1e6), ('\u00b5s', 1e3)):
        if ns >= scale / 2:
            return '%s %s' % (_short(ns / scale), unit)
    return '%s ns' % _short(ns)


def format_bytes(n):
    """1000-based size label: 0, 999, 10KB, 1.5MB, inf."""
    if not math.isfinite(n):
        return 'inf'
    for unit, scale in (('GB', 1e9), ('MB', 1e6), ('KB', 1e3)):
        if n >= scale:
            return ('%g' % (n / scale)) + unit
    return '%g' % n


def _float_or_nan(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        return math.nan


def _is_number(v):
    try:
        float(v)
    except ValueError:
        return False
    return True


def rst_table(header, rows):
    """A reStructuredText simple table of these rows under this header."""
    cols = list(zip(header, *rows))
    widths = [max(len(str(v)) for v in col) for col in cols]
    rule = '  '.join('=' * w for w in widths)
    line = lambda vals: '  '.join(str(v).ljust(w) for v, w in zip(vals, widths)).rstrip()
    return '\n'.join([rule, line(header), rule] + [line(r) for r in rows] + [rule])
