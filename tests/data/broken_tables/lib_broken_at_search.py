"""A predicate library whose functions break only when the search calls
them: each returns or raises something a predicate, generator or feature
must not."""

from __future__ import annotations

import sys
from typing import Any

import chess

from al0.lang.library import Library

from al0.lang.node import Node


def says_false_as_text(node: Node, root: Node) -> Any:
    return "False"  # truthy: used as a bool it would silently mean true


def exits(node: Node, root: Node) -> bool:
    sys.exit(3)


def interrupts(node: Node, root: Node) -> bool:
    raise KeyboardInterrupt


def yields_text(node: Node) -> Any:
    return ["e6e3"]


def yields_none(node: Node) -> Any:
    return [None]


def yields_illegal(node: Node) -> Any:
    return [chess.Move.from_uci("e6d5")]  # a rook does not move diagonally


def yields_their_move(node: Node) -> Any:
    return [chess.Move.from_uci("c2c3")]


def exits_generating(node: Node) -> Any:
    raise SystemExit("bye")


def half(node: Node) -> Any:
    return 1.5  # a feature is a whole number: 1.5 < 2 would decide silently


def not_a_number(node: Node) -> Any:
    return float("nan")  # every comparison with it false, silently


def text(node: Node) -> Any:
    return "3"


def divides_by_zero(node: Node) -> Any:
    return 1 // 0


def library() -> Library:
    return Library("broken", {"says_false_as_text": says_false_as_text, "exits": exits,
                              "interrupts": interrupts},
                   {"yields_text": yields_text, "yields_none": yields_none,
                    "yields_illegal": yields_illegal, "yields_their_move": yields_their_move,
                    "exits_generating": exits_generating},
                   features={"half": half, "not_a_number": not_a_number, "text": text,
                             "divides_by_zero": divides_by_zero})
