"""The README and docs point only at files the repository has, and the
tutorial's tables are the ones it says."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from al0.cli import cli
from al0.lang.loader import load_table
from conftest import ROOT

DOCUMENTS = [
    ROOT / "README.md",
    *sorted((ROOT / "docs").rglob("*.md")),
    *sorted((ROOT / "research").rglob("*.md")),
]
LINK = re.compile(r"\]\(([^)#\s]+)")


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: path.name)
def test_every_relative_link_resolves(document):
    text = document.read_text(encoding="utf-8")
    for target in LINK.findall(text):
        if "://" in target or target.startswith("mailto:"):
            continue
        assert (document.parent / target).exists(), f"{document.name} links to missing {target}"
    assert "AL0.md" not in text


AUTHORING = ROOT / "docs" / "authoring.md"
YAML_BLOCK = re.compile(r"```yaml\n(.*?)```", re.S)


def test_the_tutorials_drafts_load_and_its_second_is_the_bundled_kqk_table(tmp_path):
    """docs/authoring.md's first draft loads as printed (its verify output is
    in the tutorial), and its second draft plays exactly as the bundled
    kqk.yaml, whose verify run the suite checks, so the tutorial's final
    verify step cannot drift from what it prints."""
    first, second, _expect = YAML_BLOCK.findall(AUTHORING.read_text(encoding="utf-8"))
    (tmp_path / "first.yaml").write_text(first, encoding="utf-8")
    (tmp_path / "second.yaml").write_text(second, encoding="utf-8")
    assert load_table(tmp_path / "first.yaml").name == "my_kqk"
    # The copy beside the tutorial is the draft it prints.
    assert (ROOT / "docs" / "my_kqk.yaml").read_text(encoding="utf-8") == first
    draft, bundled = load_table(tmp_path / "second.yaml"), load_table(ROOT / "advice_tables" / "kqk.yaml")
    assert (draft.material, draft.rules, draft.advice) == (bundled.material, bundled.rules, bundled.advice)


def test_the_tutorials_typo_is_reported_as_it_shows(tmp_path, monkeypatch):
    """docs/authoring.md shows the error for `dist(K, q)` written for the
    first `dist(K, k)` of its first draft: al0 check prints that line."""
    text = AUTHORING.read_text(encoding="utf-8")
    shown = re.search(r"^Error: my_kqk\.yaml:.*$", text, re.M)
    assert shown is not None
    first = YAML_BLOCK.findall(text)[0]
    (tmp_path / "my_kqk.yaml").write_text(first.replace("dist(K, k)", "dist(K, q)", 1), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["check", "my_kqk.yaml"])
    assert result.exit_code == 2
    assert result.output.strip() == shown.group(0)
