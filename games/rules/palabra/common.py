"""What every part of the Palabra rules shares: phase names, the rulebook's numbers, the small helpers on hands,
spelled cards, words and scores, and the turn-flow steps one part calls in another (the base of every part mixed into
:class:`~.game.Palabra`)."""

from typing import Any

from games.engine import errors
from games.engine.cards import Card, deal, take
from games.engine.events import Event, private, score
from games.engine.game import Context, Game, State
from games.engine.turns import active_seats, next_seat, previous_seat

from . import scoring
from .deck import HAND_SIZE, JOKER, can_stand_for, deck_for

PREPLAY, PLAY, VOTE, DECIDE, CHALLENGE, OVER = "preplay", "play", "vote", "decide", "challenge", "over"
ROUND = "round"  # simultaneous play: everyone lays their pre-play and play face down at once
TIMER_SECONDS = 60
EXCHANGE_MIN_PILE = 10
FLUSH_MIN, STRAIGHT_MIN = 5, 3
NO_LEXICON = "no_lexicon"


class Common(Game):
    """Helpers on the state that pre-plays, plays, disputes and rounds all use, and the steps of the turn flow that
    one part calls and another implements: each declared here with its signature, implemented in the part named
    (:class:`~.game.Palabra` mixes every part in, ahead of this class)."""

    # -- the turn flow (implemented in .turns) ------------------------------------------------------
    def _waiting_for(self, state: State) -> list[int]:
        """The seats the game waits for now."""
        raise NotImplementedError

    def _place(self, state: State, events: list[Event], lookup: dict[str, Any] | None = None) -> None:
        """The pending play stands: onto the table, into the ledger, scored; then the turn goes on."""
        raise NotImplementedError

    def _record(
        self, state: State, word: dict[str, Any], events: list[Event], lookup: dict[str, Any] | None, **extra: Any
    ) -> None:
        """A play stands: it gets its id and ledger line, is announced and scores its value for its player."""
        raise NotImplementedError

    def _finish_turn(self, state: State, events: list[Event], placed: dict[str, Any] | None = None) -> None:
        """The player on turn draws; the game ends if they went out, else the turn passes on."""
        raise NotImplementedError

    def _end_game(
        self, state: State, events: list[Event], reason: str, finals: list[dict[str, Any]] | None = None
    ) -> None:
        """Final plays multiplied, hands counted against their holders, the game over."""
        raise NotImplementedError

    # -- disputes (implemented in .disputes) ----------------------------------------------------------
    def _voters(self, state: State) -> list[int]:
        """The seats that vote on the pending word."""
        raise NotImplementedError

    def _withdraw(self, state: State, events: list[Event]) -> None:
        """The pending word goes back to its player (and a word it built on to its owner)."""
        raise NotImplementedError

    def _look_up(self, state: State, word: dict[str, Any], ctx: Context) -> dict[str, Any]:
        """The table's lexicon's verdict on a word."""
        raise NotImplementedError

    # -- pre-plays and plays (implemented in .preplays and .plays) ------------------------------------------
    def _resolve_preplays(self, state: State, pieces: list[dict[str, Any]], events: list[Event]) -> None:
        """Pre-play pieces laid at the same moment, their cards already out of the hands, resolved and scored."""
        raise NotImplementedError

    def _vowel_play(self, state: State, seat: int, cards: list[int], events: list[Event]) -> None:
        """Show the vowels (already out of the hand), shuffle them back into the pile and score them."""
        raise NotImplementedError

    # -- simultaneous rounds (implemented in .simultaneous) ----------------------------------------------
    def _not_ready(self, state: State) -> list[int]:
        """The seats that have not laid their play this round."""
        raise NotImplementedError

    def _lay_preplay_face_down(
        self, state: State, seat: int, pieces: list[dict[str, Any]], events: list[Event]
    ) -> None:
        """A checked pre-play laid face down in a round."""
        raise NotImplementedError

    def _lay_play_face_down(self, state: State, seat: int, play: dict[str, Any], events: list[Event]) -> None:
        """A checked play laid face down in a round; the last one ready reveals the round."""
        raise NotImplementedError

    def _pass_stragglers(self, state: State, events: list[Event]) -> None:
        """The impatient timer ran out: everyone not yet ready passes, then the round is revealed."""
        raise NotImplementedError

    def _round_view(self, state: State, seat: int | None) -> dict[str, Any] | None:
        """The round as ``seat`` sees it."""
        raise NotImplementedError

    # -- whose words are open to what -------------------------------------------------------------
    def _shave_targets(self, state: State, seat: int) -> list[int]:
        rule = state["options"]["shaving"]
        if rule == "anyone":
            seats = [s for s in active_seats(state) if s != seat]
        elif rule == "last_and_next":
            seats = sorted({previous_seat(state, seat), next_seat(state, seat)} - {seat})
        else:
            seats = [previous_seat(state, seat)] if previous_seat(state, seat) != seat else []
        return [s for s in seats if (w := state["table"][s]) and w["kind"] != "flush" and not w["jokered"]]

    def _joker_targets(self, state: State, seat: int) -> list[int]:
        return [s for s in active_seats(state) if s != seat and (w := state["table"][s]) and not w["jokered"]]

    def _build_targets(self, state: State, seat: int) -> list[int]:
        return [s for s in active_seats(state) if s != seat and (w := state["table"][s]) and w["kind"] != "flush"]

    def _shave_options(self, state: State, seat: int) -> dict[int, dict[int, list[int]]]:
        """For each word ``seat`` may shave: each position not yet shaved, with the hand's cards that may cover it
        (the same letter, in the word's lock colour if it has one). Only positions some card can shave."""
        deck = deck_for(state["options"])
        hand = state["hands"][seat]
        found: dict[int, dict[int, list[int]]] = {}
        for victim in self._shave_targets(state, seat):
            word = state["table"][victim]
            for at, letter in enumerate(word["letters"]):
                if at in word["shaved"]:
                    continue
                cards = [
                    c
                    for c in hand
                    if can_stand_for(deck[c], letter)
                    and (not word["lock"] or set(word["lock"]) & set(deck[c]["colors"]))
                ]
                if cards:
                    found.setdefault(victim, {})[at] = cards
        return found

    # -- cards -------------------------------------------------------------------------------------
    def _faces(self, state: State, cards: list[int]) -> list[Card]:
        deck = deck_for(state["options"])
        return [deck[c] for c in cards]

    def _jokers_held(self, state: State, seat: int) -> list[int]:
        return [c for c in state["hands"][seat] if deck_for(state["options"])[c]["kind"] == JOKER]

    def _card_id(self, state: State, card: Any) -> int:
        if not isinstance(card, int) or isinstance(card, bool) or not 0 <= card < len(deck_for(state["options"])):
            raise errors.AppError(errors.BAD_ACTION, f"{card!r} is not a card.")
        return card

    def _held_ids(self, state: State, seat: int, items: Any) -> list[int]:
        if not isinstance(items, list):
            raise errors.AppError(errors.BAD_ACTION, "cards must be a list of card ids.")
        cards = [self._card_id(state, item) for item in items]
        self._check_held(state, seat, cards)
        return cards

    def _check_held(self, state: State, seat: int, cards: list[int]) -> None:
        if len(set(cards)) != len(cards):
            raise errors.AppError(errors.BAD_ACTION, "The same card twice.")
        if not set(cards) <= set(state["hands"][seat]):
            raise errors.AppError(errors.NOT_HELD, "You do not hold those cards.")

    def _take(self, state: State, seat: int, cards: list[int]) -> None:
        self._check_held(state, seat, cards)
        take(state["hands"][seat], cards)

    def _draw(self, state: State, seat: int, events: list[Event]) -> None:
        drawn = deal(state["pile"], HAND_SIZE - len(state["hands"][seat]))
        if drawn:
            state["hands"][seat].extend(drawn)
            events.append(private("drew", [seat], {"cards": drawn}, seat=seat, count=len(drawn)))

    def _spell(self, state: State, seat: int, items: Any) -> tuple[list[int], list[str]]:
        """Cards in the order they spell, each an id or ``{"card": id, "letter": X}`` (the letter is required for
        wild and vowel cards, optional for letter cards)."""
        if not isinstance(items, list):
            raise errors.AppError(errors.BAD_ACTION, "cards must be a list.")
        deck = deck_for(state["options"])
        cards, letters = [], []
        for item in items:
            letter = None
            if isinstance(item, dict):
                if not set(item) <= {"card", "letter"} or "card" not in item:
                    raise errors.AppError(errors.BAD_ACTION, "A spelled card is {card, letter}.")
                letter = item.get("letter")
                if letter is not None and (not isinstance(letter, str) or len(letter) != 1):
                    raise errors.AppError(errors.BAD_ACTION, f"{letter!r} is not a letter.")
                letter = letter.upper() if letter else None
                item = item["card"]
            card = deck[self._card_id(state, item)]
            if card["kind"] == JOKER:
                raise errors.AppError(errors.NOT_ALLOWED, "A joker is not a letter.")
            letter = letter or card["letter"]
            if letter is None:
                raise errors.AppError(errors.BAD_ACTION, f"Say which letter card {card['id']} stands for.")
            if not can_stand_for(card, letter):
                raise errors.AppError(errors.BAD_ACTION, f"Card {card['id']} cannot stand for {letter}.")
            cards.append(card["id"])
            letters.append(letter)
        self._check_held(state, seat, cards)
        return cards, letters

    # -- words and scores ----------------------------------------------------------------------------
    def _new_word(
        self,
        seat: int,
        kind: str,
        cards: list[int],
        letters: list[str],
        card_values: list[int],
        lock: str,
        multiplier: int,
        from_hand: int,
    ) -> dict[str, Any]:
        bonus = 0 if kind == "flush" else scoring.all_cards_bonus(from_hand)
        return {
            "id": None,
            "seat": seat,
            "kind": kind,
            "cards": list(cards),
            "letters": list(letters),
            "card_values": card_values,
            "bonus": bonus,
            "value": sum(card_values) + bonus,
            "lock": lock,
            "multiplier": multiplier,
            "shaved": [],
            "jokered": False,
        }

    def _public_word(self, state: State, word: dict[str, Any]) -> dict[str, Any]:
        """A word as everyone sees it: its cards face up, each with the letter it was played as."""
        deck = deck_for(state["options"])
        shown = {key: (list(value) if isinstance(value, list) else value) for key, value in word.items()}
        shown.pop("ledger", None)
        pairs = zip(word["cards"], word["letters"], strict=True)
        shown["faces"] = [dict(deck[c], letter=letter) for c, letter in pairs]
        return shown

    def _score(self, state: State, events: list[Event], seat: int, points: int, reason: str, **fields: Any) -> None:
        if points:
            state["scores"][seat] += points
            events.append(score(seat, points, reason, **fields))

    def _set_value(self, state: State, word: dict[str, Any], value: int) -> None:
        word["value"] = value
        state["ledger"][word["seat"]][word["ledger"]]["value"] = value
