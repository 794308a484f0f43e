"""al0.progress (``al0 progress``): its numpy min-max over the tablebase's
index gives, position by position, the depth at which al0's own forcing-tree
search finds the same forced progress (tests/data/tables/krk_room_in_2.yaml);
terms and conditions read as a table's, with located errors."""

from __future__ import annotations

import io
import json
import os
import random
import re

import chess
import numpy as np
import pytest
from click.testing import CliRunner

from al0.cli import cli
from al0.engine.plan import Planner
from al0.errors import AL0Error, TableSyntaxError
from al0.lang.loader import load_table
from al0.progress import Options, warnings
from al0.progress.columns import MATE, MEMO_FORMAT, Terms, parse_term
from al0.progress.minmax import closure, depths
from al0.progress.walk import Walker
from al0.tablebase import load, parse_material
from al0.tablebase.graph import MoveGraph
from conftest import TEST_TABLES


@pytest.fixture(scope="module")
def graph() -> MoveGraph:
    """KRK's move graph, built once for the module's tests."""
    return MoveGraph(load("KRK"))


@pytest.fixture(scope="module")
def terms(graph) -> Terms:
    """KRK's features and conditions over the graph."""
    return Terms(graph)


def assert_depths_are_the_plans(graph, found, table):
    """On 150 seeded KRK classes, ``found`` (the lab's depths) is the depth
    of the advice ``table`` (in tests/data/tables) plans with
    (room_in_1, room_in_2, or none: 0), and every depth occurs."""
    planner = Planner(load_table(str(TEST_TABLES / table)))
    classes = graph.table.positions(chess.WHITE, stronger=chess.WHITE, won=True)
    seen = set()
    for position in random.Random(3).sample(classes, 150):
        board = position.board()
        plan = planner.plan(board)
        expected = {None: 0, "room_in_1": 1, "room_in_2": 2}[plan.advice]
        assert found[graph.index(board)] == expected, board.fen()
        seen.add(expected)
    assert seen == {0, 1, 2}


def test_depths_agree_with_the_forcing_tree_search(graph, terms):
    potential = terms.potential(["room"])
    found = depths(graph, potential, 2)
    assert_depths_are_the_plans(graph, found, "krk_room_in_2.yaml")


def test_a_lexicographic_potential_compares_its_terms_in_order(graph, terms):
    # Rook a8, their king h6: room 49 (files b-h, ranks 1-7); the critical
    # square is b7, 8 steps (files plus ranks) from our king d1 and 7 from
    # d2. Rook a4 instead: room 28 (ranks 5-8), critical square b5, 10
    # steps from our king h1. Room is compared first.
    potential = terms.potential(["room", "critical_mdist(K, R, k)"])
    start = graph.index(chess.Board("R7/8/7k/8/8/8/8/3K4 w - - 0 1"))
    closer = graph.index(chess.Board("R7/8/7k/8/8/8/3K4/8 w - - 0 1"))
    smaller_room = graph.index(chess.Board("8/8/7k/8/R7/8/8/7K w - - 0 1"))
    assert potential[closer] < potential[start]
    assert potential[smaller_room] < potential[closer]


def test_a_holding_condition_agrees_with_the_forcing_tree_search(graph, terms):
    # The same progress with a holding-goal: dist(K, k) <= 3 after every
    # move on the way (the lab does not read it at the start position, the
    # table says so by depth = 0).
    potential = terms.potential(["room"])
    found = depths(graph, potential, 2, hold=terms.holds("dist(K, k) <= 3"))
    assert_depths_are_the_plans(graph, found, "krk_room_in_2_held.yaml")
    assert (found > 0).sum() < (depths(graph, potential, 2) > 0).sum()


