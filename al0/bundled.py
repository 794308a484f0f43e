"""Where the bundled advice tables and predicate libraries live.

In the repository they are ``advice_tables/`` and ``library/`` beside the
``al0`` package; an installed wheel ships the same two directories inside the
package, as ``al0/bundled/``. Either way a table's ``library: ../library/krk.py``
finds its library, and ``al0 play krk`` finds the table by name.
"""

from __future__ import annotations

from pathlib import Path

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
    """The table file ``spec`` names: an existing path as given, else a
    bundled table's name (``krk``, ``kqk``), else ``spec`` unchanged (so the
    caller reports the missing file it names)."""
    path = Path(spec)
    if "/" in spec or "\\" in spec or spec.endswith((".yaml", ".yml")):
        return path
    try:
        if path.exists():
            return path
    except OSError:  # a name too long to be a file
        return path
    bundled = TABLES_DIR / f"{spec}.yaml"
    return bundled if bundled.is_file() else path


def bundled_namesake(path: Path) -> str | None:
    """The name of the bundled table whose file is called like ``path``
    (``advice_tables/krk.yaml`` from another folder: ``krk``), if any: a hint
    for a path that does not exist."""
    if path.suffix not in (".yaml", ".yml"):
        return None
    return path.stem if (TABLES_DIR / f"{path.stem}.yaml").is_file() else None
