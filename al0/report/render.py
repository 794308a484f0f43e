"""Pictures and data of a plan: JSON, Graphviz DOT and SVG of a forcing tree,
and SVG boards for a game move by move.

These functions return text; the CLI decides where it goes.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any, Iterator

import chess
import chess.svg

from al0.lang.compile import compile_goal
from al0.lang.library import Node
from al0.lang.model import AdviceTable
from al0.engine.plan import Plan
from al0.engine.tree import ForcingTree, principal_line

OUR_ARROW = "#15781b"
"""Green: our moves on the board picture."""
THEIR_ARROW = "#882020"
"""Red: their replies."""


def why_passed_over(plan: Plan, table: AdviceTable) -> list[dict[str, str]]:
    """Why each piece of advice in ``plan.tried`` was passed over: its goals
    already hold at the root (no move to play), or no forcing tree exists
    within its move constraints (and the node budget)."""
    root = Node(plan.board.copy(stack=False), 0, table.us)
    reasons = []
    for name in plan.tried:
        advice = table.advice[name]
        holding = compile_goal(advice.holding_goal, table.library)
        better = compile_goal(advice.better_goal, table.library)
        if holding(root, root) and better(root, root):
            why = "its better-goal already holds here: no move to play"
        elif not holding(root, root):
            why = "its holding-goal fails here"
        else:
            why = "no forcing tree within its move constraints"
        reasons.append({"advice": name, "why": why})
    return reasons


def tree_json(tree: ForcingTree, board: chess.Board, us: chess.Color) -> dict[str, Any]:
    """The tree as nested JSON-ready dicts: ``{"to_move", "side", "height",
    "moves": [{"uci", "san", "tree"}]}``, where ``to_move`` is the colour to
    move at the node and ``side`` is ``us`` or ``them``. ``board`` is left
    as it was."""
    moves = []
    for move, subtree in tree.branches:
        san = board.san(move)
        board.push(move)
        moves.append({"uci": move.uci(), "san": san, "tree": tree_json(subtree, board, us)})
        board.pop()
    return {"to_move": chess.COLOR_NAMES[board.turn], "side": "us" if board.turn == us else "them",
            "height": tree.height, "moves": moves}


def plan_json(plan: Plan, table: AdviceTable) -> dict[str, Any]:
    """The plan as one JSON object: position, rule, advice (None: no plan),
    the advice tried and why each was passed over, the forcing tree, the
    nodes searched and the time."""
    board = plan.board.copy()
    return {"fen": plan.fen, "rule": plan.rule, "advice": plan.advice,
            "tried": list(plan.tried), "passed_over": why_passed_over(plan, table),
            "failure": None if plan.tree is not None else plan.describe_failure(),
            "tree": tree_json(plan.tree, board, table.us) if plan.tree else None,
            "nodes": plan.nodes, "ms": round(plan.seconds * 1000, 3)}


# ----------------------------------------------------------------- DOT

def _dot_text(text: str) -> str:
    """``text`` as a DOT string, line breaks as DOT's ``\\n``."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return '"' + escaped + '"'


def plan_dot(plan: Plan, table: AdviceTable) -> str:
    """The forcing tree as a Graphviz digraph: boxes where we move (one move
    kept), ellipses where they move (every reply kept), double octagons at
    leaves (the better-goal holds). Edges carry the moves in SAN."""
    board = plan.board.copy()
    title = (f"{plan.rule} / {plan.advice}" if plan.tree is not None
             else f"no plan: {plan.describe_failure()}")
    lines = ["digraph plan {", f"  label={_dot_text(title + chr(10) + plan.fen)};",
             "  labelloc=t;", "  node [fontname=Helvetica];", "  edge [fontname=Helvetica];"]
    if plan.tree is None:
        lines += [f"  n0 [shape=box, label={_dot_text('root')}];", "}"]
        return "\n".join(lines) + "\n"
    counter = iter(range(1 << 62))

    def walk(tree: ForcingTree, name: str) -> Iterator[str]:
        if tree.is_leaf:
            shape, label = "doubleoctagon", "goal"
        elif board.turn == table.us:
            shape, label = "box", f"{chess.COLOR_NAMES[board.turn]} (us) to move"
        else:
            shape, label = "ellipse", f"{chess.COLOR_NAMES[board.turn]} (them) to move"
        yield f"  {name} [shape={shape}, label={_dot_text(label)}];"
        for move, subtree in tree.branches:
            child = f"n{next(counter)}"
            san = board.san(move)
            board.push(move)
            yield from walk(subtree, child)
            board.pop()
            yield f"  {name} -> {child} [label={_dot_text(san)}];"

    lines += walk(plan.tree, f"n{next(counter)}")
    lines.append("}")
    return "\n".join(lines) + "\n"


# ----------------------------------------------------------------- SVG

def plan_svg(plan: Plan, size: int = 400) -> str:
    """The root board drawn by python-chess with the tree's worst-case line
    as arrows (ours green, theirs red), and the rule, advice and line as a
    caption beneath."""
    board = plan.board.copy()
    arrows = []
    sans = []
    if plan.tree is not None:
        for ply, move in enumerate(principal_line(plan.tree)):
            color = OUR_ARROW if ply % 2 == 0 else THEIR_ARROW
            arrows.append(chess.svg.Arrow(move.from_square, move.to_square, color=color))
            sans.append(board.san(move))
            board.push(move)
    caption = ([f"{plan.rule} / {plan.advice} — tree of depth {plan.tree.height}",
                "line: " + " ".join(sans)] if plan.tree is not None
               else [f"no plan: {plan.describe_failure()}"])
    drawn = chess.svg.board(plan.board, arrows=arrows, size=size)
    return with_caption(drawn, size, caption)


def with_caption(svg: str, size: int, lines: list[str]) -> str:
    """``svg`` (square, ``size`` wide) with text lines beneath, as one SVG."""
    height = size + 8 + 18 * len(lines)
    texts = "".join(f'<text x="4" y="{size + 18 * (i + 1)}" font-family="Helvetica, Arial" '
                    f'font-size="13">{html.escape(line)}</text>' for i, line in enumerate(lines))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{height}" '
            f'viewBox="0 0 {size} {height}">{svg}{texts}</svg>\n')


def board_svg(board: chess.Board, size: int = 360) -> str:
    """``board`` with its last move and any check marked, as python-chess draws it."""
    lastmove = board.peek() if board.move_stack else None
    check = board.king(board.turn) if board.is_check() else None
    return chess.svg.board(board, lastmove=lastmove, check=check, size=size)


def write_board_svg(directory: Path, board: chess.Board) -> Path:
    """Write ``board`` to ``directory/ply-NNN.svg`` (NNN: half-moves played,
    000 the start), so the files sort in the order of the game.

    :raises OSError: when the file cannot be written.
    """
    path = directory / f"ply-{len(board.move_stack):03d}.svg"
    path.write_text(board_svg(board) + "\n", encoding="utf-8")
    return path
