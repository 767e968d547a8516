"""Builds the C engines (Timo's, and Twins', Twin It's and Twinz's environments');
everything else about the package is in pyproject.toml.

The extensions are optional: without a C compiler the install still succeeds, and
simulations and environments run on the reference rules in Python
(twintable.games.timo.fast and twintable.games.twins.env say which).
The vector engine in it (twintable.games.timo.research.vector, published as
twintable.envs.timo_vector) steps games on POSIX threads.
"""

import os

from setuptools import Extension, setup

threads = [] if os.name == "nt" else ["-pthread"]
# What the engines share: CPython's Mersenne Twister (core/rng.py's draws), one header.
# ``depends`` rebuilds an engine when it changes and ships it in the sdist.
shared = {"include_dirs": ["src/twintable/core/native"],
          "depends": ["src/twintable/core/native/mt19937.h"]}
setup(ext_modules=[
    Extension("twintable.games.timo._native", ["src/twintable/games/timo/_native.c"],
              optional=True, extra_compile_args=["-O2", *threads], extra_link_args=threads,
              **shared),
    # Twins' rules for its environment (games/twins/env.py; optional the same way).
    Extension("twintable.games.twins._native", ["src/twintable/games/twins/_native.c"],
              optional=True, extra_compile_args=["-O2"], **shared),
    # Twinz's rules for its environment (games/twinz/env.py; optional the same way).
    Extension("twintable.games.twinz._native", ["src/twintable/games/twinz/_native.c"],
              optional=True, extra_compile_args=["-O2"], **shared),
    # Twin It's rules for its environment (games/twinit/env.py; the same way). It draws no
    # chance itself (the deal comes from the Python rules), so it needs no twister.
    Extension("twintable.games.twinit._native", ["src/twintable/games/twinit/_native.c"],
              optional=True, extra_compile_args=["-O2"]),
])
