"""rdma-sim, the main job: one config in, one run, every output; errors name
the file and line (or the key) and exit 2 before anything is written; the
same config and seed give identical files."""

import csv
import json
import os
import re

import pytest

from conftest import TOP, scapy_checked_roce_frames

TINY = os.path.join(TOP, 'examples', 'configs', 'tiny.ini')
OUTPUTS = ('fct.csv', 'fct.txt', 'pfc.csv', 'qlen.csv', 'cache.csv', 'nodes.csv', 'summary.json')


def run_tiny(run_example, out, *args):
    return run_example('rdma-sim', '-c', TINY, '--quiet', '--output.dir=%s' % out, *args)


def read(path):
    with open(path) as f:
        return f.read()


def test_tiny_run_writes_every_output(run_example, tmp_path):
    out = tmp_path / 'run'
    r = run_tiny(run_example, out, '--nic.pipeline=true')
    assert r.returncode == 0, r.stderr
    assert sorted(os.listdir(out)) == sorted(OUTPUTS)
    summary = json.loads(read(out / 'summary.json'))
    rows = list(csv.DictReader(open(out / 'fct.csv')))
    assert summary['flows']['total'] == len(rows) > 0
    assert summary['flows']['completed'] == len(rows)  # 20 ms is plenty for 200 us of arrivals
    for row in rows:
        assert row['status'] == 'IBV_WC_SUCCESS'
        assert int(row['fct_ns']) >= int(row['ideal_fct_ns']) > 0
        assert float(row['slowdown']) >= 1.0
    # fct.txt: one HPCC-format line per completed flow.
    lines = read(out / 'fct.txt').splitlines()
    assert len(lines) == len(rows)
    assert all(len(line.split()) == 8 for line in lines)
    # The merged config is in the summary, with this run's override.
    assert summary['config']['topology.type'] == 'star'
    assert summary['config']['nic.pipeline'] == 'true'
    assert summary['seed'] == 1 and summary['data_packets_delivered'] > 0
    assert summary['link_transmissions'] >= summary['data_packets_delivered']
    # With the pipeline on, every NIC reports its three tables.
    tables = {row['table'] for row in csv.DictReader(open(out / 'cache.csv'))}
    assert tables == {'qpc', 'mpt', 'mtt'} and set(summary['cache']) == tables
    assert 'flows: %d of %d done' % (len(rows), len(rows)) in r.stdout


def test_empty_size_bucket_is_null_not_zero(run_example, tmp_path):
    """A size bucket without flows measured nothing: summary.json gives its
    percentiles as null (not a slowdown of 0, which a plot would draw and a
    mean over seeds would average) and the screen says n/a."""
    out = tmp_path / 'run'
    r = run_example('rdma-sim', '-c', TINY, '--output.dir=%s' % out)
    assert r.returncode == 0, r.stderr
    buckets = json.loads(read(out / 'summary.json'))['fct_slowdown']
    empty = [k for k, b in buckets.items() if b['count'] == 0]
    full = [k for k, b in buckets.items() if b['count'] > 0]
    assert empty and full  # GoogleRPC sizes over 200 us leave the large buckets empty
    for k in empty:
        assert [buckets[k][p] for p in ('p50', 'p95', 'p99')] == [None, None, None], k
        lo, _, hi = k.partition('-')
        assert '  %s - %s: n/a / n/a / n/a (0)' % (lo, hi) in r.stdout
    for k in full:
        assert all(buckets[k][p] >= 1.0 for p in ('p50', 'p95', 'p99')), k


def test_same_seed_same_files_other_seed_other_flows(run_example, tmp_path):
    runs = []
    for name, seed in (('a', 1), ('b', 1), ('c', 2)):
        r = run_tiny(run_example, tmp_path / name, '--sim.seed=%d' % seed)
        assert r.returncode == 0, r.stderr
        runs.append(tmp_path / name)
    for f in OUTPUTS[:-1]:
        assert read(runs[0] / f) == read(runs[1] / f), f
    a, b = (json.loads(read(d / 'summary.json')) for d in runs[:2])
    for wall in ('wall_time_s', 'peak_rss_mb'):
        a.pop(wall), b.pop(wall)
    a['config'].pop('output.dir'), b['config'].pop('output.dir')
    assert a == b
    assert read(runs[0] / 'fct.csv') != read(runs[2] / 'fct.csv')


def test_ns3_schedulers_agree_with_one_another(run_example, tmp_path):
    """ns-3's own schedulers order simultaneous events by insertion: the same
    results as one another (their data structures change only speed). The
    default, RdmaEventScheduler, orders them by the node that scheduled them
    (doc/mpi.rst, "Event order"); test_shipped_results.py holds its results."""
    for name in ('ns3::HeapScheduler', 'ns3::MapScheduler', 'ns3::CalendarScheduler'):
        r = run_tiny(run_example, tmp_path / name, '--sim.scheduler=%s' % name)
        assert r.returncode == 0, r.stderr
    for name in ('ns3::MapScheduler', 'ns3::CalendarScheduler'):
        assert read(tmp_path / name / 'fct.csv') == \
            read(tmp_path / 'ns3::HeapScheduler' / 'fct.csv')
    r = run_tiny(run_example, tmp_path / 'bad', '--sim.scheduler=ns3::RdmaNic')
    assert r.returncode == 2 and 'expected an ns-3 Scheduler TypeId' in r.stderr


def test_enum_values_in_any_case(run_example):
    """Enum values typed in another case are the declared name (as keys are)."""
    r = run_example('rdma-sim', '--switch.LoadBalancing=spray', '--cc.algorithm=DCQCN',
                    '--transport.recovery=IRN', '--print-config')
    assert r.returncode == 0, r.stderr
    for line in ('LoadBalancing = Spray', 'algorithm = dcqcn', 'recovery = irn'):
        assert re.search(r'^%s  # command line' % line, r.stdout, re.M), r.stdout


