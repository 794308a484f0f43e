"""The advice language: expressions are read (``expr``) into the table
model (``model``), the YAML loader checks and locates every name
(``loader``), and ``compile`` turns goals and move constraints into
functions of search nodes. ``library`` is the registry of predicates,
features and generators a table may name; ``vocabulary`` is the standard
one, so that tables need no Python."""
