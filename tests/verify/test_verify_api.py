"""al0.verify.verify, the one call for Python users and the pytest plugin:
the same games and verdicts as the command line, and bad input as one
located AL0Error."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import al0.verify
from al0.cli import cli
from al0.errors import AL0Error
from al0.lang.specs import PositionsSpec


@pytest.mark.parametrize("defender", ["tablebase", "worst"])
def test_verify_reports_what_the_command_line_reports(tmp_path, defender):
    report = al0.verify.verify("kqk", "sample:12", defender)
    assert (report.table, report.defender.name, report.positions.name) == ("kqk", defender, "sample:12")
    assert len(report.records) == report.total == 12 and not report.stopped
    out = tmp_path / "r.json"
    result = CliRunner().invoke(
        cli,
        [
            "verify",
            "kqk",
            "--positions",
            "sample:12",
            "--defender",
            defender,
            "--jobs",
            "1",
            "--json",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    cli_data = json.loads(out.read_text())
    api_data = json.loads(json.dumps(report.to_json()))
    for key in ("games", "endings", "moves_to_mate", "optimal", "failure_examples"):
        assert api_data[key] == cli_data[key], key


def test_a_sample_with_another_seed_is_named_so():
    report = al0.verify.verify("kqk", "sample:3", seed=4)
    assert report.positions == PositionsSpec.sample(3, seed=4)
    assert report.positions.name == "sample:3 (seed 4)"


@pytest.mark.parametrize(
    "args, message",
    [
        (("kqk", "sample:0"), "N in sample:N must be a whole number >= 1"),
        (("kqk", "all", "grandmaster"), "unknown defender 'grandmaster'"),
        (("no_such_table",), "no_such_table"),
    ],
)
def test_bad_input_is_one_located_error(args, message):
    with pytest.raises(AL0Error, match=message):
        al0.verify.verify(*args)