@pytest.mark.parametrize(
    "call, message",
    [
        (
            lambda t: t.holds("nonesuch(k) < 3"),
            r"^--hold 'nonesuch\(k\) < 3':1: unknown feature 'nonesuch\(k\)'",
        ),
        (lambda t: t.where("dist(K, k) <<< 3"), r"^--pre 'dist\(K, k\) <<< 3':13: expected a number"),
        (
            lambda t: t.where("dist(K, q) < 3", "--target"),
            r"^--target 'dist\(K, q\) < 3':1: dist: KRK has no piece 'q'",
        ),
        (
            lambda t: t.potential(["room", "room + 2*nonesuch(k)"]),
            r"^term 2 'room \+ 2\*nonesuch\(k\)':8: 'nonesuch\(k\)' is not a feature",
        ),
        (
            lambda t: t.potential(["room + *"]),
            r"^term 1 'room \+ \*':8: expected \[N\*\]feature, found '\*'$",
        ),
        (lambda t: t.potential(["dist(K, q)"]), r"^term 1 'dist\(K, q\)':1: dist: KRK has no piece 'q'"),
        (
            lambda t: t.potential(["[dist(K, k) < ]"]),
            r"^term 1 '\[dist\(K, k\) < \]':1 'dist\(K, k\) < ':\d+: expected a number",
        ),
        # An unclosed bracket dropped its part: the term was 0 everywhere.
        (
            lambda t: t.potential(["room + edge_dist(k"]),
            r"^term 1 'room \+ edge_dist\(k':8: a '\(' or '\[' is never closed$",
        ),
        (lambda t: t.potential(["room)"]), r"^term 1 'room\)':5: '\)' closes nothing$"),
        (lambda t: t.potential(["[ ]"]), r"^term 1 '\[ \]':1: an empty condition: give a goal expression$"),
        # A weight past int64 was a traceback; one within it, a sum that wrapped.
        (lambda t: t.potential(["9" * 21 + "*room"]), r"^term 1 '9+\*room':1: a weight is too large"),
        (
            lambda t: t.potential(["room + 1000001*room"]),
            r"^term 1 .*:8: a weight must be a whole number from 1 to 1000000, not 1000001$",
        ),
        (
            lambda t: t.potential(["1000000*room"] * 4),
            r"^the terms take \d+ × \d+ × \d+ × \d+ values together, too many",
        ),
    ],
)
@pytest.mark.slow
def test_a_bad_term_or_condition_is_a_located_error(terms, call, message):
    with pytest.raises(TableSyntaxError, match=message):
        call(terms)


@pytest.mark.parametrize(
    "term, parts",
    [
        ("room", [(1, "room", 0)]),
        ("  2 *room", [(2, "room", 2)]),
        ("3*corner_dist(k, B) + edge_dist(k)", [(3, "corner_dist(k, B)", 0), (1, "edge_dist(k)", 22)]),
        ("[not edge(k) + 1] + 2 * area(k)", [(1, "[not edge(k) + 1]", 0), (2, "area(k)", 20)]),
        # The sums al0 fit prints: a part after a minus weighs against.
        ("- dist(K, k) + 4*mobility(k)", [(-1, "dist(K, k)", 2), (4, "mobility(k)", 15)]),
        (
            "room - 2*dist(K, k) - [dist(K, k) - 1 < 2]",
            [(1, "room", 0), (-2, "dist(K, k)", 7), (-1, "[dist(K, k) - 1 < 2]", 22)],
        ),
    ],
)
def test_a_term_is_a_weighted_sum_of_features(term, parts):
    assert parse_term(term) == parts


@pytest.mark.parametrize(
    "options, expected",
    [
        ({"terms": ("room", "critical_mdist(K, R, k)")}, []),
        (
            {"terms": ("dist(K, K)",)},
            [
                "term 1 'dist(K, K)':1: dist(K, K) is the distance from K to itself, always 0: did you mean dist(K, k)?"
            ],
        ),
        (
            {"terms": ("room", "2*room(K) + [mdist(R, R) > 1]")},
            [
                "term 2 '2*room(K) + [mdist(R, R) > 1]':1: room(K) measures our own king, but room is "
                "meant for theirs (room or room(k))",
                "term 2 '2*room(K) + [mdist(R, R) > 1]':13: mdist(R, R) is the distance from R to itself, always 0",
            ],
        ),
        (
            {"terms": ("room",), "pre": "area <= area", "prefer": ("dist(k, k)",)},
            [
                "--prefer term 1 'dist(k, k)':1: dist(k, k) is the distance from k to itself, always 0: "
                "did you mean dist(k, K)?",
                "--pre 'area <= area': area <= area compares a term with itself: it always holds "
                "(where its pieces are on the board)",
            ],
        ),
        ({"terms": ("room",), "hold": "dist(K, k) > 0", "drive": ("edge_dist(K)",)}, []),
    ],
)
def test_terms_and_conditions_are_linted_as_a_table_is_before_the_run(options, expected):
    # al0 progress KRK 'dist(K, K)' measured a minute and said nothing:
    # the table lint's warnings, on the words that would be computed.
    assert warnings(Options(parse_material("KRK"), **options)) == expected
    with pytest.raises(AL0Error, match="pawnless"):  # the material's error alone, no warning first
        warnings(Options(parse_material("KPK"), **options))