def test_unknown_key_names_file_and_line_and_writes_nothing(run_example, tmp_path):
    cfg = tmp_path / 'bad.ini'
    cfg.write_text('[traffic]\nload = 0.3\nlaod = 0.4\n')
    out = tmp_path / 'out'
    r = run_example('rdma-sim', '-c', str(cfg), '--output.dir=%s' % out)
    assert r.returncode == 2
    assert "%s:3: unknown key 'traffic.laod'" % cfg in r.stderr
    assert not out.exists()


@pytest.mark.parametrize('args, message', [
    (('--link.DataRate=fast',), "link.DataRate = 'fast': expected a rate with its unit"),
    (('--cc.algorithm=bbr',), "cc.algorithm = 'bbr': expected one of dcqcn,hpcc"),
    # Enum values: a misspelled one gets the nearest names too.
    (('--switch.LoadBalancing=Spary',),
     "switch.LoadBalancing = 'Spary': expected one of Ecmp,Spray"),
    (('--switch.LoadBalancing=Spary',), "(did you mean 'Spray'"),
    (('--transport.recovery=irm',), "(did you mean 'irn'"),
    (('--traffic.load=half',), "traffic.load = 'half': expected a finite number"),
    (('--no.such=1',), "command line --no.such: unknown key 'no.such'"),
    # Regression: a key's unambiguous prefix ran as the key (Boost's allow_guessing).
    (('--switch.EcnAtDequeu=false',),
     "unknown key 'switch.EcnAtDequeu' (did you mean 'switch.EcnAtDequeue'"),
    (('--qui',), "unknown option '--qui' (did you mean 'quiet'"),
    # Regression: a short option was printed with two more dashes ('---o').
    (('-o', 'out'), "command line: unknown option '-o' (the output folder is --output.dir=DIR)"),
    (('--outdir=x',), "unknown option '--outdir' (the output folder is --output.dir=DIR)"),
    # Misspelled keys get the nearest names.
    (('--traffic.laod=0.4',), "unknown key 'traffic.laod' (did you mean 'traffic.load'"),
    (('--ecn.kmni=5',), "(did you mean 'ecn.kmin'"),
    (('--Traffic.Load',), "traffic.load needs a value (--traffic.load=VALUE)"),
    # A number without a unit is refused naming the key (ns-3 reads it as
    # seconds: the error came from pfc.BufferSize, the headroom of a 1 s cable).
    (('--topology.linkDelay=1',),
     "command line --topology.linkDelay: topology.linkDelay = '1': expected a duration with "
     "its unit, for example 1us, 1ms or 1s: a bare number has none"),
    (('--traffic.duration=200',), "traffic.duration = '200': expected a duration with its unit"),
    (('--link.DataRate=100000000000',), "expected a rate with its unit, for example"),
    # A byte rate is refused: ns-3 read 25GB/s as 200 Gb/s without a word.
    (('--topology.hostRate=25GB/s',),
     "topology.hostRate = '25GB/s': expected a rate in bits per second: '25GB/s' is in bytes "
     "per second, which ns-3 reads as 200Gbps; write 200Gbps if that is the rate you mean"),
    (('--pfc.BufferSize=12furlongs',), "or a size with its unit (B, KB, MB, GB"),
    # A failure of a derived value names the inputs it came from.
    (('--topology.linkDelay=1s',),
     "or lower pfc.ReservedBytes or pfc.HeadroomBytes; from topology.linkDelay = 1s "
     "(command line --topology.linkDelay)"),
    (('--traffic.duration=30ms',),
     "sim.stopTime = '20ms': expected a time after the traffic's last arrival, at 29."),
    (('--traffic.duration=30ms',), " ms; from traffic.duration = 30ms (command line --traffic.duration)"),
    # Regressions: these 1 ps floors were read at ns-3's nanosecond resolution
    # as 0, so 0 passed and nic.BaseRtt = 0s aborted in DCQCN (exit 134).
    (('--nic.BaseRtt=0s',), "nic.BaseRtt = '0s': expected a duration with its unit "
     "(for example 10us, 2ms; units y d h min s ms us ns ps fs) >= 1ns"),
    (('--transport.irn.RtoLow=0s',), "transport.irn.RtoLow = '0s': expected a duration"),
    (('--nic.FlowletTimeout=0s',), "nic.FlowletTimeout = '0s': expected a duration"),
    # Found while building (RdmaHelper::Install sizes each NIC's receive buffer).
    (('--nic.pipeline=true', '--nic.rx.BufferBytes=100'),
     "command line --nic.rx.BufferBytes: nic.rx.BufferBytes (100) is below one largest frame"),
    # Regressions: these aborted the run at the first lookup (NicCache, NicMemory).
    (('--nic.pipeline=true', '--cache.qpc.Entries=2', '--cache.qpc.memory.Kind=CardDram'),
     "command line --cache.qpc.Entries: cache.qpc.Entries = 2: expected cache.qpc.Entries (2) "
     "to be a multiple of cache.qpc.Ways (4)"),
    (('--nic.tx.ByTenant=true', '--nic.tx.Mode=DeficitRoundRobin'),
     "command line --nic.tx.ByTenant: nic.tx.ByTenant = true: expected nic.tx.Mode = RoundRobin "
     "(tenants take a packet a turn), not DeficitRoundRobin (command line --nic.tx.Mode)"),
    (('--nic.pipeline=true', '--cache.mtt.Tenants=8'),
     "command line --cache.mtt.Tenants: cache.mtt.Tenants = 8: expected at most cache.mtt.Ways "
     "(4): each tenant needs a way of its own"),
    (('--nic.pipeline=true', '--cache.mtt.memory.Kind=CardDram',
      '--cache.mtt.memory.DramBandwidth=0bps'),
     "cache.mtt.memory.DramBandwidth = 0bps: expected a positive rate"),
    # Collectives (traffic.pattern = collective on tiny.ini's 4 hosts).
    (('--traffic.pattern=collective', '--collective.type=all-reduse'),
     "command line --collective.type: collective.type = 'all-reduse': expected one of "
     "all-reduce,all-gather"),
    (('--traffic.pattern=collective', '--job.sequence=all-reduce 1MiB, all-reduse 2MiB'),
     "command line --job.sequence: job.sequence = 'all-reduce 1MiB, all-reduse 2MiB': item 2 "
     "'all-reduse 2MiB': unknown collective 'all-reduse'"),
    (('--traffic.pattern=collective', '--collective.algorithm=rings'),
     "collective.algorithm = 'rings': expected one of auto,ring,tree"),
    (('--traffic.pattern=collective', '--collective.type=all-to-all',
      '--collective.algorithm=ring'),
     "command line --collective.algorithm: collective.algorithm = ring: all-to-all has no ring "
     "algorithm: expected pairwise"),
    (('--traffic.pattern=collective', '--job.sequence=broadcast 1MiB tree'),
     "item 1 'broadcast 1MiB tree': broadcast has no tree algorithm: expected ring"),
    (('--traffic.pattern=collective', '--job.ranks=5'),
     "command line --job.ranks: job.ranks = 5: 1 job(s) of 5 ranks need 5 hosts (a rank per "
     "host); the topology has 4"),
    (('--traffic.pattern=collective', '--collective.bytes=1MiB', '--collective.chunkBytes=2MiB'),
     "command line --collective.chunkBytes (2MiB): collective.chunkBytes = 2097152: a chunk "
     "larger than the message, the all-reduce of 1048576 bytes"),
    (('--traffic.pattern=collective', '--job.ranks=3', '--collective.algorithm=halving-doubling'),
     "command line --job.ranks: job.ranks = 3: halving-doubling needs a power-of-two number of "
     "ranks"),
    (('--traffic.pattern=collective', '--job.sequence=all-gather 1MiB, compute 5'),
     "item 2 'compute 5': expected 'compute <time>' with a time and its unit"),
    (('--job.ranks=2',),
     "command line --job.ranks: job.ranks = 2: the job and collective keys take effect with "
     "traffic.pattern = collective, not poisson"),
])
def test_bad_overrides_exit_2_naming_the_key(run_example, tmp_path, args, message):
    out = tmp_path / 'out'
    r = run_tiny(run_example, out, *args)
    assert r.returncode == 2
    assert message in r.stderr
    assert not out.exists()


