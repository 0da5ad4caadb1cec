"""Builds and installs the zyx Python package:

    pip install --no-build-isolation ./python

Offline, with Debian's setuptools, pybind11 and numpy (scripts/setup installs them). build_ext
configures the repository root with CMake (Ninja, Release, no tests or benchmarks), builds the
extension module _zyx and the device runtime zyx-tt-runtime, and puts into the package: _zyx*.so,
zyx-tt-runtime (found beside the module) and the emulator's kernel headers (emulator/include,
which the runtime looks for beside itself). ZYX_CMAKE_ARGS adds CMake arguments.
"""
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        out = Path(self.get_ext_fullpath(ext.name)).resolve().parent  # <build_lib>/zyx
        build = Path(self.build_temp).resolve() / "cmake"
        build.mkdir(parents=True, exist_ok=True)
        cfg = [
            "cmake", "-S", str(ROOT), "-B", str(build), "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
            "-DZYX_BUILD_TESTS=OFF", "-DZYX_BUILD_BENCH=OFF", f"-DPython_EXECUTABLE={sys.executable}",
        ] + shlex.split(os.environ.get("ZYX_CMAKE_ARGS", ""))
        subprocess.run(cfg, check=True)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 1))
        subprocess.run(["cmake", "--build", str(build), "--target", "_zyx", "zyx-tt-runtime", "-j", jobs],
                       check=True)
        built = build / "python" / "zyx"
        out.mkdir(parents=True, exist_ok=True)
        for so in built.glob("_zyx*.so"):
            shutil.copy2(so, out / so.name)
        runtime = build / "bin" / "zyx-tt-runtime"
        shutil.copy2(runtime, out / "zyx-tt-runtime")
        headers = out / "emulator" / "include"
        if headers.exists():
            shutil.rmtree(headers)
        shutil.copytree(ROOT / "emulator" / "include", headers)


setup(
    name="zyx",
    version="0.1.0",
    description="Lazy tensors fused into kernels for the host CPU and Tenstorrent devices",
    packages=["zyx", "zyx.nn", "zyx.optim"],
    package_dir={"": "."},
    ext_modules=[CMakeExtension("zyx._zyx")],
    cmdclass={"build_ext": CMakeBuild},
    python_requires=">=3.8",
    install_requires=["numpy"],
    zip_safe=False,
)
