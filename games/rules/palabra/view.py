"""What the table shows: each viewer's ``body``, the scores, the status line, the public line of the last move, where
every card is and which cards each viewer may see, and the words met in a move."""

from collections.abc import Callable
from typing import Any

from games.engine.encounters import WordEncounter, played_and_seen
from games.engine.events import Event
from games.engine.game import Action, Scores, State, Status, seat_ref
from games.engine.turns import active_seats

from .common import CHALLENGE, DECIDE, OVER, PLAY, PREPLAY, ROUND, VOTE, Common
from .deck import ALPHABET, VOWELS, deck_for
from .simultaneous import face_down_cards

SUMMARIES = {
    PREPLAY: "{turn}: pre-play or play",
    PLAY: "{turn}: play",
    VOTE: "Vote on {turn}'s word",
    DECIDE: "{turn}: withdraw or insist",
    CHALLENGE: "Challenge {turn}'s word or concede",
    ROUND: "Round {round}: everyone lays a play face down",
}


def card_places(state: State) -> dict[str, list[int]]:
    """Every place a card can be: each card id is in exactly one of these lists."""
    places = {"pile": list(state["pile"]), "discard": list(state["discard"])}
    for seat, hand in enumerate(state["hands"]):
        places[f"hand {seat}"] = list(hand)
    for seat, word in enumerate(state["table"]):
        places[f"table {seat}"] = list(word["cards"]) if word else []
    places["pending"] = list(state["pending"]["word"]["cards"]) if state["pending"] else []
    for seat in range(state["players"]):
        places[f"face down {seat}"] = face_down_cards(state, seat)
    return places


def _word(ev: Event) -> str:
    return "".join(ev["word"]["letters"])


# The public line of a move, from the first of its public events that says what happened (the page prefixes the
# player's name). Face-down plays say only that something was laid.
MOVE_LINES: dict[str, Callable[[Event], str]] = {
    "placed": lambda ev: (
        f"built {_word(ev)} on {seat_ref(ev['word']['built_on']['seat'])}'s word for {ev['word']['value']}"
        if ev["word"].get("built_on")
        else f"played {_word(ev)} for {ev['word']['value']}"
        + ("" if ev["word"]["kind"] == "word" else f" ({ev['word']['kind']})")
    ),
    "proposed": lambda ev: f"played {_word(ev)}: the others vote",
    "jokered": lambda ev: f"jokered {seat_ref(ev['victim'])}'s word",
    "shaved": lambda ev: f"shaved {seat_ref(ev['victim'])}'s word for {ev['moved']}",
    "vowel_play": lambda ev: f"showed {ev['count']} vowels for {ev['points']}",
    "exchanged": lambda ev: f"exchanged {ev['count']} card{'s' if ev['count'] != 1 else ''}",
    "passed": lambda ev: "passed",
    "vote": lambda ev: "accepted the word" if ev["accept"] else "rejected the word",
    "withdrawn": lambda ev: f"took {ev['letters']} back",
    "insisted": lambda ev: "insisted",
    "challenge": lambda ev: f"challenged {ev['lookup']['word']}: {'withdrawn' if ev['upheld'] else 'it stands'}",
    "conceded": lambda ev: "conceded",
    "teacher_check": lambda ev: f"checked {ev['lookup']['word']}: {ev['lookup']['why']}",
    "timer_started": lambda ev: "started the impatient timer",
    "timer_expired": lambda ev: "called time",
    "preplay_laid": lambda ev: "laid a pre-play face down",
    "play_laid": lambda ev: "is ready",
}


