"""Pictures and data of a plan: ``al0 plan --format json|dot|svg`` and
``al0 play --svg DIR``."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import chess
from click.testing import CliRunner

from al0.cli import cli

ROOT = Path(__file__).resolve().parent.parent
KRK = str(ROOT / "advice_tables" / "krk.yaml")
BRATKO = str(ROOT / "advice_tables" / "krk_bratko.yaml")
NO_PLAN = str(ROOT / "tests" / "good_tables" / "krk_no_plan.yaml")
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
    assert data["passed_over"] == [{"advice": "mate_in_2",
                                    "why": "no forcing tree within its move constraints"}]


def test_json_of_no_plan_says_why():
    data = json.loads(plan_of(NO_PLAN, "--fen", BOOK_FEN, "--format", "json"))
    assert data["advice"] is None and data["tree"] is None
    assert data["failure"] == "no rule's precondition holds"


def test_dot_is_the_tree_with_moves_on_its_edges():
    text = plan_of(KRK, "--fen", MATE_IN_2, "--format", "dot")
    assert text.startswith("digraph plan {") and text.rstrip().endswith("}")
    nodes = re.findall(r"^  (n\d+) \[shape=(\w+)", text, re.M)
    edges = re.findall(r"^  (n\d+) -> (n\d+) \[label=\"([^\"]+)\"\]", text, re.M)
    assert len(edges) == len(nodes) - 1             # a tree
    assert {child for _, child, _ in edges} == {name for name, _ in nodes} - {"n0"}
    shapes = dict(nodes)
    assert shapes["n0"] == "box"                    # our move at the root
    leaves = [name for name, shape in nodes if shape == "doubleoctagon"]
    assert leaves and all(label.endswith("#") for _, child, label in edges if child in leaves)
    data = json.loads(plan_of(KRK, "--fen", MATE_IN_2, "--json"))
    assert len(nodes) == len(list(walk(data["tree"], chess.Board(MATE_IN_2))))


def test_svg_draws_the_board_with_the_planned_line():
    text = plan_of(KRK, "--fen", MATE_IN_2, "--format", "svg")
    root = ET.fromstring(text)
    assert root.tag == f"{SVG}svg"
    assert root.find(f"{SVG}svg") is not None           # python-chess's board inside
    arrows = [el for el in root.iter() if "arrow" in (el.get("class") or "")]
    assert len(arrows) >= 3                              # Kb6 Kb8 Rh8#, one arrow per move
    captions = [el.text for el in root.findall(f"{SVG}text")]
    assert captions[0].startswith("edge_rule / mate_in_2")
    assert captions[1] == "line: Kb6 Kb8 Rh8#"


def test_svg_draws_one_position(tmp_path):
    epd = tmp_path / "two.epd"
    epd.write_text(f"{BOOK_FEN}\n{MATE_IN_2}\n")
    result = run("plan", KRK, "--epd", str(epd), "--format", "svg")
    assert result.exit_code == 2 and "--format svg draws one position, not 2" in result.output


def test_play_svg_writes_every_board(tmp_path):
    folder = tmp_path / "boards"
    result = run("play", KRK, "--fen", MATE_IN_2, "--opponent", "tablebase", "--no-board",
                 "--svg", str(folder))
    assert result.exit_code == 0, result.output
    files = sorted(p.name for p in folder.iterdir())
    assert files == ["ply-000.svg", "ply-001.svg", "ply-002.svg", "ply-003.svg"]
    last = ET.fromstring((folder / "ply-003.svg").read_text())
    classes = " ".join(el.get("class") or "" for el in last.iter())
    assert "lastmove" in classes and "check" in classes   # Rh8# marked


def test_play_svg_into_a_file_fails_cleanly(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    result = run("play", KRK, "--opponent", "random", "--svg", str(blocker / "sub"))
    assert result.exit_code == 2
    assert result.output.startswith(f"Error: {blocker / 'sub'}: cannot make the folder")


def test_svg_of_no_plan_says_why():
    root = ET.fromstring(plan_of(NO_PLAN, "--fen", BOOK_FEN, "--format", "svg"))
    assert [el.text for el in root.findall(f"{SVG}text")] == [
        "no plan: no rule's precondition holds"]
    assert not [el for el in root.iter() if "arrow" in (el.get("class") or "")]
