"""Loading advice tables: the book's table in full, and one broken table per
kind of error, each raising its exact class at its ``file:line:col``."""

from __future__ import annotations

import os
import re
from pathlib import Path

import chess
import pytest

from al0.errors import LibraryError, TableSyntaxError, UnknownNameError
from al0.lang.loader import load_table, parse_table
from al0.lang.model import Alternative, And, Call, Const, DepthRange, MoveConstraint, Not, Or, Pred
from al0.lang.yaml_reader import compose
from conftest import BROKEN_TABLES, ROOT, TEST_TABLES

BRATKO = ROOT / "advice_tables" / "krk_bratko.yaml"
BROKEN = BROKEN_TABLES


# ------------------------------------------------------- the book's table


@pytest.fixture(scope="module")
def table():
    return load_table(BRATKO)


def test_book_table_header(table):
    assert table.name == "krk_bratko"
    assert table.material.name == "KRK"
    assert table.us == chess.WHITE
    assert table.start_fen == "8/8/4R3/8/3K4/8/2k5/8 w - - 0 1"
    assert table.path == str(BRATKO)


def test_descriptions_are_kept_on_one_line_and_merged_with_yaml_anchors(tmp_path):
    table = load_table(BRATKO)
    assert table.advice["squeeze"].description.startswith("Squeeze: shrink the box")
    assert table.rules[0].description.startswith("Their king is on the edge")
    assert table.describe_advice("squeeze") == table.advice["squeeze"].description
    kbbk = load_table("kbbk")
    # tempo_3 merges tempo_2's goals (<<: *tempo) and keeps its own words.
    assert kbbk.advice["tempo_3"].description.startswith("Make progress in three moves")
    path = tmp_path / "t.yaml"
    path.write_text(
        (ROOT / "advice_tables" / "krk_std.yaml")
        .read_text()
        .replace(
            '    description: "Squeeze: shrink the box',
            "    description: >-\n      Squeeze -\n      shrink the box",
        )
        .replace('the rook kept safe."', "the rook kept safe.")
    )
    assert (
        load_table(path)
        .advice["squeeze"]
        .description.endswith("Squeeze - shrink the box the rook keeps their king in, the rook kept safe.")
    )
    # A table without words falls back on the identifier.
    plain = load_table(TEST_TABLES / "krk_room_in_2.yaml")
    name = next(iter(plain.advice))
    assert plain.describe_advice(name) in (name, plain.advice[name].description)


KQK = (ROOT / "advice_tables" / "kqk.yaml").read_text()
MATE_WORDS = 'description: "Mate in one with the queen."'


@pytest.mark.parametrize(
    "old, new, fragment",
    [
        (MATE_WORDS, r'description: "\e[31mred\e[0m"', r"description has a control character ('\x1b')"),
        (MATE_WORDS, r'description: "a\0b"', r"description has a control character ('\x00')"),
        (MATE_WORDS, r'description: "a\x07"', r"description has a control character ('\x07')"),
        ("name: kqk", r'name: "kqk\n[Result \"1-0\"]"', r"name has a line break ('\n')"),
        ("name: kqk", r'name: "kqk\u2028x"', "name has a line break"),
        ("name: kqk", r'name: "kqk\tx"', r"name has a control character ('\t')"),
        ("  - name: rescue", r'  - name: "res\rcue"', "a rule's name has a line break"),
        ("material: KQK", r'material: "KQK\0"', "material has a control character"),
        (MATE_WORDS, "description: [a, b]", "description must be a single value, not a list"),
        (MATE_WORDS, 'description: " "', "description is empty"),
    ],
)
def test_a_tables_words_with_control_characters_are_an_error_at_the_value(old, new, fragment, tmp_path):
    text = KQK.replace(old, new, 1)
    assert text != KQK
    with pytest.raises(TableSyntaxError, match=r"^t\.yaml:\d+:\d+: ") as error:
        parse_table(text, "t.yaml", tmp_path)
    assert fragment in str(error.value) and "\n" not in str(error.value)


