"""Palabras Cortas solitaire: one player, eight piles of five face-down cards and one face up; spell words from the
cards showing, refill an emptied pile from a face-down card, and use all 48 cards to win. The rules as this game
reads them are in ``docs/games/palabras_cortas.md``.

State: ``piles`` (bottom to top: the last id of a pile is its face-up card), ``box`` (the cards not dealt) and
``words`` (card-id lists) hold every card exactly once; ``phase`` is ``play``, ``refill`` or ``finished``, with
``result`` (``won``, ``stuck``, ``gave_up``, ``abandoned``) once finished.
"""

from itertools import permutations
from typing import Any

from games.engine import (
    INT,
    INTS,
    TURN,
    AppError,
    Context,
    Event,
    Field,
    Game,
    Scores,
    State,
    Status,
    action,
    event,
    score,
)
from games.engine.cards import Card, deal, shuffled_ids
from games.engine.encounters import PLAYED, WordEncounter
from games.engine.errors import BAD_ACTION, NOT_A_WORD, NOT_ALLOWED, NOT_HELD
from games.engine.letter_cards import face, look_up, points, spell, word_ids, word_record
from games.engine.rng import new_rng_state
from games.rules.palabras_cortas.deck import DECK_OPTION, deck

PILES = 8
FACE_DOWN = 5
DEALT = PILES * (FACE_DOWN + 1)
RESULTS = {
    "won": "every card used",
    "stuck": "no word left to spell",
    "gave_up": "given up",
    "abandoned": "abandoned",
}


def _pile_index(value: int, what: str) -> int:
    if not 0 <= value < PILES:
        raise AppError(BAD_ACTION, f"The {what} must be a pile number from 0 to {PILES - 1}.")
    return value


