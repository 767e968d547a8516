"""Builds the C engine of Timo's Twist; everything else about the package is in pyproject.toml.

The extension is optional: without a C compiler the install still succeeds and
simulations run on the reference rules in Python (twintable.games.timo.fast says which).
"""

from setuptools import Extension, setup

setup(ext_modules=[
    Extension("twintable.games.timo._native", ["src/twintable/games/timo/_native.c"],
              optional=True, extra_compile_args=["-O2"]),
])
