"""The potential analysis: whether a progress measure can be forced lower
against every defence, over every position of an ending (``al0 progress``).

The folder's face: a run's :class:`Options` and :func:`analyse`, and a
``prefer:`` fitted to the tablebase (:func:`fit`, ``al0 fit``), imported
when first asked for (with them numpy and the tablebase: a command asks
when it runs)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from al0.faces import lazy_face

if TYPE_CHECKING:
    from al0.progress.fitting import Fit, agreement_text, fit, summary
    from al0.progress.potential import Analysis, Options, analyse, warnings

_HOMES = {
    "Fit": "fitting",
    "agreement_text": "fitting",
    "fit": "fitting",
    "summary": "fitting",
    "Analysis": "potential",
    "Options": "potential",
    "analyse": "potential",
    "warnings": "potential",
}
"""Each name of the face and the module it lives in."""

__all__ = ["Analysis", "Fit", "Options", "agreement_text", "analyse", "fit", "summary", "warnings"]

__getattr__ = lazy_face(__name__, _HOMES)