def test_bad_topology_file_names_its_line(run_example, tmp_path):
    topo = tmp_path / 'topo.txt'
    topo.write_text('3 1 2\n2\n0 2 100Gbps 1000ns 0\n1 2 100Gbps 1000 0\n')
    r = run_tiny(run_example, tmp_path / 'out', '--topology.type=hpcc',
                 '--topology.file=%s' % topo)
    assert r.returncode == 2
    assert '%s:4: expected link 2 of 2: <delay>' % topo in r.stderr


def test_non_empty_output_folder_refused_unless_force(run_example, tmp_path):
    out = tmp_path / 'out'
    out.mkdir()
    (out / 'keep.txt').write_text('mine')
    r = run_tiny(run_example, out)
    assert r.returncode == 2 and 'is not empty (use --force' in r.stderr
    assert os.listdir(out) == ['keep.txt']
    r = run_tiny(run_example, out, '--force')
    assert r.returncode == 0, r.stderr
    assert (out / 'summary.json').exists() and read(out / 'keep.txt') == 'mine'


def test_help_and_print_config(run_example):
    r = run_example('rdma-sim', '--help')
    assert r.returncode == 0
    # Plain keys with units, and the models' own attributes with their defaults.
    assert '--traffic.load (default: 0.3)' in r.stdout
    # Defaults in the units a user types (ns-3 prints 100000000000bps and +2e+10ps).
    assert '--link.DataRate (default: 100Gbps)' in r.stdout
    assert not re.search(r'\(default: [0-9]{4,}bps\)', r.stdout)
    assert not re.search(r'\(default: [+-][0-9.e+]+[munpf]?s\)', r.stdout)
    assert '--pfc.Alpha (default: 0.125)' in r.stdout
    assert '--cc.dcqcn.' in r.stdout and '--cache.qpc.Entries' in r.stdout
    r = run_example('rdma-sim', '-c', TINY, '--traffic.load=0.5', '--print-config')
    assert r.returncode == 0
    assert 'load = 0.5  # command line --traffic.load' in r.stdout
    assert 'type = star  # %s:' % TINY in r.stdout


def test_keys_in_either_case_and_sizes_with_units(run_example, tmp_path):
    """Plain keys are lower camel case (ecn.kmin), attribute keys the
    attribute's case (pfc.Alpha); either case is accepted for both, in an INI
    file and on the command line. Byte keys take KB/KiB/MB/MiB/GB/GiB."""
    cfg = tmp_path / 'case.ini'
    cfg.write_text('[ecn]\nKmin = 50KB\nkmax = 200KB\n[pfc]\nalpha = 0.25\nbufferSize = 12MiB\n')
    r = run_example('rdma-sim', '-c', str(cfg), '--Traffic.Load=0.5',
                    '--pfc.reservedBytes=3KiB', '--print-config')
    assert r.returncode == 0, r.stderr
    assert '\nkmin = 50000  # %s:2 (50KB)' % cfg in r.stdout
    assert '\nAlpha = 0.25  # %s:5' % cfg in r.stdout
    assert '\nload = 0.5  # command line --Traffic.Load' in r.stdout
    assert '\nBufferSize = 12582912  # %s:6 (12MiB)' % cfg in r.stdout
    assert '\nReservedBytes = 3072  # command line --pfc.reservedBytes (3KiB)' in r.stdout
    # The same key twice, in two cases, is one key set twice.
    cfg.write_text('[ecn]\nkmin = 50\nKmin = 60\n')
    r = run_example('rdma-sim', '-c', str(cfg), '--print-config')
    assert r.returncode == 2 and "%s:3: 'ecn.kmin' is set twice (first at %s:2)" % (cfg, cfg) in r.stderr



