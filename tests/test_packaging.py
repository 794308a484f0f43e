"""A normal (non-editable) install carries the bundled tables and libraries:
build the wheel, install it into a fresh virtual environment, and play the
bundled tables by name from a directory that is not the repository."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from al0.cli import cli
from al0.core import native
from conftest import PLUGIN_TABLES, ROOT

SHIPPED = (
    "al0",
    "library",
    "advice_tables",
    "docs",
    "research",
    "pyproject.toml",
    "setup.py",
    "README.md",
    "LICENSE",
    "MANIFEST.in",
)


def run(*command: str, cwd=None, env=None) -> str:
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def copy_source(tmp_path: Path) -> Path:
    """What a build reads, copied, so the checkout gets no build/ directory."""
    source = tmp_path / "source"
    source.mkdir()
    for name in SHIPPED:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(ROOT / name, source / name)
    return source


@pytest.mark.slow
def test_the_wheel_plays_bundled_tables_from_anywhere(tmp_path):
    source = copy_source(tmp_path)
    wheels = tmp_path / "wheels"
    run(
        sys.executable,
        "-m",
        "pip",
        "wheel",
        "--no-deps",
        "--no-build-isolation",
        "--quiet",
        "-w",
        str(wheels),
        str(source),
    )
    with zipfile.ZipFile(next(wheels.glob("al0-*.whl"))) as built:
        names = built.namelist()
        metadata = built.read("al0-0.1.0.dist-info/METADATA").decode()
    assert any(name.endswith("/LICENSE") and ".dist-info/" in name for name in names)
    if native() is not None:  # this install built the core: so does the wheel
        assert any(name.startswith("al0/core/_core.") for name in names), names
    for page in ("index.html", "app.js", "style.css"):  # al0 serve's page, no npm needed
        assert f"al0/serve/static/{page}" in names, names
    for field in ("License-Expression: MIT\n", "Author: the al0 authors\n", "Requires-Dist: platformdirs"):
        assert field in metadata, field
    # Installed into a folder of its own, run by this very interpreter: the
    # wheel's al0 comes first on the path and chess, yaml and click come from
    # wherever this interpreter finds them, inside a virtual environment or
    # not (a venv made with --system-site-packages from inside another venv
    # would see the base interpreter's packages, not the outer venv's).
    installed = tmp_path / "installed"
    wheel = next(wheels.glob("al0-*.whl"))
    run(
        sys.executable,
        "-m",
        "pip",
        "install",
        "--no-deps",
        "--no-index",
        "--quiet",
        "--target",
        str(installed),
        str(wheel),
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(installed)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    where = run(sys.executable, "-c", "import al0.bundled as b; print(b.ROOT)", cwd=elsewhere, env=env)
    assert where.strip().startswith(str(installed)), where
    page = run(
        sys.executable,
        "-c",
        "from al0.serve.server import static_file as f; "
        "print(b'/app.js' in f('index.html'), len(f('app.js')) > 0)",
        cwd=elsewhere,
        env=env,
    )
    assert page.strip() == "True True", page
    al0 = str(installed / "bin" / "al0")
    listed = run(al0, "tables", cwd=elsewhere, env=env)
    for name in ("krk ", "krk_bratko", "krk_std", "kqk "):
        assert name in listed, listed
    for table in ("krk", "kqk"):
        played = run(al0, "play", table, "--opponent", "random", "--no-board", cwd=elsewhere, env=env)
        assert "Game over: checkmate" in played, played


@pytest.mark.slow
def test_the_sdist_holds_every_file_the_readme_links_to(tmp_path):
    """A package index shows README.md without the repository around it;
    its links are relative, so the source distribution carries their files."""
    source = copy_source(tmp_path)
    out = tmp_path / "dist"
    run(sys.executable, "-c", f"import setuptools.build_meta as b; b.build_sdist({str(out)!r})", cwd=source)
    with tarfile.open(next(out.glob("al0-*.tar.gz"))) as built:
        names = {name.split("/", 1)[1] for name in built.getnames() if "/" in name}
    assert "LICENSE" in names
    # The native core builds from the sdist: every C source and header.
    for part in (ROOT / "al0" / "core").glob("*.[ch]"):
        assert f"al0/core/{part.name}" in names, part.name
    for document in ("README.md", *(str(p.relative_to(ROOT)) for p in (ROOT / "docs").glob("*.md"))):
        text = (ROOT / document).read_text()
        for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", text):
            linked = os.path.normpath(os.path.join(os.path.dirname(document), target))
            assert linked in names, f"{document} links to {target}, not in the sdist"


def test_tables_lists_bundled_tables_with_material_and_trust():
    result = CliRunner().invoke(cli, ["tables"])
    assert result.exit_code == 0, result.output
    listed = result.output.split("libraries:")[0].splitlines()[1:]
    lines = {line.split()[0]: line for line in listed}
    assert "KRK" in lines["krk_std"] and "no Python" in lines["krk_std"]
    assert "Python library krk" in lines["krk"]
    assert "KQK" in lines["kqk"] and "no Python" in lines["kqk"]


def test_check_says_what_a_table_runs_and_reads():
    std = CliRunner().invoke(cli, ["check", "krk_std"])
    assert std.exit_code == 0
    assert "this table runs no Python and starts no program" in std.output
    assert "reads:" not in std.output
    book = CliRunner().invoke(cli, ["check", str(PLUGIN_TABLES / "krk_holds.yaml")])
    assert book.exit_code == 0
    assert (
        f"library: {ROOT / 'library' / 'krk.py'} — Python: loading the table imported it "
        f"and ran its code, which can do anything you can; the table starts no program" in book.output
    )
    assert "reads: krk_some.epd — the start positions of its expect: claims" in book.output


def test_an_installed_package_offers_a_library_by_entry_point(tmp_path, monkeypatch):
    # A package as pip would leave it: a module and its dist-info naming it
    # in the al0.libraries group.
    (tmp_path / "kqk_extra.py").write_text(
        "from al0.lang.library import Library\n"
        "def queen_far(node, root):\n"
        "    '''Their king is far from our queen.'''\n"
        "    return True\n"
        "def library():\n"
        "    return Library('kqk_extra', predicates={'queen_far': queen_far})\n"
    )
    info = tmp_path / "kqk_extra-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: kqk-extra\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[al0.libraries]\nkqk_extra = kqk_extra\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    table = tmp_path / "t.yaml"
    table.write_text(
        (ROOT / "advice_tables" / "kqk.yaml")
        .read_text()
        .replace("material: KQK", "material: KQK\nlibrary: kqk_extra")
        .replace("if: true", "if: queen_far")
    )
    result = CliRunner().invoke(cli, ["check", str(table)])
    assert result.exit_code == 0, result.output
    assert f"library: {tmp_path / 'kqk_extra.py'} — Python" in result.output
    assert "queen_far: Their king is far from our queen." in result.output


@pytest.mark.parametrize(
    "path, cwd, kept",
    [
        (["", "/lib"], "/anywhere", ["/lib"]),  # python -m, as some Pythons write it
        (["{cwd}", "/lib"], "{cwd}", ["/lib"]),  # python -m, as 3.11 writes it
        (["/venv/bin", "/lib"], "{cwd}", ["/venv/bin", "/lib"]),  # the al0 script's folder
        ([], "{cwd}", []),
    ],
)
def test_python_m_al0_takes_the_working_folder_off_the_path(path, cwd, kept, tmp_path, monkeypatch):
    from al0.__main__ import drop_working_folder

    monkeypatch.chdir(tmp_path if cwd == "{cwd}" else "/")
    given = [str(tmp_path) if entry == "{cwd}" else entry for entry in path]
    drop_working_folder(given)
    assert given == kept


@pytest.mark.slow
def test_a_click_or_numpy_module_in_the_working_folder_is_not_imported(tmp_path):
    # `python -m al0` in a stranger's folder of tables imported its click.py.
    for name in ("click", "numpy", "yaml", "chess"):
        (tmp_path / f"{name}.py").write_text(f'raise SystemExit("the folder\'s {name}.py")\n')
    commands = [[sys.executable, "-m", "al0", "tables"]]
    script = Path(sys.executable).parent / "al0"
    if script.exists():
        commands.append([str(script), "tables"])
    for command in commands:
        done = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0 and "folder's" not in done.stderr, (command, done.stderr)
        assert done.stdout.startswith("tables:")
