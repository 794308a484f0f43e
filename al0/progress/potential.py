"""One run of the potential analysis, as ``al0 progress`` asks for it:
the depths over the won positions (or a phase of them), the closure, a
drive into it, and walks; as text lines and as data for JSON.

A table whose every plan lowers one potential after their reply ("forced
progress": advice with better-goal ``P < root.P`` and a forcing tree of a
few moves) can only work if, from every position it meets, our side can
force the potential down within the advice's depth. This counts, over every
won position of the ending (one per symmetry class, us to move, as ``al0
verify --positions all`` counts them), the least depth at which it can.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import chess
import numpy as np

from al0.board import Material
from al0.errors import AL0Error
from al0.progress.columns import INF, MATE, PerPosition, Terms, condition_warnings, term_warnings
from al0.progress.minmax import Hold, closure, depths, histogram, histogram_text
from al0.progress.walk import Phase, Walker
from al0.tablebase import load
from al0.tablebase.geometry import Mask
from al0.tablebase.graph import MoveGraph, check_pawnless

Say = Callable[[str], None]


@dataclass(frozen=True)
class Options:
    """What to measure (the options of ``al0 progress``, same names)."""

    material: Material
    """The ending, stronger side first (:func:`al0.tablebase.parse_material`)."""
    terms: tuple[str, ...]
    depth: int = 3
    pre: str | None = None
    target: str | None = None
    hold: str | None = None
    closure: bool = False
    drive: tuple[str, ...] = ()
    drive_depth: int | None = None
    switch: str | None = None
    walk: int = 0
    exits: int = 0
    stuck: int = 0
    greedy: bool = False
    fastest: bool = False
    avoid_seen: bool = False
    prefer: tuple[str, ...] = ()
    """Terms of a value the walks prefer the least of after their reply."""
    memo: Path | None = None
    failures: bool = False
    """With ``closure``: list the phase's positions outside the closure."""


@dataclass
class Analysis:
    """The result: ``lines`` to print, ``data`` for JSON."""

    lines: list[str] = field(default_factory=list)
    data: dict[str, object] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)
    """With ``Options.failures``: an EPD line for each position outside the closure."""


def warnings(options: Options) -> list[str]:
    """What the terms and conditions of ``options`` probably get wrong, as
    ``al0 check`` warns of a table's (:mod:`al0.lang.lint`), found before
    the run computes any of them (a minute or two a feature).

    :raises AL0Error: a material the analysis does not take (pawns), or a
        term or condition that does not read.
    """
    material = options.material
    check_pawnless(material)  # its one line, not warnings before it
    found = [
        *term_warnings(options.terms, material),
        *term_warnings(options.drive, material, "--drive term"),
        *term_warnings(options.prefer, material, "--prefer term"),
    ]
    for option, condition in (
        ("--pre", options.pre),
        ("--target", options.target),
        ("--hold", options.hold),
        ("--switch", options.switch),
    ):
        if condition:
            found += condition_warnings(condition, option, material)
    return found


