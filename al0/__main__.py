"""``python -m al0``: the command line, where the ``al0`` script is not on PATH."""

from __future__ import annotations

import os
import sys


def drop_working_folder(path: list[str]) -> None:
    """Take out of ``path`` the working folder that ``python -m`` puts first
    (not with ``-P``/``PYTHONSAFEPATH``): al0 is run in the folders of other
    people's tables, where a ``click.py`` or ``numpy.py`` would otherwise be
    imported in place of the real one. al0's own modules are found through
    its package, and the ``al0`` script has its own folder there, not this one."""
    if not path or sys.flags.safe_path:
        return
    try:
        working = path[0] == "" or os.path.samefile(path[0], os.getcwd())
    except OSError:  # a folder gone, or no working folder at all
        working = path[0] == ""
    if working:
        del path[0]


if __name__ == "__main__":
    drop_working_folder(sys.path)
    from al0.cli import cli

    cli()
