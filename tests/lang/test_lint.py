"""``al0 check``'s warnings: goals that never or always hold, found without
searching, and advice no rule reaches; none for the bundled tables."""

from __future__ import annotations

from pathlib import Path

import pytest

from al0.bundled import bundled_tables
from al0.lang import load_table, parse_table, table_warnings

DRAFT = (Path(__file__).parents[2] / "docs" / "my_kqk.yaml").read_text(encoding="utf-8")
APPROACH = "area <= root.area and dist(K, k) < root.dist(K, k) and not en_prise(Q) and not stalemate"


def warnings_for(text: str, tmp_path: Path) -> list[str]:
    return [str(warning) for warning in table_warnings(parse_table(text, "t.yaml", tmp_path))]


@pytest.mark.parametrize(
    ("goal", "expected"),
    [
        (
            "dist(K, k) < root.dist(K, K)",
            "dist(K, K) is the distance from K to itself, always 0: did you mean dist(K, k)?",
        ),
        ("mdist(Q, Q) < 2", "mdist(Q, Q) is the distance from Q to itself, always 0"),
        ("critical_mdist(K, K, k) < 3", "critical_mdist(K, K, k) names K twice"),
        (
            "room(K) < root.room(K)",
            "room(K) measures our own king, but room is meant for theirs (room or room(k))",
        ),
        ("area < area", "area < area compares a term with itself: it never holds"),
        ("area <= area", "area <= area compares a term with itself: it always holds"),
        ("area + 1 > area", "area + 1 > area compares a term with itself: it always holds"),
        ("dist(K, k) + area < area + dist(K, k)", "compares a term with itself: it never holds"),
    ],
)
def test_a_goal_that_cannot_vary_is_warned_of_at_its_place(tmp_path, goal, expected):
    (found,) = warnings_for(DRAFT.replace(APPROACH, goal), tmp_path)
    assert found.startswith("t.yaml:23:18: warning: advice 'approach' better-goal: ")
    assert expected in found


@pytest.mark.parametrize(
    "goal",
    [
        "area < root.area",
        "room < root.room",
        "room(k) < 3",
        "area + area <= root.area",
        "dist(K, k) < dist(Q, k)",
    ],
)
def test_a_goal_that_varies_is_not_warned_of(tmp_path, goal):
    assert warnings_for(DRAFT.replace(APPROACH, goal), tmp_path) == []


def test_advice_no_rule_reaches(tmp_path):
    text = DRAFT.replace("then: [mate_in_1, squeeze, approach]", "then: [mate_in_1, squeeze]")
    assert warnings_for(text, tmp_path) == [
        "t.yaml:22:3: warning: advice 'approach' is never tried: no rule lists it"
    ]
    after_true = text.replace(
        "    then: [mate_in_1, squeeze]\n",
        "    then: [mate_in_1, squeeze]\n  - name: late\n    if: area < 3\n    then: [approach]\n",
    )
    assert warnings_for(after_true, tmp_path) == [
        "t.yaml:10:11: warning: rule 'late' is never reached: rule 'drive' before it always applies",
        "t.yaml:25:3: warning: advice 'approach' is never tried: only rules that never apply list it",
    ]


@pytest.mark.parametrize("path", bundled_tables(), ids=lambda path: path.stem)
def test_the_bundled_tables_have_no_warning(path):
    assert table_warnings(load_table(path)) == []


def test_a_goal_or_rule_written_false_is_warned_of(tmp_path):
    text = DRAFT.replace("    if: true\n", "    if: false\n").replace(
        "better-goal: mate\n", "better-goal: false\n"
    )
    assert warnings_for(text, tmp_path) == [
        "t.yaml:13:18: warning: advice 'mate_in_1' better-goal is false: the advice never holds",
        "t.yaml:7:11: warning: rule 'drive' never applies: its if: is false",
        "t.yaml:12:3: warning: advice 'mate_in_1' is never tried: only rules that never apply list it",
        "t.yaml:17:3: warning: advice 'squeeze' is never tried: only rules that never apply list it",
        "t.yaml:22:3: warning: advice 'approach' is never tried: only rules that never apply list it",
    ]
