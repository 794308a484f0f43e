"""The package and the KRK library type-check under ``mypy --strict``, the
house style's strict typing, so a loose type fails the suite like a bug."""

from __future__ import annotations

import os

import pytest
from mypy import api

from conftest import ROOT


@pytest.mark.slow
def test_package_is_strictly_typed():
    report, errors, status = api.run(
        ["--strict", "--cache-dir", os.devnull, str(ROOT / "al0"), str(ROOT / "library")]
    )
    assert status == 0, report + errors
