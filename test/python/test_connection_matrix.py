"""htsim connection matrices (traffic.pattern = connection-matrix): an
htsim .cm file runs as its flows, node i on host i, each flow's start and
size the file's; a matrix naming more nodes than the topology has hosts,
or a line htsim's reader would refuse, exits 2 naming the file and line."""

import csv

from conftest import run_summary

INCAST = """Nodes 16
Connections 4
# htsim's incast.cm, cut to four senders
0->15 start 0 size 200000
1->15 start 0 size 200000
2->15 start 3.9 size 200000
3->15 start 0 size 100000
"""


def test_connections_run_as_flows(run_example, tmp_path):
    cm = tmp_path / 'incast.cm'
    cm.write_text(INCAST)
    out = tmp_path / 'out'
    s = run_summary(run_example, out, '--topology.type=fat-tree', '--topology.k=4',
                    '--traffic.pattern=connection-matrix', '--traffic.connectionMatrix=%s' % cm,
                    '--quiet')
    assert s['flows'] == {'total': 4, 'completed': 4, 'failed': 0, 'incomplete': 0}
    rows = list(csv.DictReader(open(out / 'fct.csv')))
    assert [(int(r['src']), int(r['dst']), int(r['size'])) for r in rows] == [
        (0, 15, 200000), (1, 15, 200000), (2, 15, 200000), (3, 15, 100000)]
    # htsim takes whole microseconds: 3.9 us starts at 3 us.
    assert [int(r['start_ns']) for r in rows] == [0, 0, 3000, 0]


def test_bad_matrices_exit_2_naming_the_line(run_example, tmp_path):
    for text, where in [(INCAST.replace('Nodes 16', 'Nodes 17'), 'Nodes 17, but the topology has 16'),
                        (INCAST.replace('size 100000', 'size 100000 prio 3'), 'incast.cm:7:')]:
        cm = tmp_path / 'incast.cm'
        cm.write_text(text)
        out = tmp_path / 'bad'
        r = run_example('rdma-sim', '--topology.type=fat-tree', '--topology.k=4',
                        '--traffic.pattern=connection-matrix',
                        '--traffic.connectionMatrix=%s' % cm, '--output.dir=%s' % out)
        assert r.returncode == 2 and where in r.stderr, r.stderr
        assert not out.exists()
