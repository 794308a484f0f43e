"""The verify report as one self-contained HTML page, to look at.

Everything is inline — style, SVG boards, the chart — so the file opens
from disk with no server and no network. The JSON report is embedded whole
(``<script type="application/json" id="al0-report">``), so the page holds all
it holds, and the visible part shows: the command, the summary, a chart of
moves to mate against the optimal distance, the expectations, the table's
rules and advice in its own words, and each kind of failure with its
example boards and game lines in SAN.
"""

from __future__ import annotations

import html
import json
import math
from collections import Counter
from typing import Iterable, Sequence

import chess
import chess.svg

from al0.lang import AdviceTable
from al0.report.replay import ReplayedGame
from al0.verify import EXAMPLES_KEPT, GameRecord, Summary

STYLE = """
body { font-family: Helvetica, Arial, sans-serif; margin: 2em; color: #222; max-width: 70em; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 1.6em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; }
td, th { padding: 0.25em 0.8em; border: 1px solid #ddd; text-align: left; }
th { background: #f3f3f3; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
pre, code { background: #f6f6f6; padding: 0.2em 0.4em; }
pre { padding: 0.6em; white-space: pre-wrap; }
.ok { color: #15781b; font-weight: bold; } .failed { color: #b00020; font-weight: bold; }
.undecided { color: #8a6d00; font-weight: bold; }
.game { display: flex; gap: 1.2em; align-items: flex-start; margin: 1em 0; }
.game .line { max-width: 40em; } .game svg { flex-shrink: 0; } .fen { font-family: monospace; }
"""


def esc(value: object) -> str:
    return html.escape(str(value))


SCRIPT_ESCAPES = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}
"""What JSON embedded in a ``<script>`` element must not hold as is. An
HTML5 parser ends the element at ``</script`` (in any case), and after
``<!--<script`` it skips the real end tag (the script data escaped states),
so a string holding ``<`` can end the JSON early or swallow the page; ``>``,
``&`` and the two line separators (line ends in older JavaScript) are
escaped too, to be safe. Each is written as JSON's ``\\uXXXX`` escape, which
a JSON parser reads back as the character."""


def script_json(data: object) -> str:
    """``data`` as JSON that an HTML parser passes whole to a ``<script>``
    element's text, whatever its strings hold (a table's name is anyone's)."""
    text = json.dumps(data, indent=1)
    for character, escaped in SCRIPT_ESCAPES.items():
        text = text.replace(character, escaped)
    return text


def _table(rows: Iterable[tuple[str, object]], head: tuple[str, str] | None = None) -> str:
    out = ["<table>"]
    if head:
        out.append(f"<tr><th>{esc(head[0])}</th><th>{esc(head[1])}</th></tr>")
    for name, value in rows:
        cls = ' class="num"' if isinstance(value, (int, float)) else ""
        out.append(f"<tr><th>{esc(name)}</th><td{cls}>{esc(value)}</td></tr>")
    out.append("</table>")
    return "".join(out)


def summary_rows(summary: Summary) -> list[tuple[str, object]]:
    """The report's headline numbers, in reading order."""
    rows: list[tuple[str, object]] = [
        ("table", summary.table),
        ("defender", summary.defender.name),
        ("positions", summary.positions.name),
        ("games", f"{summary.games} of {summary.total}" + (" (interrupted)" if summary.interrupted else "")),
    ]
    if summary.handed_on:
        rows.append(("went on with another table", summary.handed_on))
    for name, stats in (
        ("moves to mate", summary.moves_to_mate),
        ("optimal", summary.optimal),
        ("excess", summary.excess),
    ):
        if stats.count:
            rows.append((name, f"mean {stats.mean}, median {stats.median}, max {stats.max}"))
    if summary.plan_times is not None:
        ms = summary.plan_times
        rows.append(
            (
                "plans",
                f"{summary.plans_searched} searched; median {ms.median} ms, "
                f"p95 {ms.p95} ms, max {ms.max} ms; "
                f"{ms.per_second} plans/s",
            )
        )
    rows.append(("wall time", f"{summary.wall_seconds} s"))
    return rows