def analyse(options: Options, say: Say | None = None) -> Analysis:
    """Runs the analysis ``options`` describes, telling ``say`` what it
    computes (evaluating a feature takes a minute or two on a four-man
    ending).

    :raises AL0Error: bad material (pawns; walks with a piece of theirs) or
        a bad term or condition.
    """

    def tell(message: str) -> None:
        if say is not None:
            say(message)

    check_pawnless(options.material)
    if options.walk and options.material.sides.count(1) > 1:
        raise AL0Error(
            f"--walk: {options.material.name}: walks play against a lone king (a capture leaves the "
            "ending); measure the falls and the closure, then verify a table"
        )
    result = Analysis()
    data = result.data
    graph = MoveGraph(load(options.material.name, progress=say))
    terms = Terms(graph, options.memo)
    potential = terms.potential(list(options.terms), say)
    hold: Hold | None = None
    if options.hold:
        tell(f"evaluating the holding condition {options.hold}")
        hold = terms.holds(options.hold)
    won = graph.won

    def condition(text: str, what: str) -> Mask:
        tell(f"evaluating {what} {text}")
        return won & terms.where(text, what)

    target = None
    if options.target:
        target = condition(options.target, "--target")
        potential = np.where(target, MATE, potential)
    measured = condition(options.pre, "--pre") if options.pre else won
    if options.pre and not measured.any():
        raise AL0Error(f"--pre {options.pre!r}: holds at none of the {int(won.sum()):,} won positions")
    tell(f"min-max to depth {options.depth}")
    replies: list[PerPosition] = []
    found = depths(graph, potential, options.depth, replies=replies, hold=hold)
    data.update(
        material=graph.table.name,
        terms=list(options.terms),
        depth=options.depth,
        won=int(won.sum()),
        hold=options.hold,
    )
    result.lines.append(
        f"{graph.table.name}, potential ({'; '.join(options.terms)}), {int(won.sum()):,} won positions"
        + (f", holding {options.hold}" if options.hold else "")
        + (f", {int(target.sum()):,} in the target ({options.target})" if target is not None else "")
    )
    if target is not None:
        data["target"] = {"condition": options.target, "positions": int(target.sum())}
    if options.pre:
        data["phase"] = {"condition": options.pre, "positions": int(measured.sum())}
        result.lines.append(f"the phase ({options.pre}): {int(measured.sum()):,} won positions")
    falls = histogram(found, measured, options.depth)
    data["falls"] = falls
    result.lines.append(f"falls within d moves: {histogram_text(falls)}")
    if hold is not None:
        held = measured & hold[1]
        data["falls_where_held"] = histogram(found, held, options.depth)
        result.lines.append(
            f"from the {int(held.sum()):,} where the condition holds: "
            f"{histogram_text(histogram(found, held, options.depth))}"
        )
        stuck = np.flatnonzero(held & (found == 0))
        chosen = random.Random(0).sample(list(stuck), min(options.stuck, len(stuck)))
        fens = [node.fen for node in terms.batch.nodes(np.array(chosen, dtype=np.int64), 0)]
        data["stuck"] = fens
        result.lines.extend(f"  stuck: {fen}" for fen in fens)
    kept: Mask | None = None
    keeping: tuple[PerPosition, list[PerPosition]] | None = None
    phases: tuple[Mask, Phase] | None = None
    if options.closure:
        tell("closure")
        kept, kept_found, kept_replies = closure(graph, potential, options.depth, won, hold, target)
        keeping = (kept_found, kept_replies)
        inside = int((kept & measured).sum())
        data["closure"] = inside
        result.lines.append(
            f"progress kept up to {'the target or ' if target is not None else ''}mate: "
            f"{inside:,} positions ({100 * inside / measured.sum():.1f} %)"
        )
        if options.failures:
            _failures(graph, terms, measured & ~kept, found, result)
        if options.drive:
            phases = _drive(options, graph, terms, kept, hold, result, tell)
    if options.walk:
        _walks(
            options, graph, terms, potential, found, replies, measured, target, kept, keeping, phases, result
        )
    return result


