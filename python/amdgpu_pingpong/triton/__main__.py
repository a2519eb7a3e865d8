"""python3 -m amdgpu_pingpong.triton ...: the "does it help" command (check.py)."""
import sys

from .check import main

sys.exit(main())
