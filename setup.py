"""al0's packages: every package under ``al0/`` is found (a new folder needs
no entry here), plus the bundled tables and libraries, which pyproject.toml
maps from ``advice_tables/`` and ``library/`` into ``al0/bundled/``."""

from setuptools import find_packages, setup

BUNDLED = ["al0.bundled.advice_tables", "al0.bundled.library"]

setup(packages=find_packages(include=["al0", "al0.*"]) + BUNDLED)