@pytest.mark.parametrize(
    "new, words",
    [
        ("description: 42", "42"),
        (r'description: "tab\there,\nline"', "tab here, line"),
        ("description: |\n      one\n      two", "one two"),
        (r'description: "\u202eevil"', "\u202eevil"),
        ("description: " + "x" * 1_000_000, "x" * 1_000_000),
    ],
)
def test_a_description_reads_as_words_on_one_line(new, words, tmp_path):
    table = parse_table(KQK.replace(MATE_WORDS, new, 1), "t.yaml", tmp_path)
    assert table.advice["mate_in_1"].description == words


def test_the_tables_own_description_is_one_line_too(tmp_path):
    text = KQK.replace(
        "description: King and Queen vs King", "description: |\n  King and\n  Queen vs King", 1
    )
    assert parse_table(text, "t.yaml", tmp_path).description.startswith("King and Queen vs King")


def test_book_table_rules_in_order(table):
    assert [rule.name for rule in table.rules] == ["edge_rule", "else_rule"]
    edge, other = table.rules
    assert edge.precondition == And((Pred(Call("their_king_edge")), Pred(Call("kings_close"))))
    assert edge.advice == ("mate_in_2", "squeeze", "approach", "keeproom", "divide_in_2", "divide_in_3")
    assert other.precondition == Const(True)
    assert other.advice == ("squeeze", "approach", "keeproom", "divide_in_2", "divide_in_3")
    # Rules remember where their name stands, for messages.
    lines = BRATKO.read_text().splitlines()
    line = next(n for n, text in enumerate(lines, 1) if "name: edge_rule" in text)
    assert (edge.location.line, edge.location.column) == (line, lines[line - 1].index("edge") + 1)


def test_book_table_advice(table):
    assert list(table.advice) == [
        "mate_in_2",
        "squeeze",
        "approach",
        "keeproom",
        "divide_in_2",
        "divide_in_3",
    ]
    assert all(name == advice.name for name, advice in table.advice.items())


def test_mate_in_2_constraints_by_depth(table):
    mate_in_2 = table.advice["mate_in_2"]
    assert mate_in_2.better_goal == Pred(Call("mate"))
    assert mate_in_2.holding_goal == And((Not(Pred(Call("rooklost"))), Pred(Call("their_king_edge"))))
    assert mate_in_2.us_moves == MoveConstraint(
        (Alternative(DepthRange(0, 1), (Call("legal"),)), Alternative(DepthRange(2, 3), (Call("checkmove"),)))
    )
    assert mate_in_2.them_moves == MoveConstraint((Alternative(DepthRange(1, 2), (Call("legal"),)),))
    assert mate_in_2.us_moves.horizon() == 3


@pytest.mark.parametrize(
    "name, us, them",
    [
        ("squeeze", (DepthRange(0, 1), ("rookmove",)), (DepthRange(), ("nomove",))),
        ("approach", (DepthRange(0, 1), ("kingdiagfirst",)), (DepthRange(), ("nomove",))),
        ("keeproom", (DepthRange(0, 1), ("kingdiagfirst",)), (DepthRange(), ("nomove",))),
        ("divide_in_2", (DepthRange(0, 3), ("legal",)), (DepthRange(0, 2), ("legal",))),
        ("divide_in_3", (DepthRange(0, 5), ("legal",)), (DepthRange(0, 4), ("legal",))),
    ],
)
def test_other_constraints(table, name, us, them):
    advice = table.advice[name]
    for constraint, (depths, generators) in ((advice.us_moves, us), (advice.them_moves, them)):
        assert constraint == MoveConstraint((Alternative(depths, tuple(map(Call, generators))),))


