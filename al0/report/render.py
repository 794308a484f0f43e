"""Pictures and data of a plan: text lines, JSON, Graphviz DOT and SVG of
a forcing tree, and SVG boards for a game move by move.

These functions return text; the CLI decides where it goes.
"""

from __future__ import annotations

import html
import re
import textwrap
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

import chess
import chess.svg

from al0.engine.plan import Plan
from al0.engine.tree import ForcingTree, principal_line, tree_lines
from al0.files import write_atomically
from al0.lang.compile_goals import compile_goal
from al0.lang.model import Advice, AdviceTable, Rule
from al0.lang.node import Node

OUR_ARROW = "#15781b"
"""Green: our moves on the board picture."""
THEIR_ARROW = "#882020"
"""Red: their replies."""


def plan_lines(
    plan: Plan,
    board: chess.Board,
    table: AdviceTable | None = None,
    why: Callable[[str], Iterable[str]] | None = None,
) -> Iterable[str]:
    """The plan as text: rule, advice tried, advice chosen (each with the
    table's description, when given one), forcing tree; under each advice
    tried, the lines ``why`` gives for its name (``al0 plan --why``)."""
    yield f"position: {plan.fen}"
    yield f"rule:     {plan.rule or '(none: no precondition holds)'}{_words(table, plan.rule)}"
    for name in plan.tried:
        yield f"tried:    {name} — no forcing tree with a move"
        if why is not None:
            yield from (f"          {line}" for line in why(name))
    if plan.tree is None:
        yield f"no plan:  {plan.describe_failure()}"
    else:
        yield (
            f"advice:   {plan.advice} — forcing tree of depth {plan.tree.height}, "
            f"{plan.nodes} nodes searched in {plan.seconds * 1000:.2f} ms"
        )
        if table is not None and table.describe_advice(plan.advice) != plan.advice:
            yield f"          ({table.describe_advice(plan.advice)})"
        for line in tree_lines(plan.tree, board):
            yield "  " + line


def _words(table: AdviceTable | None, rule: str | None) -> str:
    """`` (the rule's description)`` when the table gives one, else ""."""
    if table is None or rule is None or table.describe_rule(rule) == rule:
        return ""
    return f" ({table.describe_rule(rule)})"


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
    return {
        "to_move": chess.COLOR_NAMES[board.turn],
        "side": "us" if board.turn == us else "them",
        "height": tree.height,
        "moves": moves,
    }


def plan_json(plan: Plan, table: AdviceTable) -> dict[str, Any]:
    """The plan as one JSON object: position, rule, advice (None: no plan),
    the advice tried and why each was passed over, the forcing tree, the
    nodes searched and the time."""
    board = plan.board.copy()
    return {
        "fen": plan.fen,
        "rule": plan.rule,
        "advice": plan.advice,
        "rule_description": _description(table.rules, plan.rule),
        "advice_description": _description(table.advice.values(), plan.advice),
        "tried": list(plan.tried),
        "passed_over": why_passed_over(plan, table),
        "failure": None if plan.tree is not None else plan.describe_failure(),
        "tree": tree_json(plan.tree, board, table.us) if plan.tree else None,
        "nodes": plan.nodes,
        "ms": round(plan.seconds * 1000, 3),
    }


def _description(items: Iterable[Rule | Advice], name: str | None) -> str:
    """The ``description:`` of the rule or advice named ``name`` ("" when none)."""
    return next((item.description for item in items if item.name == name), "")


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
    title = f"{plan.rule} / {plan.advice}" if plan.tree is not None else f"no plan: {plan.describe_failure()}"
    lines = [
        "digraph plan {",
        f"  label={_dot_text(title + chr(10) + plan.fen)};",
        "  labelloc=t;",
        "  node [fontname=Helvetica];",
        "  edge [fontname=Helvetica];",
    ]
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

STRIP_BOARD = 160
"""Width of each small board in a plan's line."""
STRIP_COLUMNS = 4
"""Small boards per row of a plan's line."""
GAP = 12
"""Space between boards, and around the caption."""
LINE_HEIGHT = 18
"""Caption lines are 13 px text, 18 px apart."""
CHAR_WIDTH = 7.5
"""A generous mean width of a 13 px Helvetica character, to wrap captions
before they run off the picture (SVG text does not wrap)."""

BOARD_FILE = re.compile(r"ply-\d{3,}\.svg")
"""The names ``play --svg`` gives its boards (and the only files it removes)."""


def wrap(lines: list[str], width: float) -> list[str]:
    """``lines`` broken between words so each fits ``width`` pixels."""
    columns = max(10, int((width - 8) / CHAR_WIDTH))
    return [part for line in lines for part in textwrap.wrap(line, columns) or [""]]


def _text(x: float, y: float, text: str, color: str = "#222") -> str:
    return (
        f'<text x="{x}" y="{y}" font-family="Helvetica, Arial" font-size="13" '
        f'fill="{color}">{html.escape(text)}</text>'
    )


