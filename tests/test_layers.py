"""The imports of every module under ``al0/`` follow the layer rules of
docs/architecture.md: its table of floors is the data, read here, so the
picture and the code cannot drift apart."""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

import pytest

from conftest import ROOT

PACKAGE = ROOT / "al0"
ARCHITECTURE = ROOT / "docs" / "architecture.md"


def floors() -> list[tuple[str, list[str]]]:
    """The table of floors, top first: each floor's name and its rooms as
    module names (``al0.cli``, ``al0.human``; ``al0`` for the package's own
    ``__init__.py``)."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    table = text.split("<!-- floors: read by tests/test_layers.py -->")[1]
    table = table.split("<!-- end of floors -->")[0]
    rows = [line.split("|")[1:3] for line in table.strip().splitlines()[2:]]

    def module(room: str) -> str:
        name = room.removesuffix("/").removesuffix(".py")
        return "al0" if name == "__init__" else f"al0.{name}"

    return [
        (floor.strip(), [module(room) for room in re.findall(r"`([^`]+)`", rooms)]) for floor, rooms in rows
    ]


FLOORS = floors()


def room_of(module: str) -> tuple[int, str]:
    """The floor (0 the top) and room of ``module``: the longest room name
    it is, or is inside (``al0`` holds the package's ``__init__`` alone)."""
    found = [
        (len(room), index, room)
        for index, (_, rooms) in enumerate(FLOORS)
        for room in rooms
        if module == room or room != "al0" and module.startswith(room + ".")
    ]
    assert found, f"{module} is in no room of the table of floors in docs/architecture.md"
    _, floor, room = max(found)
    return floor, room


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (
        isinstance(test, ast.Name)
        and test.id == "TYPE_CHECKING"
        or isinstance(test, ast.Attribute)
        and test.attr == "TYPE_CHECKING"
    )


def imports(tree: ast.Module) -> list[tuple[int, str, list[str]]]:
    """Every ``al0`` import of a module, lazy ones in functions included, as
    (line, module, names imported from it); those under ``if TYPE_CHECKING:``
    are left out."""
    found: list[tuple[int, str, list[str]]] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and is_type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name, []) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [alias.name for alias in node.names]
            if node.module == "al0":  # from al0 import tablebase: the module itself
                found.extend(
                    (node.lineno, f"al0.{name}" if f"al0.{name}" in MODULES else "al0", []) for name in names
                )
            else:
                found.append((node.lineno, node.module, names))
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return [
        (line, module, names) for line, module, names in found if module == "al0" or module.startswith("al0.")
    ]


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}
"""Every module of the package, by name, with its file."""


@functools.cache
def tree(module: str) -> ast.Module:
    """The syntax tree of a module of :data:`MODULES`, parsed when a test
    first asks for it: each worker of a run collects this file, and parsing
    every module on import cost each of them a second and more of CPU."""
    return ast.parse(MODULES[module].read_text(encoding="utf-8"))


def test_every_room_of_the_table_exists_and_every_module_is_in_one():
    for _, rooms in FLOORS:
        for room in rooms:
            assert room in MODULES, f"docs/architecture.md names {room}, which is not there"
    for module in MODULES:
        room_of(module)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_point_down_or_stay_in_their_room(module):
    floor, room = room_of(module)
    for line, imported, _ in imports(tree(module)):
        their_floor, their_room = room_of(imported)
        assert their_floor > floor or their_room == room, (
            f"{module}:{line} imports {imported}: {FLOORS[their_floor][0]} "
            f"({their_room}) is not below {FLOORS[floor][0]} ({room})"
        )


def exported(package: str) -> set[str]:
    """The names a package's ``__init__`` exports: its ``__all__`` (a face
    may import them only when first asked for), else what it imports or
    defines."""
    names: set[str] = set()
    for node in tree(package).body:
        if (
            isinstance(node, ast.Assign)
            and isinstance(node.value, ast.List)
            and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)
        ):
            return {item.value for item in node.value.elts if isinstance(item, ast.Constant)}
        if isinstance(node, ast.ImportFrom):
            names.update(alias.asname or alias.name for alias in node.names)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(target.id for target in node.targets if isinstance(target, ast.Name))
    return names


FOLDERS = {module for module in MODULES if (PACKAGE / module.removeprefix("al0.").replace(".", "/")).is_dir()}
"""The package's folders (``al0.engine``, ``al0.lang.vocabulary``): each has a face."""


FRONT_ENDS = [
    module
    for floor, rooms in FLOORS
    if floor in ("commands", "front ends")
    for module in MODULES
    if any(module == room or module.startswith(room + ".") for room in rooms)
]
"""The commands and the other front ends (uci, serve, the pytest plugin):
the library's clients."""


@pytest.mark.parametrize("module", FRONT_ENDS)
def test_a_front_end_imports_a_folder_only_through_its_face(module):
    """A command or front end imports what it uses of another folder from
    that folder's ``__init__`` (``from al0.engine import Planner``), never
    from its inner modules (``al0.engine.plan``): the face is the folder's
    promise, the modules behind it may move."""
    _, room = room_of(module)
    for line, imported, names in imports(tree(module)):
        folder = imported.rpartition(".")[0]
        if imported not in FOLDERS and folder in FOLDERS and folder != "al0" and room_of(imported)[1] != room:
            faced = sorted(set(names) & exported(folder))
            hint = (
                f"import {', '.join(faced)} from {folder}, which exports it"
                if faced
                else f"export what it uses from {folder}'s __init__ and import it from there"
            )
            assert False, f"{module}:{line} imports {imported}, an inner module of {folder}: {hint}"