def room_closure(graph, terms):
    """KRK's room, then our king's steps to the critical square, within two
    moves: the potential, its closure (the won positions from which each
    fall can land where it can fall again) and the depths and replies that
    count only the closure."""
    potential = terms.potential(["room", "critical_mdist(K, R, k)"])
    kept, found, replies = closure(graph, potential, 2, graph.won)
    return potential, kept, found, replies


@pytest.mark.slow
def test_the_closure_walk_mates_every_start_inside_the_closure(graph, terms):
    # KRK's room, then our king's steps to the critical square, within two
    # moves: kept inside its closure (each fall lands where it can fall
    # again) the value falls at every plan, so every start inside mates; the
    # walk by the first move that forces a fall leaves the closure, and each
    # such plan is described with a move that would have kept it.
    potential, kept, found, replies = room_closure(graph, terms)
    classes = graph.table.positions(chess.WHITE, stronger=chess.WHITE, won=True)
    boards = [c.board() for c in random.Random(0).sample(classes, 40)]
    inside = [board for board in boards if kept[graph.index(board)]]
    assert len(inside) > 30
    walked = Walker(graph).walk(potential, found, replies, inside, kept)
    assert walked.mated == len(inside)
    first_replies: list = []
    first = depths(graph, potential, 2, replies=first_replies)
    walked = Walker(graph, greedy=True).walk(
        potential, first, first_replies, boards, None, kept, (found, replies)
    )
    assert walked.mated < len(boards)
    assert walked.exits and all("keeps the closure: " in line and "(in " in line for line in walked.exits)


@pytest.mark.slow
def test_the_fastest_walk_keeps_the_progress_and_beats_the_first_move(graph, terms):
    # Among the moves that keep the fall forced, the one the tablebase rates
    # best: still every start inside the closure mates, and in fewer moves
    # than by the first such move, none of them under the optimum.
    potential, kept, found, replies = room_closure(graph, terms)
    classes = graph.table.positions(chess.WHITE, stronger=chess.WHITE, won=True)
    inside = [b for b in (c.board() for c in random.Random(0).sample(classes, 40)) if kept[graph.index(b)]]
    first = Walker(graph).walk(potential, found, replies, inside, kept).text()
    fastest = Walker(graph, fastest=True).walk(potential, found, replies, inside, kept).text()
    pattern = rf"{len(inside)} of {len(inside)} mated in ([\d.]+) moves on average \(optimal ([\d.]+)\)$"
    first_mean, optimal = map(float, re.fullmatch(pattern, first).groups())
    fastest_mean, fastest_optimal = map(float, re.fullmatch(pattern, fastest).groups())
    assert fastest_optimal == optimal
    assert optimal <= fastest_mean < first_mean


def room_in_one_starts(graph, terms, seed, count):
    """KRK's room lowered within one move, at ``count`` seeded won starts:
    each start with the replies' values, the value to beat and the moves
    that force it lower (in move order)."""
    potential = terms.potential(["room(k)"])
    replies = []
    depths(graph, potential, 1, replies=replies)
    classes = graph.table.positions(chess.WHITE, stronger=chess.WHITE, won=True)
    for board in (c.board() for c in random.Random(seed).sample(classes, count)):
        target = potential[graph.index(board)]
        forcing = [m for m in board.legal_moves if Walker(graph)._forces(board, m, replies[0], target)]
        yield board, replies[0], target, forcing


def test_a_walk_avoiding_seen_positions_passes_over_them_while_another_move_forces(graph, terms):
    # At starts with several moves that force the room lower: once the
    # first of them leads to a position the game has had, the walk that
    # avoids seen positions plays the next; when every one does, the first
    # all the same; the plain walk ignores the game.
    plain, avoiding = Walker(graph), Walker(graph, avoid_seen=True)
    checked = 0
    for board, reply, target, forcing in room_in_one_starts(graph, terms, 5, 200):
        if len(forcing) < 2:
            continue
        after = [Walker._after(board, m) for m in forcing]
        assert plain._choose(board, reply, target, {after[0]}) == forcing[0]
        assert avoiding._choose(board, reply, target, {after[0]}) == forcing[1]
        assert avoiding._choose(board, reply, target, set(after)) == forcing[0]
        checked += 1
    assert checked >= 20


