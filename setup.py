"""Build of the native move generator; every other setting lives in pyproject.toml.

The C core (tablero/engine/native/*.c) is compiled into ``tablero.engine._native`` by
``pip install .`` / ``pip install -e .`` with no extra step. -O3 without -march=native, so a
wheel built on one machine runs on any machine of the same architecture.
"""

from setuptools import Extension, setup

NATIVE = "tablero/engine/native"
SOURCES = ("module", "movegen", "board", "leaves", "selfplay", "simulate")

setup(
    ext_modules=[
        Extension(
            "tablero.engine._native",
            sources=[f"{NATIVE}/{name}.c" for name in SOURCES],
            depends=[f"{NATIVE}/movegen.h", f"{NATIVE}/walk.inc"],
            include_dirs=[NATIVE],
            extra_compile_args=["-O3", "-std=c11", "-Wall", "-Wextra", "-Wno-unused-parameter"],
        )
    ],
)
