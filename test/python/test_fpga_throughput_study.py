"""The FPGA throughput study (scripts/fpga_throughput_study.py,
doc/nic-measurements.rst): the NIC model's WRITE goodput against message
size, held against the FPGA RDMA stacks' stated throughputs (RASHPA,
SRNIC; data/nic-measurements/), the RoCEv2 goodput bound and the
pipeline's packet-rate ceiling."""

import csv
import os
import subprocess
import sys

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
SCRIPT = os.path.join(TOP, 'scripts', 'fpga_throughput_study.py')
sys.path.insert(0, os.path.join(TOP, 'scripts'))
import fpga_throughput_study as fts  # noqa: E402


def test_the_model_meets_the_published_fpga_stacks_and_its_bounds(build_dir, tmp_path):
    bench = os.path.join(build_dir, 'examples', 'rdma-qp-scaling')
    r = subprocess.run(['/usr/bin/python3', SCRIPT, '-o', str(tmp_path), '--bench', bench],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    text = (tmp_path / 'study.txt').read_text()
    # Every published point within 25 % (the target), named in the table.
    for label in ('RASHPA, packets > 1 KB', 'RASHPA, packets > 32 KB', 'SRNIC'):
        assert label in text
    assert 'outside 25 %' not in text
    with open(tmp_path / 'fpga-throughput.csv') as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == len(fts.SIZES) * len(fts.MTUS)
    for row in rows:
        size, goodput = int(row['bytes']), float(row['goodput_gbps'])
        if size >= 4096:
            # Past a few packets the WRITEs run at the RoCEv2 bound.
            assert abs(goodput / float(row['bound_gbps']) - 1) < 0.01, row
        if size <= 256:
            # Small WRITEs at the pipeline's ceiling: one TX engine at
            # 250 MHz, 22 cycles a packet (RdmaNicPipeline's rate ceiling).
            assert abs(float(row['writes_per_s']) / (250e6 / 22) - 1) < 0.02, row
    assert (tmp_path / 'fpga-throughput.png').stat().st_size > 0


def test_the_bound_is_the_formula():
    # One 1 KiB packet: 1024 / (1024 + 82 + 16); 64 KiB in 4 KiB packets.
    assert abs(fts.bound(1024, 1024) - 100 * 1024 / 1122) < 1e-9
    assert abs(fts.bound(65536, 4096) - 100 * 65536 / (65536 + 16 * 82 + 16)) < 1e-9


def test_bad_data_exits_2(build_dir, tmp_path):
    (tmp_path / 'data').mkdir()
    r = subprocess.run(['/usr/bin/python3', SCRIPT, '-o', str(tmp_path / 'o'), '--data',
                        str(tmp_path / 'data')], capture_output=True, text=True)
    assert r.returncode == 2 and 'rashpa-esrf-rdma-100gbe.csv' in r.stderr
    assert not (tmp_path / 'o').exists()


def test_qp_scaling_refuses_an_output_it_cannot_write(build_dir, tmp_path):
    bench = os.path.join(build_dir, 'examples', 'rdma-qp-scaling')
    r = subprocess.run([bench, '--maxQps=1', '--out=%s' % (tmp_path / 'no' / 'x.csv')],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "cannot write --out: " in r.stderr
    assert not (tmp_path / 'no').exists()
