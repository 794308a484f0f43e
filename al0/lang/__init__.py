"""The advice language: expressions are read (``expr``) into the table
model (``model``); ``yaml_reader`` reads YAML with line numbers, the
loader (``loader``, with ``names``, ``read_moves`` and ``read_expect``)
checks and locates every name, and ``compile_goals`` and ``compile_moves``
turn goals and move constraints into functions of search nodes
(``infer``: what the search may know of them beforehand; ``failures``:
library code that misbehaves). ``library`` is the registry of predicates,
features and generators a table may name; ``vocabulary`` is the standard
one, so that tables need no Python."""
