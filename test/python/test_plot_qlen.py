"""scripts/plot_qlen.py: switch queue lengths over time from qlen.csv.

One test draws the built rdma-sim's qlen.csv of examples/configs/tiny.ini
(skipped, saying why, when it is not built); the others hand-written
qlen.csv, summary.json and nodes.csv files.
"""

import csv
import json
import subprocess

import numpy as np
import pytest

from sweep_helpers import load_script, real_sim_and_config

ra = load_script('rdmasim_analysis')
plot_qlen = load_script('plot_qlen')


def draw(*argv):
    args = plot_qlen.build_parser().parse_args(['-o', 'unused'] + [str(a) for a in argv])
    return plot_qlen.draw(args)


def lines(fig):
    """{legend label: (x, y)} of the figure's lines."""
    return {ln.get_label(): (list(ln.get_xdata()), list(ln.get_ydata())) for ln in fig.axes[0].get_lines()}


def write_run(folder, rows, interval='1us', nodes=None):
    """A run folder with qlen.csv rows (time_ns, node, port, class, bytes), a
    summary.json whose config samples every interval (None: no summary.json)
    and a nodes.csv of (id, kind, name) rows (None: none)."""
    folder.mkdir(exist_ok=True)
    with open(folder / 'qlen.csv', 'w') as f:
        f.write('time_ns,node,port,class,bytes\n' + ''.join('%d,%d,%d,%d,%d\n' % r for r in rows))
    if interval is not None:
        summary = {k: 0 for k in ra.SUMMARY_REQUIRED}
        summary['config'] = {'output.qlenInterval': interval}
        (folder / 'summary.json').write_text(json.dumps(summary))
    if nodes is not None:
        (folder / 'nodes.csv').write_text('id,kind,name,pod,tier\n' + ''.join('%d,%s,%s,,\n' % n for n in nodes))
    return folder


ROWS = [(1000, 4, 0, 3, 2000), (1000, 4, 0, 0, 500), (2000, 4, 1, 3, 9000), (4000, 4, 0, 3, 1000),
        (4000, 5, 2, 3, 100)]


def test_zero_filled_on_the_sample_grid_classes_summed_and_named(tmp_path):
    """Every 1 us from the first row (1 us) to the last (4 us): a port without
    a row at a sample time had an empty queue; classes add up; KB and us."""
    run = write_run(tmp_path / 'run', ROWS, nodes=[(4, 'switch', 'tor0')])
    got = lines(draw(run))
    assert got == {'tor0 port 0': ([1.0, 2.0, 3.0, 4.0], [2.5, 0.0, 0.0, 1.0]),
                   'tor0 port 1': ([1.0, 2.0, 3.0, 4.0], [0.0, 9.0, 0.0, 0.0]),
                   'node 5 port 2': ([1.0, 2.0, 3.0, 4.0], [0.0, 0.0, 0.0, 0.1])}
    fig = draw(run)
    assert fig.axes[0].get_xlabel() == 'Time (\u00b5s)' and fig.axes[0].get_ylabel() == 'Queue length (KB)'


def test_top_and_port_pick_the_ports(tmp_path, capsys):
    run = write_run(tmp_path / 'run', ROWS)
    # mean queue: port 4:1 (9000 B over the samples) > 4:0 (3500) > 5:2 (100)
    assert [ln.get_label() for ln in draw(run, '--top', 2).axes[0].get_lines()] == [
        'node 4 port 1', 'node 4 port 0']
    assert list(lines(draw(run, '--port', '5:2'))) == ['node 5 port 2']
    rc = plot_qlen.rp.run_main(plot_qlen.build_parser, plot_qlen.draw,
                               ['-o', str(tmp_path / 'x'), str(run), '--port', '4:7'])
    assert rc == 2
    assert 'qlen.csv has no rows for port 4:7 (ports with rows: 4:0, 4:1, 5:2)' in capsys.readouterr().err
    with pytest.raises(SystemExit):
        draw(run, '--port', 'tor0:1')


def test_without_a_sample_interval_only_the_rows_are_drawn(tmp_path):
    """No summary.json: the times between rows are unknown, so each port's
    rows are points (no line, nothing filled in); the same for rows off the grid."""
    for run, interval in ((write_run(tmp_path / 'bare', ROWS, interval=None), None),
                          (write_run(tmp_path / 'off', ROWS, interval='3us'), '3us')):
        fig = draw(run)
        got = lines(fig)
        assert got['node 4 port 0'] == ([1.0, 4.0], [2.5, 1.0]), interval
        assert all(ln.get_linestyle() == 'None' and ln.get_marker() == '.' for ln in fig.axes[0].get_lines())


def test_real_tiny_run(tmp_path):
    """rdma-sim's own qlen.csv: each drawn port equals the file's rows summed
    over classes, 0 at the other sample times of output.qlenInterval (10 us)."""
    sim, config = real_sim_and_config()
    out = tmp_path / 'run'
    r = subprocess.run([sim, '-c', config, '--output.dir=%s' % out, '--quiet'], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    with open(out / 'qlen.csv', newline='') as f:
        rows = [{k: int(v) for k, v in row.items()} for row in csv.DictReader(f)]
    assert rows, 'tiny.ini queues nothing: the test needs a run that does'
    times = sorted({row['time_ns'] for row in rows})
    grid = list(range(times[0], times[-1] + 1, 10000))
    nodes = ra.read_nodes(str(out))
    got = lines(draw(out, '--top', 100))
    ports = sorted({(row['node'], row['port']) for row in rows})
    assert len(got) == len(ports)
    for node, port in ports:
        expect = [sum(row['bytes'] for row in rows if (row['node'], row['port'], row['time_ns']) == (node, port, t))
                  for t in grid]
        x, y = got['%s port %d' % (ra.node_name(nodes, node), port)]
        assert np.allclose(x, np.array(grid) * 1e-3) and np.allclose(y, np.array(expect) * 1e-3)
    fig = tmp_path / 'fig' / 'qlen'
    assert plot_qlen.rp.run_main(plot_qlen.build_parser, plot_qlen.draw, ['-o', str(fig), str(out)]) == 0
    for ext, magic in (('png', b'\x89PNG'), ('pdf', b'%PDF-')):
        assert (tmp_path / 'fig' / ('qlen.' + ext)).read_bytes().startswith(magic)


def test_time_ns():
    assert [ra.time_ns(t) for t in ('10us', '1.5ms', '200ns', '2', '0')] == [1e4, 1.5e6, 200.0, 2e9, 0.0]
    with pytest.raises(ValueError):
        ra.time_ns('ten us')
