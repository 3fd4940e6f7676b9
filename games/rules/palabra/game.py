"""Palabra rules (Jim Kondrick's card game, boardspace.net rulebook): turns, pre-plays, plays, challenges, end.

A turn runs: the player's previous word on the table is discarded; phase ``preplay`` (``joker`` or ``shave``,
or skip it by playing straight away); draw back to 7; phase ``play`` (``word``, ``build``, ``straight``,
``flush``, ``vowels``, ``exchange`` or ``pass``); draw back to 7; the next player's turn.

Choices where the rulebook is silent (what players at a table do):

- First player: everyone cuts a card; the letter nearest Z starts. Wild, vowel and jokers name no letter and rank
  below A. Tied best cuts cut again among themselves. The cut cards go back and the whole deck is shuffled.
- Shaving: each shaving card covers one card of the victim's word (``at``, its position) with the same letter, and
  moves that card's value in the word to the shaver. A word card can be shaved once. Wild and vowel cards shave as
  the letter they cover (they have all four colours, so they may shave a colour-locked word). Flushes and jokered
  words cannot be shaved. "The previous player's word" is the word of the previous seat still in the game.
- Jokers: one joker per word, against any other player's word on the table not yet jokered; the word stays on the
  table worth 0 (it may still be built on, for its face values).
- Building takes the word off its owner's place; the owner keeps the points it already scored. A build whose
  letters run in sequence is a straight and needs no check; otherwise it is a word and may be challenged.
- Scores are given when a word stands (after the vote or challenge), never taken back.
- Flushes score face values only: no stars, no lock doubling and no 70 bonus; they may be jokered. The final-play
  doubling applies to any play that leaves cards on the table (word, build, straight, flush).
- Votes: the other players vote; only a majority rejection (more than half) withdraws the word, a tie stands.
  After a rejection the player ``withdraw``s (and may play again) or ``insist``s; then any player who rejected may
  ``challenge`` formally (the first to do so is the challenger) or ``concede``; if all concede the word stands.
  The teacher may ``check`` a disputed word at any point of the vote: found, it stands; not found, it is withdrawn
  without penalty, as after a majority rejection. A forfeited turn passes with nothing done (the word stays).
- With ``checking="auto"`` every word is looked up when played and a word not found is refused (nothing changes).
- The game also ends when the pile is empty and a full round of turns passes with nothing played.
- Impatient timer: any player (or the teacher) may ``start_timer`` while the player on turn is deciding; once
  ``ctx.now`` reaches the deadline anyone may send ``timer_expired`` and that player passes (a word awaiting their
  withdraw/insist decision is withdrawn first). The timer stops when the turn ends or a word goes to the vote.
- Eliminate high score: the deck has no jokers and at the end each player loses their highest word's final value.
- Removal by the teacher: the player's hand is shuffled back into the pile, their word on the table is discarded,
  their score stays; a word they had waiting for a vote goes back with the hand (a word they had built on returns
  to its owner). With one player left the game ends.
- Simultaneous play (the rulebook's variant for 6+ players, option ``simultaneous``): rounds instead of turns,
  words checked automatically, conflicts all allowed; refused for fewer than six players. Its choices are in
  :mod:`.simultaneous`.
"""

from typing import Any

from games.engine import errors
from games.engine.cards import Card, deal, shuffled_ids, take
from games.engine.encounters import WordEncounter, played_and_seen
from games.engine.events import Event, event, private, score
from games.engine.game import Action, Context, Game, Option, State, Status
from games.engine.rng import new_rng_state, shuffled
from games.engine.turns import active_seats, next_seat, previous_seat

from . import scoring
from .deck import HAND_SIZE, JOKER, can_stand_for, cut_rank, deck_for
from .simultaneous import MIN_PLAYERS as SIMULTANEOUS_MIN_PLAYERS
from .simultaneous import PREPLAY_KINDS, ROUND, SimultaneousRounds, face_down_cards
from .words import ALWAYS_A_WORD, ONE_LETTER_WORDS, look_up

PREPLAY, PLAY, VOTE, DECIDE, CHALLENGE, OVER = "preplay", "play", "vote", "decide", "challenge", "over"
TIMER_SECONDS = 60
EXCHANGE_MIN_PILE = 10
FLUSH_MIN, STRAIGHT_MIN = 5, 3
PLAYS = ("word", "build", "straight", "flush", "vowels", "exchange", "pass")
NO_LEXICON = "no_lexicon"