def _place(svg: str, x: float, y: float) -> str:
    """``svg`` (a picture of its own) drawn with its top left at (x, y)."""
    return f'<g transform="translate({x},{y})">{svg}</g>'


def _sheet(width: float, height: float, parts: list[str]) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        f'width="{width:g}" height="{height:g}" viewBox="0 0 {width:g} {height:g}">'
        f'<rect width="100%" height="100%" fill="white"/>{"".join(parts)}</svg>\n'
    )


def ply_label(board: chess.Board, move: chess.Move) -> str:
    """``move`` (to be played on ``board``) numbered as in a game score:
    ``7. Qb7`` for White, ``7... Ka8`` for Black."""
    dots = "." if board.turn == chess.WHITE else "..."
    return f"{board.fullmove_number}{dots} {board.san(move)}"


def plan_svg(plan: Plan, size: int = 400) -> str:
    """The root board drawn by python-chess with our first move as an arrow,
    the rule, advice and worst-case line as a caption, and the line as a
    strip of small boards, one per ply, each captioned with its numbered
    move (ours green, theirs red) and its last move and any check marked.
    Without a plan: the board and why there is none."""
    board = plan.board.copy()
    if plan.tree is None:
        caption = wrap([f"no plan: {plan.describe_failure()}"], size)
        return with_caption(chess.svg.board(board, size=size), size, caption)
    line = principal_line(plan.tree)
    strip_width = min(len(line), STRIP_COLUMNS) * (STRIP_BOARD + GAP) - GAP
    width = max(size, strip_width)
    first = chess.svg.Arrow(line[0].from_square, line[0].to_square, color=OUR_ARROW)
    parts = [_place(chess.svg.board(board, arrows=[first], size=size), 0, 0)]
    caption = wrap(
        [
            f"{plan.rule} / {plan.advice}: a forcing tree of depth {plan.tree.height}; "
            f"its worst-case line of {len(line)} plies:",
            board.variation_san(line),
        ],
        width,
    )
    y = size + GAP
    for text in caption:
        y += LINE_HEIGHT
        parts.append(_text(4, y, text))
    y += GAP
    for ply, move in enumerate(line):
        label = ply_label(board, move)
        board.push(move)
        row, column = divmod(ply, STRIP_COLUMNS)
        x = column * (STRIP_BOARD + GAP)
        top = y + row * (STRIP_BOARD + LINE_HEIGHT + GAP)
        parts.append(_place(board_svg(board, STRIP_BOARD), x, top))
        parts.append(
            _text(
                x + 2, top + STRIP_BOARD + LINE_HEIGHT - 4, label, OUR_ARROW if ply % 2 == 0 else THEIR_ARROW
            )
        )
    rows = -(-len(line) // STRIP_COLUMNS)
    return _sheet(width, y + rows * (STRIP_BOARD + LINE_HEIGHT + GAP), parts)


def with_caption(svg: str, size: int, lines: list[str]) -> str:
    """``svg`` (square, ``size`` wide) with text lines beneath, as one SVG;
    the caller wraps the lines (see :func:`wrap`)."""
    height = size + GAP + LINE_HEIGHT * len(lines)
    texts = [_text(4, size + LINE_HEIGHT * (i + 1), line) for i, line in enumerate(lines)]
    return _sheet(size, height, [svg, *texts])


def board_svg(board: chess.Board, size: int = 360) -> str:
    """``board`` with its last move and any check marked, as python-chess draws it."""
    lastmove = board.peek() if board.move_stack else None
    check = board.king(board.turn) if board.is_check() else None
    return chess.svg.board(board, lastmove=lastmove, check=check, size=size)


def clear_board_svgs(directory: Path) -> int:
    """Remove the boards an earlier ``play --svg`` wrote into ``directory``
    (``ply-NNN.svg``, nothing else), so a shorter game's folder holds no
    plies of a longer one; how many were removed.

    :raises OSError: when one cannot be removed.
    """
    earlier = [path for path in directory.iterdir() if BOARD_FILE.fullmatch(path.name)]
    for path in earlier:
        path.unlink()
    return len(earlier)


def write_board_svg(
    directory: Path, board: chess.Board, caption: list[str], size: int = 360, keep: Iterable[str | None] = ()
) -> Path:
    """Write ``board`` with ``caption`` beneath (wrapped) to
    ``directory/ply-NNN.svg`` (NNN: half-moves played, 000 the start), so
    the files sort in the order of the game: atomically (a full disk leaves
    no cut board), never over a file of ``keep``.

    :raises OSError: when the file cannot be written.
    """
    path = directory / f"ply-{len(board.move_stack):03d}.svg"
    write_atomically(
        path, with_caption(board_svg(board, size), size, wrap(caption, size)).encode("utf-8"), keep
    )
    return path
