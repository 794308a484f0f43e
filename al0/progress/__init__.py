"""The potential analysis: whether a progress measure can be forced lower
against every defence, over every position of an ending (``al0 progress``).

The folder's face: a run's :class:`Options` and :func:`analyse`, imported
when first asked for (with them numpy and the tablebase: a command asks
when it runs)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from al0.faces import lazy_face

if TYPE_CHECKING:
    from al0.progress.potential import Analysis, Options, analyse

_HOMES = {
    "Analysis": "potential",
    "Options": "potential",
    "analyse": "potential",
}
"""Each name of the face and the module it lives in."""

__all__ = ["Analysis", "Options", "analyse"]

__getattr__ = lazy_face(__name__, _HOMES)
