"""Reading an advice table from YAML into a checked :class:`~al0.lang.model.AdviceTable`.

The only module that imports ``yaml``. It walks PyYAML's node graph rather
than plain dicts, so every error can name ``file:line:col``; it rejects
duplicate and unknown keys; it parses every expression and resolves every
name against the table's library and the standard chess vocabulary (binding
calls such as ``dist(K, k)`` to the table's material), so a table that loads
can be searched.
"""

from __future__ import annotations

import difflib
import re
from pathlib import Path
from typing import Any, Iterable

import chess
import yaml

from al0.bundled import bundled_namesake, table_path
from al0.lang.specs import DefenderSpec
from al0.errors import AL0Error, LibraryError, PositionError, TableSyntaxError, UnknownNameError
from al0.lang.definitions import DefinitionError, Definitions
from al0.lang.expr import (KEYWORDS, ExpressionError, parse_constraint, parse_depth_spec,
                           parse_generators, parse_goal, parse_sum)
from al0.integers import IntegerError, parse_int
from al0.lang.library import Library, find_library
from al0.lang.model import (AdviceTable, Advice, Alternative, Expectations, Feature, Goal,
                            Location, MoveConstraint, Rule, Sum, feature_names, predicate_names)
from al0.board.fen import check_legal, check_playable, file_in_folder, sample_size
from al0.lang.vocabulary.binding import Binder, split_call
from al0.lang.vocabulary.registry import ENTRIES

TABLE_KEYS = {"name", "material", "side", "library", "description", "start",
              "symmetric", "define", "rules", "advice", "expect"}
REQUIRED_TABLE_KEYS = ("name", "material", "rules", "advice")
RULE_KEYS = {"name", "if", "then"}
ADVICE_KEYS = {"better-goal", "holding-goal", "us-moves", "them-moves", "description", "minimise"}
EXPECT_KEYS = {"mates-all": "mates_all", "stalemates": "max_stalemates",
               "material-lost": "max_material_lost", "no-plan": "max_no_plan",
               "max-moves": "max_moves", "mean-moves": "mean_moves", "positions": "positions",
               "defender": "defender"}
MATERIAL = re.compile(r"K[QRBNP]*K[QRBNP]*")
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
MERGE_TAG = "tag:yaml.org,2002:merge"
"""The tag of YAML's merge key ``<<``, which copies an anchored mapping's
entries into another (``<<: *common``), so advice can share settings."""
MAX_YAML_DEPTH = 50
"""Most levels of nested YAML collections in a table (a real one has five):
PyYAML composes recursively and would otherwise overflow Python's stack."""
MAX_YAML_NODES = 100_000
"""Most YAML nodes a table may hold with every alias counted as the nodes it
repeats (a real table has at most a few thousand): aliases and ``<<`` merge
keys share a node, but reading the table expands them, so 800 bytes of
``<<: [*a, *a]`` on 39 levels would take 2**39 steps."""


class _Loader(yaml.SafeLoader):
    """PyYAML's safe loader, refusing collections nested deeper than
    :data:`MAX_YAML_DEPTH` and documents that expand to more than
    :data:`MAX_YAML_NODES` nodes, with an error at the offending node or
    alias."""

    def __init__(self, stream: str):
        super().__init__(stream)
        self.nesting = 0
        self.expanded = 0
        """Nodes composed so far, each alias counted as the nodes it repeats."""
        self.sizes: dict[int, int] = {}
        """The expanded size of each anchored node, by id: what an alias to it adds."""

    def compose_node(self, parent: yaml.Node | None, index: int) -> yaml.Node | None:
        event: yaml.Event = self.peek_event()  # type: ignore[no-untyped-call]
        if isinstance(event, yaml.AliasEvent):
            node = super().compose_node(parent, index)
            # An alias to a node still being composed (itself recursive) counts once.
            self._count(self.sizes.get(id(node), 1), event)
            return node
        before = self.expanded
        self._count(1, event)
        if self.check_event(yaml.CollectionStartEvent):
            if self.nesting >= MAX_YAML_DEPTH:
                raise _composer_error(f"collections nested more than {MAX_YAML_DEPTH} deep",
                                      event)
            self.nesting += 1
            try:
                node = super().compose_node(parent, index)
            finally:
                self.nesting -= 1
        else:
            node = super().compose_node(parent, index)
        if getattr(event, "anchor", None) is not None and node is not None:
            self.sizes[id(node)] = self.expanded - before
        return node

    def _count(self, nodes: int, event: yaml.Event) -> None:
        """Add ``nodes`` met at ``event``, refusing the document past the bound."""
        self.expanded += nodes
        if self.expanded > MAX_YAML_NODES:
            raise _composer_error(f"the table expands to more than {MAX_YAML_NODES:,} YAML "
                                  f"nodes (aliases and '<<' merge keys repeat what they name)",
                                  event)


