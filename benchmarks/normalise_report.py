"""A verify report's JSON without what varies from run to run, and its md5.

Timings (``wall_seconds``, ``plan_ms``, ``plans_per_second``) differ on every
run and the plan count (``plans_searched``) with how the work was dealt to
processes; everything else — every game's outcome, the summaries, the
analysis, the expectations — must be the same whichever way the run went
(issue 27, target 5). Compare two runs by the md5 this prints::

    python benchmarks/normalise_report.py before.json after.json
"""

from __future__ import annotations

import argparse
import hashlib
import json
from typing import Any

VARYING = ("wall_seconds", "plan_ms", "plans_per_second", "plans_searched")
"""Top-level fields of a report that depend on the run, not the table."""


def normalised(report: dict[str, Any]) -> str:
    """``report`` without the :data:`VARYING` fields, as canonical JSON text."""
    kept = {key: value for key, value in report.items() if key not in VARYING}
    return json.dumps(kept, sort_keys=True, indent=1)


def digest(path: str) -> str:
    """The md5 of the normalised report in the file at ``path``."""
    with open(path, encoding="utf-8") as file:
        return hashlib.md5(normalised(json.load(file)).encode()).hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("reports", nargs="+", help="verify --json files")
    for path in parser.parse_args().reports:
        print(f"{digest(path)}  {path}")


if __name__ == "__main__":
    main()