def test_key_and_value_as_two_words(run_example):
    """--group.key value reads as --group.key=value: rdma-sim declares to
    Boost.Program_options the keys its command line names (only those, for
    start-up time), so the word after one is its value; a key given twice is
    refused."""
    r = run_example('rdma-sim', '-c', TINY, '--traffic.load', '0.5', '--ecn.kmin=40KB',
                    '--ecn.kmax', '160KB', '--print-config')
    assert r.returncode == 0, r.stderr
    assert '\nload = 0.5  # command line --traffic.load' in r.stdout
    assert '\nkmin = 40000  # command line --ecn.kmin (40KB)' in r.stdout
    assert '\nkmax = 160000  # command line --ecn.kmax (160KB)' in r.stdout
    r = run_example('rdma-sim', '-c', TINY, '--traffic.load', '0.5', '--traffic.load=0.6',
                    '--print-config')
    assert r.returncode == 2 and "'--traffic.load' cannot be specified more than once" in r.stderr

def test_version(run_example):
    r = run_example('rdma-sim', '--version')
    assert r.returncode == 0, r.stderr
    assert re.fullmatch(r'rdma-sim \d+\.\d+\.\d+ \(the rdma module\), ns-3 3\.\d+\n', r.stdout)


def test_print_config_shows_what_hpcc_implies(run_example, tmp_path):
    """Choosing HPCC turns INT on in NICs and switches: --print-config and
    summary.json show the values the run uses, with where they came from
    (it printed IntEnabled = false, the attribute default)."""
    r = run_example('rdma-sim', '-c', TINY, '--cc.algorithm=hpcc', '--print-config')
    assert r.returncode == 0, r.stderr
    implied = 'IntEnabled = true  # cc.algorithm = hpcc (HPCC reads INT from NICs and switches)'
    assert r.stdout.count(implied) == 2
    out = tmp_path / 'run'
    r = run_tiny(run_example, out, '--cc.algorithm=hpcc')
    assert r.returncode == 0, r.stderr
    config = json.loads(read(out / 'summary.json'))['config']
    assert config['nic.IntEnabled'] == config['switch.IntEnabled'] == 'true'
    # The user's own choice stands.
    r = run_example('rdma-sim', '-c', TINY, '--cc.algorithm=hpcc', '--switch.IntEnabled=false',
                    '--print-config')
    assert 'IntEnabled = false  # command line --switch.IntEnabled' in r.stdout


def test_nscc_implies_no_cnps(run_example, tmp_path):
    """A UEC NIC sends no RoCE CNPs: NSCC reads ECN from its ACKs' echo.
    With cc.algorithm = nscc the NICs' notification point is off, unless
    the user sets cc.cnp.Enabled (CNPs had doubled the reverse path's
    packets in UEC's 128-to-1 incast)."""
    r = run_example('rdma-sim', '-c', TINY, '--cc.algorithm=nscc', '--print-config')
    assert r.returncode == 0, r.stderr
    assert ('Enabled = false  # cc.algorithm = nscc (UEC\'s NSCC reads ECN echoed in ACKs; '
            'its NICs send no CNPs)') in r.stdout
    r = run_example('rdma-sim', '-c', TINY, '--cc.algorithm=nscc', '--cc.cnp.Enabled=true',
                    '--print-config')
    assert 'Enabled = true  # command line --cc.cnp.Enabled' in r.stdout
    r = run_example('rdma-sim', '-c', TINY, '--print-config')
    assert re.search(r'\[cc\.cnp\][^[]*\nEnabled = true', r.stdout), 'dcqcn keeps its CNPs'


def test_nodes_csv_names_every_node(run_example, tmp_path):
    """nodes.csv says what each node id of pfc.csv and qlen.csv is: on a k=4
    fat tree 16 hosts, 8 edge, 8 aggregation and 4 core switches, 4 pods."""
    out = tmp_path / 'run'
    r = run_tiny(run_example, out, '--topology.type=fat-tree', '--topology.k=4',
                 '--topology.hostRate=100Gbps')
    assert r.returncode == 0, r.stderr
    rows = list(csv.DictReader(open(out / 'nodes.csv')))
    assert [int(row['id']) for row in rows] == list(range(36))
    names = [row['name'] for row in rows]
    assert names[:16] == ['host%d' % h for h in range(16)]
    assert names[16:24] == ['edge%d' % i for i in range(8)]
    assert names[24:32] == ['agg%d' % i for i in range(8)]
    assert names[32:] == ['core%d' % i for i in range(4)]
    assert [row['tier'] for row in rows] == ['0'] * 16 + ['1'] * 8 + ['2'] * 8 + ['3'] * 4
    # Hosts 0-3 are pod 0 with edges 0-1 and aggs 0-1 (RdmaTopologySpec::FatTree's ids).
    assert [rows[i]['pod'] for i in (0, 3, 4, 16, 17, 18, 24, 25, 26, 32)] == \
        ['0', '0', '1', '0', '0', '1', '0', '0', '1', '']
    # The star of tiny.ini: hosts and one switch, no pods.
    r = run_tiny(run_example, tmp_path / 'star')
    rows = list(csv.DictReader(open(tmp_path / 'star' / 'nodes.csv')))
    assert [(r_['kind'], r_['name'], r_['pod']) for r_ in rows] == \
        [('host', 'host%d' % h, '') for h in range(4)] + [('switch', 'switch0', '')]


