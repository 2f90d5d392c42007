"""The plot scripts and the shared reading/bucketing module.

The small result most draw is a sweep of the stand-in test/python/fake_rdma_sim.py
(its outputs follow rdma-sim's contract; its numbers are synthetic); others
are a sweep of the built rdma-sim on examples/configs/tiny.ini (skipped,
saying why, when it is not built) and hand-written results.csv and
summary.json files. The tests check the numbers each figure draws, and that
PNG and PDF are written.
"""

import math
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

from sweep_helpers import FAKE_SIM, SCRIPTS, load_script, read_results, real_sim_and_config, write_results

ra = load_script('rdmasim_analysis')
sweep = load_script('sweep')
plot_fct = load_script('plot_fct')
plot_cdf = load_script('plot_cdf')
plot_pfc = load_script('plot_pfc')
plot_cache = load_script('plot_cache')


@pytest.fixture(scope='module')
def result(tmp_path_factory):
    """fake_rdma_sim: a 3 x 2 sweep over QPs and QPC cache entries (100 flows a run)."""
    root = tmp_path_factory.mktemp('sweep')
    rc = sweep.main(['-o', str(root), '--sim', FAKE_SIM, '--no-progress', '--set', 'traffic.flows=100',
                     '--grid', 'traffic.qps=4,16,64', '--grid', 'nic.qpc_cache_entries=8,32'])
    assert rc == 0
    return root


def run_dirs(root):
    return sorted(str(root / row['point']) for row in read_results(root))


def draw(module, *argv):
    """The figure a script draws for these arguments (not saved)."""
    return module.draw(module.build_parser().parse_args(['-o', 'unused'] + [str(a) for a in argv]))


def check_written(output):
    """OUTPUT.png and OUTPUT.pdf exist, are non-empty and start with their formats' magic."""
    for ext, magic in (('png', b'\x89PNG\r\n\x1a\n'), ('pdf', b'%PDF-')):
        with open('%s.%s' % (output, ext), 'rb') as f:
            head = f.read(8)
        assert head.startswith(magic) and os.path.getsize('%s.%s' % (output, ext)) > 1000


def test_numpy_bucket_percentiles_equal_the_summary(result):
    """The per-bucket percentiles reduced here with numpy from fct.csv equal the
    ones the stand-in computed by hand (order-statistic interpolation) into summary.json."""
    for run in run_dirs(result):
        summary = ra.read_summary(run)
        fct = ra.completed(ra.read_fct(run))
        mine = ra.bucket_percentiles(fct['size'], fct['slowdown'], ra.summary_buckets(summary))
        for b in mine:
            theirs = summary['fct_slowdown'][b['label']]
            assert b['count'] == theirs['count']
            for name in ('p50', 'p95', 'p99'):
                assert math.isclose(b[name], theirs[name], rel_tol=1e-12), (run, b['label'], name)


def test_bucketing_rule_and_percentiles():
    buckets = ra.edges_to_buckets([0, 1000, 10000, math.inf])
    assert [b['label'] for b in buckets] == ['0-1KB', '1KB-10KB', '10KB-inf']
    # lo <= size < hi (rdma-sim's RdmaSlowdownPercentiles buckets)
    assert list(ra.bucket_index([1, 999, 1000, 9999, 10000], buckets)) == [0, 0, 1, 1, 2]
    sizes = np.array([10, 20, 30, 40, 2000])
    out = ra.bucket_percentiles(sizes, [1.0, 2.0, 3.0, 5.0, 7.0], buckets)
    # nearest rank on [1, 2, 3, 5]: p50 = the 2nd smallest, p95 = the 4th
    assert out[0]['count'] == 4 and out[0]['p50'] == 2.0 and out[0]['p95'] == 5.0
    assert out[1]['p99'] == 7.0 and out[2]['count'] == 0 and math.isnan(out[2]['p50'])
    assert ra.default_edges([300, 5e6]) == [0.0, 100.0, 1000.0, 1e4, 1e5, 1e6, 1e7]
    # how a figure names the buckets: decimal units, as rdma-sim's edges are
    assert [ra.bucket_range_label(lo, hi) for lo, hi in
            ((0, 1e4), (1e4, 1e5), (1e5, 1e6), (1e6, 1e7), (1e7, math.inf))] == [
        '<10 kB', '10\u2013100 kB', '0.1\u20131 MB', '1\u201310 MB', '\u226510 MB']


