"""The potential analysis: whether a progress measure can be forced lower
against every defence, over every position of an ending (``al0 progress``).

The folder's face: a run's :class:`Options` and :func:`analyse`, and a
``prefer:`` fitted to the tablebase (:func:`fit`, ``al0 fit``). Importing
it loads numpy and the tablebase: a command imports it when it runs."""

from al0.progress.fitting import Fit, agreement_text, fit, summary
from al0.progress.potential import Analysis, Options, analyse

__all__ = ["Analysis", "Fit", "Options", "agreement_text", "analyse", "fit", "summary"]
