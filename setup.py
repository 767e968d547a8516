"""Builds the C engine of Timo's Twist; everything else about the package is in pyproject.toml.

The extension is optional: without a C compiler the install still succeeds and
simulations run on the reference rules in Python (twintable.games.timo.fast says which).
The vector engine in it (twintable.games.timo.research.vector, published as
twintable.envs.timo_vector) steps games on POSIX threads.
"""

import os

from setuptools import Extension, setup

threads = [] if os.name == "nt" else ["-pthread"]
setup(ext_modules=[
    Extension("twintable.games.timo._native", ["src/twintable/games/timo/_native.c"],
              optional=True, extra_compile_args=["-O2", *threads], extra_link_args=threads),
    # Twins' rules for its environment (games/twins/env.py; optional the same way).
    Extension("twintable.games.twins._native", ["src/twintable/games/twins/_native.c"],
              optional=True, extra_compile_args=["-O2"]),
    # Twin It's competitive rules for its environment (games/twinit/env.py; the same way).
    Extension("twintable.games.twinit._native", ["src/twintable/games/twinit/_native.c"],
              optional=True, extra_compile_args=["-O2"]),
])