def test_a_preferring_walk_plays_the_forcing_move_whose_worst_reply_leaves_least(graph, terms):
    # Preferring our king near theirs: of the moves that force the room
    # lower, one whose worst reply leaves the kings closest (the first such
    # in move order), which is not always the plain walk's first.
    near = terms.potential(["dist(K, k)"])
    plain, preferring = Walker(graph), Walker(graph, prefer=near)
    differ = 0
    for board, reply, target, forcing in room_in_one_starts(graph, terms, 6, 100):
        if not forcing:
            continue
        worst = [preferring._worst_reply(board, m, near) for m in forcing]
        chosen = preferring._choose(board, reply, target, set())
        assert chosen == forcing[worst.index(min(worst))]
        differ += chosen != plain._choose(board, reply, target, set())
    assert differ >= 5


def test_a_condition_term_leads_a_lexicographic_potential(graph, terms):
    # [EXPR] counts 1 where the condition holds at the position (us to
    # move), 0 elsewhere: kings two steps apart outrank any room.
    potential = terms.potential(["[dist(K, k) <= 2]", "room"])
    near = graph.index(chess.Board("8/8/8/8/8/2k5/8/R1K5 w - - 0 1"))
    far = graph.index(chess.Board("R7/8/7k/8/8/8/8/3K4 w - - 0 1"))
    where = terms.where("dist(K, k) <= 2")
    assert where[near] and not where[far]
    assert potential[far] < potential[near]


def test_a_target_is_a_fall_of_every_value(graph, terms):
    # With the target counted below every value (as --target does), a
    # position one move from it (kings two steps apart) falls in one move
    # where room alone would not.
    room = terms.potential(["room"])
    target = terms.where("dist(K, k) <= 2")
    found = depths(graph, room, 1)
    with_target = depths(graph, np.where(target, MATE, room), 1)
    outside = np.zeros(graph.size, dtype=bool)
    outside[graph.roots] = ~target[graph.roots]
    assert ((with_target > 0) >= (found > 0))[outside].all()
    assert (with_target > 0)[outside].sum() > (found > 0)[outside].sum()


