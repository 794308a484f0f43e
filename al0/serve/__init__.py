"""``al0 serve``: a local web page in front of the teaching engine and the
planner. :mod:`al0.serve.routes` answers JSON requests (what the page and
the tests call) through its resources, :mod:`al0.serve.positions` (tables,
positions, plans) and :mod:`al0.serve.practice` (practice games, kept by
:mod:`al0.serve.sessions`), on the tables of :mod:`al0.serve.tables`, with
what they share in :mod:`al0.serve.api`; :mod:`al0.serve.review` reads a
PGN to review; :mod:`al0.serve.server` serves the API and the page over
HTTP on the standard library's threading server; ``static/`` holds the page."""

from __future__ import annotations

from al0.serve.api import ApiError
from al0.serve.review import read_games, tablebase_probe
from al0.serve.routes import Api
from al0.serve.server import Server
from al0.serve.tables import Tables, named_material

__all__ = ["Api", "ApiError", "Server", "Tables", "named_material", "read_games", "tablebase_probe"]
