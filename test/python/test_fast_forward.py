"""sim.fastForward (doc/fast-forward.rst): a job's collectives replayed from
a state already simulated, the same answers as simulating every packet, and
check's comparison of the two.

SimAI's GPT-7B at 1/1024 of its bytes (examples/configs/collective-gpt7b-rail.ini):
its 1049 collectives repeat a few sizes on the same groups, and its DCQCN QPs
stay at line rate, so all but the first of each kind are replayed, with
collectives.csv and jobs.csv byte-identical to off. About 10 s.
"""

import csv
import json
import os

from conftest import TOP, run_summary

GPT7B = os.path.join(TOP, 'examples', 'configs', 'collective-gpt7b-rail.ini')


def test_gpt7b_replayed_with_the_packet_level_answers(run_example, tmp_path):
    out = tmp_path / 'check'
    r = run_example('rdma-sim', '-c', GPT7B, '--sim.fastForward=check', '--output.dir=%s' % out,
                    '--quiet', '--force')
    assert r.returncode == 0, r.stderr
    ff = json.load(open(out / 'summary.json'))['fast_forward']
    assert ff['mode'] == 'check'
    # Of 1049 collectives, 1037 repeat an earlier one's start.
    assert ff['collectives_replayed'] == 1037, ff
    assert (ff['collectives_replayed'] + ff['collectives_recorded'] + ff['collectives_not_kept'] +
            ff['collectives_not_keyed']) == 1049, ff
    assert ff['skipped_ns'] > 0.9 * 17160129, 'most of the 17.16 ms iteration was replayed'
    # At 1/1024 no rank receives a window (16) of chunks in one collective.
    assert ff['collectives_steady'] == 0, ff
    for name in ('collectives.csv', 'jobs.csv'):
        assert (out / name).read_bytes() == (out / 'fast-forward-off' / name).read_bytes(), name
    rows = list(csv.DictReader(open(out / 'fast-forward-check.csv')))
    counters = {r['item']: r for r in rows if r['what'] == 'counter'}
    assert len(rows) == 1049 + 1 + len(counters)
    assert {r['status'] for r in rows} == {'same'}
    # A replay adds what its recording counted: summary.json's counters are
    # the packet-level run's, though 1037 collectives sent nothing.
    for name in ('link_transmissions', 'data_packets_delivered', 'link_load.tier0.tx_bytes'):
        assert int(counters[name]['packet']) > 0 and counters[name]['status'] == 'same', name
    assert ('fast-forward check: %d rows compared, 0 differ' % (1050 + len(counters))
            in r.stdout), r.stdout
    assert 'fast_forward' not in json.load(open(out / 'fast-forward-off' / 'summary.json'))


def test_where_nothing_is_replayed_the_run_says_so(run_example, tmp_path):
    """Flows are simulated packet by packet (a warning, the same fct.csv);
    a bad value and several MPI ranks are refused naming the key."""
    tiny = os.path.join(TOP, 'examples', 'configs', 'tiny.ini')
    on = run_summary(run_example, tmp_path / 'on', '-c', tiny, '--sim.fastForward=on')
    off = run_summary(run_example, tmp_path / 'off', '-c', tiny)
    assert any('sim.fastForward = on: only the collectives of a single job are replayed '
               '(here: flows); every packet is simulated' in w for w in on['warnings'])
    assert on['fast_forward']['collectives_replayed'] == 0
    assert 'fast_forward' not in off
    assert (tmp_path / 'on' / 'fct.csv').read_bytes() == (tmp_path / 'off' / 'fct.csv').read_bytes()
    r = run_example('rdma-sim', '-c', tiny, '--sim.fastForward=sometimes',
                    '--output.dir=%s' % (tmp_path / 'bad'))
    assert r.returncode == 2 and 'sim.fastForward' in r.stderr, r.stderr
    assert not (tmp_path / 'bad').exists()


def test_a_run_whose_links_fail_is_not_replayed(run_example, tmp_path):
    """A replay would not see a link fail inside it: with topology.failNodes
    (spine7, node 151, at 50 ms) nothing is replayed, and the run says why."""
    s = run_summary(run_example, tmp_path / 'f', '-c', GPT7B, '--sim.fastForward=on',
                    '--topology.failNodes=151@50ms', '--quiet')
    assert s['fast_forward']['collectives_replayed'] == 0
    assert s['fast_forward']['collectives_recorded'] == 0
    assert any('links fail in this run (topology.failLinks, topology.failNodes, '
               'topology.failPlanes), which a replayed collective would not see; every packet '
               'is simulated' in w
               for w in s['warnings']), s['warnings']


def test_a_steady_remainder_counts_at_the_simulated_rate(run_example, tmp_path):
    """A 16-rank ring all-reduce of 16 MiB in 64 KiB chunks is steady
    early: most of it is computed, and the remainder adds to the run's
    counters what the simulated part counted per byte landed. Data packets
    scale with the bytes exactly; frames and each tier's bytes (ACKs, the
    ring's start) within 0.5 % of the packet-level run's, as the CCT."""
    ring = os.path.join(TOP, 'examples', 'configs', 'collective-ring.ini')
    out = tmp_path / 'ring'
    r = run_example('rdma-sim', '-c', ring, '--collective.bytes=16MiB',
                    '--collective.chunkBytes=64KiB', '--job.iterations=1',
                    '--sim.fastForward=check', '--output.dir=%s' % out, '--quiet', '--force')
    assert r.returncode == 0, r.stderr
    ff = json.load(open(out / 'summary.json'))['fast_forward']
    assert ff['collectives_steady'] == 1 and ff['steady_skipped_ns'] > 0.8 * 2734674, ff
    rows = {(r['what'], r['item']): r for r in csv.DictReader(open(out / 'fast-forward-check.csv'))}
    assert abs(float(rows[('collective', '0')]['error'])) < 1e-4
    assert rows[('counter', 'data_packets_delivered')]['status'] == 'same'
    for name in ('link_transmissions', 'link_load.tier0.tx_bytes', 'link_load.tier1.tx_bytes',
                 'link_load.tier2.tx_bytes'):
        assert int(rows[('counter', name)]['packet']) > 0
        assert abs(float(rows[('counter', name)]['error'])) < 0.005, rows[('counter', name)]