@pytest.mark.slow
def test_the_command_measures_a_krk_potential_and_walks_it():
    # The numbers docs/progress.md shows: room, then our king's steps to
    # the critical square, within two moves, on KRK's 21,959 won positions.
    result = CliRunner().invoke(
        cli,
        [
            "progress",
            "krk",
            "room(k)",
            "critical_mdist(K, R, k)",
            "--depth",
            "2",
            "--closure",
            "--walk",
            "20",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["material"] == "KRK" and data["won"] == 21959
    assert data["falls"] == {"1": 21527, "2": 29, "none": 403}
    assert data["closure"] == 20977
    walks = data["walks"]
    assert walks["progressing"]["games"] == walks["keeping_closure"]["games"] == 20
    assert walks["keeping_closure"]["mated"] > walks["progressing"]["mated"]
    text = CliRunner().invoke(cli, ["progress", "KRK", "room(k)", "--depth", "1"])
    assert text.exit_code == 0
    assert text.stdout.splitlines()[1].startswith("falls within d moves: 1: ")
    # A term may begin with a minus: it is a term, not an option.
    minus = CliRunner().invoke(cli, ["progress", "KRK", "-room(k)", "--depth", "1"])
    assert minus.exit_code == 0, minus.output
    assert "potential (-room(k))" in minus.stdout.splitlines()[0]


def test_the_failures_file_lists_the_positions_outside_the_closure(graph, terms, tmp_path):
    # KRK's room within one move: its closure is small, and every won
    # position outside it is in the file once, stuck where the room cannot
    # fall in one move, with its distance to mate.
    path = tmp_path / "outside.epd"
    result = CliRunner().invoke(
        cli, ["progress", "KRK", "room(k)", "--depth", "1", "--closure", "--failures", str(path), "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    potential = terms.potential(["room(k)"])
    kept, _, _ = closure(graph, potential, 1, graph.won)
    found = depths(graph, potential, 1)
    lines = path.read_text().splitlines()
    assert len(lines) == data["won"] - data["closure"] == int((graph.won & ~kept).sum())
    assert data["outside"]["stuck"] == int((graph.won & (found == 0)).sum())
    for line in random.Random(0).sample(lines, 50):
        board, operations = chess.Board.from_epd(line)
        index = graph.index(board)
        assert graph.won[index] and not kept[index]
        assert operations["c0"] == ("stuck" if found[index] == 0 else "leaves the closure")
        assert operations["dm"] == (graph.table.values[0][index] + 1) // 2


@pytest.mark.parametrize(
    "args, message",
    [
        (["KRKN", "room(k)", "--walk", "5"], "--walk: KRKN: walks play against a lone king"),
        (["KPPKP", "room(k)"], "Invalid value for 'MATERIAL': unsupported material 'KPPKP'"),
        (["KPK", "room(k)"], "KPK: the move graph is of pawnless endings"),
        (["KRK", "room(k) + nonesuch"], "term 1 'room(k) + nonesuch':11: 'nonesuch' is not a feature"),
        (["KRK", "room(k)", "--hold", "dist(K, k) <"], "--hold 'dist(K, k) <':13: expected a number"),
        (["KRK", "room(k)", "--stuck", "2"], "--stuck needs --hold"),
        (["KRK", "room(k)", "--drive", "room(k)"], "--drive needs --closure"),
        (["KRK", "room(k)", "--fastest"], "--fastest needs --walk N"),
        (["KRK", "room(k)", "--avoid-seen"], "--avoid-seen needs --walk N"),
        (["KRK", "room(k)", "--prefer", "dist(K, k)"], "--prefer needs --walk N"),
        (["KRK", "room(k)", "--failures", "out.epd"], "--failures needs --closure"),
        (["KRK", "room(k)", "--pre", " "], "--pre is empty: give a goal expression"),
        (["KRK", "room(k)", "--memo", ""], "--memo '' is not a folder"),
        (["KRK", "room(k)", "--memo", "/dev/null"], "--memo '/dev/null' is not a folder"),
        (["KRK", "room(k)", "--depth", "0"], "Invalid value for '--depth'"),
        (["KRK", "room(k)", "--dept", "1"], "No such option '--dept'"),
        (["KRK", "room(k)", "--depth=1", "--clo"], "No such option '--clo'"),
        (
            ["KRK", "room(k)", "--pre", "dist(K, k) = 0"],
            "--pre 'dist(K, k) = 0': holds at none of the 21,959 won",
        ),
    ],
)
def test_the_command_refuses_bad_input_in_one_line(args, message):
    result = CliRunner().invoke(cli, ["progress", *args])
    assert result.exit_code == 2
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1, result.stderr


def test_the_memo_keeps_a_column_and_refuses_a_file_it_did_not_write(graph, tmp_path):
    # A second run reads the column the first kept (one file per feature);
    # a file there that is no array is a one-line error, not a traceback.
    first = Terms(graph, tmp_path).potential(["dist(K, k)"])
    [kept] = tmp_path.iterdir()
    assert kept.name.startswith("KRK_dist_K_k_-")
    assert (Terms(graph, tmp_path).potential(["dist(K, k)"]) == first).all()
    kept.write_bytes(b"not an array")
    with pytest.raises(AL0Error, match="--memo: .*: not an array al0 progress wrote"):
        Terms(graph, tmp_path).potential(["dist(K, k)"])


def test_a_memo_array_of_another_shape_or_release_is_never_used(graph, tmp_path):
    # One of the wrong shape gave a traceback; one from elsewhere was used.
    first = Terms(graph, tmp_path).potential(["dist(K, k)"])
    [kept] = tmp_path.iterdir()
    assert f"-{MEMO_FORMAT}-" in kept.name
    buffer = io.BytesIO()
    np.save(buffer, np.zeros(7, dtype=np.int64))
    kept.write_bytes(buffer.getvalue())
    with pytest.raises(AL0Error, match="--memo: .*: not an array al0 progress wrote"):
        Terms(graph, tmp_path).potential(["dist(K, k)"])
    kept.unlink()
    (tmp_path / kept.name.replace(MEMO_FORMAT, "m1-al0.0.0.1-tb1")).write_bytes(b"elsewhere")
    assert (Terms(graph, tmp_path).potential(["dist(K, k)"]) == first).all()


def test_a_fifo_in_the_memo_is_refused_not_waited_on(graph, tmp_path):
    # np.load opened the FIFO and waited for a writer for ever.
    Terms(graph, tmp_path).potential(["dist(K, k)"])
    [kept] = tmp_path.iterdir()
    kept.unlink()
    os.mkfifo(kept)
    with pytest.raises(AL0Error, match="--memo: .*: not a regular file"):
        Terms(graph, tmp_path).potential(["dist(K, k)"])
