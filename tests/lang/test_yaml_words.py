"""Every kind of YAML error in al0's words, at the place to mend: a key
indented wrong, a key without ':', a tab, a bracket or quote left open …
each read through the shared YAML reader, so every file al0 reads says the same."""

from __future__ import annotations

from pathlib import Path

import pytest

from al0.errors import TableSyntaxError
from al0.lang import parse_table

DRAFT = (Path(__file__).parents[2] / "docs" / "my_kqk.yaml").read_text(encoding="utf-8")
HOLDING = "    holding-goal: true\n    us-moves: {0: moves(Q)}\n"


@pytest.mark.parametrize(
    ("old", "new", "where", "words"),
    [
        (
            HOLDING,
            "    holding-goal: true\n      us-moves: {0: moves(Q)}\n",
            "15:7",
            "this key is indented further than the key above it",
        ),
        (
            HOLDING,
            "    holding-goal: true\n   us-moves: {0: moves(Q)}\n",
            "15:4",
            "indentation: this line is indented 3 spaces, which lines up with no key or item above it "
            "(line 14 is indented 4 spaces, the mapping begun at line 12 2 spaces)",
        ),
        (
            "  - name: drive\n    if: true",
            "  - name: drive\n   if: true",
            "8:4",
            "the list begun at line 7 2 spaces",
        ),
        (
            "  - name: drive\n    if: true",
            "  - name: drive\n  if: true",
            "8:3",
            "this key lines up with the '-' of the list item at line 7",
        ),
        (
            HOLDING,
            "\tholding-goal: true\n    us-moves: {0: moves(Q)}\n",
            "14:1",
            "a tab: YAML indents with spaces only",
        ),
        ("    holding-goal: true\n", "    holding-goal\n", "14:5", "a key needs ':' after it"),
        (
            "[mate_in_1, squeeze, approach]",
            "[mate_in_1, squeeze, approach",
            "9:11",
            "the '[' opened here is not closed with ']'",
        ),
        ("{0: moves(Q)}", "{0: moves(Q)", "15:15", "the '{' opened here is not closed with '}'"),
        ("name: my_kqk", "name: 'my_kqk", "1:7", "the quote opened here is never closed"),
        ("name: my_kqk", "name: *my_kqk", "1:7", "*my_kqk names no anchor &my_kqk above it"),
        ("name: my_kqk", 'name: "my\\qkqk"', "1:10", "'\\q' is no escape YAML knows"),
        ("name: my_kqk", "name: my: kqk", "1:9", "a value holds ': '"),
        ("name: my_kqk", "name: @my_kqk", "1:7", "'@' cannot begin a value in YAML"),
        ("name: my_kqk\n", "name: my_kqk\n---\n", "2:1", "a second YAML document ('---')"),
        (
            "material: KQK\n",
            "material: KQK\n- KQK\n",
            "4:1",
            "a list item where a key of the mapping begun at line 1",
        ),
    ],
)
def test_yaml_errors_in_al0_words(tmp_path, old, new, where, words):
    assert old in DRAFT
    with pytest.raises(TableSyntaxError) as caught:
        parse_table(DRAFT.replace(old, new, 1), "t.yaml", tmp_path)
    message = str(caught.value)
    assert message.startswith(f"t.yaml:{where}: "), message
    assert words in message, message
    assert "<block" not in message and "while parsing" not in message, message