def test_link_load_by_tier(run_example, tmp_path):
    """summary.json's link_load: what each tier's links sent and their
    utilisation. On a dumbbell of two hosts one 1 MB WRITE crosses both host
    links (tier 0) and the bottleneck between the two switches (tier 1, the
    lower of its ends' tiers), so the host links send twice the bottleneck's
    bytes; utilisation is bytes x 8 over rate x directions x simulated time."""
    out = tmp_path / 'run'
    r = run_example('rdma-sim', '-q', '--topology.type=dumbbell', '--topology.left=1',
                    '--topology.right=1', '--traffic.pattern=incast', '--traffic.fanIn=1',
                    '--traffic.receiver=1', '--traffic.size=1000000', '--output.dir=%s' % out)
    assert r.returncode == 0, r.stderr
    s = json.load(open(out / 'summary.json'))
    load = s['link_load']
    assert sorted(load) == ['tier0', 'tier1']
    assert (load['tier0']['directions'], load['tier1']['directions']) == (4, 2)
    assert load['tier0']['tx_bytes'] == 2 * load['tier1']['tx_bytes']
    # 1 MB of payload in 977 frames with their headers, and the ACKs back
    assert 1000000 < load['tier1']['tx_bytes'] < 1100000
    for t in load.values():
        assert t['utilisation'] == pytest.approx(
            t['tx_bytes'] * 8 / (t['directions'] * 100e9 * s['sim_time_s']))
        # the data's direction carries nearly all of it
        assert t['utilisation'] < t['max_utilisation'] <= 1
    assert load['tier1']['max_utilisation'] > 0.9 * 2 * load['tier1']['utilisation']


def test_icrc_check_is_off_by_default_and_can_be_turned_on(run_example, tmp_path):
    """rdma-sim's own default for nic.VerifyIcrc (false: no bit errors on its
    links) is shown, applied, and overridable; results do not depend on it."""
    r = run_example('rdma-sim', '--help')
    assert '--nic.VerifyIcrc (default: false)' in r.stdout
    assert "instead of the model's true" in r.stdout
    r = run_example('rdma-sim', '-c', TINY, '--print-config')
    assert '\nVerifyIcrc = false\n' in r.stdout
    for v in ('true', 'false'):
        r = run_tiny(run_example, tmp_path / v, '--nic.VerifyIcrc=%s' % v)
        assert r.returncode == 0, r.stderr
    # Every frame carries its real ICRC, so checking it drops nothing.
    assert read(tmp_path / 'true' / 'fct.csv') == read(tmp_path / 'false' / 'fct.csv')
    summary = json.loads(read(tmp_path / 'true' / 'summary.json'))
    assert summary['drops'] == 0
    # sim.icrc = auto computes the ICRC only when a NIC checks it.
    assert summary['icrc_computed'] is True
    assert json.loads(read(tmp_path / 'false' / 'summary.json'))['icrc_computed'] is False


def test_icrc_computation_is_skipped_only_when_nothing_reads_it(run_example, tmp_path):
    """sim.icrc: off spares senders the CRC and changes no result; off with
    something that reads ICRCs (NICs that check them, pcap output), and
    values other than auto, on and off, exit 2 before anything is written."""
    for v in ('on', 'off'):
        r = run_tiny(run_example, tmp_path / v, '--sim.icrc=%s' % v)
        assert r.returncode == 0, r.stderr
        assert json.loads(read(tmp_path / v / 'summary.json'))['icrc_computed'] == (v == 'on')
    assert read(tmp_path / 'on' / 'fct.csv') == read(tmp_path / 'off' / 'fct.csv')
    bad = {('--sim.icrc=off', '--nic.VerifyIcrc=true'): 'nic.VerifyIcrc = true would drop',
           ('--sim.icrc=off', '--output.pcapNodes=0'): 'output.pcapNodes would capture',
           ('--sim.icrc=maybe',): "sim.icrc = 'maybe': expected one of auto,on,off"}
    for i, (args, message) in enumerate(bad.items()):
        r = run_tiny(run_example, tmp_path / ('bad%d' % i), *args)
        assert r.returncode == 2 and message in r.stderr, r.stderr
        assert 'sim.icrc' in r.stderr
        assert not (tmp_path / ('bad%d' % i)).exists()


def test_pcap_of_chosen_nodes_is_real_roce(run_example, tmp_path):
    """output.pcapNodes: one capture per port of each chosen node, moved into
    pcap/ after the run; scapy recomputes every frame's ICRC (frames are built
    from zero payloads without reading them) and tshark decodes them."""
    import shutil
    import subprocess
    out = tmp_path / 'run'
    r = run_tiny(run_example, out, '--output.pcapNodes=0, 0')
    assert r.returncode == 0, r.stderr
    files = sorted(os.listdir(out / 'pcap'))
    assert files == ['node-0-0.pcap'], files
    roce = scapy_checked_roce_frames(out / 'pcap' / files[0])
    summary = json.loads(read(out / 'summary.json'))
    assert roce > 0 and summary['flows']['completed'] > 0
    assert summary['icrc_computed'] is True  # sim.icrc = auto: pcap output reads it
    tshark = shutil.which('tshark')
    assert tshark, 'tshark is not installed (scripts/install-deps.sh installs it)'
    opcodes = subprocess.run([tshark, '-r', str(out / 'pcap' / files[0]), '-T', 'fields',
                              '-e', 'infiniband.bth.opcode'],
                             capture_output=True, text=True, check=True).stdout.split()
    assert len(opcodes) == roce
    # A node that does not exist: exit 2 before anything is written.
    r = run_tiny(run_example, tmp_path / 'bad', '--output.pcapNodes=0,9999')
    assert r.returncode == 2
    assert 'output.pcapNodes' in r.stderr and 'node 9999 does not exist' in r.stderr
    assert not (tmp_path / 'bad').exists()


def test_every_shipped_config_is_valid(run_example):
    """Each config in examples/configs parses and merges (--print-config)."""
    folder = os.path.join(TOP, 'examples', 'configs')
    names = sorted(n for n in os.listdir(folder) if n.endswith('.ini'))
    assert len(names) >= 8
    for name in names:
        r = run_example('rdma-sim', '-c', os.path.join(folder, name), '--print-config')
        assert r.returncode == 0, '%s: %s' % (name, r.stderr)


