"""Build of the native move generator and of the shipped dictionaries' word graphs; every
other setting lives in pyproject.toml.

The C core (tablero/engine/movegen/native/*.c) is compiled into
``tablero.engine.movegen._native`` by ``pip install .`` / ``pip install -e .`` with no extra
step. -O3 without -march=native, so a
wheel built on one machine runs on any machine of the same architecture.

After it, the word graph of each shipped dictionary is built into ``tablero/data/graphs/``
(``tablero/lexicon/prebuilt.py``, about 20 s for both), so that no first game waits for one.
If that fails, the install goes on and the graphs are built on first use.
"""

import os
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
NATIVE = "tablero/engine/movegen/native"
SOURCES = (
    "module",
    "movegen",
    "board",
    "leaves",
    "hugemem",
    "selfplay",
    "simulate",
    "endgame",
    "cambio",
    "wordmap",
)


class BuildWithGraphs(build_ext):
    """The C extension, then the shipped word graphs beside the package's other data."""

    def run(self) -> None:
        super().run()
        in_place = self.inplace or getattr(self, "editable_mode", False)
        package = ROOT / "tablero" if in_place else Path(self.build_lib) / "tablero"
        out = package / "data" / "graphs"
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        command = [sys.executable, "-m", "tablero.lexicon.prebuilt", str(out)]
        if subprocess.run(command, env=env, cwd=ROOT).returncode != 0:
            self.warn("the word graphs were not built now; they will be on first use")


setup(
    cmdclass={"build_ext": BuildWithGraphs},
    ext_modules=[
        Extension(
            "tablero.engine.movegen._native",
            sources=[f"{NATIVE}/{name}.c" for name in SOURCES],
            depends=[f"{NATIVE}/movegen.h", f"{NATIVE}/walk.inc", f"{NATIVE}/mapgen.inc"],
            include_dirs=[NATIVE],
            extra_compile_args=["-O3", "-std=c11", "-Wall", "-Wextra", "-Wno-unused-parameter"],
        )
    ],
)
