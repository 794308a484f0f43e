"""Reading YAML into nodes that know their place in the source.

The only module that imports ``yaml``. It walks PyYAML's node graph rather
than plain dicts, so every error can name ``file:line:col``; it rejects
duplicate keys, and bounds how deep collections nest and how far aliases
and ``<<`` merge keys expand. The modules that read a table's parts take
the node types it names (:data:`YamlNode` and the rest), so that they need
not import ``yaml`` themselves.
"""

from __future__ import annotations

import difflib
import unicodedata
from pathlib import Path
from typing import Any, Iterable

import yaml

from al0.errors import AL0Error, TableSyntaxError
from al0.integers import IntegerError, parse_int
from al0.lang.expr import ExpressionError
from al0.lang.model import Location
from al0.lang.vocabulary.binding import Binder
from al0.lang.yaml_words import Mark, yaml_problem

YamlNode = yaml.Node
"""A node of a composed YAML document, with its place in the source."""
ScalarNode = yaml.ScalarNode
MappingNode = yaml.MappingNode
SequenceNode = yaml.SequenceNode
MERGE_TAG = "tag:yaml.org,2002:merge"
"""The tag of YAML's merge key ``<<``, which copies an anchored mapping's
entries into another (``<<: *common``), so advice can share settings."""
PLAIN_TAGS = frozenset(
    f"tag:yaml.org,2002:{kind}" for kind in ("str", "int", "float", "bool", "null", "seq", "map")
)
"""The tags a table may write out (``!!str 5``): those of plain text,
numbers, lists and mappings, the only values a table holds. Any other
(``!!binary``, ``!!python/name:…``, ``!custom``) would be read as if it were
not there, its text taken for what it is not."""
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
    :data:`MAX_YAML_DEPTH`, documents that expand to more than
    :data:`MAX_YAML_NODES` nodes and tags not of :data:`PLAIN_TAGS`, with an
    error at the offending node or alias."""

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
        tag = getattr(event, "tag", None)
        if tag not in (None, "!") and tag not in PLAIN_TAGS:
            shown = tag.replace("tag:yaml.org,2002:", "!!")
            raise _composer_error(
                f"the tag {shown!r} is not read: a table holds plain text, numbers, lists and mappings",
                event,
            )
        if self.check_event(yaml.CollectionStartEvent):
            if self.nesting >= MAX_YAML_DEPTH:
                raise _composer_error(f"collections nested more than {MAX_YAML_DEPTH} deep", event)
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
            raise _composer_error(
                f"the table expands to more than {MAX_YAML_NODES:,} YAML "
                f"nodes (aliases and '<<' merge keys repeat what they name)",
                event,
            )


def _composer_error(problem: str, event: yaml.Event) -> yaml.composer.ComposerError:
    """PyYAML's error for a document it cannot compose, at ``event``."""
    mark: yaml.Mark = event.start_mark  # type: ignore[assignment]
    return yaml.composer.ComposerError(None, None, problem, mark)


