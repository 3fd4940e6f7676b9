"""Plays: ``word``, ``build``, ``straight``, ``flush``, ``vowels``, ``exchange`` and ``pass`` (on a turn, or laid face
down in a simultaneous round), the previews that tell the sender what a play is worth, and how a play reaches the
table (straight away, or pending a vote: see :mod:`.disputes`)."""

from typing import Any

from games.engine import errors
from games.engine.actions import INT, INTS, LIST, TURN, Field, action
from games.engine.events import Event, event, private
from games.engine.game import Action, Context, State
from games.engine.rng import shuffled

from . import scoring
from .common import EXCHANGE_MIN_PILE, FLUSH_MIN, PLAY, PREPLAY, ROUND, STRAIGHT_MIN, VOTE, Common
from .deck import ALL_COLOURS, JOKER
from .words import ALWAYS_A_WORD, ONE_LETTER_WORDS

PLAY_PHASES = (PREPLAY, PLAY, ROUND)
SPELLED = Field("cards", LIST, help="the cards in spelling order: ids, or {card, letter} for wild and vowel cards")
PLAIN = Field("cards", INTS, help="card ids")


class Plays(Common):
    # -- who may play what -------------------------------------------------------------------------
    def _letter_cards(self, state: State, seat: int) -> list[int]:
        return [
            c
            for c, face in zip(state["hands"][seat], self._faces(state, state["hands"][seat]), strict=True)
            if face["kind"] != JOKER
        ]

    def _can_word(self, state: State, seat: int) -> None:
        if not self._letter_cards(state, seat):
            raise errors.AppError(errors.NOT_ALLOWED, "You hold no letter to spell with.")

    def _can_straight(self, state: State, seat: int) -> None:
        if len(self._letter_cards(state, seat)) < STRAIGHT_MIN:
            raise errors.AppError(errors.NOT_ALLOWED, f"A straight needs {STRAIGHT_MIN} or more letters.")

    def _can_build(self, state: State, seat: int) -> None:
        if not self._build_targets(state, seat):
            raise errors.AppError(errors.NOT_ALLOWED, "There is no word you can build on.")
        self._can_word(state, seat)

    def _can_flush(self, state: State, seat: int) -> None:
        faces = [f for f in self._faces(state, state["hands"][seat]) if f["kind"] != JOKER]
        if not any(sum(colour in f["colors"] for f in faces) >= FLUSH_MIN for colour in ALL_COLOURS):
            raise errors.AppError(errors.NOT_ALLOWED, f"A flush is {FLUSH_MIN} or more letter cards of one colour.")

    def _can_vowels(self, state: State, seat: int) -> None:
        vowels = sum(scoring.is_vowel_card(f) for f in self._faces(state, state["hands"][seat]))
        if vowels < min(scoring.VOWEL_PLAY_POINTS):
            raise errors.AppError(errors.NOT_ALLOWED, "A vowel play is 6 or 7 vowels (Y, vowel and wild cards count).")

    def _can_exchange(self, state: State, seat: int) -> None:
        if len(state["pile"]) < EXCHANGE_MIN_PILE:
            raise errors.AppError(errors.NOT_ALLOWED, f"Exchanging needs {EXCHANGE_MIN_PILE} cards in the pile.")
        if not state["hands"][seat]:
            raise errors.AppError(errors.NOT_ALLOWED, "You have no cards to exchange.")

    def _hand_choices(self, state: State, seat: int) -> dict[str, Any]:
        return {"cards": list(state["hands"][seat])}

    def _build_choices(self, state: State, seat: int) -> dict[str, Any]:
        return {"seat": self._build_targets(state, seat)}

    # -- the actions -------------------------------------------------------------------------------
    @action(
        "word",
        phases=PLAY_PHASES,
        actor=TURN,
        fields=(SPELLED,),
        allowed="_can_word",
        choices="_hand_choices",
        preview="_preview_word",
        label="Play a word",
    )
    def _word(self, state: State, seat: int, action: Action, ctx: Context) -> list[Event]:
        return self._lay_word(state, seat, "word", *self._word_play(state, seat, action), ctx)

    @action(
        "straight",
        phases=PLAY_PHASES,
        actor=TURN,
        fields=(SPELLED,),
        allowed="_can_straight",
        choices="_hand_choices",
        preview="_preview_straight",
        label="Play a straight",
    )
    def _straight(self, state: State, seat: int, action: Action, ctx: Context) -> list[Event]:
        return self._lay_word(state, seat, "straight", *self._straight_play(state, seat, action), ctx)

    @action(
        "build",
        phases=PLAY_PHASES,
        actor=TURN,
        fields=(
            Field("seat", INT, help="whose word to build on"),
            Field("before", LIST, required=False, help="cards spelled before the word"),
            Field("after", LIST, required=False, help="cards spelled after the word"),
        ),
        allowed="_can_build",
        choices="_build_choices",
        preview="_preview_build",
        label="Build on a word",
    )
    def _build(self, state: State, seat: int, action: Action, ctx: Context) -> list[Event]:
        return self._lay_word(state, seat, "build", *self._build_play(state, seat, action), ctx)

    @action(
        "flush",
        phases=PLAY_PHASES,
        actor=TURN,
        fields=(PLAIN,),
        allowed="_can_flush",
        choices="_hand_choices",
        preview="_preview_flush",
        label="Play a flush",
    )
    def _flush(self, state: State, seat: int, action: Action, ctx: Context) -> list[Event]:
        return self._lay_word(state, seat, "flush", *self._flush_play(state, seat, action), ctx)

    @action(
        "vowels",
        phases=PLAY_PHASES,
        actor=TURN,
        fields=(PLAIN,),
        allowed="_can_vowels",
        choices="_hand_choices",
        preview="_preview_vowels",
        label="Show vowels",
    )
    def _vowels(self, state: State, seat: int, action: Action, ctx: Context) -> list[Event]:
        cards = self._vowel_cards(state, seat, action)
        events: list[Event] = []
        if state["phase"] == ROUND:
            self._lay_play_face_down(state, seat, {"type": "vowels", "cards": cards}, events)
            return events
        self._take(state, seat, cards)
        self._vowel_play(state, seat, cards, events)
        state["acted"] = True
        self._finish_turn(state, events)
        return events

    @action(
        "exchange",
        phases=PLAY_PHASES,
        actor=TURN,
        fields=(PLAIN,),
        allowed="_can_exchange",
        choices="_hand_choices",
        label="Exchange cards",
    )
    def _exchange(self, state: State, seat: int, action: Action, ctx: Context) -> list[Event]:
        cards = self._held_ids(state, seat, action["cards"])
        if not cards:
            raise errors.AppError(errors.BAD_ACTION, "Choose the cards to exchange.")
        events: list[Event] = []
        if state["phase"] == ROUND:
            self._lay_play_face_down(state, seat, {"type": "exchange", "cards": cards}, events)
            return events
        self._take(state, seat, cards)
        events.append(private("exchanged", [seat], {"cards": cards}, seat=seat, count=len(cards)))
        self._draw(state, seat, events)
        state["pile"] = shuffled(state, state["pile"] + cards)
        state["acted"] = True
        self._finish_turn(state, events)
        return events

    @action("pass", phases=PLAY_PHASES, actor=TURN, label="Pass")
    def _pass(self, state: State, seat: int, action: Action, ctx: Context) -> list[Event]:
        events: list[Event] = []
        if state["phase"] == ROUND:
            self._lay_play_face_down(state, seat, {"type": "pass", "cards": []}, events)
            return events
        events.append(event("passed", seat=seat))
        self._finish_turn(state, events)
        return events

    # -- previews: what a play is worth as laid (before any final-play multiplier) ------------------------
    def _preview_word(self, state: State, seat: int, action: Action, ctx: Context) -> dict[str, Any]:
        return self._word_preview(*self._word_play(state, seat, action))

    def _preview_straight(self, state: State, seat: int, action: Action, ctx: Context) -> dict[str, Any]:
        return self._word_preview(*self._straight_play(state, seat, action))

    def _preview_build(self, state: State, seat: int, action: Action, ctx: Context) -> dict[str, Any]:
        return self._word_preview(*self._build_play(state, seat, action))

    def _preview_flush(self, state: State, seat: int, action: Action, ctx: Context) -> dict[str, Any]:
        return self._word_preview(*self._flush_play(state, seat, action))

    def _preview_vowels(self, state: State, seat: int, action: Action, ctx: Context) -> dict[str, Any]:
        cards = self._vowel_cards(state, seat, action)
        return {"kind": "vowels", "value": scoring.VOWEL_PLAY_POINTS[len(cards)], "cards": cards}

    def _word_preview(self, word: dict[str, Any], new_cards: list[int]) -> dict[str, Any]:
        lock_multiplier = scoring.lock_multiplier(word["lock"])
        return {
            "kind": word["kind"],
            "letters": "".join(word["letters"]),
            "value": word["value"],
            "card_values": list(word["card_values"]),
            "lock": word["lock"],
            "lock_multiplier": lock_multiplier,
            "stars": word["multiplier"] // lock_multiplier,
            "multiplier": word["multiplier"],
            "bonus": word["bonus"],
            "colour": word.get("colour"),
            "built_on": word.get("built_on"),
            "cards": list(new_cards),
        }

    # -- checking a play: each returns the word it would put on the table and the cards leaving the hand ----
    def _word_play(self, state: State, seat: int, action: Action) -> tuple[dict[str, Any], list[int]]:
        cards, letters = self._spell(state, seat, action["cards"])
        if not cards:
            raise errors.AppError(errors.BAD_ACTION, "A word needs cards.")
        if len(letters) == 1 and letters[0] not in ONE_LETTER_WORDS:
            raise errors.AppError(errors.NOT_A_WORD, "The only one-letter words are A and O.")
        card_values, lock, multiplier = scoring.word_values(self._faces(state, cards))
        return self._new_word(seat, "word", cards, letters, card_values, lock, multiplier, len(cards)), cards

    def _straight_play(self, state: State, seat: int, action: Action) -> tuple[dict[str, Any], list[int]]:
        cards, letters = self._spell(state, seat, action["cards"])
        if not scoring.is_straight(letters):
            raise errors.AppError(errors.NOT_ALLOWED, "A straight is 3 or more letters in sequence (A follows Z).")
        card_values, lock, multiplier = scoring.word_values(self._faces(state, cards))
        return self._new_word(seat, "straight", cards, letters, card_values, lock, multiplier, len(cards)), cards

    def _build_play(self, state: State, seat: int, action: Action) -> tuple[dict[str, Any], list[int]]:
        victim = action["seat"]
        if victim not in self._build_targets(state, seat):
            raise errors.AppError(errors.NOT_ALLOWED, "That player has no word you can build on.")
        before, before_letters = self._spell(state, seat, action.get("before") or [])
        after, after_letters = self._spell(state, seat, action.get("after") or [])
        new = before + after
        if not new:
            raise errors.AppError(errors.BAD_ACTION, "Add at least one card before or after the word.")
        if len(set(new)) != len(new):
            raise errors.AppError(errors.BAD_ACTION, "The same card twice.")
        old = state["table"][victim]
        letters = before_letters + old["letters"] + after_letters
        cards = before + old["cards"] + after
        taken_values, new_values, lock, multiplier = scoring.build_values(
            self._faces(state, old["cards"]), self._faces(state, new)
        )
        if old["lock"] and not lock:
            raise errors.AppError(errors.NOT_ALLOWED, f"The word is locked in {old['lock']}: build in its colour.")
        card_values = new_values[: len(before)] + taken_values + new_values[len(before) :]
        kind = "straight" if scoring.is_straight(letters) else "word"
        word = self._new_word(seat, kind, cards, letters, card_values, lock, multiplier, len(new))
        word["built_on"] = {"seat": victim, "word": old["id"], "letters": "".join(old["letters"])}
        return word, new

    def _flush_play(self, state: State, seat: int, action: Action) -> tuple[dict[str, Any], list[int]]:
        cards = self._held_ids(state, seat, action["cards"])
        faces = self._faces(state, cards)
        if len(cards) < FLUSH_MIN or any(face["kind"] == JOKER for face in faces):
            raise errors.AppError(errors.NOT_ALLOWED, f"A flush is {FLUSH_MIN} or more letter cards of one colour.")
        colour = scoring.common_colours(faces)
        if not colour:
            raise errors.AppError(errors.NOT_ALLOWED, "A flush must be all one colour.")
        letters = [face["letter"] or "*" for face in faces]
        word = self._new_word(seat, "flush", cards, letters, [f["value"] for f in faces], "", 1, 0)
        word["colour"] = colour
        return word, cards

    def _vowel_cards(self, state: State, seat: int, action: Action) -> list[int]:
        cards = self._held_ids(state, seat, action["cards"])
        if len(cards) not in scoring.VOWEL_PLAY_POINTS or not all(
            scoring.is_vowel_card(face) for face in self._faces(state, cards)
        ):
            raise errors.AppError(errors.NOT_ALLOWED, "A vowel play is 6 or 7 vowels (Y, vowel and wild cards count).")
        return cards

    # -- laying a play down --------------------------------------------------------------------------
    def _lay_word(
        self, state: State, seat: int, kind: str, word: dict[str, Any], cards: list[int], ctx: Context
    ) -> list[Event]:
        """A play that goes on the table: in a round, face down (looked up now); in a turn, proposed."""
        events: list[Event] = []
        if state["phase"] == ROUND:
            play = {"type": kind, "cards": cards, "word": word, "lookup": self._auto_check(state, word, ctx)}
            self._lay_play_face_down(state, seat, play, events)
        else:
            self._propose(state, seat, word, cards, ctx, events)
        return events

    def _vowel_play(self, state: State, seat: int, cards: list[int], events: list[Event]) -> None:
        """Show the vowels (already out of the hand), shuffle them back into the pile and score them. The event
        shows their faces, not their ids: the cards go back into the hidden pile."""
        state["pile"] = shuffled(state, state["pile"] + cards)
        points = scoring.VOWEL_PLAY_POINTS[len(cards)]
        letters = [face["letter"] or face["kind"] for face in self._faces(state, cards)]
        events.append(event("vowel_play", seat=seat, count=len(cards), letters=letters, points=points))
        self._score(state, events, seat, points, "vowels")

    def _propose(
        self,
        state: State,
        seat: int,
        word: dict[str, Any],
        new_cards: list[int],
        ctx: Context,
        events: list[Event],
    ) -> None:
        """Put a play on the table, straight away or (a word that may be challenged) pending the check or vote."""
        lookup = self._auto_check(state, word, ctx)
        self._take(state, seat, new_cards)
        taken = state["table"][word["built_on"]["seat"]] if "built_on" in word else None
        if taken:
            state["table"][taken["seat"]] = None
        state["pending"] = {"word": word, "new_cards": new_cards, "taken": taken}
        needs_vote = word["kind"] == "word" and lookup is None and "".join(word["letters"]) != ALWAYS_A_WORD
        if needs_vote and self._voters(state):
            state["phase"] = VOTE
            state["votes"] = {}
            state["timer"] = None
            events.append(event("proposed", seat=seat, word=self._public_word(state, word)))
        else:
            self._place(state, events, lookup=lookup)

    def _auto_check(self, state: State, word: dict[str, Any], ctx: Context) -> dict[str, Any] | None:
        """With automatic checking, look a word up (straights and flushes are not words) and refuse it if it is not
        legal; returns the lookup, or None when there is nothing to check."""
        if word["kind"] != "word" or state["options"]["checking"] != "auto":
            return None
        lookup = self._look_up(state, word, ctx)
        if not lookup["legal"]:
            raise errors.AppError(errors.NOT_A_WORD, f"{lookup['word']}: {lookup['why']}.")
        return lookup
