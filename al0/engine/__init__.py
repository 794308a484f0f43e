"""The engine: forcing trees (``tree``), the AND/OR search that builds them
(``search``), choosing a plan from a table (``plan``), playing a game from
it (``play``), and the computer defenders a game is played against."""
