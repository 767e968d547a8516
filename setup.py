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
# The environments' engines also share their Python-binding glue (env_glue.h).
native = "src/twintable/core/native"
shared = {"include_dirs": [native], "depends": [f"{native}/mt19937.h"]}
env_shared = {"include_dirs": [native],
              "depends": [f"{native}/mt19937.h", f"{native}/env_glue.h"]}
setup(ext_modules=[
    Extension("twintable.games.timo._native", ["src/twintable/games/timo/_native.c"],
              optional=True, extra_compile_args=["-O2", *threads], extra_link_args=threads,
              **shared),
    # Twins' rules for its environment (games/twins/env.py; optional the same way).
    Extension("twintable.games.twins._native", ["src/twintable/games/twins/_native.c"],
              optional=True, extra_compile_args=["-O2"], **env_shared),
    # Twinz's rules for its environment (games/twinz/env.py; optional the same way).
    Extension("twintable.games.twinz._native", ["src/twintable/games/twinz/_native.c"],
              optional=True, extra_compile_args=["-O2"], **env_shared),
    # Twin It's rules for its environment (games/twinit/env.py; the same way). It draws no
    # chance itself (the deal comes from the Python rules), so it needs no twister, only
    # the glue.
    Extension("twintable.games.twinit._native", ["src/twintable/games/twinit/_native.c"],
              optional=True, extra_compile_args=["-O2"], include_dirs=[native],
              depends=[f"{native}/env_glue.h"]),
])
