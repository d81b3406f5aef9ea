"""The compiled part of the package (the rest of its configuration is pyproject.toml): the
A* search of :mod:`core.spatial.pathing`, a C extension on the Python C API alone."""

from setuptools import Extension, setup

setup(ext_modules=[Extension("core.spatial._search", ["core/spatial/_search.c"])])