def test_a_percentile_of_too_few_flows_is_their_largest():
    """Nearest rank: the p99 of n < 100 flows (p95 of n < 20) is the largest
    flow's, the rank numpy's inverted_cdf takes; percentile_is_max says so."""
    for q, least in ((99.0, 100), (95.0, 20), (50.0, 2)):
        assert ra.min_count(q) == least
        for n in (1, least - 1, least, least + 1, 3 * least):
            values = np.arange(1.0, n + 1)
            is_max = np.percentile(values, q, method='inverted_cdf') == n
            assert ra.percentile_is_max(n, q) == is_max == (n < least), (q, n)
    assert not ra.percentile_is_max(0, 99.0)


def points(ax, label=None):
    """The points of a series on an axis (its scatter labelled label; the
    first scatter if None): (x, y, open), open True where the marker is hollow."""
    coll = [c for c in ax.collections if label is None or c.get_label() == label][0]
    xy = np.asarray(coll.get_offsets())
    faces = np.asarray(coll.get_facecolors())
    return xy[:, 0], xy[:, 1], np.all(np.isclose(faces, 1.0), axis=1)


def tick_texts(ax):
    return [t.get_text() for t in ax.get_xticklabels()]


def dots(ax):
    """Each run's values an axis draws (gid 'runs'): [(x, y)]."""
    return [(x, y) for ln in ax.get_lines() if ln.get_gid() == 'runs'
            for x, y in zip(ln.get_xdata(), ln.get_ydata())]


def test_plot_fct_from_runs_draws_numpy_percentiles(result):
    """Buckets are categories 0..n-1 (two series side by side around them),
    labelled with their range and flows; the points are the runs' numpy
    percentiles."""
    runs = run_dirs(result)[:2]
    fig = draw(plot_fct, *runs)
    summary = ra.read_summary(runs[0])
    buckets = [b for b in ra.summary_buckets(summary) if b['count']]
    fct = ra.completed(ra.read_fct(runs[0]))
    mine = [b for b in ra.bucket_percentiles(fct['size'], fct['slowdown'], ra.summary_buckets(summary))
            if b['count']]
    for ax, name in zip(fig.axes, ('p50', 'p95', 'p99')):
        assert ax.get_xscale() == 'linear' and ax.get_xlabel() == 'Flow size'
        assert [t.split('\n')[0] for t in tick_texts(ax)] == [
            ra.bucket_range_label(b['lo'], b['hi']) for b in buckets]
        x, y, _ = points(ax, os.path.basename(runs[0]))
        assert np.allclose(x, np.arange(len(buckets)) - 0.15)
        assert np.allclose(y, [b[name] for b in mine], rtol=1e-12)
        assert np.allclose(y, [b[name] for b in buckets], rtol=1e-12)  # = the summary's
    assert fig.axes[0].get_ylabel() == 'FCT slowdown (FCT / ideal FCT)'
    assert [t.get_text() for t in fig.axes[2].get_legend().get_texts()][:2] == [
        os.path.basename(r) for r in runs]


