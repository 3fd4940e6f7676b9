"""What each viewer may see: the body of the view, the pieces it may name, and the public line of each move.

A face-down card is named (by id and face) only to the seats allowed to see it now: its owner during the first
look, a peek or a penalty draw; the spy during a spy; the king's holder during the look; everyone during a wrong
match's showing and at the reveal; with the ``reminders`` option, a seat that has seen a card as long as it can
follow it. Everyone else gets a card back, which names nothing.
"""

from typing import Any

from games.engine.events import Event
from games.engine.turns import active_seats

from .deck import face
from .rounds import field_total
from .table import State, all_field_cards, field_cards
from .words import number_word


def visible(state: State, seat: int | None) -> set[int]:
    seen = set(state["discard"]) | set(state["shown"])
    if state["phase"] in ("reveal", "over"):
        seen |= set(all_field_cards(state))
    if seat is not None:
        seen |= set(state["glimpse"][seat])
        if state["options"]["reminders"]:
            seen |= set(state["known"][seat]) & set(all_field_cards(state))
        if state["held"] is not None and state["turn"] == seat:
            seen.add(state["held"])
    return seen


def _face(state: State, card: int) -> dict[str, Any]:
    shown = face(card)
    language = state["options"]["number_words"]
    if language:
        shown["word"] = number_word(shown["value"], language)
    return shown


def _slot(state: State, seat: int | None, owner: int, slot: int, card: int | None) -> dict[str, Any]:
    if card is None:
        return {"slot": slot, "empty": True}
    if state["phase"] in ("reveal", "over"):
        return {"slot": slot, "seen": "reveal", **_face(state, card)}
    if card in state["shown"]:
        return {"slot": slot, "seen": "shown", **_face(state, card)}
    if seat is not None:
        if card in state["glimpse"][seat]:
            return {"slot": slot, "seen": "now", **_face(state, card)}
        if state["options"]["reminders"] and card in state["known"][seat]:
            return {"slot": slot, "seen": "memory", **_face(state, card)}
    return {"slot": slot}


def _number(state: State, n: int) -> dict[str, Any]:
    language = state["options"]["number_words"]
    return {"n": n, "word": number_word(n, language)} if language else {"n": n}


def body(state: State, seat: int | None) -> dict[str, Any]:
    seats = active_seats(state)
    revealed = state["phase"] in ("reveal", "over")
    fields = [
        {
            "seat": s,
            "slots": [_slot(state, seat, s, i, c) for i, c in enumerate(field)],
            "count": len(field_cards(state, s)),
            "protected": state["pablo"] == s,
            "total": _number(state, field_total(state, s)) if revealed and s in seats else None,
        }
        for s, field in enumerate(state["fields"])
    ]
    discard = state["discard"]
    holding = state["held"] is not None
    shown: dict[str, Any] = {
        "round": state["round"],
        "turn": state["turn"],
        "dealer": state["dealer"],
        "starter": state["starter"],
        "fields": fields,
        "draw_count": len(state["draw"]),
        "discard": {"count": len(discard), "top": _face(state, discard[-1]) if discard else None},
        "match": {"open": state["match_open"] and bool(discard), "matched_by": state["matched_by"]},
        "holding": holding,
        "held": _face(state, state["held"]) if holding and seat is not None and seat == state["turn"] else None,
        "special": state["special"],
        "king_look": state["king_look"],
        "pablo": state["pablo"],
        "ready": list(state["ready"]),
        "first_looks": len(state["first_looks"][seat]) if seat is not None else 0,
        "reminders": state["options"]["reminders"],
        "number_words": state["options"]["number_words"],
        "results": [_result(state, r) for r in state["results"]],
    }
    return shown


def _result(state: State, result: dict[str, Any]) -> dict[str, Any]:
    return {
        "round": result["round"],
        "caller": result["caller"],
        "winners": result["winners"],
        "points": [_number(state, n) for n in result["points"]],
        "penalty": list(result["penalty"]),
        "reset": list(result["reset"]),
        "totals": [_number(state, n) for n in result["totals"]],
    }


def _card_text(ev: Event) -> str:
    return f"{ev['rank']}{ {'S': '♠', 'H': '♥', 'D': '♦', 'C': '♣'}[ev['suit']] }".replace(" ", "")


def describe(events: list[Event]) -> str:
    """The public line of a move, from its public events only."""
    lines = []
    for ev in events:
        kind = ev["type"]
        if kind == "drew":
            lines.append("drew a card")
        elif kind == "kept":
            lines.append(f"kept the card and discarded {_card_text(ev)}")
        elif kind == "discarded":
            lines.append(f"discarded {_card_text(ev)}")
        elif kind == "paired":
            lines.append(f"discarded a pair of {ev['rank']}")
        elif kind == "matched":
            whose = "their own" if ev["owner"] == ev["seat"] else "another player's"
            lines.append(f"matched first, with {whose} {_card_text(ev)}")
        elif kind == "wrong_match":
            lines.append(f"tried a wrong match ({_card_text(ev)}) and takes a penalty card")
        elif kind == "peeked":
            lines.append("peeked at one of their cards")
        elif kind == "spied":
            lines.append("spied on a card")
        elif kind == "looked" and ev["owner"] != ev["seat"]:
            lines.append("looked at a card with the king")
        elif kind == "looked":
            lines.append("looked at a card")
        elif kind == "swapped":
            lines.append("swapped a card")
        elif kind == "skipped":
            lines.append("did not use the action")
        elif kind == "pablo":
            lines.append("called Pablo!")
        elif kind == "ready":
            lines.append("is ready")
        elif kind == "revealed":
            lines.append("the cards are shown")
        elif kind == "dealt":
            lines.append(f"dealt round {ev['round']}")
        elif kind == "no_action":
            lines.append("the special card has no action here")
        elif kind == "game_over":
            lines.append("the game is over")
    return "; ".join(lines) or "played"
