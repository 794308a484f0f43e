"""Reading an advice table from YAML into a checked :class:`~al0.lang.model.AdviceTable`.

It checks the table's keys and builds the model from them: it rejects
unknown keys; it parses every expression and resolves every name against
the table's library and the standard chess vocabulary (binding calls such
as ``dist(K, k)`` to the table's material), so a table that loads can be
searched. The YAML itself is read by :mod:`al0.lang.yaml_reader`, names
are resolved by :mod:`al0.lang.names`, move constraints read by
:mod:`al0.lang.read_moves`, the ``expect:`` block by
:mod:`al0.lang.read_expect` and ``successors:`` by
:mod:`al0.lang.read_successors`.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Iterable

import chess

from al0.board import Material
from al0.board.fen import check_legal, check_playable
from al0.bundled import bundled_namesake, table_path
from al0.errors import LibraryError, PositionError, TableSyntaxError, UnknownNameError
from al0.files import read_regular_file
from al0.lang.definitions import Definitions
from al0.lang.expr import KEYWORDS, ExpressionError, parse_goal, parse_sum
from al0.lang.library import Library
from al0.lang.library_import import find_library
from al0.lang.model import Advice, AdviceTable, Call, Feature, Goal, Rule, Sum, feature_calls, predicate_calls
from al0.lang.names import KIND_WORDS, check_names, check_vocabulary, expand_at, offset_of
from al0.lang.read_expect import read_expect_blocks
from al0.lang.read_moves import read_constraint
from al0.lang.read_successors import read_successors
from al0.lang.vocabulary.binding import Binder
from al0.lang.vocabulary.registry import ENTRIES
from al0.lang.yaml_reader import Reader, YamlNode, compose, suggest

TABLE_KEYS = {
    "name",
    "material",
    "side",
    "library",
    "description",
    "start",
    "symmetric",
    "define",
    "rules",
    "advice",
    "expect",
    "successors",
}
REQUIRED_TABLE_KEYS = ("name", "material", "rules", "advice")
RULE_KEYS = {"name", "if", "then", "description"}
ADVICE_KEYS = {"better-goal", "holding-goal", "us-moves", "them-moves", "description", "prefer", "minimise"}
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
MAX_TABLE_BYTES = 10_000_000
"""The largest table file read (the bundled ones are under 30 KB): a bound
on the memory a table given by mistake, such as a disk image, can take."""


def load_table(path: str | Path) -> AdviceTable:
    """Load, check and normalise the advice table at ``path`` (a file, or
    the name of a bundled table: ``krk``, ``kqk``).

    :raises TableSyntaxError: malformed YAML, keys or expressions.
    :raises UnknownNameError: a name the library or table does not define.
    :raises LibraryError: the library is missing or broken.
    """
    path = table_path(str(path))
    try:
        # Newlines as read_text() gives them: \r\n and \r are \n.
        text = (
            read_regular_file(path, MAX_TABLE_BYTES).decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
        )
    except OSError as error:
        namesake = bundled_namesake(path) if isinstance(error, FileNotFoundError) else None
        hint = f" (the bundled table of that name is `{namesake}`)" if namesake else ""
        raise TableSyntaxError(f"{path}: cannot read table: {error.strerror}{hint}") from None
    except UnicodeDecodeError:
        raise TableSyntaxError(f"{path}: not a UTF-8 text file") from None
    return parse_table(text, str(path), path.parent)


def parse_table(text: str, path: str, table_dir: Path) -> AdviceTable:
    """Like :func:`load_table`, from the YAML ``text`` of file ``path``."""
    reader = Reader(path, table_dir)
    root = compose(text, path)
    if root is None:
        raise TableSyntaxError(f"{path}:1:1: the table is empty")
    top = reader.mapping(root, "the table", TABLE_KEYS, REQUIRED_TABLE_KEYS)

    def value(key: str) -> YamlNode:
        return top[key][1]

    name = reader.string(value("name"), "name")
    try:
        material = Material.parse(reader.string(value("material"), "material").upper())
    except PositionError as error:
        raise reader.error(value("material"), str(error)) from None
    us = chess.WHITE
    if "side" in top:
        side = reader.string(value("side"), "side").lower()
        if side not in ("white", "black"):
            raise reader.error(value("side"), f"side must be white or black, not {side!r}")
        us = side == "white"
    library = Library("standard", symmetric=True).with_standard()
    if "library" in top:
        library_node = value("library")
        try:
            library = find_library(reader.string(library_node, "library"), table_dir)
        except LibraryError as error:
            raise LibraryError(f"{reader.where(library_node)}: {error}") from None
    reader.binder = Binder(material)
    start, start_location = None, None
    if "start" in top:
        start_location = reader.where(value("start"))
        start = reader.string(value("start"), "start")
        try:
            board = chess.Board(start)
        except ValueError as error:
            raise reader.error(value("start"), f"start is not a valid FEN: {error}") from None
        try:
            check_legal(board, start)
            check_playable(board, material, us)
        except PositionError as error:
            raise reader.error(value("start"), f"start: {error}") from None

    definitions = _read_definitions(reader, value("define"), library) if "define" in top else Definitions()
    advice = _read_advice(reader, value("advice"), library, definitions)
    rules = _read_rules(reader, value("rules"), library, advice, definitions)
    symmetric = _read_symmetric(reader, top, library)
    library = library.extended(reader.bound["predicate"], reader.bound["generator"], reader.bound["feature"])
    return AdviceTable(
        name=name,
        material=material,
        us=us,
        rules=rules,
        advice=advice,
        library=library,
        path=path,
        description=_description(reader, top, "the table's"),
        start_fen=start,
        start_location=start_location,
        symmetric=symmetric,
        expect=read_expect_blocks(reader, value("expect"), material.stronger_first() != material)
        if "expect" in top
        else (),
        successors=read_successors(reader, value("successors"), material, us) if "successors" in top else (),
    )


def _read_symmetric(reader: Reader, top: dict[str, tuple[YamlNode, YamlNode]], library: Library) -> bool:
    """Whether the table is planned in one orientation per symmetry class:
    as its ``symmetric`` key says, else when its library says its vocabulary
    ignores the board's orientation and the table names no numbered piece
    and no square colour. An author who reads ``B1`` and ``B2`` alike may
    say ``symmetric: true``; a table naming ``light`` or ``dark`` may not.

    :raises TableSyntaxError: ``symmetric: true`` with a square colour named.
    """
    assert reader.binder is not None  # every expression has been read
    if "symmetric" not in top:
        return library.symmetric and not reader.binder.colours and not reader.binder.numbered
    node = top["symmetric"][1]
    symmetric = reader.boolean(node, "symmetric")
    if symmetric and reader.binder.colours:
        raise reader.error(
            node,
            f"symmetric: true, but {reader.binder.colours[0]} names a "
            f"square colour, which a mirror image swaps",
        )
    return symmetric


def _read_definitions(reader: Reader, node: YamlNode, library: Library) -> Definitions:
    """The ``define:`` mapping, in order: each name a goal (used as a
    predicate) or a sum of features (used as a feature, ``root.`` too),
    expanded over the names defined before it and checked at its own place.
    A single name is a goal when it names a predicate, else a sum.

    :raises TableSyntaxError: a name that is not one, is a keyword or would
        hide a name of the vocabulary or the library; a sum of numbers only.
    :raises UnknownNameError: a name neither defined before nor known.
    """
    definitions = Definitions()
    entries = reader.mapping(node, "define", ())
    for index, (name, (key_node, value_node)) in enumerate(entries.items()):
        if not NAME.fullmatch(name) or name in KEYWORDS:
            raise reader.error(
                key_node,
                f"define: {name!r} is not a name to define (letters, "
                f"digits and _, not a keyword such as 'root')",
            )
        entry = ENTRIES.get(name)
        for kind, own in (
            ("predicate", library.predicates),
            ("feature", library.features),
            ("generator", library.generators),
        ):
            if name in own or (entry is not None and entry.kind == kind):
                raise reader.error(
                    key_node, f"define: {name!r} would hide the {KIND_WORDS[kind]} of that name"
                )
        what = f"define {name!r}"
        text = reader.scalar_text(value_node, what)
        try:
            total: Sum | None = parse_sum(text)
        except ExpressionError:
            total = None
        used = (
            [term.call for _, term in total.parts if isinstance(term, Feature)]
            if total
            else list(_goal_calls(reader.expression(value_node, what, parse_goal)))
        )
        later = next((call for call in used if call.family in list(entries)[index:]), None)
        if later is not None:
            text_offset = offset_of(text, later)
            raise reader.error(
                value_node,
                f"{what} uses {later.text!r}, which is not defined above it "
                f"(define a name before its first use)",
                offset=text_offset,
            )
        if total is not None and not _names_a_predicate(total, library, definitions):
            if not any(isinstance(term, Feature) for _, term in total.parts):
                raise reader.error(
                    value_node,
                    f"{what}: a defined number needs a feature (e.g. dist(K, k)), not only numbers",
                )
            total = expand_at(reader, value_node, definitions.expand_sum, total)
            check_vocabulary(
                reader,
                value_node,
                [term.call for _, term in total.parts if isinstance(term, Feature)],
                library,
                "feature",
            )
            definitions.sums[name] = total
        else:
            goal = expand_at(
                reader, value_node, definitions.expand, reader.expression(value_node, what, parse_goal)
            )
            check_names(reader, value_node, goal, library)
            definitions.goals[name] = goal
    return definitions


def _goal_calls(goal: Goal) -> Iterable[Call]:
    """The predicates and features a goal calls."""
    yield from predicate_calls(goal)
    yield from feature_calls(goal)


def _names_a_predicate(total: Sum, library: Library, definitions: Definitions) -> bool:
    """Whether a definition read as a sum is one bare name of a predicate
    (of the library, the vocabulary or an earlier definition): a goal."""
    if len(total.parts) != 1 or not isinstance(total.parts[0][1], Feature):
        return False
    term = total.parts[0][1]
    if term.at_root or total.parts[0][0] != 1:
        return False
    entry = ENTRIES.get(term.call.family)
    return (
        term.name in library.predicates
        or term.name in definitions.goals
        or (entry is not None and entry.kind == "predicate")
    )


def _read_rules(
    reader: Reader, node: YamlNode, library: Library, advice: dict[str, Advice], definitions: Definitions
) -> tuple[Rule, ...]:
    rules: list[Rule] = []
    names: set[str] = set()
    items = reader.sequence(node, "rules")
    if not items:
        raise reader.error(node, "rules must list at least one rule")
    for item in items:
        entries = reader.mapping(item, "a rule", RULE_KEYS, ("name", "if", "then"))
        name_node = entries["name"][1]
        name = reader.string(name_node, "a rule's name")
        if name in names:
            raise reader.error(name_node, f"duplicate rule name {name!r}")
        names.add(name)
        if_node = entries["if"][1]
        precondition = expand_at(
            reader,
            if_node,
            definitions.expand,
            reader.expression(if_node, f"rule {name!r} precondition", parse_goal),
        )
        check_names(reader, if_node, precondition, library)
        advice_names = []
        then_node = entries["then"][1]
        for advice_node in reader.sequence(then_node, f"rule {name!r} advice list"):
            advice_name = reader.string(advice_node, "an advice name")
            if advice_name not in advice:
                raise reader.error(
                    advice_node,
                    f"unknown advice {advice_name!r}{suggest(advice_name, advice)}",
                    UnknownNameError,
                )
            advice_names.append(advice_name)
        if not advice_names:
            raise reader.error(then_node, f"rule {name!r} lists no advice")
        rules.append(
            Rule(
                name,
                precondition,
                tuple(advice_names),
                reader.scalar_text(if_node, ""),
                reader.where(name_node),
                _description(reader, entries, f"rule {name!r}"),
            )
        )
    return tuple(rules)


def _read_advice(
    reader: Reader, node: YamlNode, library: Library, definitions: Definitions
) -> dict[str, Advice]:
    pieces: dict[str, Advice] = {}
    entries = reader.mapping(node, "advice", ())
    if not entries:
        raise reader.error(node, "advice must define at least one piece of advice")
    for name, (key_node, value_node) in entries.items():
        what = f"advice {name!r}"
        parts = reader.mapping(
            value_node, what, ADVICE_KEYS, ("better-goal", "holding-goal", "us-moves", "them-moves")
        )
        goals = {}
        for key in ("better-goal", "holding-goal"):
            goal_node = parts[key][1]
            goals[key] = expand_at(
                reader,
                goal_node,
                definitions.expand,
                reader.expression(goal_node, f"{what} {key}", parse_goal),
            )
            check_names(reader, goal_node, goals[key], library)
        constraints = {
            key: read_constraint(reader, parts[key][1], f"{what} {key}", library, ours=key == "us-moves")
            for key in ("us-moves", "them-moves")
        }
        source = {key: reader.scalar_text(parts[key][1], key) for key in ("better-goal", "holding-goal")}
        source.update({key: str(constraints[key]) for key in ("us-moves", "them-moves")})
        prefer = _read_prefer(reader, parts, what, library, definitions)
        if prefer:
            key = "prefer" if "prefer" in parts else "minimise"
            source[key] = "; ".join(str(term) for term in prefer)
        pieces[name] = Advice(
            name,
            goals["better-goal"],
            goals["holding-goal"],
            constraints["us-moves"],
            constraints["them-moves"],
            source,
            reader.where(key_node),
            prefer,
            _description(reader, parts, what),
            {key: reader.where(parts[key][1]) for key in ("better-goal", "holding-goal")},
        )
    return pieces


def _read_prefer(
    reader: Reader,
    parts: dict[str, tuple[YamlNode, YamlNode]],
    what: str,
    library: Library,
    definitions: Definitions,
) -> tuple[Sum, ...]:
    """An advice's ``prefer:`` (a sum, or a list of sums, the first most
    significant) or its older one-sum spelling ``minimise:``; () when it has
    neither.

    :raises TableSyntaxError: both keys, an empty list, or a sum without a
        feature, at its ``file:line:col``.
    """
    if "prefer" in parts and "minimise" in parts:
        raise reader.error(parts["minimise"][0], f"{what}: minimise: is the older name of prefer:; give one")
    key = "prefer" if "prefer" in parts else "minimise"
    if key not in parts:
        return ()
    node = parts[key][1]
    items = reader.items(node) if key == "prefer" else [node]
    if not items:
        raise reader.error(node, f"{what} {key}: an empty list prefers nothing")
    terms = []
    for item in items:
        try:
            parsed = reader.expression(item, f"{what} {key}", parse_sum)
        except TableSyntaxError as error:
            if not reader.unquoted_in_brackets(node):
                raise
            raise TableSyntaxError(
                f"{error} (in [...] a comma ends an item: quote each sum, or write one per line)"
            ) from None
        term = expand_at(reader, item, definitions.expand_sum, parsed)
        features = [part.call for _, part in term.parts if isinstance(part, Feature)]
        if not features:
            raise reader.error(item, f"{what} {key}: a number to minimise needs a feature (e.g. dist(K, k))")
        check_vocabulary(reader, item, features, library, "feature")
        terms.append(term)
    return tuple(terms)


def _description(reader: Reader, entries: dict[str, tuple[YamlNode, YamlNode]], what: str) -> str:
    """The entry's ``description:`` on one line (a folded or literal block
    reads as its words), or "" when it has none.

    :raises TableSyntaxError: a description that is empty or not text.
    """
    if "description" not in entries:
        return ""
    return " ".join(reader.string(entries["description"][1], f"{what} description", lines=True).split())
