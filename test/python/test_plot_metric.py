"""scripts/plot_metric.py: a results.csv metric against a swept key, means
over seeds with 95 % Student's t intervals.

Most tests draw a sweep of the stand-in test/python/fake_rdma_sim.py over
traffic.load x cc.algorithm x 3 seeds (its PFC pause count is a function of
the load alone, 2 x int(6 x load); its throughput differs between seeds);
others a hand-written results.csv.
"""

import math
import os
import subprocess
import sys

import numpy as np
import pytest

from sweep_helpers import FAKE_SIM, SCRIPTS, load_script, read_results, write_results

ra = load_script('rdmasim_analysis')
sweep = load_script('sweep')
plot_metric = load_script('plot_metric')

#: Student's t quantile t_{0.975, 2}: the 95 % interval of a mean of 3 runs
T_975_2 = 4.302652729911275


@pytest.fixture(scope='module')
def result(tmp_path_factory):
    root = tmp_path_factory.mktemp('sweep')
    assert sweep.main(['-o', str(root), '--sim', FAKE_SIM, '--no-progress', '--set', 'traffic.flows=60',
                       '--grid', 'traffic.load=0.6,0.3', '--grid', 'cc.algorithm=dcqcn,hpcc',
                       '--seeds', '1,2,3']) == 0
    return root


def draw(*argv):
    args = plot_metric.build_parser().parse_args(['-o', 'unused'] + [str(a) for a in argv])
    return plot_metric.draw(args)


def means(ax):
    return [ln for ln in ax.get_lines() if ln.get_marker() == 'o']


def bars(ax):
    """[(x, low, high)] of the error bars, in x order."""
    return sorted((s[0][0], s[0][1], s[1][1]) for c in ax.collections for s in c.get_segments() if len(s))


def dots(ax):
    """[(x, y)] of each run's value (the lines of gid 'runs'), sorted."""
    return sorted((x, y) for ln in ax.get_lines() if ln.get_gid() == 'runs'
                  for x, y in zip(ln.get_xdata(), ln.get_ydata()))


def test_metric_against_load_one_line_per_cc(result):
    fig = draw(result / 'results.csv', '--metric', 'pfc.pause_frames', '--x', 'traffic.load',
               '--label', 'cc.algorithm=hpcc=HPCC')
    ax = fig.axes[0]
    lines = means(ax)
    assert [ln.get_label() for ln in lines] == ['DCQCN', 'HPCC']  # readable without --label too
    for ln in lines:
        assert list(ln.get_xdata()) == [0.3, 0.6]  # numeric x in value order, joined
        assert list(ln.get_ydata()) == [2.0, 6.0] and ln.get_linestyle() == '-'
    assert all(lo == hi for _, lo, hi in bars(ax)) and len(bars(ax)) == 4  # the seeds agree: bars of 0
    # axes in words with units, not column names
    assert ax.get_xlabel() == 'Offered load (fraction of host line rate)'
    assert ax.get_ylabel() == 'PFC pause frames'
    legend = ax.get_legend()
    assert legend.get_title().get_text() == 'bars: 95 % t-interval\nover 3 seeds'
    assert [t.get_text() for t in legend.get_texts()] == ['DCQCN', 'HPCC', 'one seed']


def test_mean_and_t_interval_over_seeds(result):
    fig = draw(result / 'results.csv', '--metric', 'completed_gbps', '--x', 'traffic.load',
               '--where', 'cc.algorithm=dcqcn')
    ax = fig.axes[0]
    (line,) = means(ax)
    assert line.get_label() == 'all'
    assert ax.get_ylabel() == 'Goodput of completed flows (Gb/s)'
    rows = read_results(result)
    for (x, lo, hi), y, load in zip(bars(ax), line.get_ydata(), ('0.3', '0.6')):
        g = [float(r['completed_gbps']) for r in rows if r['traffic.load'] == load and r['cc.algorithm'] == 'dcqcn']
        half = T_975_2 * np.std(g, ddof=1) / math.sqrt(3)
        assert len(g) == 3 and half > 0
        assert math.isclose(y, np.mean(g)) and np.allclose([lo, hi], [np.mean(g) - half, np.mean(g) + half])
        assert [v for xx, v in dots(ax) if xx == x] == sorted(g)  # each seed beside its mean


def test_categorical_x_and_group_by(result):
    """Categories are ticks named readably; each series' points sit side by
    side around them and are not joined by a line."""
    fig = draw(result / 'results.csv', '--metric', 'flows.completed', '--x', 'cc.algorithm',
               '--group-by', 'traffic.load')
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == ['DCQCN', 'HPCC']
    assert ax.get_xlabel() == 'Congestion control' and ax.get_ylabel() == 'Flows completed'
    assert [ln.get_label() for ln in means(ax)] == ['load 0.6', 'load 0.3']
    assert list(means(ax)[0].get_xdata()) == [-0.15, 0.85] and list(means(ax)[1].get_xdata()) == [0.15, 1.15]
    assert all(ln.get_linestyle() == 'None' for ln in means(ax))


