#!/usr/bin/env python3
"""usage: expect-rc.py RC CMD ARGS...: runs CMD, passes its stdout/stderr
through, and exits 1 (with a message) unless CMD exited with RC."""
import subprocess, sys
want = int(sys.argv[1])
r = subprocess.run(sys.argv[2:])
if r.returncode != want:
    print(f"expect-rc: {sys.argv[2]} exited {r.returncode}, expected {want}", file=sys.stderr)
    sys.exit(1)
