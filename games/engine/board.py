"""Crossword-style boards: square names, premium squares, and the words a placement of tiles forms.

Squares are named as on the printed board, column letter then row number (``"H8"``; rows 1–15 top to
bottom, columns A–O left to right), so states key the board by name and stay JSON-ready. A board is
``{square: letter}`` as far as these functions care; a game keeps whatever else it needs per square.
"""

import string
from collections.abc import Iterable, Mapping
from typing import Any

from .errors import AppError

BAD_PLACEMENT = "bad_placement"

ACROSS = (0, 1)
DOWN = (1, 0)


def square(row: int, col: int) -> str:
    """``(7, 7)`` → ``"H8"`` (zero-based row and column)."""
    return f"{string.ascii_uppercase[col]}{row + 1}"


def coords(name: str, size: int) -> tuple[int, int]:
    """``"H8"`` → ``(7, 7)``; :class:`AppError` for a name that is not on a ``size``×``size`` board."""
    if isinstance(name, str) and len(name) >= 2 and name[0].upper() in string.ascii_uppercase[:size]:
        digits = name[1:]
        if digits.isdigit() and 1 <= int(digits) <= size:
            return int(digits) - 1, string.ascii_uppercase.index(name[0].upper())
    raise AppError(BAD_PLACEMENT, f"{name!r} is not a square of the board (A1 to {square(size - 1, size - 1)}).")


def premium_squares(layout: Mapping[str, Iterable[str]]) -> dict[str, str]:
    """``{"TW": ["A1", ...], ...}`` → ``{"A1": "TW", ...}``."""
    return {name: kind for kind, names in layout.items() for name in names}


def _run(board: Mapping[str, Any], new: Mapping[str, Any], start: tuple[int, int], step: tuple[int, int], size: int):
    """The squares of the unbroken run of tiles through ``start`` along ``step``, in reading order."""
    dr, dc = step
    row, col = start
    while row - dr >= 0 and col - dc >= 0 and square(row - dr, col - dc) in board.keys() | new.keys():
        row, col = row - dr, col - dc
    run = []
    while row < size and col < size and (name := square(row, col)) in board.keys() | new.keys():
        run.append(name)
        row, col = row + dr, col + dc
    return run


def words_formed(board: Mapping[str, Any], new: Mapping[str, Any], size: int) -> list[list[str]]:
    """The words (lists of squares, main word first) that placing ``new`` on ``board`` forms.

    Checks that the new squares are free, lie in one line, and leave no gap along it. Runs of one
    tile are not words and are left out; whether what remains is enough is the caller's rule.
    """
    if not new:
        raise AppError(BAD_PLACEMENT, "Place at least one tile.")
    taken = sorted(set(new) & set(board))
    if taken:
        raise AppError(BAD_PLACEMENT, f"{', '.join(taken)} already has a tile.")
    spots = sorted(coords(name, size) for name in new)
    rows = {r for r, _ in spots}
    cols = {c for _, c in spots}
    if len(rows) > 1 and len(cols) > 1:
        raise AppError(BAD_PLACEMENT, "All tiles of a move go in one line, across or down.")
    directions = [ACROSS, DOWN] if len(spots) == 1 else [ACROSS] if len(rows) == 1 else [DOWN]
    main = directions[0]
    first, last = spots[0], spots[-1]
    dr, dc = main
    row, col = first
    while (row, col) != last:
        row, col = row + dr, col + dc
        if square(row, col) not in board and square(row, col) not in new:
            raise AppError(BAD_PLACEMENT, f"The word has a gap at {square(row, col)}.")
    words = []
    for step in directions:
        run = _run(board, new, first, step, size)
        if len(run) > 1:
            words.append(run)
    cross = DOWN if main == ACROSS else ACROSS
    if len(spots) > 1:
        for spot in spots:
            run = _run(board, new, spot, cross, size)
            if len(run) > 1:
                words.append(run)
    return words


def touches(board: Mapping[str, Any], new: Iterable[str], size: int) -> bool:
    """Whether any of the ``new`` squares is next to (not diagonally) a square already on ``board``."""
    for name in new:
        row, col = coords(name, size)
        for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)):
            r, c = row + dr, col + dc
            if 0 <= r < size and 0 <= c < size and square(r, c) in board:
                return True
    return False
