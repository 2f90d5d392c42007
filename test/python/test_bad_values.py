"""Bad values, one table per key family (time, rate, number range, integer,
enum, size, path), each given both in an INI file and as --key=value: rdma-sim
exits 2 before anything runs, the error names the key, the value, what was
expected and where the value came from (file:line or the --option), and no
output folder is created. Values here made ns-3 abort (exit 134) or were
taken silently before the keys were checked with their checkers."""

import os

import pytest

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
TINY = os.path.join(TOP, 'examples', 'configs', 'tiny.ini')

# (key, value, expected text in the error)
BAD = {
    'time': [
        ('sim.stopTime', '0s', 'expected a duration with its unit'),
        ('sim.stopTime', '-1ms', 'expected a duration'),
        ('sim.stopTime', 'abc', 'expected a duration'),
        ('sim.stopTime', '10xs', 'expected a duration'),
        ('sim.stopTime', '1e30s', 'expected a duration'),
        ('sim.stopTime', '50us', "expected a time after the traffic's last arrival"),
        ('traffic.duration', '0s', 'expected a duration'),
        ('topology.linkDelay', '-1us', 'not negative'),
        ('output.qlenInterval', '-10us', 'not negative'),
        ('link.pfc.RefreshMargin', 'soon', 'expected a duration'),
        ('nic.FlowletTimeout', '0s', '>= 1ns'),
        ('nic.FlowletTimeout', '-20us', 'not negative'),
        ('transport.irn.ReorderTime', '-1us', 'not negative'),
        ('transport.irn.SackDelay', '0us', '>= 1ns'),
    ],
    'rate': [
        ('topology.hostRate', '0Gbps', 'expected a rate with its unit'),
        ('topology.hostRate', 'fast', 'expected a rate with its unit'),
        ('topology.hostRate', '-5Gbps', 'expected a rate'),
        ('topology.hostRate', '1e30Gbps', 'expected a rate'),
        ('link.DataRate', '10 Gbps', 'expected a rate'),
    ],
    'double': [
        ('pfc.Alpha', '-1', 'expected a finite number >= 1e-09'),
        ('pfc.Alpha', '0', 'expected a finite number >= 1e-09'),
        ('pfc.Alpha', 'abc', 'expected a finite number'),
        ('traffic.load', '2', 'expected a finite number from 1e-09 to 1'),
        ('ecn.pmax', 'nan', 'expected a finite number from 0 to 1'),
        ('topology.errorRate', '1.5', 'expected a finite number from 0 to 1'),
        ('cc.dcqcn.G', '1e999', 'expected a finite number'),
        ('pcie.DataLinkOverhead', '0.9', 'expected a finite number from 0 to 0.5'),
    ],
    'integer': [
        ('traffic.priority', '9', 'expected a whole number <= 7'),
        ('topology.hosts', '-4', 'expected a whole number >= 2'),
        ('sim.seed', '0', 'expected a whole number >= 1'),
        ('sim.seed', '4294967296', 'expected a whole number >= 1'),
        ('transport.retryCnt', '8', 'expected a whole number <= 7'),
        ('cache.qpc.Entries', '0', 'expected a whole number >= 1'),
        ('cache.mtt.Tenants', '0', 'expected a whole number >= 1'),
        ('link.Mtu', '1.5', 'expected a whole number'),
        ('transport.irn.ReorderWindow', '0', 'expected a whole number >= 1'),
        ('transport.irn.ReorderWindow', '-2', 'expected a whole number >= 1'),
        ('transport.irn.SackCoalescing', '0', 'expected a whole number >= 1'),
    ],
    'enum': [
        ('topology.type', 'ring', 'expected one of fat-tree,leaf-spine,dumbbell,star,hpcc'),
        ('traffic.pattern', 'bursty', 'expected one of poisson,incast'),
        ('sim.icrc', 'maybe', 'expected one of auto,on,off'),
        ('sim.partitionRule', 'greedy', 'expected one of auto,metis,by-tor,by-pod,by-server'),
        ('link.queue.Scheduler', 'Random', 'expected one of'),
        ('nic.Entropy', 'spray', 'expected one of qp,packet,flowlet,reps'),
        ('nic.preset', 'cx7', 'expected one of none, nfp6000'),
    ],
    'size': [
        ('sim.maxMemory', 'lots', 'expected a size with its unit'),
        ('sim.maxMemory', '8XB', 'expected a size with its unit'),
        ('sim.maxMemory', '-1GiB', 'expected a size'),
        ('sim.maxMemory', '0', 'of at least 1.00 MiB, or available'),
        ('sim.maxMemory', '1e30GiB', 'expected a size'),
    ],
    'path': [
        ('traffic.cdf', '/nonexistent/sizes.txt', 'expected a readable file'),
        ('traffic.cdf', '/', 'is a folder'),
    ],
}