def _composer_error(problem: str, event: yaml.Event) -> yaml.composer.ComposerError:
    """PyYAML's error for a document it cannot compose, at ``event``."""
    mark: yaml.Mark = event.start_mark  # type: ignore[assignment]
    return yaml.composer.ComposerError(None, None, problem, mark)


class _Reader:
    """Turns YAML nodes of one file into model values, raising located errors."""

    def __init__(self, path: str, folder: Path):
        self.path = path
        self.folder = folder
        """The table's folder, the only one whose files it may name."""
        self.binder: Binder | None = None
        """Binds the standard vocabulary's calls; set once the material is read."""
        self.bound: dict[str, dict[str, Any]] = {"predicate": {}, "generator": {},
                                                 "feature": {}}

    def where(self, node: yaml.Node, offset: int = 0) -> Location:
        """The location of ``node``, or of character ``offset`` of a scalar's
        value, found in the source so that multi-line and block (``>-``)
        scalars, whose value YAML folds into one line, point at the right line."""
        mark = node.start_mark
        index = _source_index(node, offset) if isinstance(node, yaml.ScalarNode) else None
        if index is None:
            quote = 1 if isinstance(node, yaml.ScalarNode) and node.style in ('"', "'") else 0
            return Location(self.path, mark.line + 1, mark.column + 1 + quote + offset)
        buffer = mark.buffer
        assert buffer is not None  # _source_index found an index in it
        line = mark.line + buffer.count("\n", mark.pointer, index)
        newline = buffer.rfind("\n", mark.pointer, index)
        column = index - newline - 1 if newline >= 0 else mark.column + index - mark.pointer
        return Location(self.path, line + 1, column + 1)

    def error(self, node: yaml.Node, message: str, kind: type[AL0Error] = TableSyntaxError,
              offset: int = 0) -> AL0Error:
        return kind(f"{self.where(node, offset)}: {message}")

    def mapping(self, node: yaml.Node, what: str, allowed: Iterable[str],
                required: Iterable[str] = ()) -> dict[str, tuple[yaml.Node, yaml.Node]]:
        """A mapping's entries by key, each as (key node, value node)."""
        if not isinstance(node, yaml.MappingNode):
            raise self.error(node, f"{what} must be a mapping")
        allowed = set(allowed)
        entries: dict[str, tuple[yaml.Node, yaml.Node]] = {}
        merged: list[tuple[yaml.Node, yaml.Node]] = []
        for key_node, value_node in node.value:
            if key_node.tag == MERGE_TAG:
                merged.extend(self.merged_entries(value_node, what, {id(node)}))
                continue
            key = self.scalar_text(key_node, f"a key of {what}")
            if key in entries:
                raise self.error(key_node, f"duplicate key {key!r} in {what}")
            entries[key] = (key_node, value_node)
        for key_node, value_node in merged:
            # The mapping's own keys win; of merged ones, the first wins (YAML's rule).
            entries.setdefault(self.scalar_text(key_node, f"a key of {what}"),
                               (key_node, value_node))
        for key, (key_node, _) in entries.items():
            if allowed and key not in allowed:
                hint = suggest(key, allowed) or f" (expected {', '.join(sorted(allowed))})"
                raise self.error(key_node, f"unknown key {key!r} in {what}{hint}")
        for key in required:
            if key not in entries:
                raise self.error(node, f"{what} is missing the key {key!r}")
        return entries

    def merged_entries(self, node: yaml.Node, what: str,
                       seen: set[int]) -> list[tuple[yaml.Node, yaml.Node]]:
        """The entries a ``<<:`` key merges into a mapping: those of one
        mapping (``<<: *name``) or of a list of them, earlier ones first,
        each with the entries it merges itself after its own."""
        sources = node.value if isinstance(node, yaml.SequenceNode) else [node]
        entries: list[tuple[yaml.Node, yaml.Node]] = []
        for source in sources:
            if not isinstance(source, yaml.MappingNode):
                raise self.error(source, f"'<<' in {what} must merge a mapping "
                                         "(an alias such as *name, or a list of them)")
            if id(source) in seen:
                raise self.error(source, f"'<<' in {what} merges a mapping into itself")
            entries.extend(entry for entry in source.value if entry[0].tag != MERGE_TAG)
            for key_node, value_node in source.value:
                if key_node.tag == MERGE_TAG:
                    entries.extend(self.merged_entries(value_node, what, seen | {id(source)}))
        return entries

    def scalar_text(self, node: yaml.Node, what: str) -> str:
        if not isinstance(node, yaml.ScalarNode):
            raise self.error(node, f"{what} must be a single value, not a "
                             f"{'list' if isinstance(node, yaml.SequenceNode) else 'mapping'}")
        return str(node.value)

    def string(self, node: yaml.Node, what: str) -> str:
        text = self.scalar_text(node, what).strip()
        if not text:
            raise self.error(node, f"{what} is empty")
        return text

    def integer(self, node: yaml.Node, what: str) -> int:
        try:
            return parse_int(self.scalar_text(node, what), what)
        except IntegerError as error:
            raise self.error(node, str(error)) from None

    def boolean(self, node: yaml.Node, what: str) -> bool:
        text = self.scalar_text(node, what).strip().lower()
        if text not in ("true", "false"):
            raise self.error(node, f"{what} must be true or false, not {text!r}")
        return text == "true"

    def sequence(self, node: yaml.Node, what: str) -> list[yaml.Node]:
        if not isinstance(node, yaml.SequenceNode):
            raise self.error(node, f"{what} must be a list")
        return list(node.value)

    def expression(self, node: yaml.Node, what: str, parse: Any) -> Any:
        """Parse a scalar expression, mapping syntax errors to its location."""
        text = self.scalar_text(node, what)
        try:
            return parse(text)
        except ExpressionError as error:
            raise self.error(node, f"{what}: {error.reason}: {text!r}",
                             offset=error.offset) from None


