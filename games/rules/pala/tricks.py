"""Tricks: what a player may play, what each play is worth, and who is winning.

A trick is a dict in the state::

    {"leader": seat, "lead_colour": c, "colour": c, "smeared": False, "order": [seats], "best": seat,
     "plays": [{"seat": s, "kind": "lead"|"copy"|"junk"|"mix"|"smear", "cards": [ids], "daub": id|None,
                "onto": seat|None}]}

``order`` is who plays in this trick (the leader, then clockwise the players still holding cards). A smear puts its
primary card on the winning play as that play's ``daub`` (the two then count as one card of the secondary, their
values summed) and its secondary card in front of the smearer (``cards``); ``onto`` names the smeared player.
"""

from typing import Any

from .deck import MIXES, PRIMARIES, colour, is_primary, mix_of, value

LEAD, COPY, JUNK, MIX, SMEAR = "lead", "copy", "junk", "mix", "smear"
KINDS = (LEAD, COPY, JUNK, MIX, SMEAR)

Trick = dict[str, Any]
Play = dict[str, Any]


def new_trick(leader: int, order: list[int]) -> Trick:
    return {
        "leader": leader,
        "lead_colour": None,
        "colour": None,
        "smeared": False,
        "order": order,
        "best": None,
        "plays": [],
    }


def play_face(play: Play) -> tuple[str, int]:
    """The colour and value a play counts as: one card, or two (a mix, or a card with a smear on it) summed into the
    secondary they make."""
    cards = list(play["cards"]) + ([play["daub"]] if play.get("daub") is not None else [])
    if len(cards) == 1:
        return colour(cards[0]), value(cards[0])
    mixed = mix_of(colour(cards[0]), colour(cards[1]))
    return str(mixed), value(cards[0]) + value(cards[1])


def trick_cards(trick: Trick) -> list[int]:
    cards: list[int] = []
    for play in trick["plays"]:
        cards.extend(play["cards"])
        if play.get("daub") is not None:
            cards.append(play["daub"])
    return cards


def legal_plays(hand: list[int], trick: Trick | None) -> dict[str, list[Any]]:
    """Every legal play from ``hand`` by kind: single cards for lead/copy/junk, [card, card] pairs for mix and smear
    ([primary, secondary] for a smear). Kinds that are not open are left out."""
    if trick is None or not trick["plays"]:
        return {LEAD: list(hand)} if hand else {}
    wanted = trick["colour"]
    same = [c for c in hand if colour(c) == wanted]
    if is_primary(wanted):
        if same:
            return {COPY: same}
        smears = [
            [p, s]
            for p in hand
            if is_primary(colour(p)) and colour(p) != wanted
            for s in hand
            if colour(s) == mix_of(wanted, colour(p))
        ]
        plays: dict[str, list[Any]] = {JUNK: list(hand)}
        if smears:
            plays[SMEAR] = smears
        return plays
    first, second = (p for p in PRIMARIES if p in MIXES[wanted])
    mixes = [[a, b] for a in hand if colour(a) == first for b in hand if colour(b) == second]
    plays = {COPY: same} if same else {JUNK: list(hand)}
    if mixes:
        plays[MIX] = mixes
    return plays


def _play_of(trick: Trick, seat: int) -> Play:
    return next(p for p in trick["plays"] if p["seat"] == seat)


def best_value(trick: Trick) -> int:
    return play_face(_play_of(trick, trick["best"]))[1]


def add_play(trick: Trick, seat: int, kind: str, cards: list[int]) -> int | None:
    """Put a (legal) play on the trick and update who is winning. Returns the seat the player is tied with when
    they must now choose to win or lose the tie, else None."""
    if kind == LEAD:
        trick["plays"].append({"seat": seat, "kind": kind, "cards": cards, "daub": None, "onto": None})
        trick["lead_colour"] = trick["colour"] = colour(cards[0])
        trick["best"] = seat
        return None
    if kind == SMEAR:
        primary, secondary = cards
        target = _play_of(trick, trick["best"])
        target["daub"] = primary
        trick["plays"].append({"seat": seat, "kind": kind, "cards": [secondary], "daub": None, "onto": target["seat"]})
        trick["colour"] = colour(secondary)
        trick["smeared"] = True
        others = [p for p in trick["plays"][:-1] if play_face(p)[0] == trick["colour"]]
        top = max(play_face(p)[1] for p in others)
        trick["best"] = next(p["seat"] for p in others if play_face(p)[1] == top)
    else:
        trick["plays"].append({"seat": seat, "kind": kind, "cards": cards, "daub": None, "onto": None})
        if kind == JUNK:
            return None
    mine, top = play_face(trick["plays"][-1])[1], best_value(trick)
    if mine > top:
        trick["best"] = seat
    elif mine == top:
        return int(trick["best"])
    return None


def next_to_play(trick: Trick) -> int | None:
    played = {p["seat"] for p in trick["plays"]}
    return next((s for s in trick["order"] if s not in played), None)


def award_card(trick: Trick) -> int:
    """Pointillism: the one card the winner banks, of the trick's final colour (their own where it is a single card
    of that colour, else the first such card played)."""
    wanted = trick["colour"]
    winning = _play_of(trick, trick["best"])
    if winning.get("daub") is None and len(winning["cards"]) == 1 and colour(winning["cards"][0]) == wanted:
        return int(winning["cards"][0])
    return next(c for c in trick_cards(trick) if colour(c) == wanted)
