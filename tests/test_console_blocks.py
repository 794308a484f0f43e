"""The docs' printed outputs are al0's: every ```console block of docs/*.md
is run and its output compared, so a tutorial cannot go stale.

A console block is one or more commands, each a line ``$ al0 ...``, each
followed by the output it prints (standard output and error, as a terminal
shows them). In the expected output a line ``…`` alone stands for any lines
(none included), and ``…`` within a line for any text in it; timings are
normalised (:data:`TIMINGS`), nothing else. The commands run in a fresh
folder holding the document's tables as it has shown them so far: a
```yaml block with a ``name:`` is saved as NAME.yaml (the tutorial's "save
this as my_kqk.yaml", and its second draft replacing the first), and a
```yaml block that starts with ``expect:`` is added to the end of the last.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass

import pytest
from click.testing import CliRunner

from al0.cli import cli
from conftest import ROOT

DOCUMENTS = sorted((ROOT / "docs").glob("*.md"))
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
TIMINGS = [
    (re.compile(r"\d+(?:\.\d+)? ms\b"), "N ms"),
    (re.compile(r"\d+(?:\.\d+)? plans/s\b"), "N plans/s"),
    (re.compile(r"wall time: \d+(?:\.\d+)? s\b"), "wall time: N s"),
]
"""What changes from run to run, and only that: times (a plan's ms, plans
per second, a run's wall time)."""
ANY = "…"


@dataclass(frozen=True)
class Example:
    document: str
    line: int
    """The line of the document where the command is."""
    command: str
    expected: str
    tables: tuple[tuple[str, str], ...]
    """The tables (file name, text) the document has shown by then."""


def examples() -> list[Example]:
    found = []
    for document in DOCUMENTS:
        text = document.read_text(encoding="utf-8")
        tables: dict[str, str] = {}
        last = ""
        for fence in FENCE.finditer(text):
            kind, body = fence.group(1), fence.group(2)
            if kind == "yaml" and (name := re.match(r"name: (\w+)\n", body)):
                last = f"{name.group(1)}.yaml"
                tables[last] = body
            elif kind == "yaml" and body.startswith("expect:") and last:
                tables[last] += body
            elif kind == "console":
                line = text.count("\n", 0, fence.start(2)) + 1
                found += commands(document.name, line, body, tuple(tables.items()))
    return found


def commands(document: str, line: int, body: str, tables: tuple[tuple[str, str], ...]) -> list[Example]:
    """The commands of one console block (its first line is one), each
    with the output after it; ``line`` is the block's first line."""
    assert body.startswith("$ al0 "), f"{document}:{line}: a console block starts with $ al0"
    found: list[tuple[int, str, list[str]]] = []
    for number, text in enumerate(body.splitlines(), line):
        if text.startswith("$ "):
            found.append((number, text[2:], []))
        else:
            found[-1][2].append(text + "\n")
    return [Example(document, number, command, "".join(output), tables) for number, command, output in found]


def normalised(text: str) -> str:
    for pattern, replacement in TIMINGS:
        text = pattern.sub(replacement, text)
    return text


def expected_pattern(expected: str) -> re.Pattern[str]:
    """The expected output as a pattern: ``…`` lines and ``…`` in a line
    match anything; the rest exactly, after :func:`normalised`."""
    parts = []
    for line in normalised(expected).splitlines():
        if line == ANY:
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            parts.append(".*?".join(re.escape(piece) for piece in line.split(ANY)) + "\n")
    return re.compile("".join(parts))


EXAMPLES = examples()


def test_the_tutorial_has_its_examples():
    assert sum(example.document == "authoring.md" for example in EXAMPLES) >= 8


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: f"{e.document}:{e.line}:{e.command.split()[1]}")
@pytest.mark.slow
def test_a_documented_command_prints_what_the_document_shows(example, tmp_path, monkeypatch):
    for name, text in example.tables:
        (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("AL0_DATA_DIR", str(tmp_path / "data"))  # practice's record: never the user's
    words = shlex.split(example.command)
    assert words[0] == "al0"
    result = CliRunner().invoke(cli, words[1:])
    shown = normalised(result.output)
    assert result.exit_code == 0, shown
    if not expected_pattern(example.expected).fullmatch(shown):
        pytest.fail(
            f"{example.document}:{example.line}: `{example.command}` now prints "
            f"(timings normalised):\n{shown}",
            pytrace=False,
        )


@pytest.mark.parametrize(
    "expected, output, matches",
    [
        ("a\nb\n", "a\nb\n", True),
        ("a\n", "a\nb\n", False),
        ("a\n…\nc\n", "a\nc\n", True),
        ("a\n…\nc\n", "a\nb\nb\nc\n", True),
        ("a\n…\nc\n", "a\nb\n", False),
        ("line: x … z\n", "line: x y y z\n", True),
        ("line: x … z\n", "line: x y\nz\n", False),
        ("in 0.82 ms\n", "in 210.4 ms\n", True),
        ("20 nodes in 0.82 ms\n", "9 nodes in 0.82 ms\n", False),
        ("wall time: 8.1 s\n", "wall time: 14 s\n", True),
    ],
)
def test_only_timings_and_ellipses_are_free(expected, output, matches):
    assert bool(expected_pattern(expected).fullmatch(normalised(output))) is matches
