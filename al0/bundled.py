"""Where the bundled advice tables and predicate libraries live.

In the repository they are ``advice_tables/`` and ``library/`` beside the
``al0`` package; an installed wheel ships the same two directories inside the
package, as ``al0/bundled/``. Either way a table's ``library: ../library/krk.py``
finds its library, and ``al0 play krk`` finds the table by name.
"""

from __future__ import annotations

from pathlib import Path

from al0.errors import TableSyntaxError

_PACKAGE = Path(__file__).resolve().parent
ROOT = _PACKAGE / "bundled" if (_PACKAGE / "bundled" / "advice_tables").is_dir() else _PACKAGE.parent
"""The directory holding ``advice_tables/`` and ``library/``: inside the
installed package, else the repository checkout the package runs from."""

TABLES_DIR = ROOT / "advice_tables"
LIBRARY_DIR = ROOT / "library"


def bundled_tables() -> list[Path]:
    """The bundled advice tables, by name."""
    if not TABLES_DIR.is_dir():
        return []
    return sorted(TABLES_DIR.glob("*.yaml"))


def table_path(spec: str) -> Path:
    """The table file ``spec`` names: a bundled table's name (``krk``,
    ``kqk``) names the bundled table, even where the working folder holds
    a file or folder of that name (``./krk`` names that one); anything else
    is a path, returned as given (so the caller reports a missing file).

    :raises TableSyntaxError: an empty ``spec``, which would name the
        working folder.
    """
    if not spec.strip():
        raise TableSyntaxError("an empty table path: give a table file or a bundled table's name (krk)")
    if "/" in spec or "\\" in spec or spec.endswith((".yaml", ".yml")):
        return Path(spec)
    bundled = TABLES_DIR / f"{spec}.yaml"
    try:
        return bundled if bundled.is_file() else Path(spec)
    except OSError:  # a name too long to be a file
        return Path(spec)


def bundled_namesake(path: Path) -> str | None:
    """The name of the bundled table whose file is called like ``path``
    (``advice_tables/krk.yaml`` from another folder: ``krk``), if any: a hint
    for a path that does not exist."""
    if path.suffix not in (".yaml", ".yml"):
        return None
    return path.stem if (TABLES_DIR / f"{path.stem}.yaml").is_file() else None
