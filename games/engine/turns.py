"""Turn order around a table: clockwise is increasing seat number, and removed seats are skipped."""

from typing import Any


def active_seats(state: dict[str, Any]) -> list[int]:
    """Seats in the game, in seat order: not removed, and not waiting to be dealt in."""
    out = set(state.get("removed", ())) | set(state.get("waiting", ()))
    return [s for s in range(state["players"]) if s not in out]


def waiting_seats(state: dict[str, Any]) -> list[int]:
    """Seats added during the game that the rules have not dealt in yet (they sit out until then)."""
    return list(state.get("waiting", []))


def add_waiting_seat(state: dict[str, Any]) -> int:
    """Add a seat at the end of the table, out of the turn order until :func:`admit_waiting`; returns it."""
    seat: int = state["players"]
    state["players"] = seat + 1
    state.setdefault("waiting", []).append(seat)
    return seat


def admit_waiting(state: dict[str, Any]) -> list[int]:
    """Deal the waiting seats in (at a new hand): they join the turn order; returns them."""
    seats = waiting_seats(state)
    state["waiting"] = []
    return seats


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
