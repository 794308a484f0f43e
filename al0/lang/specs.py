"""Specs a user or a table gives in words, parsed once into typed values.

A positions spec (``all``, ``every``, ``sample:N`` or an EPD file) is parsed
by :meth:`PositionsSpec.parse` wherever it is given (the command line, a
table's ``expect: positions:``, an ini option, a Python caller), and the
start positions, the report and its claims read the typed value.

A defender spec (``random``, ``tablebase``, ``uci:COMMAND``, and where a
command allows them ``worst`` or ``human``) is parsed by
:meth:`DefenderSpec.parse`, so an unknown one is an error wherever it is
given, and is typed from there on: the loader checks a table's ``expect:
defender:`` with it, the command line its ``--defender``, and
:func:`al0.engine.defenders.make_defender` turns one into a defender.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, replace
from typing import Literal

from al0.errors import AL0Error, PositionError
from al0.integers import IntegerError, parse_int, shown

PositionsKind = Literal["all", "every", "sample", "file"]


@dataclass(frozen=True)
class PositionsSpec:
    """Which start positions a run is over: ``all`` (one per symmetry class
    of the ending, won for the table's side), ``every`` (each class with all
    its mirror images), ``sample`` (``count`` classes drawn with ``seed``)
    or ``file`` (the EPD file ``path``, as given)."""

    kind: PositionsKind
    count: int | None = None
    """N of ``sample:N`` (``sample`` only)."""
    path: str | None = None
    """The EPD file as written (``file`` only)."""
    seed: int = 0
    """The seed a sample is drawn with: another seed, other positions."""

    @classmethod
    def parse(cls, text: str) -> PositionsSpec:
        """The spec ``text`` names; any text but ``all``, ``every`` and
        ``sample:…`` (spaces around them allowed, as a shell quote may leave
        them) names a file (whether it exists is the reader's to say).

        :raises PositionError: when N of ``sample:N`` is not a whole number >= 1.
        """
        word = text.strip()
        if word == "all":
            return cls("all")
        if word == "every":
            return cls("every")
        if word.startswith("sample:"):
            try:
                count = parse_int(word[len("sample:") :], "N in sample:N", minimum=1)
            except IntegerError as error:
                raise PositionError(f"{shown(text)}: {error}") from None
            return cls("sample", count=count)
        return cls("file", path=text)

    @classmethod
    def sample(cls, count: int, seed: int = 0) -> PositionsSpec:
        """``sample:count`` drawn with ``seed``."""
        return cls("sample", count=count, seed=seed)

    def drawn_with(self, seed: int) -> PositionsSpec:
        """This spec with a sample drawn with ``seed`` (other kinds have no draw)."""
        return replace(self, seed=seed) if self.kind == "sample" else self

    @property
    def name(self) -> str:
        """The spec as the user writes it (``sample:500``, ``krk.epd``), with
        the seed of a sample not drawn with 0: ``sample:500 (seed 3)``."""
        if self.kind == "sample":
            return f"sample:{self.count}" + (f" (seed {self.seed})" if self.seed else "")
        if self.kind == "file":
            assert self.path is not None  # a file spec always has its path
            return self.path
        return self.kind

    def __str__(self) -> str:
        return self.name


DefenderKind = Literal["random", "tablebase", "uci", "worst", "human"]

MADE_KINDS: tuple[DefenderKind, ...] = ("random", "tablebase", "uci")
"""The kinds :func:`make_defender` makes; ``worst`` (an analysis over every
defence) and ``human`` (a person at the keyboard) are handled by the command
that allows them."""

VERIFY_KINDS: tuple[DefenderKind, ...] = ("tablebase", "random", "uci", "worst")
"""The kinds ``al0 verify`` can judge with."""

TABLE_KINDS: tuple[DefenderKind, ...] = ("tablebase", "random", "worst")
"""The kinds a file may name (a table's ``expect:`` block, the pytest
plugin's ini option): those built into al0. A file never makes al0 start a
program: an engine's command comes only from whoever runs al0."""

ENGINE_FROM_THE_RUNNER = (
    "a UCI engine's command comes only from whoever runs al0, never "
    "from a file: give it as al0 verify TABLE --defender uci:COMMAND, "
    "or pytest --al0-defender uci:COMMAND (or AL0_DEFENDER=uci:COMMAND "
    "in the environment)"
)
"""Why a file cannot name a ``uci:`` defender, and where an engine is given instead."""


class DefenderError(AL0Error):
    """A defender spec is unknown, or a defender cannot be made or has
    failed (e.g. its engine died or stopped answering)."""


@dataclass(frozen=True)
class DefenderSpec:
    """A parsed defender spec: its kind and, for ``uci``, the engine's
    command line split into words."""

    kind: DefenderKind
    command: tuple[str, ...] = ()
    """The engine's program and arguments (``uci`` only)."""

    @property
    def name(self) -> str:
        """The spec as the user writes it: ``random``, ``uci:stockfish -l``."""
        if self.kind == "uci":
            return "uci:" + shlex.join(self.command)
        return self.kind

    def __str__(self) -> str:
        """The spec as written, so a report's reproduce line reads
        ``--defender worst``, not the dataclass."""
        return self.name

    @classmethod
    def parse(cls, text: str, allowed: tuple[DefenderKind, ...] = MADE_KINDS) -> DefenderSpec:
        """The spec ``text`` names, of one of the ``allowed`` kinds.

        :raises DefenderError: naming the bad value and the choices, or why
            a ``uci:`` command cannot be split into words (an unclosed quote).
        """
        if text.startswith("uci:") and "uci" in allowed:
            try:
                command = tuple(shlex.split(text[4:]))
            except ValueError as error:
                raise DefenderError(f"bad engine command {text[4:]!r}: {error}") from None
            if not command:
                raise DefenderError(f"{text!r}: give the engine's command after uci:")
            return cls("uci", command)
        for kind in allowed:
            if kind != "uci" and text == kind:
                return cls(kind)
        choices = ", ".join(kind if kind != "uci" else "uci:COMMAND" for kind in allowed)
        raise DefenderError(f"unknown defender {text!r}: use {choices}")

    @classmethod
    def from_file(cls, text: str) -> DefenderSpec:
        """The spec a file names (a table, an ini file): one of
        :data:`TABLE_KINDS`, so that no file starts a program.

        :raises DefenderError: for an unknown kind, and for an engine
            (``uci:…``), saying how to give one instead.
        """
        if text.startswith("uci:"):
            raise DefenderError(f"defender {text!r}: {ENGINE_FROM_THE_RUNNER}")
        return cls.parse(text, TABLE_KINDS)
