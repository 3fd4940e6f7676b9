"""Palabras Cortas solitaire (SOLITARIO on the rule sheet): one player, eight piles, 48 cards.

Deal eight piles of five cards face down and one face up on each (48 cards; the rest of the deck stays in the
box). Form a word from the visible top cards (any of them, in any order, at least two cards), remove it, and the
card beneath each used card is turned up. The player wins when all 48 cards have gone into words.

Choices where the sheet is terse:

- Refilling: "after using all the cards of a pile, turn up a card of any pile and use it to refill the reduced
  pile". When a word empties a pile the game waits for a ``refill``: the player names the empty pile and a pile
  that still has a face-down card; that pile's top face-down card (the one under its face-up card) is turned up and
  becomes the empty pile's card. Several empty piles are refilled one at a time. Once no pile has a face-down card
  left, empty piles stay empty and play goes on with the cards still showing.
- Words are always checked against the lexicon (there is nobody to challenge); a refused word is named.
- Score: the points of the cards put into words (score events), so a stuck game still has a result.
- Stuck: after every word or refill the visible cards are searched for any word of the lexicon; if there is none
  the game ends as ``stuck`` (the search result is written into the event). The player may also ``give_up``.
- The deck option is the main game's; the cards, spelling and lexicon look-up are imported from it.
"""

from itertools import permutations
from typing import Any

from games.engine import AppError, Context, Event, Game, State, Status, event, score
from games.engine.cards import Card, deal, shuffled_ids
from games.engine.encounters import PLAYED, WordEncounter
from games.engine.errors import BAD_ACTION, GAME_OVER, NOT_A_WORD, NOT_ALLOWED, NOT_HELD, WRONG_PHASE
from games.engine.rng import new_rng_state
from games.rules.palabras_cortas import (
    DECK_OPTION,
    check_shape,
    deck,
    face,
    look_up,
    points,
    spell,
    word_ids,
    word_record,
)

PILES = 8
FACE_DOWN = 5
DEALT = PILES * (FACE_DOWN + 1)

ACTION_SHAPES: dict[str, dict[str, Any]] = {
    "word": {"type": "word", "cards": ["card id", "card id"]},
    "refill": {"type": "refill", "pile": "index of the empty pile", "source": "index of a pile with face-down cards"},
    "give_up": {"type": "give_up"},
}


def _pile_index(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < PILES:
        raise AppError(BAD_ACTION, f"The {what} must be a pile number from 0 to {PILES - 1}.")
    return value


class PalabrasCortasSolitario(Game):
    slug = "palabras_cortas_solitario"
    title = "Palabras Cortas: solitario"
    language = "spa"
    min_players = 1
    max_players = 1
    options = (DECK_OPTION,)

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
    def _apply(self, state: State, seat: int | None, action: dict[str, Any], ctx: Context) -> list[Event]:
        kind = check_shape(action, ACTION_SHAPES)
        if state["phase"] == "finished":
            raise AppError(GAME_OVER, "The game is over.")
        if seat != 0:
            raise AppError(NOT_ALLOWED, "Only the player can play a solitaire.")
        if kind == "give_up":
            return self._finish(state, "gave_up")
        if kind == "word":
            if state["phase"] != "play":
                raise AppError(WRONG_PHASE, "Refill the empty pile first.")
            events = self._word(state, action, ctx)
        else:
            if state["phase"] != "refill":
                raise AppError(WRONG_PHASE, "No pile is waiting to be refilled.")
            events = self._refill(state, action)
        return events + self._settle(state, ctx)

    def _word(self, state: State, action: dict[str, Any], ctx: Context) -> list[Event]:
        ids = word_ids(action.get("cards"))
        if len(set(ids)) != len(ids):
            raise AppError(BAD_ACTION, "The same card is used twice.")
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
        return [
            event("word", **word_record(cards, ids), key=key, revealed={str(p): c for p, c in revealed.items()}),
            score(0, gained, "word", word=text),
        ]

    def _refill(self, state: State, action: dict[str, Any]) -> list[Event]:
        target = _pile_index(action.get("pile"), "pile to refill")
        source = _pile_index(action.get("source"), "pile to take a card from")
        empty, sources = self._empty_and_sources(state)
        if target not in empty:
            raise AppError(NOT_ALLOWED, "That pile is not empty.")
        if source not in sources:
            raise AppError(NOT_ALLOWED, "That pile has no face-down card to turn up.")
        card = state["piles"][source].pop(-2)
        state["piles"][target].append(card)
        return [event("refill", pile=target, source=source, card=face(self._cards(state), card))]

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
    def actions(self, state: State, seat: int | None) -> list[str]:
        if seat != 0 or state["phase"] == "finished":
            return []
        return ["word", "give_up"] if state["phase"] == "play" else ["refill", "give_up"]

    def encounters(self, state: State, events: list[Event]) -> list[WordEncounter]:
        return [
            WordEncounter(seat=0, kind=PLAYED, key=ev["key"], form=ev["word"]) for ev in events if ev["type"] == "word"
        ]

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        cards = self._cards(state)
        actions = self.actions(state, seat)
        empty, sources = self._empty_and_sources(state)
        return {
            "game": self.slug,
            "seat": seat,
            "options": dict(state["options"]),
            "phase": state["phase"],
            "result": state["result"],
            "piles": [{"count": len(p), "top": face(cards, p[-1]) if p else None} for p in state["piles"]],
            "empty_piles": empty if state["phase"] == "refill" else [],
            "refill_sources": sources if state["phase"] == "refill" else [],
            "words": [word_record(cards, w) for w in state["words"]],
            "cards_used": sum(len(w) for w in state["words"]),
            "cards_dealt": DEALT,
            "total": state["total"],
            "actions": actions,
            "action_shapes": {a: ACTION_SHAPES[a] for a in actions},
        }

    def scores(self, state: State) -> list[int]:
        return [state["total"]]

    def status(self, state: State) -> Status:
        if state["phase"] == "finished":
            return Status(
                "finished", (), finished=True, summary=f"Solitaire {state['result']}: {state['total']} points."
            )
        used = sum(len(w) for w in state["words"])
        return Status(state["phase"], (0,), summary=f"{used} of {DEALT} cards in words.")


RULES = PalabrasCortasSolitario()