def _failures(graph: MoveGraph, terms: Terms, outside: Mask, found: PerPosition, result: Analysis) -> None:
    """The positions of the phase from which the progress cannot be kept up,
    as EPD lines for a file: ``c0`` says why ("stuck": the value cannot
    fall within the depth; "leaves the closure": every fall lands where it
    cannot be kept up), ``dm`` the moves to mate with the best play."""
    indices = np.flatnonzero(outside)
    stuck = int((found[indices] == 0).sum())
    plies = graph.table.values[0]
    for node, index in zip(terms.batch.nodes(indices, 0), indices):
        why = "stuck" if found[index] == 0 else "leaves the closure"
        result.failures.append(chess.Board(node.fen).epd(c0=why, dm=(int(plies[index]) + 1) // 2))
    result.data["outside"] = {"stuck": stuck, "leaving": len(indices) - stuck}
    result.lines.append(
        f"outside it: {len(indices):,} positions, {stuck:,} where the value cannot fall within "
        f"the depth, {len(indices) - stuck:,} whose every fall leaves it"
    )


def _drive(
    options: Options,
    graph: MoveGraph,
    terms: Terms,
    kept: Mask,
    hold: Hold | None,
    result: Analysis,
    tell: Say,
) -> tuple[Mask, Phase]:
    """The first phase: the positions from which the drive's potential can be
    kept falling until the game enters the closure ``kept`` (entering it
    counts as lower than every value of the drive); the phases a two-phase
    walk plays."""
    drive_depth = options.drive_depth or options.depth
    tell(f"the drive ({'; '.join(options.drive)})")
    drive_values = terms.potential(list(options.drive), tell)
    drive = np.where(kept, MATE, drive_values)
    driven, _, _ = closure(graph, drive, drive_depth, graph.won, hold, kept_anyway=kept)
    share = 100 * driven.sum() / graph.won.sum()
    result.data["driven"] = int(driven.sum())
    result.lines.append(
        f"driven into it by ({'; '.join(options.drive)}) within {drive_depth} moves, "
        f"progress kept: {int(driven.sum()):,} positions ({share:.1f} %)"
    )
    if options.switch:  # as a table plays: a rule's condition, no closure known
        second = graph.won & terms.where(options.switch, "--switch")
        drive = np.where(second, MATE, drive_values)
        replies: list[PerPosition] = []
        found = depths(graph, drive, drive_depth, replies=replies, hold=hold)
        return second, (drive, found, replies, drive)
    replies = []
    found = depths(graph, drive, drive_depth, driven | kept, replies=replies, hold=hold)
    return kept, (drive, found, replies, np.where(driven | kept, drive, INF))


def _walks(
    options: Options,
    graph: MoveGraph,
    terms: Terms,
    potential: PerPosition,
    found: PerPosition,
    replies: list[PerPosition],
    measured: Mask,
    target: Mask | None,
    kept: Mask | None,
    keeping: tuple[PerPosition, list[PerPosition]] | None,
    phases: tuple[Mask, Phase] | None,
    result: Analysis,
) -> None:
    """Plays ``options.walk`` positions (of the phase, or as ``al0 verify``'s
    ``sample:N``, seed 0) by the progressing moves, then (with the closure)
    by the closure-keeping ones, then in two phases (with the drive)."""
    if options.pre:  # the phase's own positions, seeded
        chosen = random.Random(0).sample(
            list(np.flatnonzero(measured)), min(options.walk, int(measured.sum()))
        )
        boards = [chess.Board(node.fen) for node in terms.batch.nodes(np.array(chosen, dtype=np.int64), 0)]
    else:
        classes = graph.table.positions(chess.WHITE, stronger=chess.WHITE, won=True)
        boards = [c.board() for c in random.Random(0).sample(classes, min(options.walk, len(classes)))]
    prefer = terms.potential(list(options.prefer)) if options.prefer else None
    walker = Walker(
        graph, greedy=options.greedy, fastest=options.fastest, avoid_seen=options.avoid_seen, prefer=prefer
    )
    how = (
        "lowest value, then the tablebase's best,"
        if options.fastest and options.greedy
        else "the tablebase's best"
        if options.fastest
        else "lowest value"
        if options.greedy
        else "first"
    )
    if options.prefer:
        how = f"least ({'; '.join(options.prefer)}) after the reply, then {how}"
    walked = walker.walk(potential, found, replies, boards, None, kept, keeping, target)
    walks: dict[str, object] = {"progressing": walked.summary()}
    result.data["walks"] = walks
    result.lines.append(f"walk, {how} progressing move, tablebase defence: {walked.text()}")
    if kept is None or keeping is None:
        return
    inside = sum(bool(kept[graph.index(board)]) for board in boards)
    walks["starts_in_closure"] = inside
    walks["left_closure"] = len(walked.exits)
    result.lines.append(
        f"  {inside} of the {len(boards)} starts in the closure; {len(walked.exits)} plans left it"
    )
    result.lines.extend(f"  left: {line}" for line in walked.exits[: options.exits])
    keeping_walk = walker.walk(potential, *keeping, boards, kept, next_phase=target)
    walks["keeping_closure"] = keeping_walk.summary()
    result.lines.append(f"walk, {how} move keeping the closure: {keeping_walk.text()}")
    if phases is None:
        return
    if options.switch:
        two = walker.walk(potential, found, replies, boards, None, next_phase=target, drive=phases)
        until = f"where {options.switch} holds, {how} progressing move"
    else:
        two = walker.walk(potential, *keeping, boards, kept, next_phase=target, drive=phases)
        until = f"until the closure, {how} move keeping each"
    walks["two_phases"] = two.summary()
    result.lines.append(f"walk in two phases, the drive {until}: {two.text()}")
