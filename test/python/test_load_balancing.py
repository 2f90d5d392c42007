"""The switches' load balancing (switch.LoadBalancing) on a whole fabric:
per-flow ECMP keeps each QP on one path, per-packet policies spread it over
all of them, and go-back-N (IBA 9.7.5) takes the reordering for loss."""


import pytest

from conftest import run_summary


PERMUTATION = ('--topology.type=fat-tree', '--topology.k=4', '--traffic.pattern=permutation',
               '--traffic.size=200000', '--quiet')


def run(run_example, out, *args):
    return run_summary(run_example, out, *PERMUTATION, *args)


@pytest.mark.parametrize('policy', ['Ecmp', 'Spray', 'Drill', 'LetFlow', 'Adaptive'])
def test_every_policy_delivers_every_flow(run_example, tmp_path, policy):
    s = run(run_example, tmp_path / policy, '--switch.LoadBalancing=%s' % policy)
    assert s['flows']['completed'] == s['flows']['total'] == 16
    assert s['config']['switch.LoadBalancing'] == policy


def test_per_packet_spraying_reorders_and_go_back_n_retransmits(run_example, tmp_path):
    """A 16-host permutation of 200 kB on a k=4 fat tree, no loss: under
    per-flow ECMP no packet arrives out of order (no sequence NAK, nothing
    resent); spraying each packet over the four core paths reorders them, and
    go-back-N NAKs each gap and resends from it."""
    ecmp = run(run_example, tmp_path / 'ecmp')
    spray = run(run_example, tmp_path / 'spray', '--switch.LoadBalancing=Spray')
    assert ecmp['drops'] == 0
    assert ecmp['recovery']['sequence_naks'] == ecmp['recovery']['retransmissions'] == 0
    assert spray['flows']['completed'] == 16
    assert spray['recovery']['policy'] == 'go-back-n'
    assert spray['recovery']['timeouts'] == 0  # nothing was lost: every resend answers a NAK
    # PFC keeps the fabric lossless: what the NICs drop are resent copies that
    # arrive after their flow ended and its QP was destroyed, and summary.json
    # says so rather than a bare drop count.
    where = spray['drops_where']
    assert where['links'] == where['switches'] == 0
    assert spray['drops'] == where['nics'] == where['nics_to_gone_qps']
    assert spray['recovery']['sequence_naks'] > 0
    # Go-back-N resends from each gap: more packets than the 16 x 200 kB hold at any MTU >= 1 kB.
    assert spray['recovery']['retransmissions'] > 16 * 200


def test_policies_are_deterministic(run_example, tmp_path):
    a = run(run_example, tmp_path / 'a', '--switch.LoadBalancing=Drill')
    b = run(run_example, tmp_path / 'b', '--switch.LoadBalancing=Drill')
    for key in ('events', 'link_transmissions', 'retransmissions'):
        assert a[key] == b[key]
    with open(tmp_path / 'a' / 'fct.csv') as fa, open(tmp_path / 'b' / 'fct.csv') as fb:
        assert fa.read() == fb.read()


@pytest.mark.parametrize('args, message', [
    (('--switch.LoadBalancing=Hula',), "switch.LoadBalancing = 'Hula': expected one of Ecmp,"),
    (('--switch.letflow.FlowletTimeout=0s',), "switch.letflow.FlowletTimeout = '0s': expected"),
    (('--switch.drill.Samples=0',), "switch.drill.Samples = '0': expected a whole number from 1 to 64"),
])
def test_bad_policy_input_exits_2_naming_the_key(run_example, tmp_path, args, message):
    out = tmp_path / 'out'
    r = run_example('rdma-sim', *PERMUTATION, '--output.dir=%s' % out, *args)
    assert r.returncode == 2
    assert message in r.stderr
    assert not out.exists()


def test_ecmp_seed_draws_another_placement(run_example, tmp_path):
    """switch.EcmpSeed was set on every switch and then overwritten by the
    topology's own per-switch seeds, so any value gave the default's answers.
    Now switch i hashes with i + 1 + EcmpSeed * 0x9E3779B9 (mod 2^32): 0 is
    the default, another value
    places the same flows elsewhere (another fct.csv), and the same value
    twice gives the same file."""
    def fct(name, *args):
        run(run_example, tmp_path / name, *args)
        return (tmp_path / name / 'fct.csv').read_bytes()

    default = fct('default')
    assert fct('seed0', '--switch.EcmpSeed=0') == default
    seven = fct('seed7', '--switch.EcmpSeed=7')
    assert seven != default
    assert fct('seed7-again', '--switch.EcmpSeed=7') == seven
    assert fct('seed1', '--switch.EcmpSeed=1') not in (default, seven)
