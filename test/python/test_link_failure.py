"""Links that fail mid-run (topology.failLinks, topology.routeConvergence):
frames on a dead cable are lost, counted by the sender, until the routes
follow; the transport recovers them and every flow completes."""

import csv
import os

import pytest

from conftest import run_summary

# k=4 fat tree: hosts 0-15, edge switches 16-23, aggregation 24-31, cores 32-35;
# edge 16 (hosts 0-3) has uplinks to aggregation switches 24 and 25.
FABRIC = ('--topology.type=fat-tree', '--topology.k=4', '--traffic.pattern=permutation',
          '--traffic.size=2000000', '--quiet')


def run(run_example, out, *args):
    return run_summary(run_example, out, *FABRIC, *args)


def fcts(out):
    with open(os.path.join(str(out), 'fct.csv')) as f:
        return {row['id']: int(row['fct_ns']) for row in csv.DictReader(f)}


def test_a_failed_uplink_loses_frames_until_routes_converge(run_example, tmp_path):
    base = run(run_example, tmp_path / 'base')
    failed = run(run_example, tmp_path / 'failed', '--topology.failLinks=16-24@50us',
                 '--topology.routeConvergence=100us')
    assert base['drops'] == 0
    assert failed['drops'] > 0  # frames caught on the dead cable (DROP_LINK_DOWN)
    assert failed['flows']['completed'] == failed['flows']['total'] == 16
    assert failed['recovery']['retransmissions'] > 0
    # The flows that crossed the link took longer; no flow got faster.
    before, after = fcts(tmp_path / 'base'), fcts(tmp_path / 'failed')
    assert any(after[k] > before[k] for k in before)
    # A longer outage loses more: the routes follow later.
    slow = run(run_example, tmp_path / 'slow', '--topology.failLinks=16-24@50us',
               '--topology.routeConvergence=400us')
    assert slow['drops'] > failed['drops']


def test_the_node_ids_are_the_links_ends_in_either_order(run_example, tmp_path):
    a = run(run_example, tmp_path / 'a', '--topology.failLinks=16-24@50us')
    b = run(run_example, tmp_path / 'b', '--topology.failLinks=24-16@50us')
    assert a['drops'] == b['drops'] > 0


@pytest.mark.parametrize('value, message', [
    ('16-99@1ms', "'16-99@1ms': no link joins nodes 16 and 99"),
    ('16-24@1', "'16-24@1': the time '1': expected a duration with its unit"),
    ('16-24', "'16-24' is not A-B@time"),
    # Regression: the bound of an unbounded time was read from ns-3's
    # "+9.22337e+18ps" for Time::Min() as ">= +9.22337e+18ps" (and once as a
    # recursion, found by the fuzz harness).
    ('16-24@-1us', "the time '-1us': expected a duration with its unit (for example 10us, 2ms; "
     "units y d h min s ms us ns ps fs), not negative"),
    ('16-24@1ms,16-24@2ms', "'16-24@2ms': no link joins nodes 16 and 24 (that is not already named)"),
])
def test_bad_failed_link_exits_2_naming_the_key(run_example, tmp_path, value, message):
    out = tmp_path / 'out'
    r = run_example('rdma-sim', *FABRIC, '--output.dir=%s' % out,
                    '--topology.failLinks=%s' % value)
    assert r.returncode == 2
    assert 'topology.failLinks = ' in r.stderr and message in r.stderr
    assert not out.exists()


def test_a_failed_host_link_is_a_result(run_example, tmp_path):
    """Regression: a host's only link failing aborted the run (no path, so an
    ideal FCT over a bottleneck of 0 bit/s: exit 134, no outputs). Its flows
    end with IBV_WC_RETRY_EXC_ERR after retry_cnt + 1 = 8 local ACK timeouts
    of 4.096 us x 2^14 (IBA 9.7.6.1.3: about 0.54 s), the others complete,
    and every ideal FCT is the intact fabric's."""
    out = tmp_path / 'out'
    s = run_summary(run_example, out, '--topology.k=4', '--traffic.pattern=permutation',
                    '--traffic.size=200000', '--topology.failLinks=0-16@10us',
                    '--sim.stopTime=1s', '--quiet')
    with open(os.path.join(str(out), 'fct.csv')) as f:
        rows = list(csv.DictReader(f))
    cut = [r for r in rows if r['src'] == '0' or r['dst'] == '0']
    assert len(cut) == 2  # host 0 sends to one host and receives from another
    assert all(r['status'] == 'IBV_WC_RETRY_EXC_ERR' for r in cut), cut
    assert all(r['status'] == 'IBV_WC_SUCCESS' for r in rows if r not in cut)
    assert s['flows'] == {'total': 16, 'completed': 14, 'failed': 2, 'incomplete': 0}
    assert all(int(r['ideal_fct_ns']) > 0 for r in rows)
    # Before the retries run out the flows are unfinished, and said to be.
    early = run_summary(run_example, tmp_path / 'early', '--topology.k=4',
                        '--traffic.pattern=permutation', '--traffic.size=200000',
                        '--topology.failLinks=0-16@10us', '--quiet')
    assert early['flows']['incomplete'] == 2
    assert any('were still running when the run ended' in w for w in early['warnings'])


