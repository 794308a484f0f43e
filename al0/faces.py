"""A folder's face, imported name by name: a package's ``__init__``
exports what its clients use, each name imported from its home module
when first asked for, so that importing the folder costs nothing until a
name of it is used (a command that needs one spec does not load the
search, the native core or numpy)."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping


def lazy_face(package: str, homes: Mapping[str, str]) -> Callable[[str], object]:
    """The module ``__getattr__`` of ``package`` whose face is ``homes``
    (each exported name and the module of the package it lives in)."""

    def __getattr__(name: str) -> object:
        if name in homes:
            return getattr(importlib.import_module(f"{package}.{homes[name]}"), name)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__
