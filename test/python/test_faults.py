"""Faults in the middle of a run: SIGINT or SIGTERM stops rdma-sim cleanly
(a message, exit 128 + the signal, and the output folder as it was before
the run: not created, or its old files untouched), and so does a full disk
while the outputs are written (a file size limit, RLIMIT_FSIZE: exit 2,
'File too large', no file half-written, nothing new in the folder)."""

import os
import resource
import select
import signal
import subprocess
import time

import pytest

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
TINY = os.path.join(TOP, 'examples', 'configs', 'tiny.ini')


def snapshot(folder):
    """{relative path: bytes} of every file under folder."""
    out = {}
    for root, _, files in os.walk(folder):
        for f in files:
            p = os.path.join(root, f)
            out[os.path.relpath(p, folder)] = open(p, 'rb').read()
    return out


def long_run(build_dir, out, *extra):
    """rdma-sim on tiny.ini with WebSearch flows arriving for 50 s: hours of
    work on any machine, so a signal always finds it simulating."""
    exe = os.path.join(build_dir, 'examples', 'rdma-sim')
    return subprocess.Popen([exe, '-c', TINY, '--traffic.cdf=websearch',
                             '--traffic.duration=50s', '--sim.stopTime=60s',
                             '--output.dir=%s' % out] + list(extra),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def wait_until_simulating(p, timeout=120):
    """Read p's stderr until its progress line says it is simulating ("ms
    simulated"; rdma-sim prints it once a run has taken a few seconds), so
    that the signal that follows lands in the simulation whatever the
    machine's speed. Returns what was read."""
    seen = b''
    deadline = time.monotonic() + timeout
    fd = p.stderr.fileno()
    while b'ms simulated' not in seen:
        assert p.poll() is None, 'the run ended before it said it was simulating: %r' % seen
        left = deadline - time.monotonic()
        assert left > 0, 'no progress line in %d s: %r' % (timeout, seen)
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            seen += os.read(fd, 65536)
    return seen


def stop_with(p, sig):
    """Send sig once p is simulating; return (exit status, all of stderr)."""
    before = wait_until_simulating(p)
    p.send_signal(sig)
    _, err = p.communicate(timeout=60)
    return p.returncode, (before + err).decode()


@pytest.mark.parametrize('sig, name', [(signal.SIGINT, 'SIGINT'), (signal.SIGTERM, 'SIGTERM')])
def test_signal_stops_cleanly_and_writes_nothing(build_dir, tmp_path, sig, name):
    out = tmp_path / 'new' / 'out'
    p = long_run(build_dir, out)
    rc, err = stop_with(p, sig)
    assert rc == 128 + sig, err
    assert '%s: stopped at' % name in err and 'nothing was written to %s' % out in err, err
    assert not (tmp_path / 'new').exists()


def test_signal_leaves_an_existing_folder_as_it_was(build_dir, tmp_path):
    out = tmp_path / 'out'
    out.mkdir()
    (out / 'fct.csv').write_text('an older run\n')
    (out / 'notes.txt').write_text('mine\n')
    before = snapshot(out)
    p = long_run(build_dir, out, '--force', '--output.pcapNodes=0')
    rc, err = stop_with(p, signal.SIGINT)
    assert rc == 130, err
    assert snapshot(out) == before
    assert sorted(os.listdir(out)) == ['fct.csv', 'notes.txt']


def limit_file_size(limit):
    def set_limit():
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return set_limit


def run_tiny_limited(build_dir, out, limit, *extra):
    exe = os.path.join(build_dir, 'examples', 'rdma-sim')
    return subprocess.run([exe, '-c', TINY, '-q', '--output.dir=%s' % out] + list(extra),
                          capture_output=True, text=True, timeout=120,
                          preexec_fn=limit_file_size(limit))


def test_full_disk_while_writing_gives_an_error_and_no_file(build_dir, tmp_path):
    out = tmp_path / 'out'
    # fct.csv of the tiny run, the first file written, is larger than 2 kB.
    r = run_tiny_limited(build_dir, out, 2048)
    assert r.returncode == 2, r.stderr
    assert 'write failed: File too large' in r.stderr, r.stderr
    assert 'nothing was written to %s' % out in r.stderr, r.stderr
    assert not out.exists()


def test_full_disk_leaves_an_existing_folder_as_it_was(build_dir, tmp_path):
    out = tmp_path / 'out'
    out.mkdir()
    (out / 'summary.json').write_text('{"an": "older run"}\n')
    before = snapshot(out)
    # Every CSV (16 kB at most) fits; the capture of node 0 does not, and it
    # is the last file committed: the files staged before it must not appear.
    r = run_tiny_limited(build_dir, out, 20000, '--force', '--output.pcapNodes=0')
    assert r.returncode == 2, r.stderr
    assert 'File too large' in r.stderr, r.stderr
    assert snapshot(out) == before
    # Without the limit the same run writes every file whole.
    r = run_tiny_limited(build_dir, out, resource.RLIM_INFINITY, '--force')
    assert r.returncode == 0, r.stderr
    assert {'fct.csv', 'fct.txt', 'pfc.csv', 'qlen.csv', 'cache.csv',
            'summary.json'} <= set(os.listdir(out))
    assert not [f for f in os.listdir(out) if f.startswith('.rdma-sim-stage')]
