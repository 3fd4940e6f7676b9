"""Rounds: who goes first, dealing, the reveal and the scores, and the end of the game.

- Round one: every player rolls a die; the highest roll goes first, tied highest rolls roll again.
- Later rounds: the round's winner (lowest points received this round) goes first and its loser (highest) deals.
  Tied winners: the lowest overall score goes first; tied losers: the highest overall score deals; still tied, the
  tied players roll a die (highest roll wins the tie).
- Scores: each player receives the points of their field; the caller gets +10 if someone else has fewer points,
  +5 if tied for the fewest. A total of exactly 50 goes back to 0; a total over 50 ends the game.
"""

from games.engine.events import Event, event, score
from games.engine.rng import randint, shuffled
from games.engine.turns import active_seats

from .deck import DECK_SIZE, face, value
from .table import State, field_cards

FIELD_SIZE = 4
LIMIT = 50
CALLER_PENALTY, CALLER_TIE_PENALTY = 10, 5


def roll_off(state: State, seats: list[int], why: str, events: list[Event]) -> int:
    """Dice among ``seats`` until one rolls highest alone."""
    contenders = list(seats)
    while len(contenders) > 1:
        rolls = {s: randint(state, 1, 6) for s in contenders}
        events.append(event("rolled", why=why, rolls=[{"seat": s, "roll": r} for s, r in rolls.items()]))
        best = max(rolls.values())
        contenders = [s for s, r in rolls.items() if r == best]
    return contenders[0]


def deal(state: State, starter: int, dealer: int | None, events: list[Event]) -> None:
    """A new round: all 52 cards shuffled, four face down to each player, then everyone looks at two."""
    n = state["players"]
    seats = active_seats(state)
    state["draw"] = shuffled(state, list(range(DECK_SIZE)))
    state["discard"] = []
    state["fields"] = [[] for _ in range(n)]
    for _ in range(FIELD_SIZE):
        for s in seats:
            state["fields"][s].append(state["draw"].pop())
    state.update(
        round=state["round"] + 1,
        phase="peek",
        turn=starter,
        starter=starter,
        dealer=dealer,
        held=None,
        special=None,
        king_look=None,
        first_looks=[[] for _ in range(n)],
        ready=[s not in seats for s in range(n)],
        glimpse=[[] for _ in range(n)],
        known=[[] for _ in range(n)],
        shown=[],
        match_open=False,
        matched_by=None,
        pablo=None,
        stop_at=None,
    )
    events.append(event("dealt", round=state["round"], dealer=dealer, starter=starter, counts=[FIELD_SIZE] * n))


def field_total(state: State, seat: int) -> int:
    return sum(value(c) for c in field_cards(state, seat))


def end_round(state: State, events: list[Event]) -> None:
    """Reveal every field, score the round, and either end the game or name the next starter and dealer."""
    seats = active_seats(state)
    n = state["players"]
    state.update(phase="reveal", held=None, special=None, king_look=None, shown=[], match_open=False)
    state["glimpse"] = [[] for _ in range(n)]
    events.append(
        event(
            "revealed",
            fields=[[None if c is None else {"slot": i, **face(c)} for i, c in enumerate(f)] for f in state["fields"]],
        )
    )
    points = [field_total(state, s) if s in seats else 0 for s in range(n)]
    penalty = [0] * n
    caller = state["pablo"]
    lowest = min(points[s] for s in seats)
    if caller in seats:
        if points[caller] > lowest:
            penalty[caller] = CALLER_PENALTY
        elif any(points[s] == lowest for s in seats if s != caller):
            penalty[caller] = CALLER_TIE_PENALTY
    reset = [0] * n
    for s in seats:
        events.append(score(s, points[s], "cards", round=state["round"]))
        state["parts"]["cards"][s] += points[s]
        if penalty[s]:
            events.append(score(s, penalty[s], "pablo_penalty", round=state["round"]))
            state["parts"]["penalty"][s] += penalty[s]
        if total(state, s) == LIMIT:
            reset[s] = -LIMIT
            events.append(score(s, -LIMIT, "reset_at_50", round=state["round"]))
            state["parts"]["reset"][s] -= LIMIT
    received = [points[s] + penalty[s] for s in range(n)]
    best = min(received[s] for s in seats)
    worst = max(received[s] for s in seats)
    winners = [s for s in seats if received[s] == best]
    losers = [s for s in seats if received[s] == worst]
    result = {
        "round": state["round"],
        "caller": caller,
        "points": points,
        "penalty": penalty,
        "reset": reset,
        "received": received,
        "totals": [total(state, s) for s in range(n)],
        "winners": winners,
    }
    state["results"].append(result)
    events.append(event("round_scored", **result))
    if any(total(state, s) > LIMIT for s in seats):
        state["phase"] = "over"
        state["finished"] = True
        events.append(event("game_over", totals=result["totals"]))
        return
    state["next_starter"] = _tie_break(state, winners, lowest_first=True, why="starts", events=events)
    state["dealer"] = _tie_break(state, losers, lowest_first=False, why="deals", events=events)
    state["turn"] = state["dealer"]


def total(state: State, seat: int) -> int:
    parts = state["parts"]
    return int(parts["cards"][seat] + parts["penalty"][seat] + parts["reset"][seat])


def _tie_break(state: State, seats: list[int], *, lowest_first: bool, why: str, events: list[Event]) -> int:
    if len(seats) == 1:
        return seats[0]
    overall = {s: total(state, s) for s in seats}
    best = (min if lowest_first else max)(overall.values())
    tied = [s for s in seats if overall[s] == best]
    return roll_off(state, tied, why, events)
