"""The parameter types that parse a spec once (a defender, a whole number,
seconds, a material, start positions) and the options several commands
take, defined once."""

from __future__ import annotations

import os
import re
from typing import Any

import click

from al0.board import Material
from al0.bundled import table_path
from al0.engine import DEFAULT_BUDGET
from al0.errors import PositionError, TableSyntaxError
from al0.integers import IntegerError, parse_int, shown
from al0.lang import DefenderError, DefenderKind, DefenderSpec, PositionsSpec


class DefenderParam(click.ParamType[DefenderSpec]):
    """A defender spec on the command line, parsed once into a
    :class:`DefenderSpec` of one of the ``allowed`` kinds."""

    name = "defender"

    def __init__(self, allowed: tuple[DefenderKind, ...]):
        self.allowed = allowed

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> DefenderSpec:
        if isinstance(value, DefenderSpec):
            return value
        try:
            return DefenderSpec.parse(str(value), self.allowed)
        except DefenderError as error:
            self.fail(str(error), param, ctx)


class WholeNumber(click.ParamType[int]):
    """A whole number on the command line, read by the one parser of
    numbers (:func:`al0.integers.parse_int`): ASCII digits only (click's
    ``int`` takes ``٣`` and ``1_000``), at most 18 of them, from
    ``minimum`` to ``maximum`` (None: unbounded)."""

    name = "integer"

    def __init__(self, minimum: int | None = 0, maximum: int | None = None):
        self.minimum, self.maximum = minimum, maximum

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int):  # a default
            return value
        try:
            return parse_int(str(value), "it", self.minimum, self.maximum)
        except IntegerError as error:
            self.fail(str(error), param, ctx)

    def get_metavar(self, param: click.Parameter, ctx: click.Context) -> str:
        low = "" if self.minimum is None else f"{self.minimum}<="
        high = "" if self.maximum is None else f"<={self.maximum}"
        return f"INTEGER {low}x{high}" if low or high else "INTEGER"


class Decimal(click.ParamType[float]):
    """A decimal number on the command line (``0.05``, ``-2``, ``.5``),
    finite and from ``minimum`` to ``maximum``: click's ``float`` takes
    ``inf``, ``nan`` and ``1e999``, which a UCI engine's clock turned into an
    asyncio traceback and a run that never ends."""

    name = "number"
    TEXT = re.compile(r"-?(?:[0-9]{1,9}(?:\.[0-9]{0,9})?|\.[0-9]{1,9})")
    """ASCII digits, at most nine each side of the point: no exponent, no
    ``inf`` or ``nan``, nothing ``float()`` reads beyond what a person writes."""

    def __init__(self, minimum: float, maximum: float, unit: str = ""):
        self.minimum, self.maximum, self.unit = minimum, maximum, unit

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        if isinstance(value, (int, float)):  # a default
            return float(value)
        text = str(value).strip(" \t\r\n")
        if not self.TEXT.fullmatch(text):
            self.fail(f"it must be a decimal number such as 0.05, not {shown(str(value))}", param, ctx)
        number = float(text)
        if not self.minimum <= number <= self.maximum:
            self.fail(
                f"it must be from {self.minimum:g} to {self.maximum:g}{self.unit}, not {text}", param, ctx
            )
        return number

    def get_metavar(self, param: click.Parameter, ctx: click.Context) -> str:
        return f"{self.minimum:g}..{self.maximum:g}"


MAX_ENGINE_SECONDS = 3600.0
"""The longest a UCI engine may think per move: an hour, far beyond any
use, and a bound on how long a run can wait for one move."""

ENGINE_SECONDS = Decimal(0.001, MAX_ENGINE_SECONDS, " s")
"""The type of every option that gives an engine's seconds per move."""


class MaterialParam(click.ParamType[Material]):
    """A material of at most four men (``KRK``, ``kbnk``, ``KNKR``, ``KPKQ``),
    parsed once into the tablebase's :class:`~al0.board.Material` (``KRKN``:
    the stronger side first)."""

    name = "material"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Material:
        from al0.tablebase import parse_material  # lazily: numpy

        if isinstance(value, Material):
            return value
        try:
            return parse_material(str(value).upper())
        except PositionError as error:
            self.fail(str(error), param, ctx)


class PositionsParam(click.ParamType[PositionsSpec]):
    """``all``, ``every``, ``sample:N`` (N >= 1) or ``FILE.epd`` on the
    command line, parsed once into a :class:`~al0.lang.specs.PositionsSpec`."""

    name = "positions"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> PositionsSpec:
        if isinstance(value, PositionsSpec):
            return value
        text = str(value)
        try:
            spec = PositionsSpec.parse(text)
        except PositionError as error:
            self.fail(str(error), param, ctx)
        if spec.path is not None and not os.path.lexists(spec.path):
            # A typo (ALL, sample 500, sampel:5) is no file either: say what is taken.
            self.fail(f"{shown(text)} is no file: give all, every, sample:N or an EPD file", param, ctx)
        return spec


class TableName(click.ParamType[str]):
    """A table: a bundled table's name (``krk``), even where the working
    folder holds a file or folder of that name, or a table file's path (as
    :func:`~al0.bundled.table_path` reads it); a folder is refused. The
    text is passed on as given: the commands load it by that function."""

    name = "table"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        text = str(value)
        try:
            path = table_path(text)
        except TableSyntaxError as error:
            self.fail(str(error), param, ctx)
        if path.is_dir():
            self.fail(f"{shown(text)} is a folder, not a table file", param, ctx)
        return text


TABLE = click.argument("table", type=TableName())
BUDGET = click.option(
    "--budget",
    type=WholeNumber(minimum=1),
    default=DEFAULT_BUDGET,
    show_default=True,
    metavar="NODES",
    help="Most nodes one forcing-tree search may evaluate.",
)
