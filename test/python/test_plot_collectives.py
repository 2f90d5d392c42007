"""scripts/plot_collectives.py: busbw in GB/s against message size, one series
per parallelism group, collective, algorithm and rank count; the payload
ceiling from each run's own path MTU and RoCEv2's 82 bytes per packet; the
spread panel only when iterations differ.

Runs of the built rdma-sim (a 4-host star at 400 Gb/s, MTU 4096, well under
a second each) and hand-written collectives.csv files (with and without the
group column that rdma-sim's newer collectives.csv has) are drawn; the tests
check the numbers drawn, not pixels.
"""

import csv
import json
import os

import numpy as np
import pytest

from sweep_helpers import load_script

plot = load_script('plot_collectives')
ra = load_script('rdmasim_analysis')
rp = load_script('rdmasim_plotting')

HEADER = ('job,iteration,item,collective,algorithm,bytes,ranks,channels,chunk_bytes,start_ns,'
          'end_ns,cct_ns,algbw_gbps,busbw_gbps,slowest_src,slowest_dst,slowest_pair_ns,status')


def draw(*argv):
    return plot.draw(plot.build_parser().parse_args(['-o', 'unused'] + [str(a) for a in argv]))


def means(ax):
    """{label: (x, y, linestyle)} of the series an axis draws (its error-bar
    containers: the means' line and their min-max bars)."""
    return {c.get_label(): (list(c.lines[0].get_xdata()), list(c.lines[0].get_ydata()),
                            c.lines[0].get_linestyle()) for c in ax.containers}


def ceiling_lines(ax):
    return [ln for ln in ax.get_lines() if ln.get_gid() == 'ceiling']