def test_folded_goal_keeps_precedence(table):
    approach = table.advice["approach"].better_goal
    assert approach == And(
        (
            Pred(Call("okapproachedcsquare")),
            Not(Pred(Call("rookexposed"))),
            Not(Pred(Call("stalemate"))),
            Or((Pred(Call("rookdivides")), Pred(Call("lpatt")))),
            Or((Pred(Call("roomgt2")), Not(Pred(Call("our_king_edge"))))),
        )
    )


def test_every_name_is_resolved(table):
    assert set(table.predicates_used()) <= set(table.library.predicates)
    assert set(table.generators_used()) <= set(table.library.generators)
    assert "okedge" not in table.predicates_used()  # the misprint is not kept


# ------------------------------------------------------- broken tables

# (file, exception class, "line:col", fragment of the message)
CASES = [
    ("bad_yaml.yaml", TableSyntaxError, "8:11", "the '[' opened here is not closed with ']'"),
    ("empty.yaml", TableSyntaxError, "1:1", "the table is empty"),
    ("missing_key.yaml", TableSyntaxError, "11:5", "missing the key 'holding-goal'"),
    (
        "unknown_key.yaml",
        TableSyntaxError,
        "12:5",
        "unknown key 'holding_goal' in advice 'squeeze' (did you mean 'holding-goal'?)",
    ),
    ("duplicate_key.yaml", TableSyntaxError, "13:5", "duplicate key 'better-goal'"),
    (
        "unknown_predicate.yaml",
        UnknownNameError,
        "11:41",
        "unknown predicate 'rookexposd' (did you mean 'rookexposed'?)",
    ),
    (
        "unknown_predicate_folded.yaml",
        UnknownNameError,
        "14:27",
        "unknown predicate 'lpat' (did you mean 'lpatt'?)",
    ),
    (
        "unknown_generator.yaml",
        UnknownNameError,
        "13:31",
        "unknown move generator 'rookmoves' (did you mean 'rookmove'?)",
    ),
    (
        "generator_as_predicate.yaml",
        UnknownNameError,
        "12:36",
        "'checkmove' is a move generator, not a predicate",
    ),
    ("unknown_advice.yaml", UnknownNameError, "8:21", "unknown advice 'sqeeze' (did you mean 'squeeze'?)"),
    ("bad_depth_guard.yaml", TableSyntaxError, "13:18", "bad depth guard"),
    ("bad_depth_word.yaml", TableSyntaxError, "14:18", "bad depth guard"),
    ("bad_depth_char.yaml", TableSyntaxError, "13:20", "bad depth guard"),
    ("bad_goal.yaml", TableSyntaxError, "12:52", "expected ')', found 'end of expression'"),
    ("bad_multiple.yaml", TableSyntaxError, "10:29", "a number multiplies a feature from the left"),
    ("unbounded_moves.yaml", TableSyntaxError, "13:15", "allows moves at every depth"),
    ("missing_library.yaml", LibraryError, "4:10", "predicate library not found"),
    (
        "raising_library.yaml",
        LibraryError,
        "4:10",
        "library raised RuntimeError: this library is broken on purpose",
    ),
    ("no_library_function.yaml", LibraryError, "4:10", "must define library()"),
    ("bad_material.yaml", TableSyntaxError, "3:11", "material must look like KRK"),
    ("bad_start.yaml", TableSyntaxError, "5:8", "start is not a valid FEN"),
    # A start position the table cannot play is refused where it is written,
    # not when `al0 play` first sets it up.
    (
        "illegal_start.yaml",
        TableSyntaxError,
        "5:8",
        "start: illegal position '8/8/8/3k4/8/8/8/3QK3 w - - 0 1': opposite check",
    ),
    ("start_of_other_material.yaml", TableSyntaxError, "4:8", "has material KRK, but the table is for KQK"),
    ("start_with_castling.yaml", TableSyntaxError, "5:8", "without castling rights"),
    # Inputs that once gave tracebacks (Python's own limits), now located errors.
    ("superscript_depth.yaml", TableSyntaxError, "12:17", "bad depth guard"),
    ("huge_depth.yaml", TableSyntaxError, "12:24", "number too large"),
    ("huge_expect.yaml", TableSyntaxError, "15:14", "too large (at most 18 digits)"),
    ("bad_mean.yaml", TableSyntaxError, "18:17", "expect mean-moves must be a number >= 0"),
    ("empty_expect_list.yaml", TableSyntaxError, "14:9", "expect is an empty list"),
    # A table that holds (the weaker side's) claims what it keeps, not mates.
    ("lost_of_winning_table.yaml", TableSyntaxError, "15:3", "expect lost is a claim of a table that holds"),
    ("mates_of_holding_table.yaml", TableSyntaxError, "17:3", "expect mates-all is a claim about mates"),
    ("deep_parentheses.yaml", TableSyntaxError, "10:59", "nested more than 40 levels deep"),
    ("many_nots.yaml", TableSyntaxError, "10:178", "nested more than 40 levels deep"),
    ("deep_yaml.yaml", TableSyntaxError, "4:63", "collections nested more than 50 deep"),
    (
        "advice_description_list.yaml",
        TableSyntaxError,
        "10:18",
        "advice 'mate_in_1' description must be a single value, not a list",
    ),
    ("control_character.yaml", TableSyntaxError, "3:11", "bad YAML: character U+001B is not allowed"),
    ("long_library_name.yaml", LibraryError, "4:10", "no such library"),
    # YAML's merge key (`<<: *anchor`): only mappings, never one into itself,
    # and merged keys checked like written ones.
    ("merge_scalar.yaml", TableSyntaxError, "10:9", "'<<' in advice 'mate_in_1' must merge a mapping"),
    ("merge_self.yaml", TableSyntaxError, "9:14", "merges a mapping into itself"),
    ("merge_unknown_key.yaml", TableSyntaxError, "16:18", "unknown key 'depth' in advice 'mate_in_2'"),
    (
        "merge_bomb.yaml",
        TableSyntaxError,
        "20:17",
        "bad YAML: the table expands to more than 100,000 YAML nodes (aliases and '<<' merge "
        "keys repeat what they name)",
    ),
    # The standard vocabulary, bound to the material when the table loads.
    ("unknown_piece.yaml", UnknownNameError, "10:36", "KRK has no piece 'Q'"),
    ("bad_arguments.yaml", TableSyntaxError, "10:39", "takes 1 argument, not 2"),
    ("wrong_piece_kind.yaml", TableSyntaxError, "10:18", "room takes a king, not R"),
    (
        "their_piece_in_us_moves.yaml",
        TableSyntaxError,
        "12:19",
        "moves(k) moves their piece k, so it never gives a move on our turn",
    ),
    (
        "our_piece_in_them_moves.yaml",
        TableSyntaxError,
        "13:31",
        "moves(R) moves our piece R, so it never gives a move on their turn",
    ),
    ("bad_comparison.yaml", TableSyntaxError, "10:20", "a comparison needs a feature"),
    ("unknown_feature.yaml", UnknownNameError, "10:18", "unknown feature 'rom' (did you mean 'room'?)"),
    # A table starts no program and reads no file outside its folder.
    (
        "engine_defender.yaml",
        TableSyntaxError,
        "16:14",
        "a UCI engine's command comes only from whoever runs al0, never from a file: "
        "give it as al0 verify TABLE --defender uci:COMMAND, or pytest --al0-defender",
    ),
    (
        "positions_outside.yaml",
        TableSyntaxError,
        "16:14",
        "positions file '../positions/krk_corner.epd': a table reads positions only from "
        "files in its own folder",
    ),
    (
        "positions_absolute.yaml",
        TableSyntaxError,
        "16:14",
        "positions file '/etc/passwd': a table reads positions only from files in its own folder",
    ),
    # Planning in one orientation per symmetry class.
    ("bad_symmetric.yaml", TableSyntaxError, "4:12", "symmetric must be true or false"),
    (
        "symmetric_colour.yaml",
        TableSyntaxError,
        "6:12",
        "symmetric: true, but corner_dist(k, light) names a square colour",
    ),
]


