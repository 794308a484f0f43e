"""Binding a table's calls of the vocabulary (``dist(K, k)``) to functions,
once, when the table is loaded: every name and argument is checked there."""

from __future__ import annotations

from typing import Any

import chess

from al0.board import Material
from al0.errors import TableSyntaxError, UnknownNameError
from al0.lang.expr import parse_call
from al0.lang.model import Call
from al0.lang.vocabulary.registry import COLOUR, ENTRIES, KING, VocabularyEntry
from al0.lang.vocabulary.terms import PieceRef, material_pieces


def split_call(text: str) -> tuple[str, tuple[str, ...]]:
    """``dist(K, k)`` -> ("dist", ("K", "k")): the family and arguments of a
    call's canonical text, for code that holds the name rather than the
    table's :class:`~al0.lang.model.Call` (which carries them already)."""
    call = parse_call(text)
    return call.family, call.args


class Binder:
    """Binds calls of the vocabulary for one material, once each.

    The same call written twice (``room`` and ``room(k)``) gets the same
    function, so a memoised feature is computed once per node.
    """

    def __init__(self, material: Material):
        self.material = material
        self.pieces = material_pieces(material)
        self._bound: dict[tuple[str, tuple[object, ...]], Any] = {}
        self.colours: list[str] = []
        """Calls bound with ``light`` or ``dark``: a mirror swaps them."""
        self.numbered: list[str] = []
        """Calls bound with a numbered piece (``B1``): numbered by square, so
        a mirror may swap it with its twin."""

    def bind(self, call: Call | str, kind: str) -> Any | None:
        """The function of ``call`` (or of the call a canonical text names,
        ``dist(K, k)``) as a ``kind``; None when the vocabulary has no such
        family of that kind.

        :raises UnknownNameError: a piece the material does not have.
        :raises TableSyntaxError: the wrong number or kind of arguments.
        """
        if isinstance(call, str):
            call = parse_call(call)
        name, args, text = call.family, call.args, call.text
        entry = ENTRIES.get(name)
        if entry is None or entry.kind != kind:
            return None
        required = len(entry.params) - entry.optional
        if not required <= len(args) <= len(entry.params):
            count = str(required) if not entry.optional else f"{required} to {len(entry.params)}"
            raise TableSyntaxError(
                f"{entry.signature} takes {count} argument"
                f"{'' if count == '1' else 's'}, not {len(args)}: {text}"
            )
        if not args and entry.default is not None:
            args = (entry.default,)
        resolved = tuple(self._argument(param, arg, entry) for param, arg in zip(entry.params, args))
        if any(isinstance(r, bool) for r in resolved):
            self.colours.append(text)
        if any(isinstance(r, PieceRef) and r.name[-1].isdigit() for r in resolved):
            self.numbered.append(text)
        key = (name, tuple(getattr(r, "name", r) for r in resolved))
        if key not in self._bound:
            function = entry.build(*resolved)
            function.__doc__ = entry.build.__doc__
            self._bound[key] = function
        return self._bound[key]

    def _argument(self, param: str, arg: str, entry: VocabularyEntry) -> object:
        if param == COLOUR and arg in ("light", "dark"):
            return arg == "light"
        piece = self.pieces.get(arg)
        if piece is None:
            names = ", ".join(self.pieces)
            also = ", light, dark" if param == COLOUR else ""
            raise UnknownNameError(
                f"{entry.name}: {self.material} has no piece {arg!r} (its pieces: {names}{also})"
            )
        if param == KING and piece.piece_type != chess.KING:
            raise TableSyntaxError(f"{entry.name} takes a king, not {arg}")
        return piece
