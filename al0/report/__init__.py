"""What al0 writes for people and other programs: a plan as text, JSON, DOT
or SVG (``render``), verify's games replayed (``replay``) and written as
PGN (``pgn``) or one self-contained HTML page (``html``)."""
