"""PyYAML's errors said in al0's words, at the place to mend.

PyYAML reports what its parser expected (``expected <block end>, but found
'<block mapping start>'``) and often where it noticed, which may be the line
after the mistake. An author needs what is wrong with the text and where:
a key indented to no column of the keys above it, a key without ``:``, a tab,
a bracket or quote left open. :func:`yaml_problem` turns the parts of a
PyYAML error (its problem, its context and their places) into one line and
the place it names; :mod:`al0.lang.yaml_reader` raises it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

FOUND = re.compile(r"expected <block end>, but found '(?P<found>[^']*)'")
CANNOT_START = re.compile(r"found character '(?P<char>.+)' that cannot start any token")
UNCLOSED_FLOW = re.compile(r"expected ',' or '(?P<close>[\]}])', but got")
UNDEFINED_ALIAS = re.compile(r"found undefined alias '(?P<name>[^']*)'")
UNKNOWN_ESCAPE = re.compile(r"found unknown escape character '(?P<char>[^']*)'")


@dataclass(frozen=True)
class Mark:
    """A place in the text, 1-based."""

    line: int
    column: int


@dataclass(frozen=True)
class Problem:
    """What is wrong, and where to mend it."""

    mark: Mark
    message: str


def _indent(text: str, line: int) -> int:
    """The spaces before the first character of ``line`` (1-based) of ``text``."""
    lines = text.split("\n")
    row = lines[line - 1] if 0 < line <= len(lines) else ""
    return len(row) - len(row.lstrip(" "))


def _line_above(text: str, line: int) -> int:
    """The nearest line above ``line`` holding more than blanks or a comment (0: none)."""
    lines = text.split("\n")
    for above in range(min(line, len(lines) + 1) - 1, 0, -1):
        content = lines[above - 1].strip()
        if content and not content.startswith("#"):
            return above
    return 0


def _spaces(count: int) -> str:
    return f"{count} space{'' if count == 1 else 's'}"


def yaml_problem(
    text: str, problem: str | None, at: Mark | None, context: str | None, context_at: Mark | None
) -> Problem:
    """The parts of a PyYAML error about ``text`` in al0's words: ``problem``
    at ``at``, noticed ``context`` (``while parsing a block mapping``) begun
    at ``context_at``."""
    problem = problem or ""
    where = at or context_at or Mark(1, 1)
    found = FOUND.match(problem)
    if found and context_at is not None:
        return _block_end(text, found["found"], where, context or "", context_at)
    if problem == "mapping values are not allowed here":
        line = text.split("\n")[where.line - 1] if where.line <= text.count("\n") + 1 else ""
        before = line[: where.column - 1]
        if ":" not in before.strip() and not before.strip().startswith("-"):
            start = Mark(where.line, _indent(text, where.line) + 1)
            return Problem(
                start,
                "indentation: this key is indented further than the key above it, so YAML reads it "
                "as part of that key's value; indent it as that key (or quote a value holding ': ')",
            )
        return Problem(where, "a value holds ': ': quote the value ('…') or put the key on a line of its own")
    if problem == "could not find expected ':'" and context_at is not None:
        return Problem(
            context_at,
            "this line is neither 'key: value' nor a list item '- …': a key needs ':' after it "
            "(or, if it continues the value above, indent it further than that value's key)",
        )
    character = CANNOT_START.match(problem)
    if character and character["char"] == "\\t":
        return Problem(where, "a tab: YAML indents with spaces only")
    if character:
        return Problem(where, f"{character['char']!r} cannot begin a value in YAML: quote the value ('…')")
    flow = UNCLOSED_FLOW.match(problem)
    if flow and context_at is not None:
        opened = "[" if flow["close"] == "]" else "{"
        return Problem(
            context_at,
            f"the {opened!r} opened here is not closed with {flow['close']!r}"
            f"(or a ',' is missing between its items)",
        )
    if problem == "found unexpected end of stream" and context_at is not None and "quoted" in (context or ""):
        return Problem(context_at, "the quote opened here is never closed")
    alias = UNDEFINED_ALIAS.match(problem)
    if alias:
        return Problem(
            where,
            f"*{alias['name']} names no anchor &{alias['name']} above it "
            f"(a value that begins with '*' must be quoted)",
        )
    escape = UNKNOWN_ESCAPE.match(problem)
    if escape:
        return Problem(
            Mark(where.line, max(where.column - 1, 1)),  # at the backslash
            f"'\\{escape['char']}' is no escape YAML knows in a double-quoted value: "
            f"use single quotes, or write '\\\\' for a backslash",
        )
    if problem == "but found another document":
        return Problem(where, "a second YAML document ('---'): a table is one document")
    said = f"bad YAML: {problem}" if problem else "bad YAML"
    if context and context_at is not None and context_at != where:
        said += f" ({context} at line {context_at.line}, column {context_at.column})"
    return Problem(where, said)


def _block_end(text: str, found: str, at: Mark, context: str, context_at: Mark) -> Problem:
    """``expected <block end>``: a line that continues no block above it."""
    block = "list" if "collection" in context or "sequence" in context else "mapping"
    column = context_at.column - 1
    if found == "-":
        return Problem(
            at,
            f"a list item where a key of the mapping begun at line {context_at.line} was expected: "
            f"a list goes under a key ('key:' and then '- item' indented further)",
        )
    if found == "?" and block == "list":
        return Problem(
            at,
            f"indentation: this key lines up with the '-' of the list item at line {context_at.line}; "
            f"a list item's keys line up with its first key, after '- '",
        )
    if found in ("<block mapping start>", "<block sequence start>"):
        above = _line_above(text, at.line)
        said = f"line {above} is indented {_spaces(_indent(text, above))}, " if above else ""
        return Problem(
            at,
            f"indentation: this line is indented {_spaces(at.column - 1)}, which lines up with no "
            f"key or item above it ({said}the {block} begun at line {context_at.line} "
            f"{_spaces(column)}); indent it as the key or item it belongs with",
        )
    if found == ":":
        return Problem(at, "a ':' with no key before it")
    return Problem(
        at,
        f"unexpected text after the {block} begun at line {context_at.line} (a value that ended, then more)",
    )
