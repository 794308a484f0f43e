"""al0: Advice Language 0 — chess endgames played from advice tables."""

__version__ = "0.1.0"
