"""The cards on the table: piles, fields, what each seat is being shown, and moving cards between them.

A field is a list of slots in fixed positions: a card id, or ``None`` where a card left (a matched card). A penalty
card takes a new slot at the end. Two kinds of seeing:

- a *glimpse* (``glimpse[seat]``): the cards a seat is being shown right now (a peek, a spy, a king's look, a
  drawn or penalty card); it lasts until that seat's next action or until they hide it;
- *memory* (``known[seat]``): every card the seat has seen and has been able to follow since (cards move in plain
  sight: a swap or a gift is seen by everyone, so a card seen is followed wherever it goes on the table). The page
  shows memory only with the ``reminders`` table option; a reshuffle into the draw pile loses it.

``shown`` holds the cards shown to everyone for a moment (a wrong match), until the next action.
"""

from typing import Any

from games.engine.events import Event, event
from games.engine.rng import shuffled
from games.engine.turns import active_seats

State = dict[str, Any]


def own_slots(state: State, seat: int) -> list[int]:
    """The positions of ``seat``'s field that hold a card."""
    return [i for i, card in enumerate(state["fields"][seat]) if card is not None]


def field_cards(state: State, seat: int) -> list[int]:
    return [card for card in state["fields"][seat] if card is not None]


def all_field_cards(state: State) -> list[int]:
    return [card for field in state["fields"] for card in field if card is not None]


def card_at(state: State, owner: int, slot: int) -> int | None:
    field = state["fields"][owner] if 0 <= owner < state["players"] else []
    return field[slot] if 0 <= slot < len(field) else None


def protected(state: State, owner: int) -> bool:
    """The player who called Pablo is protected from swaps (and from others' matches, which give a card)."""
    return state["pablo"] == owner


def targets(state: State, seat: int, *, swappable: bool) -> list[int]:
    """Other seats still in the game with a card in their field (``swappable``: not the protected caller)."""
    return [
        s
        for s in active_seats(state)
        if s != seat and field_cards(state, s) and not (swappable and protected(state, s))
    ]


def show(state: State, seat: int, card: int) -> None:
    """``seat`` sees ``card`` now, and remembers it."""
    if card not in state["glimpse"][seat]:
        state["glimpse"][seat].append(card)
    if card not in state["known"][seat]:
        state["known"][seat].append(card)


def forget_where(state: State, cards: list[int]) -> None:
    """``cards`` went face down into the draw pile: nobody can follow them any more."""
    gone = set(cards)
    for seat in range(state["players"]):
        state["known"][seat] = [c for c in state["known"][seat] if c not in gone]
        state["glimpse"][seat] = [c for c in state["glimpse"][seat] if c not in gone]


def draw_card(state: State, events: list[Event]) -> int | None:
    """The top card of the draw pile; when it has run out, the discard pile is shuffled into a new draw pile first.
    ``None`` when both piles are empty."""
    if not state["draw"]:
        if not state["discard"]:
            return None
        pile = state["discard"]
        state["discard"] = []
        state["match_open"] = False
        forget_where(state, pile)
        state["draw"] = shuffled(state, pile)
        events.append(event("reshuffled", count=len(state["draw"])))
    card: int = state["draw"].pop()
    return card


def to_discard(state: State, card: int, *, open_match: bool) -> None:
    state["discard"].append(card)
    state["match_open"] = open_match
    state["matched_by"] = None