def chart(records: Sequence[GameRecord], width: int = 560, height: int = 400) -> str | None:
    """An SVG heat map of mated games: the optimal distance to mate across,
    our moves to mate up; each cell's shade grows with its count (log scale),
    and the diagonal is optimal play. None when no mated game has a known
    optimal distance."""
    pairs = Counter((r.optimal, r.moves) for r in records if r.mated and r.optimal is not None)
    if not pairs:
        return None
    max_x = max(x for x, _ in pairs) + 1
    max_y = max(y for _, y in pairs) + 1
    left, bottom, top, right = 48, 40, 12, 12
    cell_w = (width - left - right) / max_x
    cell_h = (height - top - bottom) / max_y
    most = max(pairs.values())
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-label="moves to mate against '
        f'the optimal distance">',
        f'<rect x="{left}" y="{top}" width="{width - left - right}" '
        f'height="{height - top - bottom}" fill="#fafafa" stroke="#999"/>',
    ]
    for (x, y), count in sorted(pairs.items()):
        shade = 0.15 + 0.85 * math.log1p(count) / math.log1p(most)
        parts.append(
            f'<rect x="{left + x * cell_w:.1f}" '
            f'y="{height - bottom - (y + 1) * cell_h:.1f}" '
            f'width="{cell_w:.1f}" height="{cell_h:.1f}" fill="#1f5fa8" '
            f'fill-opacity="{shade:.2f}"><title>optimal {x}, played {y}: '
            f"{counted(count, 'game')}</title></rect>"
        )
    diagonal = min(max_x, max_y)
    parts.append(
        f'<line x1="{left}" y1="{height - bottom}" x2="{left + diagonal * cell_w:.1f}" '
        f'y2="{height - bottom - diagonal * cell_h:.1f}" stroke="#b00020" '
        f'stroke-dasharray="4 3"/>'
    )
    step_x = max(1, round(max_x / 10))
    for x in range(0, max_x, step_x):
        parts.append(
            f'<text x="{left + (x + 0.5) * cell_w:.1f}" y="{height - bottom + 14}" '
            f'font-size="11" text-anchor="middle">{x}</text>'
        )
    step_y = max(1, round(max_y / 10))
    for y in range(0, max_y, step_y):
        parts.append(
            f'<text x="{left - 6}" y="{height - bottom - (y + 0.5) * cell_h + 4:.1f}" '
            f'font-size="11" text-anchor="end">{y}</text>'
        )
    parts.append(
        f'<text x="{left + (width - left - right) / 2}" y="{height - 6}" font-size="12" '
        f'text-anchor="middle">optimal moves to mate (tablebase)</text>'
    )
    middle = top + (height - top - bottom) / 2
    parts.append(
        f'<text x="14" y="{middle}" font-size="12" text-anchor="middle" '
        f'transform="rotate(-90 14 {middle})">our moves to mate</text>'
    )
    parts.append("</svg>")
    return "".join(parts)


def counted(count: int, noun: str) -> str:
    """``1 game``, ``2 games``."""
    return f"{count} {noun}" + ("" if count == 1 else "s")


def shown_note(shown: int, count: int) -> str:
    """What the examples of a kind of failure are, when they are not all
    its games: one game per symmetry class, up to :data:`EXAMPLES_KEPT`."""
    if shown < EXAMPLES_KEPT:
        return (
            f"{shown} of {count} shown: the other {count - shown} are mirror images "
            f"of {'this one' if shown == 1 else 'these'}."
        )
    return f"{shown} of {count} shown, each of a different symmetry class."


def no_plan_reasons(game: ReplayedGame) -> str:
    """Why the game's last position had no plan: the rule that applied (or
    that none did), and each piece of advice it tried with why it was
    passed over."""
    plan = game.end.plan if game.end is not None else None
    if plan is None:
        return ""
    if plan.rule is None:
        return "<p>No plan at the last position: no rule's precondition holds there.</p>"
    items = "".join(f"<li><b>{esc(advice)}</b>: {esc(why)}</li>" for advice, why in game.passed_over)
    return (
        f"<p>No plan at the last position: rule <b>{esc(plan.rule)}</b> applies, "
        f"and each piece of advice it tried was passed over:</p><ul>{items}</ul>"
    )


def game_block(game: ReplayedGame | None, fen: str, caption: str) -> str:
    """One game: its start board, its final board (last move marked) and
    its moves in SAN with the advice."""
    board = chess.Board(fen)
    picture = chess.svg.board(board, size=200)
    if game is not None and game.moves:
        for move, _ in game.moves:
            board.push(move)
        check = board.king(board.turn) if board.is_check() else None
        picture += chess.svg.board(board, lastmove=board.peek(), check=check, size=200)
    text = [f'<div class="line"><p><b>{esc(caption)}</b></p>', f'<p class="fen">{esc(fen)}</p>']
    if game is not None and game.moves:
        text.append(f"<p>{esc(game.san_line())} <b>{esc(game.result)}</b></p>")
        advice = [comment for _, comment in game.moves if comment]
        text.append(f"<p>advice played: {esc(', '.join(advice))}</p>")
    else:
        text.append("<p>(no moves)</p>")
    if game is not None and game.note:
        text.append(f"<p>replay stopped: {esc(game.note)}</p>")
    if game is not None:
        text.append(no_plan_reasons(game))
    if game is not None and game.record.failure:
        text.append(
            f"<p>The plan's search at the last position reached its limit: {esc(game.record.failure)}</p>"
        )
    text.append("</div>")
    return f'<div class="game">{picture}{"".join(text)}</div>'