class Palabra(SimultaneousRounds, Game):
    slug = "palabra"
    title = "Palabra"
    language = "eng"
    min_players = 2
    max_players = 12
    options = (
        Option("double_deck", "Two decks (244 cards) for big groups", "bool", False),
        Option(
            "checking",
            "Word checking",
            "choice",
            "vote",
            choices=(("vote", "Players vote; formal challenges"), ("auto", "Automatic lexicon check")),
        ),
        Option(
            "short_words",
            "Two- and three-letter words",
            "choice",
            "all",
            choices=(("all", "Any in the word list"), ("common", "Only common ones (no Scrabble-only words)")),
        ),
        Option("final_multiplier", "Final word play", "choice", 2, choices=((2, "Doubled"), (3, "Tripled"))),
        Option(
            "shaving",
            "Who may be shaved",
            "choice",
            "previous",
            choices=(("previous", "The previous player"), ("last_and_next", "Previous and next"), ("anyone", "Anyone")),
        ),
        Option(
            "eliminate_high_score",
            "Eliminate high score (no jokers; each player's best word is dropped at the end)",
            "bool",
            False,
        ),
        Option("impatient_timer", "Impatient one-minute timer", "bool", False),
        Option(
            "simultaneous",
            "Simultaneous play: everyone plays at once, words checked automatically (6 or more players)",
            "bool",
            False,
        ),
    )

    def clean_options(self, raw: dict[str, Any] | None) -> dict[str, Any]:
        """Simultaneous play has no turn to vote in: it checks words automatically, and refuses ``checking="vote"``."""
        options = super().clean_options(raw)
        if options["simultaneous"]:
            if "checking" not in (raw or {}):
                options["checking"] = "auto"
            elif options["checking"] != "auto":
                raise errors.AppError(
                    "bad_option", "Simultaneous play checks words automatically: there is no turn to vote in."
                )
        return options

    # -- setting up ------------------------------------------------------------------------------
    def _new(self, players: int, options: dict[str, Any], seed: int) -> tuple[State, list[Event]]:
        if options["simultaneous"] and players < SIMULTANEOUS_MIN_PLAYERS:
            raise errors.AppError(
                "bad_option", f"Simultaneous play is for {SIMULTANEOUS_MIN_PLAYERS} or more players, not {players}."
            )
        state: State = {
            "players": players,
            "options": options,
            "rng": new_rng_state(seed),
            "removed": [],
            "pile": [],
            "discard": [],
            "hands": [[] for _ in range(players)],
            "table": [None] * players,
            "scores": [0] * players,
            "ledger": [[] for _ in range(players)],
            "forfeits": [0] * players,
            "turn": 0,
            "turn_no": 0,
            "phase": PREPLAY,
            "preplayed": False,
            "acted": False,
            "quiet_turns": 0,
            "pending": None,
            "votes": {},
            "rejecters": [],
            "timer": None,
            "round": None,
            "next_word": 0,
            "finished": False,
            "end_reason": None,
        }
        deck = deck_for(options)
        events: list[Event] = []
        first = self._cut(state, deck, events)
        state["pile"] = shuffled_ids(state, list(deck))
        for offset in range(players):
            self._draw(state, (first + offset) % players, events)
        if options["simultaneous"]:
            state["turn"] = None  # nobody is on turn: everyone plays at once
            self._start_round(state, events)
        else:
            self._start_turn(state, first, events)
        return state, events

    def _cut(self, state: State, deck: tuple[Card, ...], events: list[Event]) -> int:
        contenders = list(range(state["players"]))
        while True:
            cut = dict(zip(contenders, shuffled_ids(state, list(deck)), strict=False))
            events.append(
                event("cut", cuts=[{"seat": s, "card": c, "letter": deck[c]["letter"]} for s, c in cut.items()])
            )
            best = max(cut_rank(deck[c]) for c in cut.values())
            contenders = [s for s, c in cut.items() if cut_rank(deck[c]) == best]
            if len(contenders) == 1:
                return contenders[0]

    # -- the protocol ----------------------------------------------------------------------------
    def _apply(self, state: State, seat: int | None, action: Action, ctx: Context) -> list[Event]:
        if state["finished"]:
            raise errors.AppError(errors.GAME_OVER, "The game is over.")
        if seat is not None and (not isinstance(seat, int) or seat not in active_seats(state)):
            raise errors.AppError(errors.BAD_ACTION, "That seat is not in the game.")
        if state["phase"] == ROUND and action["type"] in (*PREPLAY_KINDS, *PLAYS):
            handler = self._lay
        else:
            handler = getattr(self, f"_do_{action['type']}", None) if action["type"].isidentifier() else None
        if handler is None:
            raise errors.AppError(errors.BAD_ACTION, f"Unknown action {action['type']!r}.")
        events: list[Event] = []
        handler(state, seat, action, ctx, events)
        return events

    def scores(self, state: State) -> list[int]:
        return list(state["scores"])

    def status(self, state: State) -> Status:
        phase = state["phase"]
        if state["finished"]:
            return Status(phase=OVER, to_act=(), finished=True, summary=f"Game over ({state['end_reason']}).")
        to_act = tuple(self._waiting_for(state))
        summary = {
            PREPLAY: "Seat {turn}: pre-play or play",
            PLAY: "Seat {turn}: play",
            VOTE: "Vote on seat {turn}'s word",
            DECIDE: "Seat {turn}: withdraw or insist",
            CHALLENGE: "Challenge seat {turn}'s word or concede",
            ROUND: "Round {round}: everyone lays a play face down",
        }[phase].format(turn=state["turn"], round=(state["round"] or {}).get("no"))
        return Status(phase=phase, to_act=to_act, summary=summary, extra={"turn": state["turn"]})

    def _after_removal(self, state: State, seat: int, ctx: Context) -> list[Event]:
        events: list[Event] = []
        if state["finished"]:
            return events
        if state["phase"] == ROUND:
            self._leave_round(state, seat, events)
            return events
        pending = state["pending"]
        if pending and state["turn"] == seat:
            self._withdraw(state, events)
        returned = state["hands"][seat]
        state["hands"][seat] = []
        state["pile"] = shuffled(state, state["pile"] + returned)
        if state["table"][seat]:
            state["discard"].extend(state["table"][seat]["cards"])
            state["table"][seat] = None
        state["votes"].pop(str(seat), None)
        if seat in state["rejecters"]:
            state["rejecters"].remove(seat)
        events.append(event("player_removed", seat=seat, returned=len(returned)))
        if len(active_seats(state)) < 2:
            self._end_game(state, events, "players_left")
        elif state["turn"] == seat:
            state["acted"] = False
            self._end_turn(state, events)
        elif state["phase"] == VOTE:
            self._tally(state, events)
        elif state["phase"] == CHALLENGE and not state["rejecters"]:
            self._place(state, events)
        return events

    # -- pre-plays -------------------------------------------------------------------------------
    def _do_joker(self, state: State, seat: int | None, action: Action, ctx: Context, events: list[Event]) -> None:
        self._require_turn(state, seat, (PREPLAY,))
        pieces = self._joker_pieces(state, seat, action)
        self._take(state, seat, [card for piece in pieces for card in piece["cards"]])
        self._resolve_preplays(state, pieces, events)
        self._after_preplay(state, seat, events)

    def _do_shave(self, state: State, seat: int | None, action: Action, ctx: Context, events: list[Event]) -> None:
        self._require_turn(state, seat, (PREPLAY,))
        pieces = self._shave_pieces(state, seat, action)
        self._take(state, seat, pieces[0]["cards"])
        self._resolve_preplays(state, pieces, events)
        self._after_preplay(state, seat, events)

    def _joker_pieces(self, state: State, seat: int, action: Action) -> list[dict[str, Any]]:
        """A checked joker pre-play: one piece ``{seat, kind, victim, cards, at}`` per jokered word."""
        targets = action.get("targets")
        if not isinstance(targets, list) or not targets:
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
                raise errors.AppError(errors.NOT_ALLOWED, f"Seat {victim} has no word you can joker.")
            pieces.append({"seat": seat, "kind": "joker", "victim": victim, "cards": [card], "at": []})
        if len({piece["victim"] for piece in pieces}) != len(pieces):
            raise errors.AppError(errors.NOT_ALLOWED, "One joker per word.")
        self._check_held(state, seat, [piece["cards"][0] for piece in pieces])
        return pieces

    def _shave_pieces(self, state: State, seat: int, action: Action) -> list[dict[str, Any]]:
        """A checked shave: a single piece ``{seat, kind, victim, cards, at}`` (``at``: the positions covered)."""
        victim = action.get("seat")
        if victim not in self._shave_targets(state, seat):
            raise errors.AppError(errors.NOT_ALLOWED, f"You cannot shave seat {victim!r}'s word now.")
        word = state["table"][victim]
        items = action.get("cards")
        if not isinstance(items, list) or not items:
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

    def _after_preplay(self, state: State, seat: int, events: list[Event]) -> None:
        state["preplayed"] = state["acted"] = True
        state["phase"] = PLAY
        self._draw(state, seat, events)
        if not state["pile"] and not state["hands"][seat]:
            self._end_game(state, events, "went_out")

    # -- plays -----------------------------------------------------------------------------------
    def _do_word(self, state: State, seat: int | None, action: Action, ctx: Context, events: list[Event]) -> None:
        self._require_turn(state, seat, (PREPLAY, PLAY))
        self._propose(state, seat, *self._word_play(state, seat, action), ctx, events)

    def _do_straight(self, state: State, seat: int | None, action: Action, ctx: Context, events: list[Event]) -> None:
        self._require_turn(state, seat, (PREPLAY, PLAY))
        self._propose(state, seat, *self._straight_play(state, seat, action), ctx, events)

    def _do_build(self, state: State, seat: int | None, action: Action, ctx: Context, events: list[Event]) -> None:
        self._require_turn(state, seat, (PREPLAY, PLAY))
        self._propose(state, seat, *self._build_play(state, seat, action), ctx, events)

    def _do_flush(self, state: State, seat: int | None, action: Action, ctx: Context, events: list[Event]) -> None:
        self._require_turn(state, seat, (PREPLAY, PLAY))
        self._propose(state, seat, *self._flush_play(state, seat, action), ctx, events)

    # Each ``_<kind>_play`` checks a play against the hand and the table and returns the word it would put on the
    # table and the cards it takes from the hand; nothing changes until the caller lays it down.
    def _word_play(self, state: State, seat: int, action: Action) -> tuple[dict[str, Any], list[int]]:
        cards, letters = self._spell(state, seat, action.get("cards"))
        if not cards:
            raise errors.AppError(errors.BAD_ACTION, "A word needs cards.")
        if len(letters) == 1 and letters[0] not in ONE_LETTER_WORDS:
            raise errors.AppError(errors.NOT_A_WORD, "The only one-letter words are A and O.")
        card_values, lock, multiplier = scoring.word_values(self._faces(state, cards))
        return self._new_word(seat, "word", cards, letters, card_values, lock, multiplier, len(cards)), cards

    def _straight_play(self, state: State, seat: int, action: Action) -> tuple[dict[str, Any], list[int]]:
        cards, letters = self._spell(state, seat, action.get("cards"))
        if not scoring.is_straight(letters):
            raise errors.AppError(errors.NOT_ALLOWED, "A straight is 3 or more letters in sequence (A follows Z).")
        card_values, lock, multiplier = scoring.word_values(self._faces(state, cards))
        return self._new_word(seat, "straight", cards, letters, card_values, lock, multiplier, len(cards)), cards

    def _build_play(self, state: State, seat: int, action: Action) -> tuple[dict[str, Any], list[int]]:
        victim = action.get("seat")
        if victim not in self._build_targets(state, seat):
            raise errors.AppError(errors.NOT_ALLOWED, f"Seat {victim!r} has no word you can build on.")
        before, before_letters = self._spell(state, seat, action.get("before", []))
        after, after_letters = self._spell(state, seat, action.get("after", []))
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
        cards = self._held_ids(state, seat, action.get("cards"))
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
        cards = self._held_ids(state, seat, action.get("cards"))
        if len(cards) not in scoring.VOWEL_PLAY_POINTS or not all(
            scoring.is_vowel_card(face) for face in self._faces(state, cards)
        ):
            raise errors.AppError(errors.NOT_ALLOWED, "A vowel play is 6 or 7 vowels (Y, vowel and wild cards count).")
        return cards

    def _exchange_cards(self, state: State, seat: int, action: Action) -> list[int]:
        cards = self._held_ids(state, seat, action.get("cards"))
        if not cards:
            raise errors.AppError(errors.BAD_ACTION, "Choose the cards to exchange.")
        if len(state["pile"]) < EXCHANGE_MIN_PILE:
            raise errors.AppError(errors.NOT_ALLOWED, f"Exchanging needs {EXCHANGE_MIN_PILE} cards in the pile.")
        return cards

    def _do_vowels(self, state: State, seat: int | None, action: Action, ctx: Context, events: list[Event]) -> None:
        self._require_turn(state, seat, (PREPLAY, PLAY))
        cards = self._vowel_cards(state, seat, action)
        self._take(state, seat, cards)
        self._vowel_play(state, seat, cards, events)
        state["acted"] = True
        self._finish_turn(state, events)

    def _vowel_play(self, state: State, seat: int, cards: list[int], events: list[Event]) -> None:
        """Show the vowels (already out of the hand), shuffle them back into the pile and score them."""
        state["pile"] = shuffled(state, state["pile"] + cards)
        points = scoring.VOWEL_PLAY_POINTS[len(cards)]
        events.append(event("vowel_play", seat=seat, cards=cards, points=points))
        self._score(state, events, seat, points, "vowels")

    def _do_exchange(self, state: State, seat: int | None, action: Action, ctx: Context, events: list[Event]) -> None:
        self._require_turn(state, seat, (PREPLAY, PLAY))
        cards = self._exchange_cards(state, seat, action)
        self._take(state, seat, cards)
        events.append(private("exchanged", [seat], {"cards": cards}, seat=seat, count=len(cards)))
        self._draw(state, seat, events)
        state["pile"] = shuffled(state, state["pile"] + cards)
        state["acted"] = True
        self._finish_turn(state, events)

    def _do_pass(self, state: State, seat: int | None, action: Action, ctx: Context, events: list[Event]) -> None:
        self._require_turn(state, seat, (PREPLAY, PLAY))
        events.append(event("passed", seat=seat))
        self._finish_turn(state, events)

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

    # -- challenges ------------------------------------------------------------------------------
    def _do_vote(self, state: State, seat: int | None, action: Action, ctx: Context, events: list[Event]) -> None:
        if state["phase"] != VOTE:
            raise errors.AppError(errors.WRONG_PHASE, "There is no word to vote on.")
        if seat not in self._voters(state):
            raise errors.AppError(errors.NOT_ALLOWED, "Only the other players vote on a word.")
        if str(seat) in state["votes"]:
            raise errors.AppError(errors.NOT_ALLOWED, "You have already voted.")
        accept = action.get("accept")
        if not isinstance(accept, bool):
            raise errors.AppError(errors.BAD_ACTION, "A vote is accept: true or false.")
        state["votes"][str(seat)] = accept
        events.append(event("vote", seat=seat, accept=accept))
        self._tally(state, events)

    def _tally(self, state: State, events: list[Event]) -> None:
        """Settle the vote as soon as it is decided: a majority rejection, or enough accepts that none can come."""
        voters = self._voters(state)
        cast = [state["votes"][str(s)] for s in voters if str(s) in state["votes"]]
        if cast.count(False) * 2 > len(voters):
            state["rejecters"] = [s for s in voters if state["votes"].get(str(s)) is False]
            state["phase"] = DECIDE
            events.append(event("vote_result", accepted=False, rejecters=list(state["rejecters"])))
        elif cast.count(True) * 2 >= len(voters):
            events.append(event("vote_result", accepted=True, rejecters=[]))
            self._place(state, events)

    def _do_withdraw(self, state: State, seat: int | None, action: Action, ctx: Context, events: list[Event]) -> None:
        self._require_turn(state, seat, (DECIDE,))
        self._withdraw(state, events)
        state["phase"] = PLAY

    def _do_insist(self, state: State, seat: int | None, action: Action, ctx: Context, events: list[Event]) -> None:
        self._require_turn(state, seat, (DECIDE,))
        state["timer"] = None
        events.append(event("insisted", seat=seat, rejecters=list(state["rejecters"])))
        if state["rejecters"]:
            state["phase"] = CHALLENGE
        else:  # every rejecter has left the game
            self._place(state, events)

    def _do_challenge(self, state: State, seat: int | None, action: Action, ctx: Context, events: list[Event]) -> None:
        if state["phase"] != CHALLENGE:
            raise errors.AppError(errors.WRONG_PHASE, "There is no insisted word to challenge.")
        if seat not in state["rejecters"]:
            raise errors.AppError(errors.NOT_ALLOWED, "Only a player who rejected the word can challenge it.")
        word = state["pending"]["word"]
        lookup = self._look_up(state, word, ctx)
        events.append(event("challenge", seat=seat, player=state["turn"], lookup=lookup, upheld=not lookup["legal"]))
        if lookup["legal"]:
            state["forfeits"][seat] += 1
            self._place(state, events, lookup=lookup)
        else:
            self._withdraw(state, events)
            self._finish_turn(state, events)

    def _do_concede(self, state: State, seat: int | None, action: Action, ctx: Context, events: list[Event]) -> None:
        if state["phase"] != CHALLENGE:
            raise errors.AppError(errors.WRONG_PHASE, "There is no insisted word to concede.")
        if seat not in state["rejecters"]:
            raise errors.AppError(errors.NOT_ALLOWED, "Only a player who rejected the word can concede.")
        state["rejecters"].remove(seat)
        events.append(event("conceded", seat=seat))
        if not state["rejecters"]:
            self._place(state, events)

    def _do_check(self, state: State, seat: int | None, action: Action, ctx: Context, events: list[Event]) -> None:
        if seat is not None:
            raise errors.AppError(errors.TEACHER_ONLY, "Only the teacher settles a word by looking it up.")
        if state["phase"] not in (VOTE, DECIDE, CHALLENGE):
            raise errors.AppError(errors.WRONG_PHASE, "There is no disputed word.")
        lookup = self._look_up(state, state["pending"]["word"], ctx)
        events.append(event("teacher_check", player=state["turn"], lookup=lookup))
        if lookup["legal"]:
            self._place(state, events, lookup=lookup)
        else:
            self._withdraw(state, events)
            state["phase"] = PLAY

    def _withdraw(self, state: State, events: list[Event]) -> None:
        pending = state["pending"]
        seat = state["turn"]
        state["hands"][seat].extend(pending["new_cards"])
        taken = pending["taken"]
        if taken and taken["seat"] in active_seats(state):
            state["table"][taken["seat"]] = taken
        elif taken:
            state["discard"].extend(taken["cards"])
        state["pending"] = None
        state["votes"] = {}
        state["rejecters"] = []
        events.append(event("withdrawn", seat=seat, letters="".join(pending["word"]["letters"])))

    def _look_up(self, state: State, word: dict[str, Any], ctx: Context) -> dict[str, Any]:
        if ctx.lexicon is None:
            raise errors.AppError(NO_LEXICON, "This table has no word list to check words against.")
        return look_up("".join(word["letters"]), state["options"]["short_words"], ctx.lexicon)

    # -- the impatient timer ---------------------------------------------------------------------
    def _do_start_timer(
        self, state: State, seat: int | None, action: Action, ctx: Context, events: list[Event]
    ) -> None:
        if not state["options"]["impatient_timer"]:
            raise errors.AppError(errors.NOT_ALLOWED, "This table plays without the impatient timer.")
        if state["phase"] not in (PREPLAY, PLAY, DECIDE, ROUND):
            raise errors.AppError(errors.WRONG_PHASE, "The timer is for the player on turn.")
        if state["timer"]:
            raise errors.AppError(errors.NOT_ALLOWED, "The timer is already running.")
        state["timer"] = {"deadline": ctx.now + TIMER_SECONDS, "started_by": seat}
        player = None if state["phase"] == ROUND else state["turn"]
        events.append(
            event(
                "timer_started",
                seat=seat,
                player=player,
                waiting_for=self._waiting_for(state),
                deadline=state["timer"]["deadline"],
            )
        )

    def _do_timer_expired(
        self, state: State, seat: int | None, action: Action, ctx: Context, events: list[Event]
    ) -> None:
        timer = state["timer"]
        if not timer:
            raise errors.AppError(errors.NOT_ALLOWED, "No timer is running.")
        if ctx.now < timer["deadline"]:
            raise errors.AppError(errors.NOT_ALLOWED, f"The timer runs until {timer['deadline']}.")
        if state["phase"] == ROUND:
            events.append(event("timer_expired", player=None))
            self._pass_stragglers(state, events)
            return
        events.append(event("timer_expired", player=state["turn"]))
        if state["phase"] == DECIDE:
            self._withdraw(state, events)
        events.append(event("passed", seat=state["turn"]))
        self._finish_turn(state, events)

    # -- turn flow -------------------------------------------------------------------------------
    def _place(self, state: State, events: list[Event], lookup: dict[str, Any] | None = None) -> None:
        """The pending play stands: onto the table, into the ledger, scored; then the turn goes on."""
        seat = state["turn"]
        word = state["pending"]["word"]
        state["table"][seat] = word
        state["pending"] = None
        state["votes"] = {}
        state["rejecters"] = []
        state["acted"] = True
        self._record(state, word, events, lookup)
        self._finish_turn(state, events, placed=word)

    def _record(
        self, state: State, word: dict[str, Any], events: list[Event], lookup: dict[str, Any] | None, **extra: Any
    ) -> None:
        """A play stands: it gets its id and ledger line, is announced and scores its value for its player."""
        seat = word["seat"]
        word["id"] = state["next_word"]
        state["next_word"] += 1
        word["ledger"] = len(state["ledger"][seat])
        state["ledger"][seat].append({"word": word["id"], "letters": "".join(word["letters"]), "value": word["value"]})
        events.append(event("placed", seat=seat, word=self._public_word(state, word), lookup=lookup, **extra))
        reason = "build" if "built_on" in word else word["kind"]
        self._score(state, events, seat, word["value"], reason, word=word["id"])

    def _finish_turn(self, state: State, events: list[Event], placed: dict[str, Any] | None = None) -> None:
        seat = state["turn"]
        self._draw(state, seat, events)
        if not state["pile"] and not state["hands"][seat]:
            self._end_game(state, events, "went_out", finals=[placed] if placed else [])
        else:
            self._end_turn(state, events)

    def _end_turn(self, state: State, events: list[Event]) -> None:
        state["quiet_turns"] = 0 if state["acted"] else state["quiet_turns"] + 1
        seat = state["turn"]
        while True:
            if not state["pile"] and state["quiet_turns"] >= len(active_seats(state)):
                self._end_game(state, events, "no_plays")
                return
            seat = next_seat(state, seat)
            if not state["forfeits"][seat]:
                break
            state["forfeits"][seat] -= 1
            state["quiet_turns"] += 1
            events.append(event("turn_forfeited", seat=seat))
        self._start_turn(state, seat, events)

    def _start_turn(self, state: State, seat: int, events: list[Event]) -> None:
        state.update(turn=seat, phase=PREPLAY, preplayed=False, acted=False, timer=None)
        state["turn_no"] += 1
        word = state["table"][seat]
        if word:
            state["discard"].extend(word["cards"])
            state["table"][seat] = None
            events.append(event("word_discarded", seat=seat, word=word["id"]))
        events.append(event("turn", seat=seat, turn_no=state["turn_no"]))

    def _end_game(
        self, state: State, events: list[Event], reason: str, finals: list[dict[str, Any]] | None = None
    ) -> None:
        """Final plays (those that used a player's last cards) are multiplied, hands count against their holders."""
        deck = deck_for(state["options"])
        for final in finals or []:
            extra = final["value"] * (state["options"]["final_multiplier"] - 1)
            self._set_value(state, final, final["value"] + extra)
            self._score(state, events, final["seat"], extra, "final_play", word=final["id"])
        for seat in active_seats(state):
            hand = state["hands"][seat]
            penalty = scoring.hand_penalty([deck[c] for c in hand])
            events.append(event("hand_revealed", seat=seat, cards=list(hand), penalty=penalty))
            self._score(state, events, seat, -penalty, "penalty")
        if state["options"]["eliminate_high_score"]:
            for seat, ledger in enumerate(state["ledger"]):
                best = max(ledger, key=lambda entry: entry["value"], default=None)
                if best and best["value"] > 0:
                    self._score(state, events, seat, -best["value"], "high_word_dropped", word=best["word"])
        state.update(finished=True, phase=OVER, end_reason=reason, timer=None)
        events.append(event("game_over", reason=reason, scores=list(state["scores"])))

    # -- who may do what -------------------------------------------------------------------------
    def _require_turn(self, state: State, seat: int | None, phases: tuple[str, ...]) -> None:
        if seat is None:
            raise errors.AppError(errors.NOT_YOUR_TURN, "The teacher does not play cards.")
        if state["phase"] == ROUND:
            raise errors.AppError(errors.WRONG_PHASE, "Everyone plays at once: lay a pre-play, a play or pass.")
        if state["phase"] in (VOTE, CHALLENGE) and seat == state["turn"]:
            raise errors.AppError(errors.WRONG_PHASE, "Wait for the other players to settle your word.")
        if seat != state["turn"]:
            raise errors.AppError(errors.NOT_YOUR_TURN, f"It is seat {state['turn']}'s turn.")
        if state["phase"] not in phases:
            raise errors.AppError(errors.WRONG_PHASE, f"Not now: the turn is in its {state['phase']} phase.")

    def _voters(self, state: State) -> list[int]:
        return [s for s in active_seats(state) if s != state["turn"]]

    def _waiting_for(self, state: State) -> list[int]:
        if state["phase"] == VOTE:
            return [s for s in self._voters(state) if str(s) not in state["votes"]]
        if state["phase"] == CHALLENGE:
            return list(state["rejecters"])
        if state["phase"] == ROUND:
            return self._not_ready(state)
        return [state["turn"]]

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

    def _may_play(self, state: State, seat: int | None) -> bool:
        """Whether ``seat`` may lay a play now: on their turn, or in a round before they are ready."""
        if seat is None or state["finished"]:
            return False
        if state["phase"] == ROUND:
            return seat in self._not_ready(state)
        return seat == state["turn"] and state["phase"] in (PREPLAY, PLAY)

    def _may_preplay(self, state: State, seat: int | None) -> bool:
        if not self._may_play(state, seat):
            return False
        return state["round"]["preplays"][seat] is None if state["phase"] == ROUND else state["phase"] == PREPLAY

    def _actions(self, state: State, seat: int | None) -> list[str]:
        if state["finished"]:
            return []
        phase = state["phase"]
        actions: list[str] = []
        timer_open = state["options"]["impatient_timer"] and phase in (PREPLAY, PLAY, DECIDE, ROUND)
        if seat is None:
            actions += ["check"] if phase in (VOTE, DECIDE, CHALLENGE) else []
        elif self._may_play(state, seat):
            if self._may_preplay(state, seat):
                has_joker = any(c["kind"] == JOKER for c in self._faces(state, state["hands"][seat]))
                actions += ["joker"] if has_joker and self._joker_targets(state, seat) else []
                actions += ["shave"] if self._shave_targets(state, seat) else []
            actions += [p for p in PLAYS if p != "exchange" or len(state["pile"]) >= EXCHANGE_MIN_PILE]
        elif seat == state["turn"] and phase == DECIDE:
            actions += ["withdraw", "insist"]
        elif phase == VOTE and seat in self._voters(state) and str(seat) not in state["votes"]:
            actions.append("vote")
        elif phase == CHALLENGE and seat in state["rejecters"]:
            actions += ["challenge", "concede"]
        if timer_open and not state["timer"]:
            actions.append("start_timer")
        if state["timer"]:
            actions.append("timer_expired")
        return actions

    # -- views -----------------------------------------------------------------------------------
    def encounters(self, state: State, events: list[Event]) -> list[WordEncounter]:
        """A word that stands on the table (a build included) is played by its player and seen by the others.
        Straights and flushes are not words: nobody learns a word from them."""
        found: list[WordEncounter] = []
        for ev in events:
            if ev["type"] == "placed" and ev["word"]["kind"] == "word":
                spelled = "".join(ev["word"]["letters"])
                found += played_and_seen(active_seats(state), ev["seat"], spelled, spelled)
        return found

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        deck = deck_for(state["options"])
        preplaying = self._may_preplay(state, seat)
        shave = self._shave_targets(state, seat) if preplaying else []
        has_joker = preplaying and any(deck[c]["kind"] == JOKER for c in state["hands"][seat])
        joker = self._joker_targets(state, seat) if has_joker else []
        build = self._build_targets(state, seat) if self._may_play(state, seat) else []
        table = []
        for owner, word in enumerate(state["table"]):
            if word:
                shown = self._public_word(state, word)
                shown.update(shave_target=owner in shave, joker_target=owner in joker, build_target=owner in build)
                table.append(shown)
        pending = state["pending"]
        return {
            "game": self.slug,
            "you": seat,
            "players": state["players"],
            "removed": list(state["removed"]),
            "options": dict(state["options"]),
            "phase": state["phase"],
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
            "scores": list(state["scores"]),
            "pile": len(state["pile"]),
            "discard": len(state["discard"]),
            "timer": dict(state["timer"]) if state["timer"] else None,
            "round": self._round_view(state, seat),
            "targets": {"shave": shave, "joker": joker, "build": build},
            "actions": self._actions(state, seat),
            "finished": state["finished"],
            "end_reason": state["end_reason"],
        }

    def _public_word(self, state: State, word: dict[str, Any]) -> dict[str, Any]:
        """A word as everyone sees it: its cards face up, each with the letter it was played as."""
        deck = deck_for(state["options"])
        shown = {key: (list(value) if isinstance(value, list) else value) for key, value in word.items()}
        shown.pop("ledger", None)
        pairs = zip(word["cards"], word["letters"], strict=True)
        shown["faces"] = [dict(deck[c], letter=letter) for c, letter in pairs]
        return shown

    # -- small helpers ---------------------------------------------------------------------------
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

    def _score(self, state: State, events: list[Event], seat: int, points: int, reason: str, **fields: Any) -> None:
        if points:
            state["scores"][seat] += points
            events.append(score(seat, points, reason, **fields))

    def _set_value(self, state: State, word: dict[str, Any], value: int) -> None:
        word["value"] = value
        state["ledger"][word["seat"]][word["ledger"]]["value"] = value

    def _draw(self, state: State, seat: int, events: list[Event]) -> None:
        drawn = deal(state["pile"], HAND_SIZE - len(state["hands"][seat]))
        if drawn:
            state["hands"][seat].extend(drawn)
            events.append(private("drew", [seat], {"cards": drawn}, seat=seat, count=len(drawn)))

    def _faces(self, state: State, cards: list[int]) -> list[Card]:
        deck = deck_for(state["options"])
        return [deck[c] for c in cards]

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


def card_places(state: State) -> dict[str, list[int]]:
    """Every place a card can be, for invariant checks: each card id is in exactly one of these lists."""
    places = {"pile": list(state["pile"]), "discard": list(state["discard"])}
    for seat, hand in enumerate(state["hands"]):
        places[f"hand {seat}"] = list(hand)
    for seat, word in enumerate(state["table"]):
        places[f"table {seat}"] = list(word["cards"]) if word else []
    places["pending"] = list(state["pending"]["word"]["cards"]) if state["pending"] else []
    for seat in range(state["players"]):
        places[f"face down {seat}"] = face_down_cards(state, seat)
    return places
