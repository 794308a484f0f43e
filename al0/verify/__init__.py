"""Verification: play a table from many start positions and report what it
achieves against the claims of its ``expect:`` block, in one process, a
process pool or on a Dask cluster; ``analysis`` says where the moves go."""
