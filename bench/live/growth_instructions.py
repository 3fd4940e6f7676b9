"""growth.py's checkpoints in instructions, which do not vary from run to run as times do on a shared machine.

    .venv/bin/python bench/live/growth_instructions.py [--only Grabble|robots|Palabra|Palabras Cortas] [--repeats 10]
                                                       [--whole-record] [--reads change|row]

For each checkpoint, growth.py runs twice under valgrind's callgrind (Debian's valgrind): once timing each move of its
window once, once ``--repeats`` + 1 times. The difference, divided by ``--repeats`` times the window, is what one move
of the window costs in instructions (growth.py's timed work and the read of ``--reads``: by default "change", how
a process that followed the move before comes by the state; "row" parses the whole row), with everything else the script
does (imports, playing the game to the checkpoint) taken out. Each run takes about a minute. The first checkpoint
printed is the floor: what a move costs early in the game (Grabble's move 5 or its robots' early plays; a game's
fewest words or seats).
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GROWTH = ROOT / "bench" / "live" / "growth.py"
CHECKPOINTS = {
    "Grabble": ["from move 5", "from move 80"],
    "robots": [
        f"robots, {window}" for window in ("early plays", "late plays", "first quiz answers", "last quiz answers")
    ],
    "Palabra": ["Palabra, 4 players, from move 10 ", "from move 100 ", "from move 300 "],
    "Palabras Cortas": [f"Cortas, {p} seats" for p in (2, 4, 6, 8)],
}
COLLECTED = re.compile(r"Collected : (\d+)")
WINDOW = 10


def instructions(only: str, repeats: int, whole: bool, reads: str) -> int:
    command = [sys.executable, str(GROWTH), "--only", only, "--repeats", str(repeats), "--window", str(WINDOW)]
    command += ["--reads", reads]
    if whole:
        command.append("--whole-record")
    with tempfile.TemporaryDirectory() as scratch:
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={scratch}/out", *command],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": "0"},  # growth.py would run itself again for it, out of valgrind
        )
    found = COLLECTED.search(done.stderr)
    if found is None:
        raise SystemExit(f"valgrind printed no count:\n{done.stderr[-2000:]}")
    return int(found.group(1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", default="Grabble", choices=sorted(CHECKPOINTS))
    parser.add_argument("--repeats", type=int, default=10)
    parser.add_argument("--whole-record", action="store_true", help="every message with the whole record")
    parser.add_argument("--reads", default="change", choices=["change", "row"], help="how the state is come by")
    args = parser.parse_args()
    floor = None
    for label in CHECKPOINTS[args.only]:
        once = instructions(label, 1, args.whole_record, args.reads)
        more = instructions(label, 1 + args.repeats, args.whole_record, args.reads)
        per_move = (more - once) / (args.repeats * WINDOW)
        floor = floor or per_move
        print(f"{args.only} {label.strip():<36} {per_move / 1e6:8.2f} M instructions a move  ({per_move / floor:.2f}×)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
