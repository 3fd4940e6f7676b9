"""A tiny game with hidden hands, so the framework's tests depend on no real game.

Twenty cards (ids 0-19, worth ``id % 10``); each seat is dealt ``hand_size`` cards in secret. On their turn a seat
may ``draw`` (secret to them, the turn stays), ``play`` a card (public, scores its value, passes the turn) or
``say`` a word (checked against the lexicon: one point). The teacher may ``skip`` the seat to act. The game ends
when someone plays their last card.
"""

from typing import Any

from games.engine import (
    INT,
    STR,
    TEACHER,
    TURN,
    AppError,
    Context,
    Event,
    Field,
    Game,
    Option,
    Scores,
    State,
    Status,
    action,
    event,
    private,
    score,
    seat_ref,
)
from games.engine.cards import deal, take
from games.engine.encounters import WordEncounter, played_and_seen
from games.engine.errors import NOT_A_WORD, NOT_ALLOWED, NOT_HELD
from games.engine.rng import new_rng_state, shuffled
from games.engine.turns import active_seats, next_seat

CARDS = 20


class Toy(Game):
    slug = "toy"
    title = "Toy"
    language = "grc"
    min_players = 1
    max_players = 4
    options = (Option("hand_size", "Cards per hand", "int", 2, low=1, high=4),)
    piece_fields = ("hand", "played", "card", "cards")
    fixed = ("hand_size",)  # a move's message leaves it out: the page keeps it

    def _new(self, players: int, options: dict[str, Any], seed: int) -> tuple[State, list[Event]]:
        state: State = {"players": players, "options": options, "rng": new_rng_state(seed), "removed": []}
        stock = shuffled(state, list(range(CARDS)))
        state["hands"] = [deal(stock, options["hand_size"]) for _ in range(players)]
        state.update(stock=stock, played=[], turn=0, scores=[0] * players, finished=False, last_played_at=None)
        return state, [private("dealt", [s], {"cards": state["hands"][s]}, seat=s) for s in range(players)]

    @action("skip", phases=("play",), actor=TEACHER)
    def _skip(self, state: State, seat: None, action: dict[str, Any], ctx: Context) -> list[Event]:
        return self._pass_turn(state, [event("skipped", seat=state["turn"])])

    def _stock_left(self, state: State, seat: int) -> None:
        if not state["stock"]:
            raise AppError(NOT_ALLOWED, "The stock is empty.")

    @action("draw", phases=("play",), actor=TURN, allowed="_stock_left")
    def _draw(self, state: State, seat: int, action: dict[str, Any], ctx: Context) -> list[Event]:
        card = deal(state["stock"], 1)[0]
        state["hands"][seat].append(card)
        return [private("drew", [seat], {"card": card}, seat=seat)]

    @action("say", phases=("play",), actor=TURN, fields=(Field("word", STR, max_length=30),))
    def _say(self, state: State, seat: int, action: dict[str, Any], ctx: Context) -> list[Event]:
        word = action["word"]
        if ctx.lexicon is None or not ctx.lexicon.is_word(ctx.lexicon.normalise(word)):
            raise AppError(NOT_A_WORD, f"{word!r} is not a word.")
        state["scores"][seat] += 1
        return [score(seat, 1, "word", word=word)]

    def encounters(self, state: State, events: list[Event]) -> list[WordEncounter]:
        """A word said is played by its player and seen by the rest of the table; cards drawn or played meet none."""
        return [
            found
            for ev in events
            if ev["type"] == "score" and ev["reason"] == "word"
            for found in played_and_seen(active_seats(state), ev["seat"], ev["word"], ev["word"])
        ]

    def _hand_choices(self, state: State, seat: int) -> dict[str, Any]:
        return {"card": list(state["hands"][seat])}

    @action("play", phases=("play",), actor=TURN, fields=(Field("card", INT),), choices="_hand_choices")
    def _play(self, state: State, seat: int, action: dict[str, Any], ctx: Context) -> list[Event]:
        card = action["card"]
        try:
            take(state["hands"][seat], [card])
        except ValueError:
            raise AppError(NOT_HELD, "You do not hold that card.") from None
        state["played"].append(card)
        state["scores"][seat] += card % 10
        state["last_played_at"] = ctx.now
        events = [event("played", seat=seat, card=card), score(seat, card % 10, "card")]
        if not state["hands"][seat]:
            state["finished"] = True
            return [*events, event("game_over")]
        return self._pass_turn(state, events)

    def _pass_turn(self, state: State, events: list[Event]) -> list[Event]:
        state["turn"] = next_seat(state, state["turn"])
        return [*events, event("turn", seat=state["turn"])]

    def _after_removal(self, state: State, seat: int, ctx: Context) -> list[Event]:
        state["stock"].extend(state["hands"][seat])
        state["hands"][seat] = []
        events = [event("player_removed", seat=seat)]
        if not active_seats(state):
            state["finished"] = True
            return events
        if state["turn"] == seat:
            return self._pass_turn(state, events)
        return events

    def body(self, state: State, seat: int | None) -> dict[str, Any]:
        body = {
            "turn": state["turn"],
            "hand_counts": [len(h) for h in state["hands"]],
            "played": list(state["played"]),
            "stock_count": len(state["stock"]),
            "hand_size": state["options"]["hand_size"],
        }
        if seat is not None:
            body["hand"] = list(state["hands"][seat])
        return body

    def scores(self, state: State) -> Scores:
        return Scores(list(state["scores"]))

    def status(self, state: State) -> Status:
        if state["finished"]:
            return Status("over", (), finished=True, summary="Game over.")
        return Status("play", (state["turn"],), summary=f"{seat_ref(state['turn'])} to play.")

    def places(self, state: State) -> dict[str, list[int]]:
        found = {"stock": list(state["stock"]), "played": list(state["played"])}
        found.update({f"hand {s}": list(hand) for s, hand in enumerate(state["hands"])})
        return found

    def visible_pieces(self, state: State, seat: int | None) -> set[int]:
        own = set(state["hands"][seat]) if seat is not None else set()
        return own | set(state["played"])


TOY = Toy()