def glossary(table: AdviceTable) -> str:
    """The table's rules and advice, each with its ``description:`` (the
    names the game lines show, in the author's words)."""
    rows = [("rule", rule.name, rule.description) for rule in table.rules]
    rows += [("advice", advice.name, advice.description) for advice in table.advice.values()]
    out = ["<table><tr><th>kind</th><th>name</th><th>what it does</th></tr>"]
    for kind, name, description in rows:
        out.append(
            f"<tr><td>{kind}</td><th>{esc(name)}</th><td>{esc(description or '(no description)')}</td></tr>"
        )
    out.append("</table>")
    return "".join(out)


def render(
    summary: Summary,
    records: Sequence[GameRecord],
    games: Sequence[ReplayedGame],
    command: str,
    table: AdviceTable,
) -> str:
    """The whole page. ``summary`` is the run's (its JSON report is
    embedded), ``records`` every game's record (for the chart), ``games``
    the replayed failures and example, ``command`` the command line that
    reproduces the run, ``table`` the table verified (its rules and advice
    in words)."""
    by_fen = {game.record.fen: game for game in games}
    title = f"al0 verify: {summary.table} against {summary.defender.name}"
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{esc(title)}</title><style>{STYLE}</style></head><body>",
        f"<h1>{esc(title)}</h1>",
        f'<h2>Command</h2><div id="command"><pre>{esc(command)}</pre></div>',
        '<h2>Summary</h2><div id="summary">',
        _table(summary_rows(summary)),
        "</div>",
        '<h2>Endings</h2><div id="endings">',
        _table(((ending.value, count) for ending, count in summary.endings), head=("ending", "games")),
        "</div>",
    ]
    checks = [expectation.check for expectation in summary.expectations or ()]
    parts.append('<h2>Expectations</h2><div id="expectations">')
    if checks:
        parts.append("<table><tr><th>expectation</th><th>holds</th><th>measured</th></tr>")
        for check in checks:
            decision = check.decision
            parts.append(
                f'<tr><th>{esc(check.claim.value)}</th><td class="{decision.value.lower()}">'
                f"{decision.value}</td><td>{esc(check.measured)}</td></tr>"
            )
        parts.append("</table>")
    else:
        parts.append("<p>The table declares no expectations (no <code>expect:</code> block).</p>")
    parts.append("</div>")
    parts.append('<h2>Moves to mate against the optimal distance</h2><div id="chart">')
    drawn = chart(records)
    if drawn is None:
        parts.append("<p>No mated game with a known optimal distance: nothing to chart.</p>")
    else:
        parts.append(drawn)
        parts.append(
            "<p>Across: the tablebase's fewest moves to mate; up: the moves al0 took. "
            "Each cell counts the mated games of that optimal distance and that "
            "length; darker is more. The dashed line is optimal play.</p>"
        )
    parts.append("</div>")
    parts.append('<h2>The table\'s rules and advice</h2><div id="table">')
    parts.append(glossary(table))
    parts.append("</div>")
    parts.append('<h2>Failures</h2><div id="failures">')
    if not summary.failure_examples:
        parts.append("<p>None: every game was mated.</p>")
    for ending, examples in summary.failure_examples:
        kind, count = ending.value, summary.count(ending)
        parts.append(f"<h3>{esc(kind)}: {counted(count, 'game')}</h3>")
        if len(examples) < count:
            parts.append(f"<p>{shown_note(len(examples), count)}</p>")
        for example in examples:
            parts.append(
                game_block(
                    by_fen.get(example.fen),
                    example.fen,
                    f"{kind} after {counted(example.moves, 'move')}",
                )
            )
    parts.append("</div>")
    mated = [g for g in games if g.record.mated]
    if mated:
        longest = mated[-1]
        parts.append('<h2>Example: the longest mate</h2><div id="example">')
        parts.append(
            game_block(
                longest,
                longest.record.fen,
                f"mate in {counted(longest.record.moves, 'move')} (optimal {longest.record.optimal})",
            )
        )
        parts.append("</div>")
    parts.append(f'<script type="application/json" id="al0-report">{script_json(summary.to_json())}</script>')
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"
