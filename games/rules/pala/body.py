"""What each viewer sees of a Pala table: their own hand, everything public, nothing hidden.

Hands and the set-aside cards are hidden (counts only); the trick, the bids and the bid board are public; banked
cards are public with the ``banks="open"`` option and otherwise seen by their owner only (counts for the others).
Cards that have left where the viewer may see them (a finished trick's discards) are shown without ids.
"""

from typing import Any

from games.engine import State

from .bidding import IMPRESSIONISM, POINT_GOAL, THRESHOLD
from .deck import colour, face
from .names import names_for
from .scoring import cancel_count
from .tricks import play_face


def banks_visible_to(state: State, seat: int | None) -> list[int]:
    """The seats whose banked cards ``seat`` may see."""
    if state["options"]["banks"] == "open":
        return list(range(state["players"]))
    return [seat] if seat is not None else []


def trick_view(trick: dict[str, Any] | None) -> dict[str, Any] | None:
    if trick is None:
        return None
    plays = []
    for play in trick["plays"]:
        counted_colour, counted_value = play_face(play)
        plays.append(
            {
                "seat": play["seat"],
                "kind": play["kind"],
                "cards": [face(c) for c in play["cards"]],
                "daub": face(play["daub"]) if play.get("daub") is not None else None,
                "onto": play.get("onto"),
                "counts_as": {"colour": counted_colour, "value": counted_value},
                "in_colour": counted_colour == trick["colour"],
            }
        )
    return {
        "leader": trick["leader"],
        "lead_colour": trick["lead_colour"],
        "colour": trick["colour"],
        "smeared": trick["smeared"],
        "winning": trick["best"],
        "order": list(trick["order"]),
        "plays": plays,
    }


def goal(state: State) -> dict[str, Any]:
    players = state["players"]
    rounds = state["options"]["rounds"]
    if state["options"]["variant"] == IMPRESSIONISM:
        return {"kind": "threshold", "points": THRESHOLD[players], "rounds": rounds, "lowest_wins": True}
    return {"kind": "goal", "points": POINT_GOAL[players], "rounds": rounds, "lowest_wins": False}


def body(state: State, seat: int | None) -> dict[str, Any]:
    options = state["options"]
    seen_banks = banks_visible_to(state, seat)
    shown: dict[str, Any] = {
        "variant": options["variant"],
        "names": names_for(options["card_language"]),
        "round": state["round"],
        "dealer": state["dealer"],
        "goal": goal(state),
        "hand": [face(c) for c in state["hands"][seat]] if seat is not None else None,
        "hand_counts": [len(h) for h in state["hands"]],
        "aside_count": len(state["aside"]),
        "bids": [list(b) if b is not None else None for b in state["bids"]],
        "bid_turn": state["bid_turn"],
        "board": [
            {"slot": slot["slot"], "card": face(slot["card"]) if slot["card"] is not None else None}
            for slot in state["board"]
        ],
        "trick": trick_view(state["trick"]),
        "tie": state["tie"],
        "last_trick": state["last_trick"],
        "banks": [
            {"count": len(bank), "cards": [face(c) for c in bank] if s in seen_banks else None}
            for s, bank in enumerate(state["banks"])
        ],
        "won": [list(w) for w in state["won"]],
        "totals": list(state["totals"]),
        "cancel": None,
        "end_reason": state["end_reason"],
    }
    if seat is not None and str(seat) in state["cancel_pending"]:
        pile = state["banks"][seat] + state["hands"][seat]
        need, others = cancel_count(pile, board_map(state))
        shown["cancel"] = {"need": need, "cards": [face(c) for c in others]}
    return shown


def board_map(state: State) -> dict[str, str]:
    """Each colour on the bid board and its slot."""
    return {colour(s["card"]): s["slot"] for s in state["board"] if s["card"] is not None}