def test_check_runs_every_check_and_nothing_else(run_example, tmp_path):
    """--check (RdmaExperiment::Check): every shipped config passes the checks
    a run makes before building anything, prints the flow (or, for jobs,
    collective) count and writes
    nothing; what a run refuses for a missing input file, a workload key or
    a full output folder, --check refuses the same way (exit 2, the key)."""
    folder = os.path.join(TOP, 'examples', 'configs')
    for name in sorted(n for n in os.listdir(folder) if n.endswith('.ini')):
        out = tmp_path / name
        r = run_example('rdma-sim', '-c', os.path.join(folder, name), '--check',
                        '--output.dir=%s' % out)
        assert r.returncode == 0, '%s: %s' % (name, r.stderr)
        # The count, then what the memory estimate was held against.
        flows = re.match(r'rdma-sim: configuration checked, (\d+) (flows|collectives); this run '
                         r'needs about [0-9.]+ [KMG]iB, within the limit of .*; nothing run',
                         r.stdout)
        assert flows and int(flows.group(1)) > 0, r.stdout
        assert not out.exists()
    # The same count as the run's.
    r = run_tiny(run_example, tmp_path / 'run', '--check')
    assert r.returncode == 0, r.stderr
    checked = int(re.search(r'checked, (\d+) flows', r.stdout).group(1))
    r = run_tiny(run_example, tmp_path / 'run')
    assert r.returncode == 0, r.stderr
    assert checked == json.loads(read(tmp_path / 'run' / 'summary.json'))['flows']['total']
    refused = {('--traffic.cdf=/nonexistent.txt',): ('fresh', 'traffic.cdf'),
               ('--traffic.load=0',): ('fresh', 'traffic.load'),
               (): ('run', 'is not empty')}  # the run above filled tmp_path/run
    for args, (folder, message) in refused.items():
        r = run_tiny(run_example, tmp_path / folder, '--check', *args)
        assert r.returncode == 2 and message in r.stderr, (args, r.stderr)
        assert not (tmp_path / 'fresh').exists()


def test_full_qp_memory_fails_flows_not_the_run(run_example, tmp_path):
    """A QPC in SRAM with room for 16 QPs per NIC: CreateQp returns null past
    it (ibv_create_qp's ENOMEM); those flows are reported NO_QP and counted as
    failed, the others complete, and rdma-sim exits 0."""
    qps = os.path.join(TOP, 'examples', 'configs', 'qp-scaling.ini')
    out = tmp_path / 'run'
    r = run_example('rdma-sim', '-c', qps, '--quiet', '--output.dir=%s' % out,
                    '--cache.qpc.memory.Kind=Sram', '--cache.qpc.memory.Capacity=16',
                    '--traffic.duration=100us')
    assert r.returncode == 0, r.stderr
    with open(out / 'fct.csv') as f:
        rows = list(csv.DictReader(f))
    statuses = [row['status'] for row in rows]
    no_qp = statuses.count('NO_QP')
    ok = statuses.count('IBV_WC_SUCCESS')
    assert no_qp > 0 and ok > 0, set(statuses)
    summary = json.loads(read(out / 'summary.json'))
    assert summary['flows']['failed'] == len(rows) - ok - statuses.count('INCOMPLETE')
    assert all(row['fct_ns'] == '' for row in rows if row['status'] == 'NO_QP')


def test_timeouts_without_loss_are_named_and_the_key_to_raise(run_example, tmp_path):
    """A retransmission timer shorter than the round trip fires though nothing
    is lost: every resend is spurious. The run says so (screen and
    summary.json's warnings) and names the key that sets the timer: IRN's
    RTO_high ("an estimate of the maximum RTT", SIGCOMM 2018 3.1) or the
    local ACK timeout (IBA 9.7.6.1.3). A run whose timer never fires says
    nothing."""
    cases = (
        (['--transport.recovery=irn', '--transport.irn.RtoHigh=1us',
          '--transport.irn.RtoLow=1us'], 'transport.irn.RtoHigh'),
        (['--transport.timeout=1'], 'transport.timeout'),  # 8.192 us
    )
    for i, (args, key) in enumerate(cases):
        out = tmp_path / ('short%d' % i)
        r = run_tiny(run_example, out, *args)
        assert r.returncode == 0, r.stderr
        summary = json.loads(read(out / 'summary.json'))
        d = summary['drops_where']
        assert summary['recovery']['timeouts'] > 0
        assert summary['drops'] == d['nics_to_gone_qps']  # nothing lost, only late copies
        (w,) = summary['warnings']
        assert ('%d retransmission timeouts though no frame was lost'
                % summary['recovery']['timeouts']) in w and key in w
        assert 'warning: ' + w in r.stdout
    out = tmp_path / 'default'
    r = run_tiny(run_example, out)
    summary = json.loads(read(out / 'summary.json'))
    assert summary['recovery']['timeouts'] == 0
    assert 'warnings' not in summary and 'warning' not in r.stdout


def test_bench_reports_medians_of_runs(build_dir):
    """scripts/bench.py --runs 2: one row per config with its simulated time
    and positive rates; --runs 0 is refused."""
    import subprocess
    import sys
    sim = os.path.join(build_dir, 'examples', 'rdma-sim')
    bench = os.path.join(TOP, 'scripts', 'bench.py')
    r = subprocess.run([sys.executable, bench, '--runs', '2', '--sim', sim, TINY],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].split()[:3] == ['config', 'wall', 's'] and len(lines) == 2, r.stdout
    fields = lines[1].split()
    assert fields[0] == 'tiny.ini'
    wall, sim_s, events, link_tx, data, rss = (float(x) for x in fields[1:])
    assert wall > 0 and 0 < sim_s < 0.02 and rss > 0
    assert events > link_tx > data > 0
    r = subprocess.run([sys.executable, bench, '--runs', '0', '--sim', sim, TINY],
                       capture_output=True, text=True)
    assert r.returncode == 2 and '--runs must be at least 1' in r.stderr


