"""al0's packages: every package under ``al0/`` is found (a new folder needs
no entry here), plus the bundled tables and libraries, which pyproject.toml
maps from ``advice_tables/`` and ``library/`` into ``al0/bundled/``.

The native core (``al0/core/*.c``) is an optional extension: where it
cannot be built (no compiler) the install still succeeds, and al0 runs
its Python search, the reference twin (``al0.core.status()`` says which)."""

from glob import glob

from setuptools import Extension, find_packages, setup

BUNDLED = ["al0.bundled.advice_tables", "al0.bundled.library"]
PAGE = ["al0.serve.static"]
"""al0 serve's page: a folder of data, no module, named so setuptools ships
it without warning that an importable folder is left out."""

CORE = Extension(
    "al0.core._core",
    sources=sorted(glob("al0/core/*.c")),
    depends=sorted(glob("al0/core/*.h")),
    # -pthread: a tablebase build shares its passes among threads (retrograde.c).
    extra_compile_args=["-O2", "-Wall", "-pthread"] if not __import__("os").name == "nt" else [],
    extra_link_args=["-pthread"] if not __import__("os").name == "nt" else [],
    optional=True,
)

setup(packages=find_packages(include=["al0", "al0.*"]) + PAGE + BUNDLED, ext_modules=[CORE])