@pytest.fixture(scope='module')
def runs(tmp_path_factory):
    """rdma-sim: ring all-reduce of 256 KiB and 1 MiB on a 4-host star at
    400 Gb/s with a 4096-byte path MTU, two iterations each."""
    from sweep_helpers import real_sim_and_config
    import subprocess
    sim, _ = real_sim_and_config()
    root = tmp_path_factory.mktemp('collectives')
    out = []
    for size in ('256KiB', '1MiB'):
        folder = root / size
        r = subprocess.run([sim, '--quiet', '--output.dir=%s' % folder, '--traffic.pattern=collective',
                            '--topology.type=star', '--topology.hosts=4', '--topology.hostRate=400Gbps',
                            '--transport.pathMtu=4096', '--collective.bytes=%s' % size,
                            '--job.iterations=2'], capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stderr
        out.append(str(folder))
    return out


def test_busbw_in_gbytes_per_size_with_the_runs_mtu_ceiling(runs):
    """busbw is collectives.csv's Gb/s over 8 (GB/s, nccl-tests' unit); the
    ceiling at 400 Gb/s is 400 x 4096 / (4096 + 82) / 8 = 49.0 GB/s, the
    run's path MTU read from its summary.json (not 1024's 46.3)."""
    for run in runs:
        assert json.load(open(os.path.join(run, 'summary.json')))['config']['transport.pathMtu'] == '4096'
        assert ra.path_mtu(run) == (4096, True)
    assert ra.PACKET_OVERHEAD_BYTES == 82
    expected = 400 * 4096 / (4096 + 82) / 8
    assert plot.ceilings(runs, [400.0]) == [(400.0, 4096, True, pytest.approx(expected), 'link')]
    fig = draw(*runs, '--link-gbps', 400)
    bw, ct = fig.axes[:2]
    (line,) = ceiling_lines(bw)
    assert line.get_ydata()[0] == pytest.approx(expected) and abs(expected - 49.02) < 0.01
    assert '400 Gb/s link' in line.get_label() and 'MTU 4096' in line.get_label()
    assert bw.get_ylabel() == 'busbw (GB/s)' and ct.get_ylabel() == 'CCT (\u00b5s)'
    rows = [r for run in runs for r in csv.DictReader(open(os.path.join(run, 'collectives.csv')))]
    (label, (x, y, style)), = means(bw).items()
    assert x == [256 * 1024, 1024 * 1024]
    for size, drawn in zip(x, y):
        gbps = [float(r['busbw_gbps']) for r in rows if int(r['bytes']) == size]
        assert len(gbps) == 2 and drawn == pytest.approx(np.mean(gbps) / 8)
        assert drawn <= expected  # under the payload ceiling
    # the size axis in binary units, at the sizes run
    assert [t.get_text() for t in bw.get_xticklabels()] == ['256 KiB', '1 MiB']
    # an idle fabric: both iterations take the same time, so no spread panel
    assert len(fig.axes) == 2
    (s,) = plot.series(runs)
    assert np.allclose(s['spread'], 1.0)
    assert rp.run_main(plot.build_parser, plot.draw, ['-o', os.path.join(runs[0], 'fig'), *runs]) == 0
    assert os.path.getsize(os.path.join(runs[0], 'fig.png')) > 1000


def test_payload_share_formula():
    assert ra.payload_share(1024) == pytest.approx(1024 / 1106)
    assert ra.payload_share(4096) == pytest.approx(4096 / 4178)
    assert 400 * ra.payload_share(4096) == pytest.approx(392.15, abs=0.01)


def write_run(folder, rows, group=True, mtu=1024):
    """A run folder with a collectives.csv (rows: (group, iteration, bytes,
    ranks, cct_ns, busbw_gbps)) and a summary.json naming the path MTU (None: no summary)."""
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, 'collectives.csv'), 'w') as f:
        f.write(HEADER + (',group\n' if group else '\n'))
        for g, it, size, ranks, cct, bus in rows:
            cells = [0, it, 0, 'all-reduce', 'ring', size, ranks, 1, size, 0, cct, cct,
                     size * 8 / cct, bus, 0, 1, cct, 'done'] + ([g] if group else [])
            f.write(','.join(str(c) for c in cells) + '\n')
    if mtu:
        with open(os.path.join(folder, 'summary.json'), 'w') as f:
            json.dump({'config': {'transport.pathMtu': str(mtu)}, 'seed': 1, 'wall_time_s': 0,
                       'sim_time_s': 0, 'flows': {}, 'fct_slowdown': {}, 'pfc': {}, 'drops': 0,
                       'retransmissions': 0, 'cache': {}}, f)
    return str(folder)


#: a training job's all-reduces: tensor-parallel ones over NVLink (fast) and
#: data-parallel ones over the rail NICs, of the same rank count and sizes
JOB = [(g, it, size, 8, cct, bus) for it in (0, 1) for g, size, cct, bus in (
    ('tp', 2**20, 10000, 1468.0), ('tp', 2**22, 25000, 2349.0),
    ('dp', 2**20, 40000, 367.0), ('dp', 2**22, 110000, 534.0))]


def test_groups_are_separate_series(tmp_path):
    """With collectives.csv's group column, tensor- and data-parallel
    all-reduces of one job are two series, each joined over its own sizes."""
    run = write_run(tmp_path / 'job', JOB, mtu=4096)
    drawn = plot.series([run])
    assert [(s['group'], s['collective'], s['ranks']) for s in drawn] == [
        ('dp', 'all-reduce', 8), ('tp', 'all-reduce', 8)]
    fig = draw(run)
    bw = means(fig.axes[0])
    assert sorted(bw) == ['DP all-reduce ring', 'TP all-reduce ring']
    assert bw['TP all-reduce ring'] == ([2**20, 2**22], [1468.0 / 8, 2349.0 / 8], '-')
    assert bw['DP all-reduce ring'] == ([2**20, 2**22], [367.0 / 8, 534.0 / 8], '-')
    ct = means(fig.axes[1])
    assert ct['DP all-reduce ring'][1] == [40.0, 110.0]  # CCT in us
    # rdma-sim writes the groups in capitals; the legend names them the same
    assert plot.series_label(dict(drawn[0], group='DP'), False) == 'DP all-reduce ring'


