"""Only what pyproject.toml cannot say: the .pth file that lets AMDGPU_PINGPONG_TRITON=1 enable
the Triton hook in any Python program, with no code change (amdgpu_pingpong/_autoload.py)."""
import os

from setuptools import setup
from setuptools.command.build_py import build_py

PTH = "amdgpu_pingpong_autoload.pth"


class build_py_with_pth(build_py):
    def run(self):
        super().run()
        src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "python", PTH)
        self.copy_file(src, os.path.join(self.build_lib, PTH), preserve_mode=0)
        if getattr(self, "editable_mode", False):
            # setuptools' editable_wheel points install_lib at the unpacked wheel's root, whose
            # files land in site-packages; the editable .pth only covers the packages
            root = self.distribution.get_command_obj("install").install_lib
            if root:
                self.copy_file(src, os.path.join(root, PTH), preserve_mode=0)

    def get_outputs(self, include_bytecode=1):
        return super().get_outputs(include_bytecode) + [os.path.join(self.build_lib, PTH)]


setup(cmdclass={"build_py": build_py_with_pth})