def test_print_config_shows_what_the_preset_sets(run_example):
    """--print-config prints the configuration a run uses: cc.preset's values
    (which need the topology's NIC rate) with their origins. It printed the
    attribute defaults before (RateReduceMonitorPeriod 0, ClampTargetRate
    true) while the run used the preset's 4 us and false."""
    config = os.path.join(TOP, 'examples', 'configs', 'hpcc-fat-ws-dcqcn.ini')
    r = run_example('rdma-sim', '-c', config, '--cc.preset=hpcc-sim', '--print-config')
    assert r.returncode == 0, r.stderr
    assert ('RateReduceMonitorPeriod = 4us  # cc.preset = hpcc-sim (HPCC simulator run.py, '
            'config_template / line 21 RATE_DECREASE_INTERVAL') in r.stdout
    assert '\nDecreaseTiming = Periodic  # cc.preset = hpcc-sim' in r.stdout
    assert '\nClampTargetRate = false  # cc.preset = hpcc-sim' in r.stdout
    # hpcc-sim scales by the NIC rate (run.py l.100: ai = 5 * bw / 25 Mb/s at 100 Gb/s).
    assert '\nAiRate = 20Mbps  # cc.preset = hpcc-sim' in r.stdout
    # A key the user set keeps its value and origin.
    r = run_example('rdma-sim', '-c', config, '--cc.preset=hpcc-sim',
                    '--cc.dcqcn.AiRate=40Mbps', '--print-config')
    assert '\nAiRate = 40Mbps  # command line --cc.dcqcn.AiRate' in r.stdout


def test_hpcc_sim_preset_times_frames_without_wire_overhead(run_example, tmp_path):
    """cc.preset = hpcc-sim sets link.WireOverhead 0 (the HPCC simulator times
    a packet by its size alone) and it reaches every device: a WRITE that
    fits one packet on the 25 Gb/s star crosses two links and its ACK two,
    so its ideal FCT is 4 x 24 bytes x 8 / 25 Gb/s = 30.72 ns shorter than
    with IEEE 802.3's 24 bytes of FCS, preamble and gap per frame."""
    config = os.path.join(TOP, 'examples', 'configs', 'tiny.ini')
    ideal = {}
    for name, extra in (('preset', []), ('ethernet', ['--link.WireOverhead=24'])):
        out = tmp_path / name
        r = run_example('rdma-sim', '-q', '-c', config, '--cc.preset=hpcc-sim',
                        '--output.dir=%s' % out, *extra)
        assert r.returncode == 0, r.stderr
        with open(out / 'fct.csv') as f:
            first = next(csv.DictReader(f))
        assert int(first['size']) <= 1024
        ideal[name] = int(first['ideal_fct_ns'])
    assert abs(ideal['ethernet'] - ideal['preset'] - 30.72) <= 1, ideal


COLLECTIVE_RING = os.path.join(TOP, 'examples', 'configs', 'collective-ring.ini')


@pytest.mark.parametrize('args, key', [
    (('--transport.irn.ReorderWindow=64',), 'transport.irn.ReorderWindow'),
    (('--switch.drill.Samples=4',), 'switch.drill.Samples'),
    (('--traffic.size=5000',), 'traffic.size'),
])
def test_a_key_the_run_does_not_use_is_said(run_example, tmp_path, args, key):
    """Regression: keys of another recovery, balancer or pattern ran silently
    (a sweep over them gave identical points)."""
    out = tmp_path / 'out'
    r = run_example('rdma-sim', '-c', TINY, '-q', '--output.dir=%s' % out, *args)
    assert r.returncode == 0, r.stderr
    said = [line for line in r.stderr.splitlines() if '%s = ' % key in line]
    assert said and 'is not used: ' in said[0] and said[0].startswith('rdma-sim: warning: '), r.stderr
    warnings = json.load(open(os.path.join(str(out), 'summary.json')))['warnings']
    assert [w for w in warnings if ('%s = ' % key) in w and 'is not used' in w], warnings


def test_traffic_keys_under_a_collective_run_are_said(run_example, tmp_path):
    r = run_example('rdma-sim', '-c', COLLECTIVE_RING, '--check', '--traffic.load=0.5',
                    '--traffic.cdf=fbhdp', '--traffic.duration=1ms')
    assert r.returncode == 0, r.stderr
    for key in ('traffic.load', 'traffic.cdf', 'traffic.duration'):
        assert re.search(r'%s = \S+ is not used: ' % re.escape(key), r.stderr), r.stderr


def test_unfinished_flows_are_counted_and_bounded(run_example, tmp_path):
    """Regression: with sim.stopTime before the flows end, '1 of 16 done' and a
    bucket of one flow at 1.01 were the whole story, exit 0."""
    out = tmp_path / 'out'
    r = run_example('rdma-sim', '--output.dir=%s' % out, '-q', '--topology.k=4',
                    '--traffic.pattern=permutation', '--traffic.size=2000000',
                    '--sim.stopTime=100us')
    assert r.returncode == 0, r.stderr
    s = json.load(open(os.path.join(str(out), 'summary.json')))
    assert s['flows']['incomplete'] == 16 and s['flows']['completed'] == 0
    bucket = s['fct_slowdown']['1000000-10000000']
    assert bucket['count'] == 0 and bucket['unfinished'] == 16
    # Each has run 100 us of an ideal of about 170 us at 100 Gb/s: >= 1 so far,
    # the floor; the bound is what the time so far says, no more.
    assert bucket['unfinished_slowdown_at_least'] >= 1
    assert bucket['with_unfinished_at_least']['p99'] >= bucket['unfinished_slowdown_at_least']
    assert 'were still running when the run ended' in r.stdout
    assert '16 unfinished, slowdown >= ' in r.stdout
    assert any('were still running' in w for w in s['warnings'])


