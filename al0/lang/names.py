"""Resolving the names a table uses, at their place in its YAML.

Every predicate, feature and move generator a goal or constraint names must
be the library's own or a call of the standard vocabulary, bound to the
table's material; a defined name is expanded over the table's ``define:``.
A name that is neither is reported at its own column, with a "did you
mean". Split from :mod:`al0.lang.loader` because every part of a table
(definitions, rules, advice, move constraints) checks its names this way.
"""

from __future__ import annotations

import re
from typing import Any, Iterable

from al0.errors import AL0Error, UnknownNameError
from al0.lang.definitions import DefinitionError
from al0.lang.library import Library
from al0.lang.model import Call, Goal, feature_calls, predicate_calls
from al0.lang.vocabulary.registry import ENTRIES
from al0.lang.yaml_reader import Reader, ScalarNode, YamlNode, suggest


def expand_at(reader: Reader, node: YamlNode, expand: Any, value: Any) -> Any:
    """``expand(value)`` (a goal or sum over the table's definitions), a
    misused defined name reported at its place in ``node``."""
    try:
        return expand(value)
    except DefinitionError as error:
        text = reader.scalar_text(node, "") if isinstance(node, ScalarNode) else ""
        offset = offset_of(text, error.call) if error.call is not None else 0
        raise reader.error(node, error.reason, offset=offset) from None


def check_names(reader: Reader, node: YamlNode, goal: Goal, library: Library) -> None:
    """Every predicate and feature of ``goal`` must be in the library or the vocabulary."""
    check_vocabulary(reader, node, predicate_calls(goal), library, "predicate")
    check_vocabulary(reader, node, feature_calls(goal), library, "feature")


KIND_WORDS = {"predicate": "predicate", "generator": "move generator", "feature": "feature"}


def check_vocabulary(
    reader: Reader, node: YamlNode, calls: Iterable[Call], library: Library, kind: str
) -> None:
    """Resolve each call as a ``kind``: the library's own name, else a call
    of the standard vocabulary bound to the table's material (kept in
    ``reader.bound`` by its canonical text).

    :raises UnknownNameError: at the first name neither knows, with a "did
        you mean" or a note that it is another kind of name.
    """
    text = reader.scalar_text(node, "") if isinstance(node, ScalarNode) else ""
    own = {"predicate": library.predicates, "generator": library.generators, "feature": library.features}
    for call in calls:
        name = call.text
        if name in own[kind] or name in reader.bound[kind]:
            continue
        offset = offset_of(text, call)
        assert reader.binder is not None  # set before any expression is read
        try:
            function = reader.binder.bind(call, kind)
        except AL0Error as error:
            raise reader.error(node, str(error), type(error), offset=offset) from None
        if function is not None:
            reader.bound[kind][name] = function
            continue
        family = call.family
        known = set(own[kind]) | {e.name for e in ENTRIES.values() if e.kind == kind}
        hint = suggest(family, known)
        for other in KIND_WORDS:
            entry = ENTRIES.get(family)
            if other != kind and (name in own[other] or entry and entry.kind == other):
                hint = f" ({family!r} is a {KIND_WORDS[other]}, not a {KIND_WORDS[kind]})"
        raise reader.error(
            node, f"unknown {KIND_WORDS[kind]} {name!r}{hint}", UnknownNameError, offset=offset
        )


def offset_of(text: str, call: Call) -> int:
    """Where ``call`` (spaced as written or not) is in ``text``."""
    family, args = call.family, [re.escape(arg) for arg in call.args]
    comma = r"\s*,\s*"
    written = rf"\s*\(\s*{comma.join(args)}\s*\)" if args else ""
    for pattern in (
        rf"(?<![.\w]){re.escape(family)}{written}",
        rf"\b{re.escape(family)}{written}",
        rf"\b{re.escape(family)}\b",
    ):
        match = re.search(pattern, text)
        if match:
            return match.start()
    return 0
