"""Pictures and data of a plan: ``al0 plan --format json|dot|svg`` and
``al0 play --svg DIR``."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

import chess
from click.testing import CliRunner

from al0.cli import cli
from conftest import ROOT, TEST_TABLES

KRK = str(ROOT / "advice_tables" / "krk.yaml")
BRATKO = str(ROOT / "advice_tables" / "krk_bratko.yaml")
NO_PLAN = str(TEST_TABLES / "krk_no_plan.yaml")
MATE_IN_2 = "k7/8/2K5/8/8/8/8/7R w - - 0 1"
BOOK_FEN = "8/8/4R3/8/3K4/8/2k5/8 w - - 0 1"
SVG = "{http://www.w3.org/2000/svg}"


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def plan_of(*args: str) -> str:
    result = run("plan", *args)
    assert result.exit_code == 0, result.output
    return result.output


def walk(tree, board):
    """Every (node, board) of a JSON tree, checking the moves as it goes."""
    yield tree, board
    for move in tree["moves"]:
        child = board.copy()
        assert child.san(chess.Move.from_uci(move["uci"])) == move["san"]
        child.push_uci(move["uci"])
        yield from walk(move["tree"], child)


def test_json_says_whose_move_each_node_is():
    data = json.loads(plan_of(KRK, "--fen", MATE_IN_2, "--format", "json"))
    assert (data["rule"], data["advice"], data["failure"]) == ("edge_rule", "mate_in_2", None)
    nodes = list(walk(data["tree"], chess.Board(MATE_IN_2)))
    assert len(nodes) > 3
    for node, board in nodes:
        assert node["to_move"] == ("white" if board.turn == chess.WHITE else "black")
        assert node["side"] == ("us" if board.turn == chess.WHITE else "them")
        # A leaf is where mate_in_2's better-goal holds: mate.
        assert bool(node["moves"]) or board.is_checkmate()


def test_json_says_why_each_tried_advice_was_passed_over():
    # The king is on the edge and the kings are close, but no mate is forced in 2.
    data = json.loads(plan_of(BRATKO, "--fen", "8/8/7k/8/6K1/R7/8/8 w - - 0 1", "--json"))
    assert (data["rule"], data["advice"], data["tried"]) == ("edge_rule", "squeeze", ["mate_in_2"])
    assert data["passed_over"] == [
        {"advice": "mate_in_2", "why": "no forcing tree within its move constraints"}
    ]


def test_json_of_no_plan_says_why():
    data = json.loads(plan_of(NO_PLAN, "--fen", BOOK_FEN, "--format", "json"))
    assert data["advice"] is None and data["tree"] is None
    assert data["failure"] == "no rule's precondition holds"


def test_dot_is_the_tree_with_moves_on_its_edges():
    text = plan_of(KRK, "--fen", MATE_IN_2, "--format", "dot")
    assert text.startswith("digraph plan {") and text.rstrip().endswith("}")
    nodes = re.findall(r"^  (n\d+) \[shape=(\w+)", text, re.M)
    edges = re.findall(r"^  (n\d+) -> (n\d+) \[label=\"([^\"]+)\"\]", text, re.M)
    assert len(edges) == len(nodes) - 1  # a tree
    assert {child for _, child, _ in edges} == {name for name, _ in nodes} - {"n0"}
    shapes = dict(nodes)
    assert shapes["n0"] == "box"  # our move at the root
    leaves = [name for name, shape in nodes if shape == "doubleoctagon"]
    assert leaves and all(label.endswith("#") for _, child, label in edges if child in leaves)
    data = json.loads(plan_of(KRK, "--fen", MATE_IN_2, "--json"))
    assert len(nodes) == len(list(walk(data["tree"], chess.Board(MATE_IN_2))))


def texts(root) -> list[str]:
    """The SVG's own text, outside python-chess's boards (their coordinates)."""
    return [el.text for el in root.findall(f"{SVG}text")]


def test_svg_draws_the_board_with_the_planned_line():
    text = plan_of(KRK, "--fen", MATE_IN_2, "--format", "svg")
    root = ET.fromstring(text)
    assert root.tag == f"{SVG}svg"
    boards = root.findall(f"{SVG}g/{SVG}svg")  # python-chess's boards inside
    heads = [el for el in root.iter() if "arrow" in (el.get("class") or "") and el.tag == f"{SVG}polygon"]
    assert len(heads) == 1  # our first move, Kb6
    captions = texts(root)
    assert " ".join(captions[:-3]) == (
        "edge_rule / mate_in_2: a forcing tree of depth 3; its worst-case line of 3 plies: 1. Kb6 Kb8 2. Rh8#"
    )
    # The line as a strip: one board per ply after the root's, each named.
    assert len(boards) == 4
    assert captions[-3:] == ["1. Kb6", "1... Kb8", "2. Rh8#"]


def test_svg_of_an_eleven_ply_line_is_a_strip_of_numbered_boards():
    """KBBK's six-move mate: every ply on a board of its own, in rows of
    four, each captioned with its numbered move; no text wider than the
    picture."""
    fen = "8/8/8/8/8/2K5/kB6/3B4 w - - 0 1"
    root = ET.fromstring(plan_of(str(ROOT / "advice_tables" / "kbbk.yaml"), "--fen", fen, "--format", "svg"))
    captions = texts(root)
    assert captions[0].startswith("net / mate_in_6: a forcing tree of depth 11")
    labels = captions[-11:]
    assert [label.split()[0] for label in labels] == [
        f"{n // 2 + 1}{'.' if n % 2 == 0 else '...'}" for n in range(11)
    ]
    board = chess.Board(fen)
    for label in labels:
        board.push_san(label.split()[1])
    assert board.is_checkmate()
    # The caption's line (wrapped) is the strip's.
    line = " ".join(captions[1:-11]).split()
    assert [san for san in line if not san[0].isdigit()] == [label.split()[1] for label in labels]
    width = float(root.get("width"))
    assert all(len(text) * 7.5 <= width for text in captions)
    corners = [tuple(map(float, re.findall(r"[\d.]+", g.get("transform")))) for g in root.findall(f"{SVG}g")]
    assert len(corners) == 12 and len(set(corners)) == 12
    assert len({y for _, y in corners[1:]}) == 3 and all(x + 160 <= width for x, _ in corners)


def test_svg_draws_one_position(tmp_path):
    epd = tmp_path / "two.epd"
    epd.write_text(f"{BOOK_FEN}\n{MATE_IN_2}\n")
    result = run("plan", KRK, "--epd", str(epd), "--format", "svg")
    assert result.exit_code == 2 and "--format svg draws one position, not 2" in result.output


def test_svg_of_no_plan_wraps_a_long_reason(tmp_path):
    table = tmp_path / "mates_only.yaml"
    names = ["mate_in_one_move", "mate_in_one_move_again", "mate_in_one_move_once_more"]
    table.write_text(
        "name: mates_only\nmaterial: KRK\nrules:\n"
        f"  - {{name: mate_at_once_or_never, if: true, then: [{', '.join(names)}]}}\n"
        "advice:\n"
        + "".join(
            f"  {name}: {{better-goal: mate, holding-goal: true, "
            "us-moves: {0: legal}, them-moves: nomove}\n"
            for name in names
        )
    )
    root = ET.fromstring(plan_of(str(table), "--fen", BOOK_FEN, "--format", "svg"))
    lines = texts(root)
    assert len(lines) > 1 and all(len(line) * 7.5 <= 400 for line in lines)
    assert " ".join(lines) == (
        f"no plan: rule mate_at_once_or_never: no advice gives a move to play (tried {', '.join(names)})"
    )
    assert float(root.get("height")) >= 400 + 18 * len(lines)


def test_play_svg_writes_every_board_with_its_move_and_advice(tmp_path):
    folder = tmp_path / "boards"
    result = run(
        "play", KRK, "--fen", MATE_IN_2, "--opponent", "tablebase", "--no-board", "--svg", str(folder)
    )
    assert result.exit_code == 0, result.output
    files = sorted(p.name for p in folder.iterdir())
    assert files == ["ply-000.svg", "ply-001.svg", "ply-002.svg", "ply-003.svg"]
    last = ET.fromstring((folder / "ply-003.svg").read_text())
    classes = " ".join(el.get("class") or "" for el in last.iter())
    assert "lastmove" in classes and "check" in classes  # Rh8# marked
    captions = [texts(ET.fromstring((folder / name).read_text())) for name in files]
    # Our moves' captions end with the advice's description, wrapped.
    words = ["Mate in two: their king is on the edge, finish", "it off there."]
    assert captions == [
        [f"start: {MATE_IN_2}"],
        ["1. Kb6", "edge_rule / mate_in_2", *words],
        ["1... Kb8"],
        ["2. Rh8#", "edge_rule / mate_in_2", *words],
    ]


def test_play_svg_clears_the_boards_of_an_earlier_game_only(tmp_path):
    folder = tmp_path / "boards"
    folder.mkdir()
    for name in ("ply-000.svg", "ply-007.svg", "ply-1000.svg", "notes.svg", "ply-7.svg"):
        (folder / name).write_text("<svg/>")
    result = run(
        "play", KRK, "--fen", MATE_IN_2, "--opponent", "tablebase", "--no-board", "--svg", str(folder)
    )
    assert result.exit_code == 0, result.output
    assert f"{folder}: removed the 3 boards of an earlier game" in result.output
    assert sorted(p.name for p in folder.iterdir()) == [
        "notes.svg",
        "ply-000.svg",
        "ply-001.svg",
        "ply-002.svg",
        "ply-003.svg",
        "ply-7.svg",
    ]


def test_play_svg_into_a_file_fails_cleanly(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    result = run("play", KRK, "--opponent", "random", "--svg", str(blocker / "sub"))
    assert result.exit_code == 2
    assert result.output.startswith(f"Error: {blocker / 'sub'}: cannot make the folder")


def test_svg_of_no_plan_says_why():
    root = ET.fromstring(plan_of(NO_PLAN, "--fen", BOOK_FEN, "--format", "svg"))
    assert texts(root) == ["no plan: no rule's precondition holds"]
    assert not [el for el in root.iter() if "arrow" in (el.get("class") or "")]