CASES = [(family, key, value, expected)
         for family, rows in sorted(BAD.items()) for key, value, expected in rows]


def ini_with(key, value, tmp_path):
    """tiny.ini with one more line, key = value under its [section];
    return the file and the line the value is on."""
    section, name = key.rsplit('.', 1)
    lines = open(TINY).read().splitlines()
    lines = [l for l in lines if not l.startswith('dir =')]
    # A key tiny.ini sets already is replaced where it stands.
    current = None
    for n, line in enumerate(lines):
        if line.startswith('['):
            current = line.strip('[]')
        elif current == section and line.split('=')[0].strip() == name:
            lines[n] = '%s = %s' % (name, value)
            break
    else:
        lines += ['[%s]' % section, '%s = %s' % (name, value)]
    ini = tmp_path / 'bad.ini'
    ini.write_text('\n'.join(lines) + '\n')
    return ini, next(n for n, l in enumerate(lines, 1) if l == '%s = %s' % (name, value))


@pytest.mark.parametrize('family, key, value, expected', CASES,
                         ids=['%s-%s=%s' % c[:3] for c in CASES])
@pytest.mark.parametrize('where', ['ini', 'cli'])
def test_bad_value_exits_2_naming_key_value_and_source(run_example, tmp_path, where, family,
                                                       key, value, expected):
    out = tmp_path / 'out'
    if where == 'ini':
        ini, line = ini_with(key, value, tmp_path)
        r = run_example('rdma-sim', '-c', str(ini), '-q', '--output.dir=%s' % out)
        source = '%s:%d' % (ini, line)
    else:
        r = run_example('rdma-sim', '-c', TINY, '-q', '--output.dir=%s' % out,
                        '--%s=%s' % (key, value))
        source = 'command line --%s' % key
    assert r.returncode == 2, (r.returncode, r.stderr)
    assert "%s: %s = '%s'" % (source, key, value) in r.stderr, r.stderr
    assert expected in r.stderr, r.stderr
    assert not out.exists()


@pytest.mark.parametrize('extra', [[], ['--pfc.BufferSize=300000']])
def test_switch_buffer_below_its_ports_reserve_and_headroom(run_example, tmp_path, extra):
    """A switch whose ports' reserve and PFC headroom take the whole buffer
    made SwitchMmu::AddPort abort (exit 134) while building: a 1000-host
    star at the default 12 MiB (1000 x (4 KiB + 43 KB)), or a 16-host star
    with 300 KB. Now exit 2 before anything is built, naming pfc.BufferSize,
    the switch and the bytes."""
    hosts = '1000' if not extra else '16'
    out = tmp_path / 'out'
    r = run_example('rdma-sim', '-q', '--output.dir=%s' % out, '--topology.type=star',
                    '--topology.hosts=%s' % hosts, '--traffic.pattern=permutation',
                    *extra)
    assert r.returncode == 2, (r.returncode, r.stderr[-2000:])
    assert 'pfc.BufferSize' in r.stderr and 'ports of switch node' in r.stderr, r.stderr
    assert 'IEEE 802.1Qbb' in r.stderr, r.stderr
    assert not out.exists()


@pytest.mark.parametrize('args, expected', [
    (['--sim.partitionRule=by-pod'],
     'command line --sim.partitionRule: sim.partitionRule = by-pod needs topology.type = '
     'fat-tree, not star'),
    (['--sim.partitionRule=by-server'],
     'command line --sim.partitionRule: sim.partitionRule = by-server needs topology.type = '
     'rail, not star'),
    (['--sim.partitionRule=metis', '--sim.partition=%s' % TINY],
     'command line --sim.partitionRule: sim.partitionRule = metis and a sim.partition file '
     '(command line --sim.partition): give one of them'),
])
def test_partition_rule_that_cannot_apply_exits_2(run_example, tmp_path, args, expected):
    """sim.partitionRule (doc/mpi.rst, "Partitioning") is checked on one
    rank too: by-pod on a topology without pods, by-server on one without
    servers, or a rule beside a sim.partition file, exits 2 naming the key."""
    out = tmp_path / 'out'
    r = run_example('rdma-sim', '-c', TINY, '-q', '--output.dir=%s' % out, *args)
    assert r.returncode == 2, (r.returncode, r.stderr)
    assert expected in r.stderr, r.stderr
    assert not out.exists()
