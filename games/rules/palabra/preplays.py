"""Pre-plays: a ``joker`` or a ``shave`` before the play of a turn (or laid face down in a simultaneous round)."""

import itertools
from typing import Any

from games.engine import errors
from games.engine.actions import INT, LIST, TURN, Field, action
from games.engine.events import Event, event
from games.engine.game import Action, Context, State

from .common import PLAY, PREPLAY, ROUND, Common
from .deck import JOKER, can_stand_for, deck_for

PREPLAY_PHASES = (PREPLAY, ROUND)


class Preplays(Common):
    # -- who may pre-play --------------------------------------------------------------------------
    def _check_preplay_open(self, state: State, seat: int) -> None:
        """A turn's pre-play phase (the engine checks it), or a round in which ``seat`` has not pre-played yet."""
        if state["phase"] == ROUND and state["round"]["preplays"][seat] is not None:
            raise errors.AppError(errors.WRONG_PHASE, "One pre-play a round: now lay your play or pass.")

    def _can_joker(self, state: State, seat: int) -> None:
        self._check_preplay_open(state, seat)
        if not self._jokers_held(state, seat):
            raise errors.AppError(errors.NOT_ALLOWED, "Only joker cards can joker a word: you hold none.")
        if not self._joker_targets(state, seat):
            raise errors.AppError(errors.NOT_ALLOWED, "There is no word you can joker.")

    def _joker_choices(self, state: State, seat: int) -> dict[str, Any]:
        """Every way of spending the jokers held on the words open to them, one joker per word."""
        jokers, seats = self._jokers_held(state, seat), self._joker_targets(state, seat)
        targets = [
            [{"card": card, "seat": victim} for card, victim in zip(jokers, chosen, strict=False)]
            for size in range(1, min(len(jokers), len(seats)) + 1)
            for chosen in itertools.combinations(seats, size)
        ]
        return {"targets": targets}

    def _can_shave(self, state: State, seat: int) -> None:
        self._check_preplay_open(state, seat)
        if not self._shave_targets(state, seat):
            raise errors.AppError(errors.NOT_ALLOWED, "There is no word you can shave now.")
        if not self._shave_options(state, seat):
            raise errors.AppError(errors.NOT_ALLOWED, "None of your cards can shave a word you may shave.")

    def _shave_choices(self, state: State, seat: int) -> dict[str, Any]:
        return {"seat": sorted(self._shave_options(state, seat))}

    # -- the actions -----------------------------------------------------------------------------
    @action(
        "joker",
        phases=PREPLAY_PHASES,
        actor=TURN,
        fields=(Field("targets", LIST, help="[{card, seat}, ...]: one joker card per word"),),
        allowed="_can_joker",
        choices="_joker_choices",
        label="Joker",
    )
    def _joker(self, state: State, seat: int, action: Action, ctx: Context) -> list[Event]:
        return self._lay_preplay(state, seat, self._joker_pieces(state, seat, action))

    @action(
        "shave",
        phases=PREPLAY_PHASES,
        actor=TURN,
        fields=(Field("seat", INT), Field("cards", LIST, help="[{card, at}, ...]: at is a position in the word")),
        allowed="_can_shave",
        choices="_shave_choices",
        label="Shave",
    )
    def _shave(self, state: State, seat: int, action: Action, ctx: Context) -> list[Event]:
        return self._lay_preplay(state, seat, self._shave_pieces(state, seat, action))

    def _lay_preplay(self, state: State, seat: int, pieces: list[dict[str, Any]]) -> list[Event]:
        """In a turn the pre-play resolves at once; in a round it is laid face down (see :mod:`.simultaneous`)."""
        events: list[Event] = []
        if state["phase"] == ROUND:
            self._lay_preplay_face_down(state, seat, pieces, events)
            return events
        self._take(state, seat, [card for piece in pieces for card in piece["cards"]])
        self._resolve_preplays(state, pieces, events)
        state["preplayed"] = state["acted"] = True
        state["phase"] = PLAY
        self._draw(state, seat, events)
        if not state["pile"] and not state["hands"][seat]:
            self._end_game(state, events, "went_out")
        return events

    # -- checks ------------------------------------------------------------------------------------
    def _joker_pieces(self, state: State, seat: int, action: Action) -> list[dict[str, Any]]:
        """A checked joker pre-play: one piece ``{seat, kind, victim, cards, at}`` per jokered word."""
        targets = action["targets"]
        if not targets:
            raise errors.AppError(errors.BAD_ACTION, "Name the words to joker: targets [{card, seat}, ...].")
        deck = deck_for(state["options"])
        pieces = []
        for target in targets:
            if not isinstance(target, dict) or set(target) != {"card", "seat"}:
                raise errors.AppError(errors.BAD_ACTION, "Each joker target is {card, seat}.")
            card = self._card_id(state, target["card"])
            if deck[card]["kind"] != JOKER:
                raise errors.AppError(errors.NOT_ALLOWED, "Only joker cards can joker a word.")
            victim = target["seat"]
            if victim not in self._joker_targets(state, seat):
                raise errors.AppError(errors.NOT_ALLOWED, "That player has no word you can joker.")
            pieces.append({"seat": seat, "kind": "joker", "victim": victim, "cards": [card], "at": []})
        if len({piece["victim"] for piece in pieces}) != len(pieces):
            raise errors.AppError(errors.NOT_ALLOWED, "One joker per word.")
        self._check_held(state, seat, [piece["cards"][0] for piece in pieces])
        return pieces

    def _shave_pieces(self, state: State, seat: int, action: Action) -> list[dict[str, Any]]:
        """A checked shave: a single piece ``{seat, kind, victim, cards, at}`` (``at``: the positions covered)."""
        victim = action["seat"]
        if victim not in self._shave_targets(state, seat):
            raise errors.AppError(errors.NOT_ALLOWED, "You cannot shave that player's word now.")
        word = state["table"][victim]
        items = action["cards"]
        if not items:
            raise errors.AppError(errors.BAD_ACTION, "Name the shaving cards: cards [{card, at}, ...].")
        deck = deck_for(state["options"])
        cards, positions = [], []
        for item in items:
            if not isinstance(item, dict) or set(item) != {"card", "at"}:
                raise errors.AppError(errors.BAD_ACTION, "Each shaving card is {card, at}, at a position in the word.")
            card = self._card_id(state, item["card"])
            at = item["at"]
            if not isinstance(at, int) or isinstance(at, bool) or not 0 <= at < len(word["cards"]):
                raise errors.AppError(errors.BAD_ACTION, f"The word has no position {at!r}.")
            if at in word["shaved"] or at in positions:
                raise errors.AppError(errors.NOT_ALLOWED, f"Position {at} of the word is already shaved.")
            if not can_stand_for(deck[card], word["letters"][at]):
                raise errors.AppError(errors.NOT_ALLOWED, f"That card does not match {word['letters'][at]}.")
            if word["lock"] and not set(word["lock"]) & set(deck[card]["colors"]):
                raise errors.AppError(errors.NOT_ALLOWED, f"The word is locked in {word['lock']}: shave in its colour.")
            cards.append(card)
            positions.append(at)
        self._check_held(state, seat, cards)
        return [{"seat": seat, "kind": "shave", "victim": victim, "cards": cards, "at": positions}]

    # -- resolving -------------------------------------------------------------------------------
    def _resolve_preplays(self, state: State, pieces: list[dict[str, Any]], events: list[Event]) -> None:
        """Pre-play pieces laid at the same moment (one player's in a turn, everyone's in a simultaneous round),
        their cards already out of the hands. Each player is credited as if theirs were the only pre-play: a shaver
        gains what the shaved cards are worth in the word as it stands now. Each word changes once: positions
        shaved by several players are shaved once, a jokered word drops to 0 however many jokers hit it, and the
        owner loses exactly what the word lost. The pre-play cards go to the discard."""
        by_victim: dict[int, list[dict[str, Any]]] = {}
        for piece in pieces:
            state["discard"].extend(piece["cards"])
            by_victim.setdefault(piece["victim"], []).append(piece)
        for victim, hits in sorted(by_victim.items()):
            word = state["table"][victim]
            before = word["value"]
            for piece in hits:
                if piece["kind"] == "joker":
                    events.append(
                        event(
                            "jokered",
                            seat=piece["seat"],
                            card=piece["cards"][0],
                            victim=victim,
                            word=word["id"],
                            removed=before,
                        )
                    )
                else:
                    moved = sum(word["card_values"][at] for at in piece["at"])
                    events.append(
                        event(
                            "shaved",
                            seat=piece["seat"],
                            victim=victim,
                            word=word["id"],
                            cards=piece["cards"],
                            at=piece["at"],
                            moved=moved,
                        )
                    )
                    self._score(state, events, piece["seat"], moved, "shave", word=word["id"])
            shaved = sorted({at for piece in hits for at in piece["at"]})
            word["shaved"].extend(shaved)
            jokered = any(piece["kind"] == "joker" for piece in hits)
            word["jokered"] = word["jokered"] or jokered
            after = 0 if jokered else before - sum(word["card_values"][at] for at in shaved)
            self._set_value(state, word, after)
            self._score(state, events, victim, after - before, "jokered" if jokered else "shaved", word=word["id"])