def test_a_failed_switch_is_its_links_failing(run_example, tmp_path):
    """topology.failNodes=24@50us (an aggregation switch of the k=4 fat tree)
    fails its four links at once, exactly as naming them in
    topology.failLinks does; the routes follow and every flow completes."""
    node = run(run_example, tmp_path / 'node', '--topology.failNodes=24@50us')
    links = run(run_example, tmp_path / 'links',
                '--topology.failLinks=16-24@50us,17-24@50us,24-32@50us,24-33@50us')
    assert fcts(tmp_path / 'node') == fcts(tmp_path / 'links')
    assert node['flows']['completed'] == node['flows']['total'], node['flows']
    # Named in both keys, a link fails once, at the earlier time.
    both = run(run_example, tmp_path / 'both', '--topology.failNodes=24@50us',
               '--topology.failLinks=16-24@80us')
    assert fcts(tmp_path / 'both') == fcts(tmp_path / 'node')


# Leaf-spine with one spine: host 0 - leaf 2 - spine 4 - leaf 3 - host 1.
PAIR = ('--topology.type=leaf-spine', '--topology.leaves=2', '--topology.spines=1',
        '--topology.hostsPerLeaf=1', '--traffic.pattern=permutation',
        '--traffic.size=2000000', '--cc.algorithm=none', '--quiet')


def pair_fcts(run_example, out, *args):
    summary = run_summary(run_example, out, *PAIR, *args)
    assert summary['flows']['completed'] == summary['flows']['total'] == 2
    with open(os.path.join(str(out), 'fct.csv')) as f:
        return {int(r['src']): {'fct': int(r['fct_ns']), 'ideal': int(r['ideal_fct_ns'])}
                for r in csv.DictReader(f)}


def test_a_slow_link_runs_at_its_fraction_of_the_rate(run_example, tmp_path):
    full = pair_fcts(run_example, tmp_path / 'full')
    slow = pair_fcts(run_example, tmp_path / 'slow', '--topology.slowLinks=2-4:0.25')
    # Both flows cross leaf 2 - spine 4: at 25 Gb/s a 2 MB flow takes 4x the
    # serialization time of 100 Gb/s (the propagation delays are the same);
    # with no CC, PFC holds each sender to the slow link's rate, no frame lost.
    for src in (0, 1):
        assert 3.6 < slow[src]['fct'] / full[src]['fct'] < 4.1, (src, slow, full)
        # The ideal FCT is the full-speed fabric's: the slowdown is what the link cost.
        assert slow[src]['ideal'] == full[src]['ideal']
    # One direction only: host 0's flow crosses 2 -> 4 and slows. Host 1's
    # flow crosses 4 -> 2 at full speed, but its ACKs go 2 -> 4: in the data's
    # class they wait behind it and its pauses (640.7 us against 181.3 us); in
    # a class of their own (nic.AckPriority) they pass, and only wait for the
    # frame on the wire.
    one = pair_fcts(run_example, tmp_path / 'one', '--topology.slowLinks=2>4:0.25')
    assert 3.6 < one[0]['fct'] / full[0]['fct'] < 4.1
    assert one[1]['fct'] > 3 * full[1]['fct']
    acks = pair_fcts(run_example, tmp_path / 'acks', '--topology.slowLinks=2>4:0.25',
                     '--nic.AckPriority=7')
    assert 3.6 < acks[0]['fct'] / full[0]['fct'] < 4.1
    assert full[1]['fct'] < acks[1]['fct'] < 1.01 * full[1]['fct']


@pytest.mark.parametrize('value,message', [
    ('2-4', "'2-4' is not A-B:F or A>B:F"),
    ('2-4:1.5', "'2-4:1.5': the fraction 1.5 is not in (0, 1)"),
    ('2-4:0', "the fraction 0 is not in (0, 1)"),
    ('0-1:0.5', "'0-1:0.5': no link joins nodes 0 and 1"),
    ('2-4:0.5,', "an empty item after the last ','"),
])
def test_bad_slow_link_exits_2_naming_the_key(run_example, tmp_path, value, message):
    out = tmp_path / 'out'
    r = run_example('rdma-sim', *PAIR, '--output.dir=%s' % out, '--topology.slowLinks=%s' % value)
    assert r.returncode == 2
    assert 'topology.slowLinks = ' in r.stderr and message in r.stderr, r.stderr
    assert not out.exists()