class PalabrasCortasSolitario(Game):
    slug = "palabras_cortas_solitario"
    title = "Palabras Cortas: solitario"
    fixed = ("options",)
    language = "spa"
    min_players = 1
    max_players = 1
    options = (DECK_OPTION,)
    renderer = "palabras_cortas_solitario"

    def _new(self, players: int, options: dict[str, Any], seed: int) -> tuple[State, list[Event]]:
        state: State = {
            "players": 1,
            "options": options,
            "rng": new_rng_state(seed),
            "removed": [],
            "phase": "play",
            "result": None,
            "piles": [],
            "box": [],
            "words": [],
            "total": 0,
        }
        stock = shuffled_ids(state, self._cards(state))
        # Five face down, then one face up, on each pile: the last id of a pile is its face-up card.
        state["piles"] = [deal(stock, FACE_DOWN) for _ in range(PILES)]
        for pile in state["piles"]:
            pile.extend(deal(stock, 1))
        state["box"] = stock
        return state, [event("deal", piles=PILES, showing=self._showing(state))]

    def _cards(self, state: State) -> list[Card]:
        return deck(state["options"]["deck"])

    def _showing(self, state: State) -> list[dict[str, Any] | None]:
        cards = self._cards(state)
        return [face(cards, pile[-1]) if pile else None for pile in state["piles"]]

    def _empty_and_sources(self, state: State) -> tuple[list[int], list[int]]:
        piles = state["piles"]
        return [i for i, p in enumerate(piles) if not p], [i for i, p in enumerate(piles) if len(p) > 1]

    # -- actions ------------------------------------------------------------------------------------------------
    def _word_choices(self, state: State, seat: int) -> dict[str, Any]:
        return {"cards": [pile[-1] for pile in state["piles"] if pile]}

    @action(
        "word",
        phases=("play",),
        actor=TURN,
        fields=(Field("cards", INTS, max_items=PILES, help="showing cards in reading order"),),
        choices="_word_choices",
        label="Spell a word",
    )
    def _word(self, state: State, seat: int, action: dict[str, Any], ctx: Context) -> list[Event]:
        ids = word_ids(action["cards"])
        tops = {pile[-1]: i for i, pile in enumerate(state["piles"]) if pile}
        if any(i not in tops for i in ids):
            raise AppError(NOT_HELD, "Words are made only from the cards showing on top of the piles.")
        cards = self._cards(state)
        text = spell(cards, ids)
        key, ok = look_up(ctx, text)
        if not ok:
            raise AppError(NOT_A_WORD, f"{text} is not in the lexicon.")
        for i in ids:
            state["piles"][tops[i]].pop()
        state["words"].append(ids)
        gained = points(cards, ids)
        state["total"] += gained
        revealed = {tops[i]: face(cards, state["piles"][tops[i]][-1]) for i in ids if state["piles"][tops[i]]}
        events = [
            event("word", **word_record(cards, ids), key=key, revealed={str(p): c for p, c in revealed.items()}),
            score(0, gained, "word", word=text),
        ]
        return events + self._settle(state, ctx)

    def _refill_choices(self, state: State, seat: int) -> dict[str, Any]:
        empty, sources = self._empty_and_sources(state)
        return {"pile": empty, "source": sources}

    @action(
        "refill",
        phases=("refill",),
        actor=TURN,
        fields=(Field("pile", INT, help="the empty pile"), Field("source", INT, help="a pile with face-down cards")),
        choices="_refill_choices",
        label="Refill a pile",
    )
    def _refill(self, state: State, seat: int, action: dict[str, Any], ctx: Context) -> list[Event]:
        target = _pile_index(action["pile"], "pile to refill")
        source = _pile_index(action["source"], "pile to take a card from")
        empty, sources = self._empty_and_sources(state)
        if target not in empty:
            raise AppError(NOT_ALLOWED, "That pile is not empty.")
        if source not in sources:
            raise AppError(NOT_ALLOWED, "That pile has no face-down card to turn up.")
        card = state["piles"][source].pop(-2)
        state["piles"][target].append(card)
        refilled = event("refill", pile=target, source=source, card=face(self._cards(state), card))
        return [refilled, *self._settle(state, ctx)]

    @action("give_up", phases=("play", "refill"), actor=TURN, label="Give up")
    def _give_up(self, state: State, seat: int, action: dict[str, Any], ctx: Context) -> list[Event]:
        return self._finish(state, "gave_up")

    def _settle(self, state: State, ctx: Context) -> list[Event]:
        """After a move: wait for a refill, or end the game won or stuck, or play on."""
        empty, sources = self._empty_and_sources(state)
        if empty and sources:
            state["phase"] = "refill"
            return []
        state["phase"] = "play"
        if len(empty) == PILES:
            return self._finish(state, "won")
        if not self._word_showing(state, ctx):
            return self._finish(state, "stuck")
        return []

    def _word_showing(self, state: State, ctx: Context) -> bool:
        """Whether the showing cards spell any word; shortest first, since short words are the common ones."""
        cards = self._cards(state)
        showing = [cards[pile[-1]]["letters"] for pile in state["piles"] if pile]
        for size in range(2, len(showing) + 1):
            for text in {"".join(p) for p in permutations(showing, size)}:
                if look_up(ctx, text)[1]:
                    return True
        return False

    def _finish(self, state: State, result: str) -> list[Event]:
        state["phase"] = "finished"
        state["result"] = result
        used = sum(len(w) for w in state["words"])
        return [event("game_over", result=result, cards_used=used, total=state["total"])]

    def _after_removal(self, state: State, seat: int, ctx: Context) -> list[Event]:
        if state["phase"] == "finished":
            return []
        return self._finish(state, "abandoned")

    # -- what the player sees -----------------------------------------------------------------------------------
    def encounters(self, state: State, events: list[Event]) -> list[WordEncounter]:
        return [
            WordEncounter(seat=0, kind=PLAYED, key=ev["key"], form=ev["word"]) for ev in events if ev["type"] == "word"
        ]

    def body(self, state: State, seat: int | None) -> dict[str, Any]:
        cards = self._cards(state)
        used = sum(len(w) for w in state["words"])
        return {
            "options": dict(state["options"]),
            "result": state["result"],
            "result_text": RESULTS.get(state["result"] or "", ""),
            "piles": [{"count": len(p), "top": face(cards, p[-1]) if p else None} for p in state["piles"]],
            "words": [word_record(cards, w) for w in state["words"]],
            "cards_used": used,
            "cards_dealt": DEALT,
            "cards_left": sum(len(p) for p in state["piles"]),
            "total": state["total"],
        }

    def scores(self, state: State) -> Scores:
        return Scores([state["total"]])

    def status(self, state: State) -> Status:
        used = sum(len(w) for w in state["words"])
        if state["phase"] == "finished":
            summary = f"Solitaire over ({RESULTS[state['result']]}): {used} cards in words, {state['total']} points."
            return Status("finished", (), finished=True, summary=summary)
        summary = f"{used} of {DEALT} cards in words."
        if state["phase"] == "refill":
            summary += " Refill the empty pile."
        return Status(state["phase"], (0,), summary=summary)

    def winners(self, state: State, scores: Scores) -> list[int]:
        """The player wins by using every card; a stuck or abandoned game has no winner."""
        return [0] if state["result"] == "won" else []

    def describe_move(self, state: State, seat: int | None, action: dict[str, Any], public_events: list[Event]) -> str:
        first = public_events[0] if public_events else {}
        if first.get("type") == "word":
            return f"spelled {first['word']} ({first['points']} points)"
        if first.get("type") == "refill":
            return f"refilled pile {first['pile'] + 1} from pile {first['source'] + 1}"
        if first.get("type") == "game_over" and first["result"] == "gave_up":
            return "gave up"
        return super().describe_move(state, seat, action, public_events)

    def places(self, state: State) -> dict[str, list[int]]:
        found = {f"pile {i}": list(pile) for i, pile in enumerate(state["piles"])}
        found["box"] = list(state["box"])
        found["words"] = [i for w in state["words"] for i in w]
        return found

    def visible_pieces(self, state: State, seat: int | None) -> set[int]:
        """The face-up top of every pile and the cards put into words; face-down cards and the box stay hidden."""
        return {pile[-1] for pile in state["piles"] if pile} | {i for w in state["words"] for i in w}


RULES = PalabrasCortasSolitario()
