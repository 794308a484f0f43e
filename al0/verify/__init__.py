"""Verification: play a table from many start positions and report what it
achieves against the claims of its ``expect:`` block, in one process, a
process pool or on a Dask cluster; ``analysis`` says where the moves go.

``al0.verify.verify(table, positions=..., defender=..., jobs=...)`` is the
one call for Python users (see :mod:`al0.verify.api`).
"""

from al0.verify.api import Verification, verify

__all__ = ["Verification", "verify"]