def test_force_replaces_an_earlier_runs_files_as_a_set(run_example, tmp_path):
    """Regression: a flow run written over a collective run's folder left its
    collectives.csv and jobs.csv beside the new summary.json."""
    out = tmp_path / 'out'
    r = run_example('rdma-sim', '-c', COLLECTIVE_RING, '-q', '--job.iterations=1',
                    '--collective.bytes=256KiB', '--collective.chunkBytes=64KiB',
                    '--output.pcapNodes=0',
                    '--output.dir=%s' % out)
    assert r.returncode == 0, r.stderr
    assert (out / 'collectives.csv').exists() and (out / 'pcap').is_dir()
    (out / 'notes.txt').write_text('mine\n')
    r = run_example('rdma-sim', '-c', TINY, '-q', '--force', '--output.dir=%s' % out)
    assert r.returncode == 0, r.stderr
    assert sorted(os.listdir(out)) == ['cache.csv', 'fct.csv', 'fct.txt', 'nodes.csv',
                                       'notes.txt', 'pfc.csv', 'qlen.csv', 'summary.json']


def printed_values(text):
    """{group.key: value} of --print-config's INI (origins dropped)."""
    values, group = {}, ''
    for line in text.splitlines():
        line = line.split('  # ')[0]
        if line.startswith('['):
            group = line.strip('[]')
        elif ' = ' in line or line.endswith(' ='):
            key, _, value = line.partition(' =')
            values[group + '.' + key] = value.strip()
    return values


def test_print_config_changed_runs_again_without_warnings(run_example, tmp_path):
    r = run_example('rdma-sim', '-c', TINY, '--print-config', '--changed',
                    '--transport.irn.ReorderWindow=64', '--cc.algorithm=hpcc')
    assert r.returncode == 0, r.stderr
    text = r.stdout
    assert '[topology]' in text and 'type = star' in text and 'algorithm = hpcc' in text
    assert 'ReorderWindow' not in text           # not used under go-back-N
    assert 'k = 4' not in text and 'DataRate' not in text  # defaults left out
    cfg = tmp_path / 'changed.ini'
    cfg.write_text(text)
    again = run_example('rdma-sim', '-c', str(cfg), '--check')
    assert again.returncode == 0, again.stderr
    assert 'warning' not in again.stderr, again.stderr
    same = run_example('rdma-sim', '-c', TINY, '--cc.algorithm=hpcc', '--print-config')
    assert printed_values(run_example('rdma-sim', '-c', str(cfg), '--print-config').stdout) == \
        printed_values(same.stdout)
    r = run_example('rdma-sim', '--changed')
    assert r.returncode == 2 and '--changed is an option of --print-config' in r.stderr


def test_summary_times_are_in_units_a_reader_reads(run_example, tmp_path):
    out = tmp_path / 'out'
    r = run_example('rdma-sim', '-c', TINY, '-q', '--output.dir=%s' % out)
    assert r.returncode == 0, r.stderr
    config = json.load(open(os.path.join(str(out), 'summary.json')))['config']
    assert not [k for k, v in config.items() if re.fullmatch(r'[+-]?[0-9.e+]+ps', v)], config
    assert config['sim.stopTime'] == '20ms'


def hpcc_star(path, rate, hosts=4):
    """An HPCC topology file: hosts 0..hosts-1 on switch `hosts`, links at rate."""
    lines = ['%d 1 %d' % (hosts + 1, hosts), str(hosts)]
    lines += ['%d %d %s 0.001ms 0' % (h, hosts, rate) for h in range(hosts)]
    path.write_text('\n'.join(lines) + '\n')
    return path


def test_poisson_load_is_a_share_of_the_topology_files_host_links(run_example, tmp_path):
    """Regression: on an HPCC topology file, traffic.load was a fraction of
    topology.hostRate (100 Gb/s by default), not of the file's host links: a
    fabric of 25 Gb/s hosts got 4x the load asked for, silently."""
    counts = {}
    for rate in ('25Gbps', '100Gbps'):
        topo = hpcc_star(tmp_path / ('topo-%s.txt' % rate), rate)
        r = run_example('rdma-sim', '--topology.type=hpcc', '--topology.file=%s' % topo,
                        '--traffic.cdf=googlerpc', '--traffic.duration=200us', '--check')
        assert r.returncode == 0, r.stderr
        counts[rate] = int(re.search(r'checked, (\d+) flows', r.stdout).group(1))
    # Poisson gaps scale with 1 / rate: about a quarter of the flows (about a
    # thousand at 100 Gb/s; the same count at both rates before the fix).
    assert 3.6 <= counts['100Gbps'] / counts['25Gbps'] <= 4.4, counts
    r = run_example('rdma-sim', '--topology.type=hpcc', '--topology.hostRate=25Gbps',
                    '--topology.file=%s' % (tmp_path / 'topo-25Gbps.txt'), '--check')
    assert 'topology.hostRate = 25Gbps is not used: topology.type = hpcc' in r.stderr, r.stderr


@pytest.mark.parametrize('mtu', ['1024', '4096'])
def test_a_lone_irn_flow_fills_an_idle_path(run_example, tmp_path, mtu):
    """IRN's BDP-FC caps the PSNs beyond the cumulative ACK at one BDP of the
    longest path; ACKs asked every I packets leave I - 1 delivered PSNs
    unacknowledged, so the cap lets them out too. Before, a lone 2 MB WRITE
    across an idle k=4 fat tree took 1.14x its ideal time at the 1 KiB MTU
    (an ACK every 30 packets) and 1.18x at 4 KiB (every 10)."""
    cm = tmp_path / 'one.cm'
    cm.write_text('Nodes 16\nConnections 1\n0->13 start 0 size 2000000\n')
    out = tmp_path / 'o'
    r = run_example('rdma-sim', '--topology.k=4', '--traffic.pattern=connection-matrix',
                    '--traffic.connectionMatrix=%s' % cm, '--transport.recovery=irn',
                    '--cc.algorithm=none', '--transport.pathMtu=%s' % mtu,
                    '--output.dir=%s' % out, '--quiet')
    assert r.returncode == 0, r.stderr
    with open(str(out / "fct.csv")) as f:
        row, = csv.DictReader(f)
    # The ideal: every frame serialized once at 100 Gb/s, plus the base RTT.
    assert int(row['fct_ns']) <= int(row['ideal_fct_ns']) * 1.001, row
