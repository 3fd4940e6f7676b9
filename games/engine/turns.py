"""Turn order around a table: clockwise is increasing seat number, and removed seats are skipped."""

from typing import Any


def active_seats(state: dict[str, Any]) -> list[int]:
    """Seats still in the game, in seat order."""
    return [s for s in range(state["players"]) if s not in state.get("removed", [])]


def next_seat(state: dict[str, Any], seat: int, step: int = 1) -> int:
    """The ``step``-th active seat after ``seat`` (wrapping round the table)."""
    seats = active_seats(state)
    if not seats:
        raise ValueError("no active seats")
    n = state["players"]
    current = seat
    moved = 0
    while moved < step:
        current = (current + 1) % n
        if current in seats:
            moved += 1
    return current


def previous_seat(state: dict[str, Any], seat: int) -> int:
    seats = active_seats(state)
    n = state["players"]
    current = seat
    while True:
        current = (current - 1) % n
        if current in seats:
            return current