def _source_index(node: yaml.ScalarNode, offset: int) -> int | None:
    """Where character ``offset`` of ``node.value`` stands in the YAML source.

    Folding lines and stripping indentation only change whitespace, so the
    k-th non-blank character of the value is the k-th of the source text.
    An offset at the end of the value maps just past its last character.
    None when the source is unknown or differs from the value other than in
    whitespace (escapes in a quoted scalar): the caller then counts columns.
    """
    buffer = node.start_mark.buffer
    if buffer is None:
        return None
    start, end = node.start_mark.pointer, node.end_mark.pointer
    if node.style in ("|", ">"):
        # The content starts on the line after the header (``>-``, maybe a comment).
        start = buffer.find("\n", start, end) + 1
        if start == 0:
            return None
    elif node.style in ("'", '"'):
        start += 1
    chars = [c for c in node.value if not c.isspace()]
    positions = [i for i in range(start, end) if not buffer[i].isspace()][:len(chars)]
    if [buffer[i] for i in positions] != chars:
        return None
    before = sum(1 for c in node.value[:offset] if not c.isspace())
    if node.value[offset:].strip():
        return positions[before]
    return positions[before - 1] + 1 if before else start


def suggest(name: str, known: Iterable[str]) -> str:
    """ `` (did you mean 'x'?)`` when a known name is close to ``name``."""
    close = difflib.get_close_matches(name, sorted(known), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def load_table(path: str | Path) -> AdviceTable:
    """Load, check and normalise the advice table at ``path`` (a file, or
    the name of a bundled table: ``krk``, ``kqk``).

    :raises TableSyntaxError: malformed YAML, keys or expressions.
    :raises UnknownNameError: a name the library or table does not define.
    :raises LibraryError: the library is missing or broken.
    """
    path = table_path(str(path))
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        namesake = bundled_namesake(path) if isinstance(error, FileNotFoundError) else None
        hint = f" (the bundled table of that name is `{namesake}`)" if namesake else ""
        raise TableSyntaxError(f"{path}: cannot read table: {error.strerror}{hint}") from None
    except UnicodeDecodeError:
        raise TableSyntaxError(f"{path}: not a UTF-8 text file") from None
    return parse_table(text, str(path), path.parent)


def parse_table(text: str, path: str, table_dir: Path) -> AdviceTable:
    """Like :func:`load_table`, from the YAML ``text`` of file ``path``."""
    reader = _Reader(path, table_dir)
    try:
        root = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        raise TableSyntaxError(f"{path}:{line}:{column}: bad YAML: {error.problem}") from None
    except yaml.YAMLError as error:
        raise TableSyntaxError(f"{path}:1:1: bad YAML: {error}") from None
    if root is None:
        raise TableSyntaxError(f"{path}:1:1: the table is empty")
    top = reader.mapping(root, "the table", TABLE_KEYS, REQUIRED_TABLE_KEYS)

    def value(key: str) -> yaml.Node:
        return top[key][1]

    name = reader.string(value("name"), "name")
    material = reader.string(value("material"), "material").upper()
    if not MATERIAL.fullmatch(material):
        raise reader.error(value("material"), f"material must look like KRK or KQKR, "
                           f"not {material!r}")
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
    start = None
    if "start" in top:
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

    definitions = _read_definitions(reader, value("define"), library) if "define" in top \
        else Definitions()
    advice = _read_advice(reader, value("advice"), library, definitions)
    rules = _read_rules(reader, value("rules"), library, advice, definitions)
    symmetric = _read_symmetric(reader, top, library)
    library = library.extended(reader.bound["predicate"], reader.bound["generator"],
                               reader.bound["feature"])
    return AdviceTable(
        name=name, material=material, us=us, rules=rules, advice=advice, library=library,
        path=path,
        description=reader.string(value("description"), "description") if "description" in top else "",
        start_fen=start, symmetric=symmetric,
        expect=_read_expect_blocks(reader, value("expect")) if "expect" in top else ())


def _read_symmetric(reader: _Reader, top: dict[str, tuple[yaml.Node, yaml.Node]],
                    library: Library) -> bool:
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
        raise reader.error(node, f"symmetric: true, but {reader.binder.colours[0]} names a "
                           f"square colour, which a mirror image swaps")
    return symmetric


def _read_definitions(reader: _Reader, node: yaml.Node, library: Library) -> Definitions:
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
            raise reader.error(key_node, f"define: {name!r} is not a name to define (letters, "
                                         f"digits and _, not a keyword such as 'root')")
        entry = ENTRIES.get(name)
        for kind, own in (("predicate", library.predicates), ("feature", library.features),
                          ("generator", library.generators)):
            if name in own or (entry is not None and entry.kind == kind):
                raise reader.error(key_node, f"define: {name!r} would hide the {KIND_WORDS[kind]} "
                                             f"of that name")
        what = f"define {name!r}"
        text = reader.scalar_text(value_node, what)
        try:
            total: Sum | None = parse_sum(text)
        except ExpressionError:
            total = None
        used = {term.name for _, term in total.parts if isinstance(term, Feature)} if total else \
            set(_goal_names(reader.expression(value_node, what, parse_goal)))
        later = next((used_name for used_name in used
                      if split_call(used_name)[0] in list(entries)[index:]), None)
        if later is not None:
            text_offset = _offset_of(text, later)
            raise reader.error(value_node, f"{what} uses {later!r}, which is not defined above it "
                                           f"(define a name before its first use)", offset=text_offset)
        if total is not None and not _names_a_predicate(total, library, definitions):
            if not any(isinstance(term, Feature) for _, term in total.parts):
                raise reader.error(value_node, f"{what}: a defined number needs a feature "
                                               f"(e.g. dist(K, k)), not only numbers")
            total = _expand(reader, value_node, definitions.expand_sum, total)
            _check_vocabulary(reader, value_node, [term.name for _, term in total.parts
                                                   if isinstance(term, Feature)], library, "feature")
            definitions.sums[name] = total
        else:
            goal = _expand(reader, value_node, definitions.expand,
                           reader.expression(value_node, what, parse_goal))
            _check_names(reader, value_node, goal, library)
            definitions.goals[name] = goal
    return definitions


def _goal_names(goal: Goal) -> Iterable[str]:
    """The predicate and feature names a goal uses."""
    yield from predicate_names(goal)
    yield from feature_names(goal)


def _names_a_predicate(total: Sum, library: Library, definitions: Definitions) -> bool:
    """Whether a definition read as a sum is one bare name of a predicate
    (of the library, the vocabulary or an earlier definition): a goal."""
    if len(total.parts) != 1 or not isinstance(total.parts[0][1], Feature):
        return False
    term = total.parts[0][1]
    if term.at_root or total.parts[0][0] != 1:
        return False
    entry = ENTRIES.get(split_call(term.name)[0])
    return (term.name in library.predicates or term.name in definitions.goals
            or (entry is not None and entry.kind == "predicate"))


def _expand(reader: _Reader, node: yaml.Node, expand: Any, value: Any) -> Any:
    """``expand(value)`` (a goal or sum over the table's definitions), a
    misused defined name reported at its place in ``node``."""
    try:
        return expand(value)
    except DefinitionError as error:
        text = reader.scalar_text(node, "") if isinstance(node, yaml.ScalarNode) else ""
        raise reader.error(node, error.reason, offset=_offset_of(text, error.name)) from None


def _read_rules(reader: _Reader, node: yaml.Node, library: Library,
                advice: dict[str, Advice], definitions: Definitions) -> tuple[Rule, ...]:
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
        precondition = _expand(reader, if_node, definitions.expand,
                               reader.expression(if_node, f"rule {name!r} precondition", parse_goal))
        _check_names(reader, if_node, precondition, library)
        advice_names = []
        then_node = entries["then"][1]
        for advice_node in reader.sequence(then_node, f"rule {name!r} advice list"):
            advice_name = reader.string(advice_node, "an advice name")
            if advice_name not in advice:
                raise reader.error(advice_node, f"unknown advice {advice_name!r}"
                                   f"{suggest(advice_name, advice)}", UnknownNameError)
            advice_names.append(advice_name)
        if not advice_names:
            raise reader.error(then_node, f"rule {name!r} lists no advice")
        rules.append(Rule(name, precondition, tuple(advice_names),
                          reader.scalar_text(if_node, ""), reader.where(name_node)))
    return tuple(rules)


def _read_advice(reader: _Reader, node: yaml.Node, library: Library,
                 definitions: Definitions) -> dict[str, Advice]:
    pieces: dict[str, Advice] = {}
    entries = reader.mapping(node, "advice", ())
    if not entries:
        raise reader.error(node, "advice must define at least one piece of advice")
    for name, (key_node, value_node) in entries.items():
        what = f"advice {name!r}"
        parts = reader.mapping(value_node, what, ADVICE_KEYS,
                               ("better-goal", "holding-goal", "us-moves", "them-moves"))
        goals = {}
        for key in ("better-goal", "holding-goal"):
            goal_node = parts[key][1]
            goals[key] = _expand(reader, goal_node, definitions.expand,
                                 reader.expression(goal_node, f"{what} {key}", parse_goal))
            _check_names(reader, goal_node, goals[key], library)
        constraints = {key: _read_constraint(reader, parts[key][1], f"{what} {key}", library,
                                             ours=key == "us-moves")
                       for key in ("us-moves", "them-moves")}
        source = {key: reader.scalar_text(parts[key][1], key)
                  for key in ("better-goal", "holding-goal")}
        source.update({key: str(constraints[key]) for key in ("us-moves", "them-moves")})
        minimise = None
        if "minimise" in parts:
            minimise_node = parts["minimise"][1]
            minimise = _expand(reader, minimise_node, definitions.expand_sum,
                               reader.expression(minimise_node, f"{what} minimise", parse_sum))
            features = [term.name for _, term in minimise.parts if isinstance(term, Feature)]
            if not features:
                raise reader.error(minimise_node, f"{what} minimise: a number to minimise needs "
                                                  f"a feature (e.g. dist(K, k))")
            _check_vocabulary(reader, minimise_node, features, library, "feature")
            source["minimise"] = reader.scalar_text(minimise_node, "minimise")
        pieces[name] = Advice(name, goals["better-goal"], goals["holding-goal"],
                              constraints["us-moves"], constraints["them-moves"],
                              source, reader.where(key_node), minimise)
    return pieces


def _read_constraint(reader: _Reader, node: yaml.Node, what: str,
                     library: Library, ours: bool) -> MoveConstraint:
    """A move constraint: the book's text form, or a mapping from depth guard
    (``0``, ``< 3``, ``1..4``) to generators (``legal``, ``rookmove and checkmove``).
    ``ours``: whether it gives our side's moves (us-moves) or theirs."""
    if isinstance(node, yaml.MappingNode):
        alternatives = []
        for key, (key_node, value_node) in reader.mapping(node, what, ()).items():
            depths = reader.expression(key_node, f"{what} depth guard", parse_depth_spec)
            generators = reader.expression(value_node, what, parse_generators)
            alternatives.append(Alternative(depths, generators))
            _check_generators(reader, value_node, generators, library, what, ours)
        if not alternatives:
            raise reader.error(node, f"{what} is empty (write nomove for no moves)")
        constraint = MoveConstraint(tuple(alternatives))
    else:
        constraint = reader.expression(node, what, parse_constraint)
        for alternative in constraint.alternatives:
            _check_generators(reader, node, alternative.generators, library, what, ours)
    if constraint.horizon() is None:
        raise reader.error(node, f"{what} allows moves at every depth, so a forcing tree "
                           f"could be endless: bound it, e.g. '< 3: legal'")
    return constraint


def _check_generators(reader: _Reader, node: yaml.Node, names: Iterable[str],
                      library: Library, what: str, ours: bool) -> None:
    """Every name must be a move generator of the library or the vocabulary,
    and the vocabulary's ``moves(p)`` must name a piece of the side whose
    moves the constraint gives (else it never gives a move).

    :raises TableSyntaxError: ``moves(k)`` in us-moves, ``moves(R)`` in them-moves.
    """
    _check_vocabulary(reader, node, names, library, "generator")
    assert reader.binder is not None  # set before any expression is read
    for name in names:
        family, args = split_call(name)
        if family != "moves" or name in library.generators:
            continue
        piece = reader.binder.pieces[args[0]]
        if piece.ours != ours:
            text = reader.scalar_text(node, "") if isinstance(node, yaml.ScalarNode) else ""
            whose, side = ("their", "our") if ours else ("our", "their")
            raise reader.error(node, f"{what}: {name} moves {whose} piece {args[0]}, so it never "
                               f"gives a move on {side} turn (ours are written in upper case, "
                               f"theirs in lower case)", offset=_offset_of(text, name))


def _check_names(reader: _Reader, node: yaml.Node, goal: Goal, library: Library) -> None:
    """Every predicate and feature of ``goal`` must be in the library or the vocabulary."""
    _check_vocabulary(reader, node, predicate_names(goal), library, "predicate")
    _check_vocabulary(reader, node, feature_names(goal), library, "feature")


KIND_WORDS = {"predicate": "predicate", "generator": "move generator", "feature": "feature"}


def _check_vocabulary(reader: _Reader, node: yaml.Node, names: Iterable[str],
                      library: Library, kind: str) -> None:
    """Resolve each name as a ``kind``: the library's own, else a call of the
    standard vocabulary bound to the table's material (kept in ``reader.bound``).

    :raises UnknownNameError: at the first name neither knows, with a "did
        you mean" or a note that it is another kind of name.
    """
    text = reader.scalar_text(node, "") if isinstance(node, yaml.ScalarNode) else ""
    own = {"predicate": library.predicates, "generator": library.generators,
           "feature": library.features}
    for name in names:
        if name in own[kind] or name in reader.bound[kind]:
            continue
        offset = _offset_of(text, name)
        assert reader.binder is not None  # set before any expression is read
        try:
            function = reader.binder.bind(name, kind)
        except AL0Error as error:
            raise reader.error(node, str(error), type(error), offset=offset) from None
        if function is not None:
            reader.bound[kind][name] = function
            continue
        family = split_call(name)[0]
        known = set(own[kind]) | {e.name for e in ENTRIES.values() if e.kind == kind}
        hint = suggest(family, known)
        for other in KIND_WORDS:
            entry = ENTRIES.get(family)
            if other != kind and (name in own[other] or entry and entry.kind == other):
                hint = f" ({family!r} is a {KIND_WORDS[other]}, not a {KIND_WORDS[kind]})"
        raise reader.error(node, f"unknown {KIND_WORDS[kind]} {name!r}{hint}",
                           UnknownNameError, offset=offset)


def _offset_of(text: str, name: str) -> int:
    """Where ``name`` (a call's canonical text, spaced as written or not) is in ``text``."""
    family, _, rest = name.partition("(")
    args = [re.escape(arg.strip()) for arg in rest.rstrip(")").split(",")] if rest else []
    comma = r"\s*,\s*"
    call = rf"\s*\(\s*{comma.join(args)}\s*\)" if args else ""
    for pattern in (rf"(?<![.\w]){re.escape(family)}{call}", rf"\b{re.escape(family)}{call}",
                    rf"\b{re.escape(family)}\b"):
        match = re.search(pattern, text)
        if match:
            return match.start()
    return 0


def _read_expect_blocks(reader: _Reader, node: yaml.Node) -> tuple[Expectations, ...]:
    """One ``expect:`` block, or a list of them (claims about different
    defenders or positions)."""
    if isinstance(node, yaml.SequenceNode):
        blocks = reader.sequence(node, "expect")
        if not blocks:
            raise reader.error(node, "expect is an empty list: give at least one block")
        return tuple(_read_expect(reader, block) for block in blocks)
    return (_read_expect(reader, node),)


def _read_expect(reader: _Reader, node: yaml.Node) -> Expectations:
    fields: dict[str, Any] = {}
    for key, (_, value_node) in reader.mapping(node, "expect", EXPECT_KEYS).items():
        if key == "mates-all":
            fields[EXPECT_KEYS[key]] = reader.boolean(value_node, f"expect {key}")
        elif key == "mean-moves":
            fields[EXPECT_KEYS[key]] = _read_mean(reader, value_node)
        elif key in ("positions", "defender"):
            fields[EXPECT_KEYS[key]] = _read_verify_setting(reader, value_node, key)
        else:
            fields[EXPECT_KEYS[key]] = reader.integer(value_node, f"expect {key}")
    return Expectations(**fields)


def _read_mean(reader: _Reader, node: yaml.Node) -> float:
    text = reader.scalar_text(node, "expect mean-moves").strip()
    if not re.fullmatch(r"[0-9]{1,9}(\.[0-9]{1,9})?", text):
        raise reader.error(node, f"expect mean-moves must be a number >= 0 such as 13.0, "
                                 f"not {text!r}")
    return float(text)


def _read_verify_setting(reader: _Reader, node: yaml.Node, key: str) -> str:
    """The ``positions`` (``all``, ``every``, ``sample:N`` or an EPD file in
    the table's folder) or ``defender`` (built in: a table starts no
    program) the expectations were measured with."""
    text = reader.string(node, f"expect {key}")
    try:
        if key == "defender":
            DefenderSpec.from_file(text)
        elif text not in ("all", "every") and sample_size(text) is None:
            file_in_folder(text, reader.folder)
    except AL0Error as error:
        raise reader.error(node, f"expect {key} {error}" if text.startswith("sample:")
                           else str(error)) from None
    return text