def test_without_the_group_column_points_are_not_joined(tmp_path):
    """An older collectives.csv cannot tell TP from DP: its points are drawn
    unjoined (and the legend says why), never one line through both."""
    run = write_run(tmp_path / 'old', JOB, group=False)
    (s,) = plot.series([run])
    assert s['group'] is None and not s['joined']
    fig = draw(run, '--link-gbps', 100)
    ((x, y, style),) = means(fig.axes[0]).values()
    assert style == 'None' and x == [2**20, 2**22]
    assert 'points not joined' in fig.axes[0].get_legend().get_title().get_text()
    (line,) = ceiling_lines(fig.axes[0])
    assert line.get_ydata()[0] == pytest.approx(100 * 1024 / 1106 / 8)


def test_rank_counts_and_collectives_are_never_joined(tmp_path):
    """Two rank counts of one collective are two series (each label says its
    ranks); a run without summary.json takes MTU 1024 and says so."""
    rows = [('', 0, 2**20, 8, 40000, 367.0), ('', 0, 2**22, 8, 110000, 534.0),
            ('', 0, 2**20, 16, 60000, 300.0), ('', 0, 2**22, 16, 150000, 480.0)]
    run = write_run(tmp_path / 'ranks', rows, mtu=None)
    assert ra.path_mtu(run) == (1024, False)
    fig = draw(run, '--link-gbps', 100)
    bw = means(fig.axes[0])
    assert sorted(bw) == ['all-reduce ring, 16 ranks', 'all-reduce ring, 8 ranks']
    assert bw['all-reduce ring, 16 ranks'][1] == [300.0 / 8, 480.0 / 8]
    assert '(default)' in ceiling_lines(fig.axes[0])[0].get_label()


def test_spread_panel_only_when_iterations_differ(tmp_path):
    rows = [('', it, 2**20, 8, cct, 367.0) for it, cct in ((0, 40000), (1, 44000), (2, 36000))]
    fig = draw(write_run(tmp_path / 'spread', rows))
    assert len(fig.axes) == 3
    (step,) = fig.axes[2].get_lines()
    assert np.allclose(sorted(step.get_xdata()), [0.9, 1.0, 1.1])
    steady = [('', it, 2**20, 8, 40000, 367.0) for it in range(3)]
    assert len(draw(write_run(tmp_path / 'steady', steady)).axes) == 2


def test_missing_run_exits_2(tmp_path):
    assert rp.run_main(plot.build_parser, plot.draw,
                       ['-o', str(tmp_path / 'none'), str(tmp_path / 'missing')]) == 2
    assert not (tmp_path / 'none.png').exists()


def test_tensor_parallel_on_a_rail_fabric_gets_the_nvlink_ceiling(tmp_path):
    """TP collectives of a rail fabric stay in their server: their ceiling is
    the intra-server rate's (topology.rail.IntraServerRate), drawn beside the
    NICs' link so that TP points above the NIC's line do not look wrong."""
    from sweep_helpers import real_sim_and_config
    import subprocess
    sim, _ = real_sim_and_config()
    config = os.path.join(os.path.dirname(__file__), '..', '..', 'examples', 'configs',
                          'collective-gpt7b-rail.ini')
    out = tmp_path / 'gpt'
    r = subprocess.run([sim, '-q', '-c', config, '--output.dir=%s' % out],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert ra.intra_server_gbps(str(out)) == 3600.0
    assert ra.rate_gbps('25Gbps') == 25.0 and ra.rate_gbps('1.5Tbps') == 1500.0
    assert ra.rate_gbps('fast') is None
    fig = draw(str(out), '--link-gbps', 400)
    labels = [ln.get_label() for ln in ceiling_lines(fig.axes[0])]
    assert len(labels) == 2
    assert '400 Gb/s link' in labels[0] and '3600 Gb/s NVLink (TP)' in labels[1]
