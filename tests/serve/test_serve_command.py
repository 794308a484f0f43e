"""The ``al0 serve`` command: it prints its address, serves, stops on Ctrl-C
with exit 130, refuses a broken table before serving, and warns of a
non-loopback host."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import urllib.request
from typing import Any

import pytest
from click.testing import CliRunner

from al0.cli import cli
from al0.cli.serve import _loopback


@pytest.mark.slow
def test_serve_prints_its_address_serves_and_ctrl_c_exits_130(tablebase_cache: Any) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "al0", "serve", "kqk", "--no-browser"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert line.startswith("al0 serves http://127.0.0.1:") and "Ctrl-C" in line, line
        url = line.split()[2]
        with urllib.request.urlopen(url + "api/tables", timeout=60) as answer:
            tables = json.loads(answer.read())
        assert tables["first"] == "kqk" and "krk" in tables["tables"]
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == 130, err
    assert "Traceback" not in err and err.endswith("Aborted!\n"), err


def test_serve_refuses_a_missing_table_before_serving(tmp_path: Any) -> None:
    result = CliRunner().invoke(cli, ["serve", str(tmp_path / "nope.yaml"), "--no-browser"])
    assert result.exit_code == 2 and "nope.yaml" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("host", ["", " "])
def test_serve_refuses_an_empty_host(host: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """It listened on every interface, its warning naming no host (a
    server made anyway fails the test rather than serving forever)."""

    def no_server(*args: Any) -> None:
        raise AssertionError("a server was made")

    monkeypatch.setattr("al0.cli.serve.Server", no_server)
    result = CliRunner().invoke(cli, ["serve", "krk", "--no-browser", "--host", host])
    assert result.exit_code == 2
    assert "an empty host listens on every interface: give 0.0.0.0" in result.output


@pytest.mark.parametrize(
    "host, loopback",
    [
        ("127.0.0.1", True),
        ("localhost", True),
        ("::1", True),
        ("127.0.0.2", True),
        ("0.0.0.0", False),
        ("192.168.1.5", False),
        ("example.org", False),
    ],
)
def test_only_loopback_hosts_go_without_a_warning(host: str, loopback: bool) -> None:
    assert _loopback(host) is loopback


def test_serve_refuses_a_bad_epd_before_serving(tmp_path: Any) -> None:
    epd = tmp_path / "positions.epd"
    epd.write_text("8/8/8/3k4/8/8/8/Q3K3 w - -\n8/8/8/3k4/8/8/8/R3K3 w - -\n")
    result = CliRunner().invoke(cli, ["serve", "kqk", "--epd", str(epd), "--no-browser"])
    assert result.exit_code == 2 and "positions.epd:2:" in result.output, result.output
    result = CliRunner().invoke(cli, ["serve", "--epd", str(epd), "--no-browser"])
    assert result.exit_code == 2 and "--epd needs a TABLE" in result.output, result.output


@pytest.mark.parametrize(
    "data, record, said",
    [
        ("data", "{not json", "cannot read the progress record"),
        ("data", '{"version": 1, "endings": []}', "not a progress record"),
        ("file/data", None, "progress record"),  # a folder under a regular file
    ],
)
def test_serve_refuses_a_progress_record_it_cannot_use(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch, data: str, record: str | None, said: str
) -> None:
    """Before serving, as al0 practice does: not an exercise lost later."""
    (tmp_path / "file").write_text("a regular file\n")
    monkeypatch.setenv("AL0_DATA_DIR", str(tmp_path / data))
    if record is not None:
        (tmp_path / data).mkdir()
        (tmp_path / data / "progress.json").write_text(record)
    result = CliRunner().invoke(cli, ["serve", "kqk", "--no-browser"])
    assert result.exit_code == 2 and said in result.output, result.output
    assert "serves" not in result.output


def test_serve_refuses_a_material_with_no_tablebase_before_serving() -> None:
    result = CliRunner().invoke(cli, ["serve", "KQRKR", "--no-browser"])
    assert result.exit_code == 2 and "unsupported material 'KQRKR'" in result.output, result.output
