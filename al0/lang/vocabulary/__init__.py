"""The standard chess vocabulary: numeric features, predicates and move
generators over named pieces, for any material, with no Python of a table's own.

A table names its pieces by the material: upper case ours, lower case theirs
(``KRK``: ``K R k``; ``KQKR``: ``K Q k r``); two of a kind take a suffix,
``B1``/``B2``, numbered by square (a1, b1, … h8) at the position looked at.
An entry of the vocabulary is a family (``dist``) that the loader binds to its
arguments (``dist(K, k)``) once, when the table is loaded: a name the material
does not have, or an argument of the wrong kind, is an error there.

A feature is ``node -> int | None`` (None: a piece it measures is gone); a
predicate ``(node, root) -> bool``; a generator ``node -> list of moves`` in
the order its docstring states. Each docstring's first paragraph is the
entry's reference text in ``docs/language.md`` (a test keeps the two equal).

The entries are grouped by idea: ``distances``, ``boxes`` (the squares a
king can reach), ``corners`` (a box against the corners), ``safety``,
``placement`` and ``generators``, over the shared square tables of
``squares`` and the argument and result types of ``terms``; ``basics``
holds the names of no arguments every table has (``mate``, ``legal`` …).
``registry`` lists every standard name, basic or family, and ``binding``
binds a table's calls.

The folder's face: what other folders use of it (:func:`split_call`,
:func:`area_squares`, :func:`material_pieces`, :func:`measured_on_box`), each imported when first
asked for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from al0.faces import lazy_face

if TYPE_CHECKING:
    from al0.lang.vocabulary.binding import split_call
    from al0.lang.vocabulary.boxes import area_squares
    from al0.lang.vocabulary.registry import measured_on_box
    from al0.lang.vocabulary.terms import material_pieces

_HOMES = {
    "split_call": "binding",
    "area_squares": "boxes",
    "material_pieces": "terms",
    "measured_on_box": "registry",
}
"""Each name of the face and the module it lives in."""

__all__ = ["area_squares", "material_pieces", "measured_on_box", "split_call"]

__getattr__ = lazy_face(__name__, _HOMES)
