"""Building Pala tables with chosen hands, for the worked examples of the rules tests."""

from typing import Any

from games.engine import Context, State
from games.rules.pala import RULES
from games.rules.pala.deck import DECK
from games.rules.pala.tricks import new_trick

CTX = Context(None, 0.0)


class Cards:
    """Hands out card ids by colour and value, each card once."""

    def __init__(self) -> None:
        self.used: set[int] = set()

    def __call__(self, spec: str) -> int:
        """``"red 3"`` → the id of a red 3 not yet handed out."""
        colour, number = spec.split()
        for card in DECK:
            if card["colour"] == colour and card["value"] == int(number) and card["id"] not in self.used:
                self.used.add(card["id"])
                return int(card["id"])
        raise ValueError(f"no {spec} left")


def table(
    hands: list[list[str]], *, leader: int = 0, variant: str = "pointillism", **options: Any
) -> tuple[State, Cards]:
    """A table in the play phase: each seat holds the named cards, ``leader`` to lead the first trick."""
    state, _ = RULES.new_game(len(hands), {"variant": variant, **options}, seed=1)
    cards = Cards()
    state["hands"] = [[cards(c) for c in hand] for hand in hands]
    state["discard"] = [c["id"] for c in DECK if c["id"] not in cards.used]
    state["aside"] = []
    state["board"] = [] if variant == "pointillism" else state["board"]
    state["bids"] = [["red"]] * len(hands)
    order = [(leader + i) % len(hands) for i in range(len(hands)) if state["hands"][(leader + i) % len(hands)]]
    state.update(phase="play", bid_turn=None, trick=new_trick(leader, order), turn=leader, dealer=leader)
    return state, cards


def act(state: State, seat: int | None, kind: str, **fields: Any) -> State:
    new_state, _ = RULES.apply(state, seat, {"type": kind, **fields}, CTX)
    return new_state


def offered(state: State, seat: int) -> dict[str, dict[str, Any]]:
    """The actions the seat's view offers, by type, with their choices by field."""
    return {
        spec["type"]: {f["name"]: f.get("choices") for f in spec["fields"]}
        for spec in RULES.view(state, seat)["actions"]
    }
