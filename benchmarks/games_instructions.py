"""Instructions spent on verify's games alone, by callgrind (a count: the
same on a quiet machine or a loaded one).

    python benchmarks/games_instructions.py kbbk sample:1500

Runs itself under ``valgrind --tool=callgrind --instr-atstart=no``: the
verifier (the table, the tablebase) and the starts are made uncounted,
then counting is turned on (``callgrind_control -i on``) and every start is
judged in this process (``Verifier.judge``, as ``--jobs 1`` does); the
process ends as soon as the last game is judged, so the report is not
counted either. Prints the instructions and the games' endings. ``--tree
DIR`` measures another checkout the same way.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path


def games(table: str, positions: str, folder: Path) -> None:
    """In the process callgrind runs: make the verifier and the starts, say
    so (``ready``), wait for ``go``, judge every start, write the endings."""
    from al0.bundled import table_path
    from al0.lang.specs import DefenderSpec, PositionsSpec
    from al0.verify.sources import start_positions
    from al0.verify.verifier import Verifier, VerifySpec

    spec = VerifySpec(os.path.abspath(table_path(table)), DefenderSpec("tablebase"))
    verifier = Verifier(spec)
    boards = start_positions(PositionsSpec.parse(positions), verifier.table, verifier.tablebase)
    (folder / "ready").write_text(str(os.getpid()))
    while not (folder / "go").exists():
        time.sleep(0.2)
    endings = Counter(verifier.judge(index, board).ending.value for index, board in enumerate(boards))
    (folder / "endings").write_text(str(dict(endings)))
    os._exit(0)  # nothing after the games is counted


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("table")
    parser.add_argument("positions")
    parser.add_argument("--tree", type=Path, default=Path(__file__).resolve().parent.parent)
    parser.add_argument("--in-callgrind", type=Path, help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.in_callgrind:
        games(arguments.table, arguments.positions, arguments.in_callgrind)
        return
    with tempfile.TemporaryDirectory(prefix="al0-instructions-") as name:
        folder = Path(name)
        out = folder / "callgrind.out"
        command = ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out}"]
        command += [sys.executable, __file__, arguments.table, arguments.positions, "--in-callgrind", name]
        env = {**os.environ, "PYTHONPATH": str(arguments.tree)}
        process = subprocess.Popen(command, env=env, stderr=subprocess.DEVNULL)
        while not (folder / "ready").exists():
            if process.poll() is not None:
                raise SystemExit("the run under callgrind ended before its games")
            time.sleep(1)
        subprocess.run(["callgrind_control", "-i", "on", str(process.pid)], check=True, capture_output=True)
        (folder / "go").touch()
        process.wait()
        totals = next(line for line in out.read_text().splitlines() if line.startswith("totals:"))
        count = int(totals.split()[1])
        print(
            f"{arguments.positions} of {arguments.table}: {count:,} instructions in the games, endings {(folder / 'endings').read_text()}"
        )


if __name__ == "__main__":
    main()
