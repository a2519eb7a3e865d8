"""Imported at every interpreter start by amdgpu_pingpong_autoload.pth (site-packages).

Does nothing (and imports nothing) unless AMDGPU_PINGPONG_TRITON is set; then it enables the
Triton hook (amdgpu_pingpong.triton.enable_from_env). Never raises: a broken environment must
not stop Python from starting."""
import os

if os.environ.get("AMDGPU_PINGPONG_TRITON", "").strip().lower() not in ("", "0", "off", "false", "no"):
    try:
        from amdgpu_pingpong.triton import enable_from_env

        enable_from_env()
    except Exception as _e:  # noqa: BLE001
        import sys

        print(f"amdgpu_pingpong: AMDGPU_PINGPONG_TRITON is set but the hook failed to load: {_e}",
              file=sys.stderr)