class Reader:
    """Turns YAML nodes of one file into model values, raising located errors."""

    def __init__(self, path: str, folder: Path):
        self.path = path
        self.folder = folder
        """The table's folder, the only one whose files it may name."""
        self.binder: Binder | None = None
        """Binds the standard vocabulary's calls; set once the material is read."""
        self.bound: dict[str, dict[str, Any]] = {"predicate": {}, "generator": {}, "feature": {}}

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

    def error(
        self, node: yaml.Node, message: str, kind: type[AL0Error] = TableSyntaxError, offset: int = 0
    ) -> AL0Error:
        return kind(f"{self.where(node, offset)}: {message}")

    def mapping(
        self, node: yaml.Node, what: str, allowed: Iterable[str], required: Iterable[str] = ()
    ) -> dict[str, tuple[yaml.Node, yaml.Node]]:
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
            entries.setdefault(self.scalar_text(key_node, f"a key of {what}"), (key_node, value_node))
        for key, (key_node, _) in entries.items():
            if allowed and key not in allowed:
                hint = suggest(key, allowed) or f" (expected {', '.join(sorted(allowed))})"
                raise self.error(key_node, f"unknown key {key!r} in {what}{hint}")
        for key in required:
            if key not in entries:
                raise self.error(node, f"{what} is missing the key {key!r}")
        return entries

    def merged_entries(self, node: yaml.Node, what: str, seen: set[int]) -> list[tuple[yaml.Node, yaml.Node]]:
        """The entries a ``<<:`` key merges into a mapping: those of one
        mapping (``<<: *name``) or of a list of them, earlier ones first,
        each with the entries it merges itself after its own."""
        sources = node.value if isinstance(node, yaml.SequenceNode) else [node]
        entries: list[tuple[yaml.Node, yaml.Node]] = []
        for source in sources:
            if not isinstance(source, yaml.MappingNode):
                raise self.error(
                    source, f"'<<' in {what} must merge a mapping (an alias such as *name, or a list of them)"
                )
            if id(source) in seen:
                raise self.error(source, f"'<<' in {what} merges a mapping into itself")
            entries.extend(entry for entry in source.value if entry[0].tag != MERGE_TAG)
            for key_node, value_node in source.value:
                if key_node.tag == MERGE_TAG:
                    entries.extend(self.merged_entries(value_node, what, seen | {id(source)}))
        return entries

    def scalar_text(self, node: yaml.Node, what: str) -> str:
        if not isinstance(node, yaml.ScalarNode):
            raise self.error(
                node,
                f"{what} must be a single value, not a "
                f"{'list' if isinstance(node, yaml.SequenceNode) else 'mapping'}",
            )
        return str(node.value)

    def string(self, node: yaml.Node, what: str, lines: bool = False) -> str:
        """A scalar's text, stripped: never empty, never with a control
        character (an escape such as ``"\\e"`` or ``"\\0"`` would reach the
        terminal, a PGN header or a report as it is), and on one line unless
        ``lines`` (a description, whose line breaks read as spaces).

        :raises TableSyntaxError: at the value, naming the character.
        """
        text = self.scalar_text(node, what).strip()
        if not text:
            raise self.error(node, f"{what} is empty")
        for character in text:
            if character in "\n\r\t" and lines:
                continue
            if character in "\n\r" or unicodedata.category(character) == "Cc" or character in "\u2028\u2029":
                kind = "a line break" if character in "\n\r\u2028\u2029" else "a control character"
                raise self.error(
                    node, f"{what} has {kind} ({character!r}): {text[:40]!r}{'…' if len(text) > 40 else ''}"
                )
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

    def items(self, node: yaml.Node) -> list[yaml.Node]:
        """A list's items, or a single value as a list of one."""
        return list(node.value) if isinstance(node, yaml.SequenceNode) else [node]

    @staticmethod
    def unquoted_in_brackets(node: yaml.Node) -> bool:
        """Whether ``node`` is a list in brackets with an unquoted item, where
        YAML splits ``dist(K, k)`` at its comma."""
        return (
            isinstance(node, yaml.SequenceNode)
            and bool(node.flow_style)
            and any(isinstance(item, yaml.ScalarNode) and not item.style for item in node.value)
        )

    def expression(self, node: yaml.Node, what: str, parse: Any) -> Any:
        """Parse a scalar expression, mapping syntax errors to its location."""
        text = self.scalar_text(node, what)
        try:
            return parse(text)
        except ExpressionError as error:
            raise self.error(node, f"{what}: {error.reason}: {text!r}", offset=error.offset) from None


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
    positions = [i for i in range(start, end) if not buffer[i].isspace()][: len(chars)]
    if [buffer[i] for i in positions] != chars:
        return None
    before = sum(1 for c in node.value[:offset] if not c.isspace())
    if node.value[offset:].strip():
        return positions[before]
    return positions[before - 1] + 1 if before else start


def _mark(mark: yaml.Mark | None) -> Mark | None:
    """PyYAML's 0-based mark as a 1-based one."""
    return None if mark is None else Mark(mark.line + 1, mark.column + 1)


def suggest(name: str, known: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` when a known name is close to ``name``."""
    close = difflib.get_close_matches(name, sorted(known), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def compose(text: str, path: str) -> YamlNode | None:
    """The root node of the YAML ``text`` of file ``path`` (None when it
    holds no document), read by :class:`_Loader`.

    :raises TableSyntaxError: malformed YAML, at its ``file:line:col``, in
        al0's words (:mod:`al0.lang.yaml_words`).
    """
    try:
        return yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as error:
        said = yaml_problem(
            text, error.problem, _mark(error.problem_mark), error.context, _mark(error.context_mark)
        )
        raise TableSyntaxError(f"{path}:{said.mark.line}:{said.mark.column}: {said.message}") from None
    except yaml.reader.ReaderError as error:
        # A character YAML does not allow (a control character, U+FFFE):
        # PyYAML gives its offset, not its line and column.
        line = text.count("\n", 0, error.position) + 1
        column = error.position - text.rfind("\n", 0, error.position)
        raise TableSyntaxError(
            f"{path}:{line}:{column}: bad YAML: character "
            f"U+{error.character:04X} is not allowed: YAML takes "
            f"printable text, tabs and newlines"
        ) from None
    except yaml.YAMLError as error:
        raise TableSyntaxError(f"{path}:1:1: bad YAML: {error}") from None