@pytest.mark.parametrize("name, kind, where, fragment", CASES, ids=[case[0] for case in CASES])
def test_broken_table(name, kind, where, fragment):
    path = BROKEN / name
    with pytest.raises(kind) as caught:
        load_table(path)
    assert type(caught.value) is kind
    message = str(caught.value)
    assert message.startswith(f"{path}:{where}: "), message
    assert fragment in message


def test_every_broken_table_has_a_case():
    assert {path.name for path in BROKEN.glob("*.yaml")} == {case[0] for case in CASES}


def _table_reading(tmp_path: Path, positions: str) -> Path:
    """A copy of a library-free table whose claims are about ``positions``."""
    table = tmp_path / "claims.yaml"
    table.write_text((BROKEN / "positions_absolute.yaml").read_text().replace("/etc/passwd", positions))
    return table


@pytest.mark.parametrize("positions", ["some.epd", "sub/some.epd", "sub/../some.epd", "not/yet/written.epd"])
def test_a_table_may_name_positions_files_in_its_folder(tmp_path, positions):
    (tmp_path / "sub").mkdir()
    for name in ("some.epd", "sub/some.epd"):
        (tmp_path / name).write_text("8/8/8/8/8/8/1R6/k1K5 w - -\n")
    assert load_table(_table_reading(tmp_path, positions)).expect[0].positions.path == positions