class View(Common):
    # -- scores and status -------------------------------------------------------------------------
    def scores(self, state: State) -> Scores:
        return Scores(total=list(state["scores"]))

    def status(self, state: State) -> Status:
        if state["finished"]:
            return Status(phase=OVER, to_act=(), finished=True, summary=f"Game over ({state['end_reason']}).")
        phase = state["phase"]
        summary = SUMMARIES[phase].format(turn=seat_ref(state["turn"]), round=(state["round"] or {}).get("no"))
        return Status(
            phase=phase, to_act=tuple(self._waiting_for(state)), summary=summary, extra={"turn": state["turn"]}
        )

    def last_move(self, state: State, seat: int | None, action: Action, events: list[Event]) -> dict[str, Any]:
        """As the engine's, except that a move laid face down in a round names no action type (a joker looks like a
        shave, a word like a pass) until the round is turned over."""
        line = super().last_move(state, seat, action, events)
        kinds = {ev["type"] for ev in events}
        if "revealed" not in kinds and kinds & {"preplay_laid", "play_laid"}:
            line["type"] = "preplay" if "preplay_laid" in kinds else "play"
        return line

    def describe_move(self, state: State, seat: int | None, action: Action, public_events: list[Event]) -> str:
        line = next((MOVE_LINES[ev["type"]](ev) for ev in public_events if ev["type"] in MOVE_LINES), "")
        line = line or action["type"].replace("_", " ")
        if any(ev["type"] == "revealed" for ev in public_events):
            line += "; the round is turned over"
        if any(ev["type"] == "game_over" for ev in public_events):
            line += "; the game is over"
        return line

    # -- cards: where they are, who sees them ------------------------------------------------------------
    def places(self, state: State) -> dict[str, list[int]]:
        return card_places(state)

    def visible_pieces(self, state: State, seat: int | None) -> set[int]:
        """The table's words (and a word under dispute) and the discard are face up; a hand and the cards laid face
        down in a round only to their holder; every hand once the game is over (they are shown for the penalty)."""
        seen = set(state["discard"])
        for word in state["table"]:
            seen.update(word["cards"] if word else [])
        if state["pending"]:
            seen.update(state["pending"]["word"]["cards"])
        if seat is not None:
            seen.update(state["hands"][seat])
            seen.update(face_down_cards(state, seat))
        if state["finished"]:
            seen.update(card for hand in state["hands"] for card in hand)
        return seen

    def encounters(self, state: State, events: list[Event]) -> list[WordEncounter]:
        """A word that stands on the table (a build included) is played by its player and seen by the others.
        Straights and flushes are not words: nobody learns a word from them."""
        found: list[WordEncounter] = []
        for ev in events:
            if ev["type"] == "placed" and ev["word"]["kind"] == "word":
                spelled = "".join(ev["word"]["letters"])
                found += played_and_seen(active_seats(state), ev["seat"], spelled, spelled)
        return found

    # -- the body ----------------------------------------------------------------------------------------
    def _offers(self, state: State, seat: int | None, kind: str) -> bool:
        """Whether the envelope offers ``kind`` to ``seat`` now (the same checks the engine makes)."""
        return self._is_open(self.action_specs[kind], state, seat, self.status(state))

    def body(self, state: State, seat: int | None) -> dict[str, Any]:
        deck = deck_for(state["options"])
        shave: dict[int, dict[int, list[int]]] = {}
        joker: list[int] = []
        build: list[int] = []
        if seat is not None:  # only a player is offered pre-plays and builds
            shave = self._shave_options(state, seat) if self._offers(state, seat, "shave") else {}
            joker = self._joker_targets(state, seat) if self._offers(state, seat, "joker") else []
            build = self._build_targets(state, seat) if self._offers(state, seat, "build") else []
        table = []
        for owner, word in enumerate(state["table"]):
            if word:
                shown = self._public_word(state, word)
                shown.update(
                    shave_target=owner in shave,
                    joker_target=owner in joker,
                    build_target=owner in build,
                    shave_options=[{"at": at, "cards": cards} for at, cards in sorted(shave.get(owner, {}).items())],
                )
                table.append(shown)
        pending = state["pending"]
        return {
            "you": seat,
            "options": dict(state["options"]),
            "turn": state["turn"],
            "turn_no": state["turn_no"],
            "preplayed": state["preplayed"],
            "hand": [dict(deck[c]) for c in state["hands"][seat]] if seat is not None else None,
            "hand_counts": [len(hand) for hand in state["hands"]],
            "table": table,
            "pending": self._public_word(state, pending["word"]) if pending else None,
            "votes": dict(state["votes"]),
            "rejecters": list(state["rejecters"]),
            "forfeits": list(state["forfeits"]),
            "pile": len(state["pile"]),
            "discard": len(state["discard"]),
            "timer": dict(state["timer"]) if state["timer"] else None,
            "round": self._round_view(state, seat),
            "targets": {"shave": sorted(shave), "joker": joker, "build": build},
            "letters_for": {"wild": ALPHABET, "vowel": VOWELS},
            "end_reason": state["end_reason"],
        }