def test_slowdown_bars_stop_at_1_and_log_ticks_are_readable(tmp_path):
    """A slowdown's t-interval is cut at 1 (no flow beats its ideal); on a
    log axis several ticks are labelled, as plain numbers."""
    rows = [{'point': 'l=%s_seed=%d' % (load, seed), 'l': load, 'seed': seed, 'status': 'ok',
             'resumed': 0, 'error': '', 'fct_slowdown.b.lo': 0, 'fct_slowdown.b.hi': 10000,
             'fct_slowdown.b.p99': v}
            for load, values in (('0.2', (1.0, 1.2, 8.0)), ('0.8', (20.0, 40.0, 90.0)))
            for seed, v in zip((1, 2, 3), values)]
    results = write_results(tmp_path / 'results.csv', rows)
    fig = draw(results, '--metric', 'fct_slowdown.b.p99', '--x', 'l')
    ax = fig.axes[0]
    assert ax.get_ylabel() == 'p99 FCT slowdown, <10 kB flows'
    (x, lo, hi), _ = bars(ax)
    mean = np.mean([1.0, 1.2, 8.0])
    assert lo == 1.0 and math.isclose(hi, mean + T_975_2 * np.std([1.0, 1.2, 8.0], ddof=1) / math.sqrt(3))
    assert min(v for c in ax.collections for s in c.get_segments() for _, v in s) >= 1.0
    assert 'cut at 1' in ax.get_legend().get_title().get_text()
    assert ax.get_yscale() == 'log'
    fig.canvas.draw()
    bottom, top = ax.get_ylim()
    labels = [t.get_text() for t in ax.get_yticklabels()
              if t.get_text() and bottom <= t.get_position()[1] <= top]
    assert len(labels) >= 3 and all(t.replace('.', '').isdigit() for t in labels), labels


def test_empty_cells_and_pooled_keys(tmp_path):
    """A metric cell left empty (a bucket without flows) is left out of the
    mean; a point with no value draws nothing; a --group-by mean that pools
    another swept key says so."""
    rows = []
    for a in ('1', '2'):
        for b in ('x', 'y'):
            for c in ('p', 'q'):
                for seed, v in ((1, '2.0'), (2, '4.0')):
                    m = '3.0' if b == 'y' else v if a == '1' else ''
                    rows.append({'point': 'a=%s_b=%s_c=%s_seed=%d' % (a, b, c, seed), 'a': a, 'b': b, 'c': c,
                                 'seed': seed, 'status': 'ok', 'resumed': 0, 'error': '', 'm': m})
    results = write_results(tmp_path / 'results.csv', rows)
    xs, series = plot_metric.metric_series(str(results), 'm', 'a')
    assert xs == ['1', '2'] and [s['label'] for s in series] == ['b=x, c=p', 'b=x, c=q', 'b=y, c=p', 'b=y, c=q']
    assert series[0]['mean'][0] == 3.0 and math.isnan(series[0]['mean'][1])
    assert list(series[0]['runs']) == [2, 0] and list(series[2]['runs']) == [2, 2]
    assert series[0]['pooled'] == [] and series[0]['half'][0] > 0 and series[2]['half'][0] == 0
    ax = draw(results, '--metric', 'm', '--x', 'a').axes[0]
    assert list(means(ax)[0].get_xdata()) == [1.0] and list(means(ax)[2].get_xdata()) == [1.0, 2.0]
    ax = draw(results, '--metric', 'm', '--x', 'a', '--group-by', 'b').axes[0]
    assert [ln.get_label() for ln in means(ax)] == ['b=x', 'b=y']
    assert list(means(ax)[0].get_ydata()) == [3.0]
    assert ax.get_legend().get_title().get_text() == 'bars: 95 % t-interval\nover 4 runs, pooling c'


def test_sizes_with_units_sit_on_a_numeric_axis(tmp_path):
    """collective.bytes swept as 4MiB, 256KiB, 1MiB (rdma-sim's units):
    bytes on x, in size order, so --logx applies."""
    rows = [{'point': 'collective.bytes=%s' % b, 'collective.bytes': b, 'seed': '',
             'status': 'ok', 'resumed': 0, 'error': '', 'collectives.busbw_gbps': y}
            for b, y in (('4MiB', '90'), ('256KiB', '40'), ('1MiB', '70'))]
    results = write_results(tmp_path / 'results.csv', rows)
    ax = draw(results, '--metric', 'collectives.busbw_gbps', '--x', 'collective.bytes',
              '--logx').axes[0]
    (line,) = means(ax)
    assert list(line.get_xdata()) == [256 * 1024, 2**20, 4 * 2**20]
    assert list(line.get_ydata()) == [40.0, 70.0, 90.0]
    assert ax.get_xscale() == 'log'
    assert plot_metric.number('1.5kB') == 1500.0 and plot_metric.number('2GiB') == 2.0 * 2**30
    assert plot_metric.numbers(['1MiB', 'ecmp']) is None


def test_unknown_metric_or_x_exits_2_listing_the_columns(result, tmp_path, capsys):
    def refused(*argv):
        rc = plot_metric.rp.run_main(plot_metric.build_parser, plot_metric.draw,
                                     ['-o', str(tmp_path / 'x'), str(result / 'results.csv')] + list(argv))
        assert rc == 2 and not (tmp_path / 'x.png').exists()
        return capsys.readouterr().err

    err = refused('--metric', 'pfc.pauses', '--x', 'traffic.load')
    assert "no metric column 'pfc.pauses' (metrics: " in err
    assert 'pfc.pause_frames' in err and 'fct_slowdown.0-10KB.p99' in err and 'completed_gbps' in err
    err = refused('--metric', 'pfc.pause_frames', '--x', 'traffic.lod')
    assert "--x 'traffic.lod' is not a swept parameter (swept: traffic.load, cc.algorithm)" in err


def test_command_line_writes_png_and_pdf(result, tmp_path):
    out = tmp_path / 'fig' / 'p99'
    r = subprocess.run([sys.executable, os.path.join(SCRIPTS, 'plot_metric.py'), '-o', str(out),
                        str(result / 'results.csv'), '--x', 'traffic.load', '--metric', 'fct_slowdown.0-10KB.p99'],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == [str(out) + '.png', str(out) + '.pdf']
    assert os.path.getsize(str(out) + '.png') > 1000 and open(str(out) + '.pdf', 'rb').read(5) == b'%PDF-'
