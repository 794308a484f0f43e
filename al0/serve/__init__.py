"""``al0 serve``: a local web page in front of the teaching engine and the
planner. :mod:`al0.serve.api` answers JSON requests (what the page and the
tests call), :mod:`al0.serve.review` reads a PGN to review,
:mod:`al0.serve.server` serves the API and the page over HTTP on the
standard library's threading server; ``static/`` holds the page."""

from __future__ import annotations

from al0.serve.api import Api, ApiError, Tables
from al0.serve.review import read_games, tablebase_probe
from al0.serve.server import Server

__all__ = ["Api", "ApiError", "Server", "Tables", "read_games", "tablebase_probe"]