def test_plot_fct_from_sweep_results(result, tmp_path):
    """One line per grid point; --where keeps the points with that value."""
    results = result / 'results.csv'
    fig = draw(plot_fct, results, '--where', 'nic.qpc_cache_entries=8')
    labels = [c.get_label() for c in fig.axes[0].collections]
    assert labels == ['traffic.qps=4', 'traffic.qps=16', 'traffic.qps=64']  # no readable name known
    row = next(r for r in read_results(result) if r['point'] == 'nic.qpc_cache_entries=8_traffic.qps=16')
    p99 = [b['p99'] for b in ra.results_buckets(row) if b['count']]
    assert np.allclose(points(fig.axes[2], 'traffic.qps=16')[1], p99)
    # the same as a command, in its own process
    out = tmp_path / 'sweep-fct'
    r = subprocess.run([sys.executable, os.path.join(SCRIPTS, 'plot_fct.py'), '-o', str(out), str(results)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == [str(out) + '.png', str(out) + '.pdf']
    check_written(out)


def test_plot_cdf(result, tmp_path):
    run = run_dirs(result)[0]
    fig = draw(plot_cdf, run, '--min-size', 1e4)
    fct = ra.completed(ra.read_fct(run))
    expect = np.sort(fct['fct_ns'][fct['size'] > 1e4]) * 1e-3
    (line,) = fig.axes[0].get_lines()
    assert np.allclose(line.get_xdata(), expect) and line.get_ydata()[-1] == 1.0
    assert fig.axes[0].get_xlabel() == 'Flow completion time (\u00b5s)'
    out = tmp_path / 'cdf'
    assert plot_cdf.rp.run_main(plot_cdf.build_parser, plot_cdf.draw, ['-o', str(out), run]) == 0
    check_written(out)


def test_pause_intervals():
    """Pause until resume; a repeated pause refreshes (802.1Qbb); no resume: until the end."""
    events = [(100, 1, 0, 3, 'pause'), (150, 1, 0, 3, 'pause'), (300, 1, 0, 3, 'resume'),
              (400, 1, 0, 3, 'resume'), (500, 1, 0, 3, 'pause'), (200, 2, 1, 0, 'pause')]
    assert ra.pause_intervals(events, 1000) == {(1, 0, 3): [(100, 300), (500, 1000)],
                                                 (2, 1, 0): [(200, 1000)]}


def test_plot_pfc(result, tmp_path):
    run = run_dirs(result)[0]
    intervals = ra.pause_intervals(ra.read_pfc(run), int(ra.read_summary(run)['sim_time_s'] * 1e9))
    fig = draw(plot_pfc, run)
    ax = fig.axes[0]
    assert [t.get_text().split(' (')[0] for t in ax.get_yticklabels()] == [
        'node %d port %d class %d' % k for k in sorted(intervals)]
    bars = ax.collections
    assert len(bars) == len(intervals) and len(bars) == 2
    for bar, key in zip(bars, sorted(intervals)):
        starts = sorted(p.get_extents().x0 for p in bar.get_paths())
        assert len(starts) == len(intervals[key])
    assert ax.get_xlabel() == 'Time (\u00b5s)'
    out = tmp_path / 'pfc'
    assert plot_pfc.rp.run_main(plot_pfc.build_parser, plot_pfc.draw, ['-o', str(out), run]) == 0
    check_written(out)


def test_plot_pfc_bad_event_names_file_and_line(tmp_path, capsys):
    (tmp_path / 'pfc.csv').write_text('time_ns,node,port,class,event\n1,0,0,3,pause\n2,0,0,3,xoff\n')
    rc = plot_pfc.rp.run_main(plot_pfc.build_parser, plot_pfc.draw, ['-o', str(tmp_path / 'x'), str(tmp_path)])
    assert rc == 2
    assert "pfc.csv:3: event 'xoff' is neither pause nor resume" in capsys.readouterr().err
    assert not (tmp_path / 'x.png').exists()


def test_plot_cache_from_qp_scaling_csv(tmp_path):
    """The qp-scaling table: one line per cache size, x = QPs (log2 axis)."""
    table = tmp_path / 'qp-scaling.csv'
    rows = ['cache_entries,qps,throughput_gbps,hit_rate']
    for entries in (64, 256):
        for qps in (16, 64, 256, 1024):
            rows.append('%d,%d,%.2f,%.4f' % (entries, qps, 95.0 * min(1, entries / qps), min(1, entries / qps)))
    table.write_text('\n'.join(rows) + '\n')
    fig = draw(plot_cache, table)
    hit, tput = fig.axes
    assert [ln.get_label() for ln in hit.get_lines()] == ['64 entries', '256 entries']
    assert list(hit.get_lines()[0].get_xdata()) == [16, 64, 256, 1024]
    assert np.allclose(hit.get_lines()[0].get_ydata(), [1, 1, 0.25, 0.0625])
    assert np.allclose(tput.get_lines()[1].get_ydata(), [95, 95, 95, 23.75])
    assert tput.get_ylabel() == 'Throughput (Gb/s)' and hit.get_xlabel() == 'Queue pairs'
    out = tmp_path / 'cache'
    assert plot_cache.rp.run_main(plot_cache.build_parser, plot_cache.draw, ['-o', str(out), str(table)]) == 0
    check_written(out)


def test_plot_cache_from_sweep_results(result, tmp_path):
    """fake_rdma_sim's cyclic-LRU hit rate C/N (capped at 1) drawn against QPs."""
    fig = draw(plot_cache, result / 'results.csv', '--qps-key', 'traffic.qps',
               '--entries-key', 'nic.qpc_cache_entries')
    hit, tput = fig.axes
    lines = {ln.get_label(): ln for ln in hit.get_lines()}
    assert np.allclose(lines['8 entries'].get_ydata(), [1.0, 0.5, 0.125])
    assert np.allclose(lines['32 entries'].get_ydata(), [1.0, 1.0, 0.5])
    rows = {r['point']: r for r in read_results(result)}
    assert math.isclose(tput.get_lines()[0].get_ydata()[1],
                        float(rows['nic.qpc_cache_entries=8_traffic.qps=16']['completed_gbps']))
    with pytest.raises(ra.OutputError, match="no column 'traffic.qp'"):
        draw(plot_cache, result / 'results.csv', '--qps-key', 'traffic.qp')


def test_plot_cache_from_rdma_qp_scaling(build_dir, tmp_path):
    """examples/rdma-qp-scaling's own CSV: hit rate = qpc_hits / (qpc_hits + qpc_misses)."""
    exe = os.path.join(build_dir, 'examples', 'rdma-qp-scaling')
    if not os.access(exe, os.X_OK):
        pytest.skip('rdma-qp-scaling is not built at %s' % exe)
    table = tmp_path / 'qp-scaling.csv'
    r = subprocess.run([exe, '--cacheEntries=4', '--maxQps=16', '--out=%s' % table],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    rows = ra.read_table(str(table))
    fig = draw(plot_cache, table)
    hit, tput = fig.axes
    (line,) = hit.get_lines()
    assert list(line.get_xdata()) == sorted(int(r['qps_made']) for r in rows)
    by_qps = {int(r['qps_made']): r for r in rows}
    expect = [int(by_qps[q]['qpc_hits']) / max(1, int(by_qps[q]['qpc_hits']) + int(by_qps[q]['qpc_misses']))
              for q in sorted(by_qps)]
    assert np.allclose(line.get_ydata(), expect)
    assert line.get_ydata()[0] == 1.0 and line.get_ydata()[-1] < 1.0  # 4 entries: QPs beyond 4 miss
    assert np.allclose(tput.get_lines()[0].get_ydata(), [float(by_qps[q]['payload_gbps']) for q in sorted(by_qps)])


# --------------------------------------------------------------------------- empty buckets, seeds


def means(ax):
    """The lines of means an axis draws (marker 'o'; error-bar caps left out)."""
    return [ln for ln in ax.get_lines() if ln.get_marker() == 'o']


def bars(ax):
    """The error bars an axis draws: [(x, low, high)] from its vertical segments."""
    return [(seg[0][0], seg[0][1], seg[1][1]) for coll in ax.collections for seg in coll.get_segments()
            if len(seg)]


def fct_row(seed, buckets, **params):
    """A results.csv row of an ok point; buckets: (label, lo, hi, count, percentile text)."""
    row = {'point': 'p_seed=%d' % seed, **params, 'seed': seed, 'status': 'ok', 'resumed': 0, 'error': ''}
    for label, lo, hi, count, p in buckets:
        pre = 'fct_slowdown.%s.' % label
        row.update({pre + 'lo': lo, pre + 'hi': hi, pre + 'count': count,
                    pre + 'p50': p, pre + 'p95': p, pre + 'p99': p})
    return row


def test_empty_bucket_is_nan_in_summaries_and_an_empty_cell_in_results():
    """null percentiles (rdma-sim now) and 0.0 with count 0 (older summaries)
    are both an empty bucket: NaN when read, '' in results.csv, NaN read back."""
    summary = {'fct_slowdown': {
        '0-10000': {'lo': 0, 'hi': 10000, 'count': 3, 'p50': 1.5, 'p95': 2.0, 'p99': 2.5},
        '10000-100000': {'lo': 10000, 'hi': 100000, 'count': 0, 'p50': None, 'p95': None, 'p99': None},
        '100000-inf': {'lo': 100000, 'hi': None, 'count': 0, 'p50': 0.0, 'p95': 0.0, 'p99': 0.0}}}
    buckets = ra.summary_buckets(summary)
    assert [b['count'] for b in buckets] == [3, 0, 0] and buckets[0]['p99'] == 2.5
    assert all(math.isnan(b[n]) for b in buckets[1:] for n in ('p50', 'p95', 'p99'))
    row = ra.flatten_summary(summary)
    assert row['fct_slowdown.0-10000.p50'] == 1.5
    for label in ('10000-100000', '100000-inf'):
        assert [row['fct_slowdown.%s.%s' % (label, n)] for n in ('count', 'p50', 'p95', 'p99')] == [0, '', '', '']
    back = ra.results_buckets({k: str(v) for k, v in row.items()})
    assert [b['p99'] for b in back][0] == 2.5 and all(math.isnan(b['p99']) for b in back[1:])
    # a results.csv written before: 0.0 in an empty bucket's cells
    old = dict(row, **{'fct_slowdown.100000-inf.p99': '0.0'})
    assert math.isnan(ra.results_buckets(old)[2]['p99'])


def test_plot_fct_without_run_folders_draws_the_median_over_seeds(tmp_path):
    """A results.csv whose point folders are gone: the point is the median of
    the seeds' percentiles, each seed a dot. A bucket empty in one seed and
    3.0 in the other is drawn at 3.0, new-style ('') or old-style (0.0 with
    count 0) alike; a bucket empty in every seed is no category; ticks give
    the flows summed over the seeds; percentiles of too few flows are open."""
    rows = [fct_row(1, [('0-10KB', 0, 1e4, 20, '2.0'), ('10KB-100KB', 1e4, 1e5, 0, ''),
                        ('100KB-1MB', 1e5, 1e6, 0, '0.0'), ('1MB-inf', 1e6, '', 0, '')], **{'cc.algorithm': 'hpcc'}),
            fct_row(2, [('0-10KB', 0, 1e4, 10, '4.0'), ('10KB-100KB', 1e4, 1e5, 5, '3.0'),
                        ('100KB-1MB', 1e5, 1e6, 2, '3.0'), ('1MB-inf', 1e6, '', 0, '0.0')], **{'cc.algorithm': 'hpcc'})]
    results = write_results(tmp_path / 'results.csv', rows)
    fig = draw(plot_fct, results)
    for ax, name in zip(fig.axes, ('p50', 'p95', 'p99')):
        assert tick_texts(ax) == ['<10 kB\n30 flows', '10\u2013100 kB\n5 flows', '0.1\u20131 MB\n2 flows']
        x, y, open_ = points(ax, 'HPCC')
        assert list(x) == [0, 1, 2] and np.allclose(y, [3.0, 3.0, 3.0])
        # p50 of 10 and 20 flows is no maximum; p95 of 10 is; p99 of all
        assert list(open_) == {'p50': [False, False, False], 'p95': [True, True, True],
                               'p99': [True, True, True]}[name]
        assert sorted(dots(ax)) == [(0, 2.0), (0, 4.0), (1, 3.0), (2, 3.0)]
        assert ax.get_yscale() == 'linear'  # 2 to 4: no decade spanned
    legend = [t.get_text() for t in fig.axes[-1].get_legend().get_texts()]
    assert legend[:3] == ['HPCC', 'median over 2 seeds', "one seed's percentile"]
    assert legend[3].startswith('too few flows for the\npercentile (p99 < 100, p95 < 20)')


def test_plot_fct_panels_share_y_and_go_log_past_a_decade(tmp_path):
    rows = [fct_row(1, [('0-10KB', 0, 1e4, 200, '1.0'), ('10KB-inf', 1e4, '', 400, '40.0')])]
    fig = draw(plot_fct, write_results(tmp_path / 'results.csv', rows))
    a, b, c = fig.axes
    assert a.get_shared_y_axes().joined(a, b) and a.get_shared_y_axes().joined(a, c)
    assert [ax.get_yscale() for ax in fig.axes] == ['log'] * 3
    assert list(points(a, 'all')[1]) == [1.0, 40.0]
    assert a.get_legend() is None and c.get_legend() is None  # one run, enough flows: no key
    # the log axis labels 1, 2, 5, 10, 20 as numbers, not 10^0 and 2x10^1, or one label
    fig.canvas.draw()
    lo, hi = a.get_ylim()
    labels = [t.get_text() for t in a.get_yticklabels() if t.get_text() and lo <= t.get_position()[1] <= hi]
    assert labels == ['1', '2', '5', '10', '20'], labels  # up to 40 and a margin


@pytest.fixture(scope='module')
def tiny_sweep(tmp_path_factory):
    """The built rdma-sim on tiny.ini: cc.algorithm dcqcn, hpcc, none x seeds
    1, 2 (its buckets of 1 MB and more hold no flow)."""
    sim, config = real_sim_and_config()
    root = tmp_path_factory.mktemp('tiny-sweep')
    rc = sweep.main(['-o', str(root), '--sim', sim, '-c', config, '--no-progress', '-j', '2',
                     '--grid', 'cc.algorithm=dcqcn,hpcc,none', '--seeds', '1,2'])
    assert rc == 0
    return root


def test_plot_fct_run_folder_with_empty_buckets_draws_no_point(tiny_sweep):
    run = str(tiny_sweep / 'cc.algorithm=dcqcn_seed=1')
    buckets = ra.summary_buckets(ra.read_summary(run))
    full = [b for b in buckets if b['count']]
    assert 0 < len(full) < len(buckets)
    fig = draw(plot_fct, run)
    for ax, name in zip(fig.axes, ('p50', 'p95', 'p99')):
        x, y, open_ = points(ax)
        assert list(x) == list(range(len(full)))
        assert np.allclose(y, [b[name] for b in full], rtol=1e-6)
        assert tick_texts(ax) == ['%s\n%d flows' % (ra.bucket_range_label(b['lo'], b['hi']), b['count'])
                                  for b in full]
        assert list(open_) == [ra.percentile_is_max(b['count'], float(name[1:])) for b in full]
        assert not dots(ax)  # one run: nothing beside its points


def test_plot_fct_real_sweep_pools_the_seeds_flows(tiny_sweep):
    """The first study's figure on tiny.ini: a series per CC with readable
    names; each point the nearest-rank percentile of both seeds' completed
    flows (fct.csv) pooled, each seed's own as a dot; nothing drawn below a
    slowdown of 1; p99 of fewer than 100 pooled flows open."""
    fig = draw(plot_fct, tiny_sweep / 'results.csv', '--group-by', 'cc.algorithm',
               '--label', 'cc.algorithm=hpcc=HPCC (ours)')
    assert [c.get_label() for c in fig.axes[0].collections] == ['DCQCN', 'HPCC (ours)', 'no CC']
    buckets, series = plot_fct.collect(plot_fct.build_parser().parse_args(
        ['-o', 'x', str(tiny_sweep / 'results.csv'), '--group-by', 'cc.algorithm']))
    for s, cc in zip(series, ('dcqcn', 'hpcc', 'none')):
        assert s['method'] == 'pooled' and s['runs'] == 2
        flows = [ra.completed(ra.read_fct(str(tiny_sweep / ('cc.algorithm=%s_seed=%d' % (cc, seed)))))
                 for seed in (1, 2)]
        sizes = np.concatenate([f['size'] for f in flows])
        slow = np.concatenate([f['slowdown'] for f in flows])
        pooled = ra.bucket_percentiles(sizes, slow, s['buckets'])
        for name, q in (('p50', 50), ('p95', 95), ('p99', 99)):
            assert np.allclose(s['y'][name], [b[name] for b in pooled], equal_nan=True)
            assert list(s['sparse'][name]) == [ra.percentile_is_max(b['count'], q) for b in pooled]
        assert list(s['flows']) == [b['count'] for b in pooled]
    for ax in fig.axes:
        ys = [y for _, y in dots(ax)] + [y for c in ax.collections for y in c.get_offsets()[:, 1]]
        assert ys and min(ys) >= 1.0  # no interval below the floor of a slowdown
        assert not ax.containers  # no error bars
        assert len(tick_texts(ax)) == len(buckets)
    legend = [t.get_text() for t in fig.axes[-1].get_legend().get_texts()]
    assert 'percentile of the flows\nof 2 seeds pooled' in legend


def test_plot_fct_group_by_pools_other_keys_and_says_so(result):
    """--group-by traffic.qps: one series per QP count, pooling the flows of
    both cache sizes; the legend names what is pooled; --label renames one part."""
    results = result / 'results.csv'
    fig = draw(plot_fct, results, '--group-by', 'traffic.qps', '--label', 'traffic.qps=4=4 QPs')
    assert [c.get_label() for c in fig.axes[0].collections] == ['4 QPs', 'traffic.qps=16', 'traffic.qps=64']
    rows = [r for r in read_results(result) if r['traffic.qps'] == '16']
    flows = [ra.completed(ra.read_fct(str(result / r['point']))) for r in rows]
    pooled = ra.bucket_percentiles(np.concatenate([f['size'] for f in flows]),
                                   np.concatenate([f['slowdown'] for f in flows]),
                                   ra.results_buckets(rows[0]))
    assert np.allclose(points(fig.axes[1], 'traffic.qps=16')[1], [b['p95'] for b in pooled if b['count']])
    legend = [t.get_text() for t in fig.axes[-1].get_legend().get_texts()]
    assert 'percentile of the flows\nof 2 runs, pooling nic.qpc_cache_entries pooled' in legend
    with pytest.raises(ra.OutputError, match="--group-by key 'traffic.qp' is not a swept parameter "
                                             r"\(swept: traffic.qps, nic.qpc_cache_entries\)"):
        draw(plot_fct, results, '--group-by', 'traffic.qp')


def test_relabel():
    labels = [('cc.algorithm=hpcc', 'HPCC'), ('a=1, b=2', 'both'), ('run=1', 'x=y')]
    assert plot_fct.rp.relabel(labels, 'cc.algorithm=hpcc, traffic.load=0.3') == 'HPCC, load 0.3'
    assert plot_fct.rp.relabel(labels, 'a=1, b=2') == 'both'
    # readable names of common keys and values without --label
    assert plot_fct.rp.relabel([], 'cc.algorithm=dcqcn') == 'DCQCN'
    assert plot_fct.rp.relabel([], 'cc.algorithm=none') == 'no CC'
    assert plot_fct.rp.relabel([], 'transport.recovery=go-back-n, switch.LoadBalancing=Ecmp') == 'go-back-N, ECMP'
    assert plot_fct.rp.relabel([], 'traffic.qps=4') == 'traffic.qps=4'  # unknown: as it is
    assert plot_fct.rp.relabel([], 'cc.algorithm=hpcc_seed=1') == 'cc.algorithm=hpcc_seed=1'  # a folder
    args = plot_fct.build_parser().parse_args(['-o', 'x', 'in', '--label', 'cc.algorithm=hpcc=HPCC'])
    assert args.label == [('cc.algorithm=hpcc', 'HPCC')]


def test_plot_cdf_label(result):
    runs = run_dirs(result)[:2]
    fig = draw(plot_cdf, *runs, '--label', '%s=DCQCN' % os.path.basename(runs[1]))
    texts = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert texts[0].startswith(os.path.basename(runs[0]) + ' (') and texts[1].startswith('DCQCN (')


def test_plot_cache_seeds_draw_t_intervals(tmp_path):
    """fake_rdma_sim over 2 seeds: throughput differs between seeds, so each
    point has a bar of t_{0.975,1} x s / sqrt(2); the hit rate C/N does not (bars of 0)."""
    root = tmp_path / 'sweep'
    assert sweep.main(['-o', str(root), '--sim', FAKE_SIM, '--no-progress', '--set', 'traffic.flows=50',
                       '--grid', 'traffic.qps=4,64', '--grid', 'nic.qpc_cache_entries=8', '--seeds', '1,2']) == 0
    fig = draw(plot_cache, root / 'results.csv', '--qps-key', 'traffic.qps', '--entries-key',
               'nic.qpc_cache_entries', '--label', 'nic.qpc_cache_entries=8=small')
    hit, tput = fig.axes
    assert [ln.get_label() for ln in means(hit)] == ['small']
    rows = read_results(root)
    for (x, lo, hi), qps in zip(sorted(bars(tput)), (4, 64)):
        g = [float(r['completed_gbps']) for r in rows if r['traffic.qps'] == str(qps)]
        half = 12.706204736420 * np.std(g, ddof=1) / math.sqrt(2)
        assert x == qps and half > 0 and np.allclose([lo, hi], [np.mean(g) - half, np.mean(g) + half])
    assert all(lo == hi for _, lo, hi in bars(hit))
    assert hit.get_legend().get_title().get_text() == 'qpc cache\nbars: 95 % t-interval\nover 2 seeds'


def test_read_fct_keeps_flows_that_did_not_finish(tmp_path):
    # rdma-sim leaves fct_ns and slowdown empty for a flow not done by sim.stopTime
    (tmp_path / 'fct.csv').write_text(
        'id,src,dst,op,size,start_ns,fct_ns,ideal_fct_ns,slowdown,qp,status\n'
        '0,0,1,WRITE,2000000,0,171246,167890,1.019992,256,IBV_WC_SUCCESS\n'
        '1,1,2,WRITE,2000000,0,,177254,,257,INCOMPLETE\n')
    fct = ra.read_fct(str(tmp_path))
    assert list(fct['fct_ns']) == [171246, -1] and fct['fct_ns'].dtype == np.int64
    assert fct['slowdown'][0] == 1.019992 and math.isnan(fct['slowdown'][1])
    assert list(ra.completed(fct)['id']) == [0]
    # an empty cell of a flow that finished is still an error
    (tmp_path / 'fct.csv').write_text(
        'id,src,dst,op,size,start_ns,fct_ns,ideal_fct_ns,slowdown,qp,status\n'
        '0,0,1,WRITE,2000000,0,,167890,1.019992,256,IBV_WC_SUCCESS\n')
    with pytest.raises(ra.OutputError, match='fct.csv:2: fct_ns is not a number'):
        ra.read_fct(str(tmp_path))


# --------------------------------------------------------------------------- node names


def test_read_nodes(tmp_path):
    assert ra.read_nodes(str(tmp_path)) == {}
    (tmp_path / 'nodes.csv').write_text('id,kind,name,pod,tier\n0,host,host0,0,\n4,switch,tor0,0,0\n5,switch,,,\n')
    nodes = ra.read_nodes(str(tmp_path))
    assert sorted(nodes) == [0, 4, 5]
    assert nodes[4] == {'id': '4', 'kind': 'switch', 'name': 'tor0', 'pod': '0', 'tier': '0'}
    assert nodes[0]['tier'] == ''
    assert ra.read_nodes(str(tmp_path / 'pfc.csv')) == nodes  # a file of the run: its folder's
    assert [ra.node_name(nodes, n) for n in (4, 5, 27)] == ['tor0', 'node 5', 'node 27']
    (tmp_path / 'nodes.csv').write_text('id,kind,name,pod,tier\nfour,switch,tor0,,\n')
    with pytest.raises(ra.OutputError, match="nodes.csv:2: id 'four' is not an integer"):
        ra.read_nodes(str(tmp_path))


def test_plot_pfc_names_nodes_from_nodes_csv(result, tmp_path):
    run = run_dirs(result)[0]
    for name in ('pfc.csv', 'summary.json'):
        shutil.copy(os.path.join(run, name), tmp_path)
    (tmp_path / 'nodes.csv').write_text('id,kind,name,pod,tier\n4,switch,tor0,,\n')
    labels = [t.get_text().split(' (')[0] for t in draw(plot_pfc, tmp_path).axes[0].get_yticklabels()]
    assert labels == ['tor0 port 0 class 3', 'tor0 port 1 class 3']


def test_plot_fct_says_what_the_unfinished_flows_are(build_dir, tmp_path, capsys):
    """Regression: flows still running at sim.stopTime vanished from the
    plot (one finished flow stood for its bucket). Each bucket's tick counts
    them, the figure carries a warning, and the plot says it on stderr."""
    out = tmp_path / 'run'
    r = subprocess.run([os.path.join(build_dir, 'examples', 'rdma-sim'), '-q', '--topology.k=4',
                        '--traffic.pattern=permutation', '--traffic.size=2000000',
                        '--sim.stopTime=100us', '--output.dir=%s' % out],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    fig = draw(plot_fct, out)
    assert tick_texts(fig.axes[0]) == ['1\u201310 MB\n0 flows\n+16 unfinished']
    notes = [t.get_text() for t in fig.texts if t.get_gid() == 'unfinished']
    assert notes and '16 flows were still running' in notes[0]
    assert '16 flows were still running' in capsys.readouterr().err
    buckets = ra.summary_buckets(ra.read_summary(out))
    assert [b['unfinished'] for b in buckets if b['unfinished']] == [16]