@pytest.mark.parametrize(
    "make, message",
    [
        (
            lambda link: link.symlink_to("/etc/passwd"),
            "a table reads positions only from files in its own folder",
        ),
        (lambda link: link.symlink_to(link.parent.parent), "a table reads positions only"),
        (lambda link: os.mkfifo(link), "not a regular file"),  # reading it would block
        (lambda link: link.mkdir(), "not a regular file"),
    ],
)
def test_a_positions_file_escaping_the_folder_or_not_a_file_is_refused(tmp_path, make, message):
    folder = tmp_path / "tables"
    folder.mkdir()
    make(folder / "link.epd")
    with pytest.raises(TableSyntaxError) as caught:
        load_table(_table_reading(folder, "link.epd"))
    assert str(caught.value).startswith(
        f"{folder / 'claims.yaml'}:16:14: positions file 'link.epd': {message}"
    )
    assert "root:" not in str(caught.value)  # no line of the file it points to


@pytest.mark.parametrize("double", ["{<<: [*a, *a]}", "[*a, *a]", "{x: *a, y: *a}"])
def test_aliases_that_double_at_each_level_are_refused_at_the_bound(double):
    # Reading expands every alias: 60 levels would be 2**60 nodes.
    lines = ["name: doubling", "material: KRK", "a0: &a0 {x: 1}"]
    lines += [f"a{i}: &a{i} " + double.replace("*a", f"*a{i - 1}") for i in range(1, 61)]
    with pytest.raises(
        TableSyntaxError,
        match=r"^doubling.yaml:\d+:\d+: bad YAML: the table "
        r"expands to more than 100,000 YAML nodes",
    ):
        parse_table("\n".join(lines + ["<<: *a60"]), "doubling.yaml", Path("."))


def test_the_bundled_tables_are_far_below_the_bound():
    from al0.lang.yaml_reader import MAX_YAML_NODES, _Loader

    for path in (ROOT / "advice_tables").glob("*.yaml"):
        loader = _Loader(path.read_text())
        loader.get_single_node()
        assert 0 < loader.expanded < MAX_YAML_NODES // 100, path


def test_missing_table_file(tmp_path):
    with pytest.raises(TableSyntaxError, match=re.escape(f"{tmp_path / 'nope.yaml'}: cannot read")):
        load_table(tmp_path / "nope.yaml")


