"""Running LLVM tools under a time limit, and reading their failures.

Shared by scripts/corpus-run.py and scripts/fuzz-directives.py."""
import os
import re
import signal
import subprocess
import time

VERIFIER_RE = re.compile(r"Bad machine code|MachineFunction verifier|"
                         r"machine code verifier", re.I)
CRASH_RE = re.compile(r"PLEASE submit a bug report|Stack dump:|LLVM ERROR:")


def run(cmd, timeout):
    """Runs cmd in its own process group (a hang is killed with its children);
    returns (rc, stderr, seconds, timed_out), rc None when it timed out."""
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         start_new_session=True)
    try:
        _, err = p.communicate(timeout=timeout)
        return p.returncode, err.decode("utf-8", "replace"), time.monotonic() - t0, False
    except subprocess.TimeoutExpired:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        _, err = p.communicate()
        return None, err.decode("utf-8", "replace"), time.monotonic() - t0, True