# The column must point into the source text itself, however the value is
# written: quoted, on several plain lines, or in a literal block.
GOAL_LAYOUTS = [
    ('    better-goal: "rookdivides and bogus"\n', "9:35"),
    ("    better-goal: rookdivides\n      and bogus\n", "10:11"),
    ("    better-goal: |\n      rookdivides\n      and bogus\n", "11:11"),
    ("    better-goal: >  # a comment\n      rookdivides and\n        bogus\n", "11:9"),
]


@pytest.mark.parametrize("goal, where", GOAL_LAYOUTS, ids=["quoted", "plain", "literal", "folded"])
def test_location_inside_multiline_goals(goal, where):
    text = (
        "name: t\nmaterial: KRK\nlibrary: krk\nrules:\n"
        "  - {name: r, if: true, then: [a]}\nadvice:\n  a:\n"
        "    holding-goal: true\n" + goal + "    us-moves: {0: rookmove}\n    them-moves: nomove\n"
    )
    with pytest.raises(UnknownNameError, match=rf"^t\.yaml:{where}: unknown predicate 'bogus'"):
        parse_table(text, "t.yaml", ROOT / "advice_tables")


def test_a_goal_of_a_thousand_operands_loads_and_evaluates(tmp_path):
    # Folded into nested closures it overflowed Python's stack at plan time.
    from al0.lang.compile_goals import compile_goal
    from al0.lang.node import Node

    text = (
        (BROKEN / "unknown_feature.yaml")
        .read_text()
        .replace("rom < root.room", "true and " * 1200 + "room < 64")
    )
    table = parse_table(text, "long.yaml", BROKEN)
    goal = compile_goal(table.advice["squeeze"].better_goal, table.library)
    board = chess.Board("8/8/4R3/8/3K4/8/2k5/8 w - - 0 1")
    assert goal(Node(board, 0, chess.WHITE), Node(board, 0, chess.WHITE))


def test_a_table_by_bundled_name_and_without_a_library():
    table = load_table("krk_std")
    assert table.name == "krk_std" and table.library.path == ""
    assert load_table("krk").library.path.endswith("krk.py")


def test_merge_keys_share_advice_parts(tmp_path):
    # kqk.yaml with its mate searches' goals written once and merged in
    # (`<<: *mate_search`) loads as exactly the same advice and rules
    # (its preferences left out: the native tests plan it without them).
    merged = load_table(TEST_TABLES / "kqk_merged.yaml")
    text = (ROOT / "advice_tables" / "kqk.yaml").read_text(encoding="utf-8")
    (tmp_path / "kqk.yaml").write_text(re.sub(r"^    prefer: .*\n", "", text, flags=re.M), encoding="utf-8")
    bundled = load_table(tmp_path / "kqk.yaml")
    assert merged.advice == bundled.advice
    assert merged.rules == bundled.rules
    assert merged.advice["mate_in_3"].us_moves != merged.advice["mate_in_2"].us_moves


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("name: !!binary aGVsbG8=\n", "1:7: bad YAML: the tag '!!binary' is not read"),
        ("name: !!python/name:os.system\n", "1:7: bad YAML: the tag '!!python/name:os.system'"),
        ('name: !!python/object/apply:os.system ["ls"]\n', "1:7: bad YAML: the tag '!!python/object/apply"),
        ("name: !custom krk\n", "1:7: bad YAML: the tag '!custom' is not read"),
        ("rules: !!set {a, b}\n", "1:8: bad YAML: the tag '!!set' is not read"),
        ("name: !!str 5\nx: !!int 3\ny: !!seq [1]\nz: !!map {}\nw: ! k\n", None),
    ],
)
def test_a_tag_other_than_plain_texts_numbers_lists_and_mappings_is_refused(text, error):
    if error is None:
        assert compose(text, "t.yaml") is not None
    else:
        with pytest.raises(TableSyntaxError, match=re.escape(f"t.yaml:{error}")):
            compose(text, "t.yaml")
