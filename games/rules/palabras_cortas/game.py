"""Palabras Cortas: eight hands of three to ten letter cards; draw, discard, go out with every card but one in
words, and everyone else has one last turn. The rules as this game reads them, and its choices where the rule sheet
is silent, are in ``docs/games/palabras_cortas.md``.

State: ``hands``, ``stock``, ``discard`` (top last), ``laid`` (each seat's words this hand, as card-id lists) and
``out_of_play`` (the hands of removed players) hold every card exactly once; ``phase`` is ``draw``, ``discard``,
``review`` (the challenge review, in challenge mode) or ``finished``; ``went_out`` and ``last_turns`` track the end
of a hand; ``history`` keeps each scored hand.
"""

from typing import Any

from games.engine import (
    INT,
    LIST,
    PLAYER,
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
from games.engine.cards import Card, deal, shuffled_ids, take
from games.engine.encounters import WordEncounter, played_and_seen
from games.engine.errors import BAD_ACTION, NOT_A_WORD, NOT_ALLOWED, NOT_HELD
from games.engine.game import added_entries
from games.engine.letter_cards import blank_face, face, look_up, points, spell, word_ids, word_record
from games.engine.rng import new_rng_state, randint, shuffled
from games.engine.turns import active_seats, add_waiting_seat, admit_waiting, next_seat

from .deck import DECK_OPTION, deck

HANDS = 8
FIRST_HAND_SIZE = 3
BONUS = 10
SCORE_PARTS = ("words", "unused", "floor", "bonus", "challenges")  # a hand's score, part by part

WORDS_FIELD = Field("words", LIST, max_items=8, help="words, each a list of card ids in reading order")
CARD_FIELD = Field("card", INT, help="the card to discard")


class PalabrasCortas(Game):
    slug = "palabras_cortas"
    title = "Palabras Cortas"
    fixed = ("options", "hands_in_game")
    record = "history"  # the hands past: a row per scored hand, sent to pages as hands are scored
    language = "spa"
    min_players = 2
    max_players = 8
    renderer = "palabras_cortas"
    options = (
        Option(
            "checking",
            "Word checking",
            "choice",
            "automatic",
            choices=(
                ("automatic", "Automatic: the lexicon refuses bad words"),
                ("challenge", "Challenge after each hand"),
            ),
        ),
        DECK_OPTION,
        Option("floor_zero", "A hand never scores below 0", "bool", True),
        Option(
            "two_player_bonus",
            "Bonus used with two players",
            "choice",
            "longest",
            choices=(("longest", "Longest word"), ("most", "Most words")),
        ),
        Option(
            "refused_word",
            "A word refused on challenge",
            "choice",
            "void",
            choices=(("void", "Earns nothing"), ("against", "Its cards count against the player")),
        ),
    )

    # -- setting up ---------------------------------------------------------------------------------------------
    def _new(self, players: int, options: dict[str, Any], seed: int) -> tuple[State, list[Event]]:
        state: State = {
            "players": players,
            "options": options,
            "rng": new_rng_state(seed),
            "removed": [],
            "hand_number": 1,
            "dealer": 0,
            "turn": None,
            "phase": "draw",
            "hands": [[] for _ in range(players)],
            "stock": [],
            "discard": [],
            "laid": [[] for _ in range(players)],
            "out_of_play": [],
            "went_out": None,
            "last_turns": [],
            "review": None,
            "totals": [0] * players,
            "history": [],
        }
        state["dealer"] = randint(state, 0, players - 1)
        return state, self._deal(state)

    def _cards(self, state: State) -> list[Card]:
        return deck(state["options"]["deck"])

    def _deal(self, state: State) -> list[Event]:
        """Shuffle every card and deal the hand ``hand_number``; the player left of the dealer starts."""
        size = FIRST_HAND_SIZE + state["hand_number"] - 1
        admit_waiting(state)  # players who sat down during the last hand are dealt in now
        stock = shuffled_ids(state, self._cards(state))
        seats = active_seats(state)
        state["hands"] = [deal(stock, size) if s in seats else [] for s in range(state["players"])]
        state["discard"] = deal(stock, 1)
        state["stock"] = stock
        state["laid"] = [[] for _ in range(state["players"])]
        state["out_of_play"] = []
        state["went_out"] = None
        state["last_turns"] = []
        state["review"] = None
        state["phase"] = "draw"
        state["turn"] = next_seat(state, state["dealer"])
        cards = self._cards(state)
        events = [
            event(
                "deal",
                hand_number=state["hand_number"],
                dealer=state["dealer"],
                hand_size=size,
                discard=face(cards, state["discard"][-1]),
                stock=len(stock),
                turn=state["turn"],
            )
        ]
        for s in seats:
            cards_dealt = [face(cards, i) for i in state["hands"][s]]
            events.append(private("dealt", [s], {"cards": cards_dealt}, seat=s, count=size))
        return events

    # -- drawing ------------------------------------------------------------------------------------------------
    def _stock_or_reshuffle(self, state: State, seat: int) -> None:
        if not state["stock"] and len(state["discard"]) < 2:
            raise AppError(NOT_ALLOWED, "The stock is empty and the discard pile is only its top card: take it.")

    @action("draw_stock", phases=("draw",), actor=TURN, allowed="_stock_or_reshuffle", label="Draw from the stock")
    def _draw_stock(self, state: State, seat: int, action: dict[str, Any], ctx: Context) -> list[Event]:
        events: list[Event] = []
        if not state["stock"]:
            top = state["discard"].pop()
            state["stock"] = shuffled(state, state["discard"])
            state["discard"] = [top]
            events.append(event("reshuffle", stock=len(state["stock"])))
        card = deal(state["stock"], 1)[0]
        state["hands"][seat].append(card)
        state["phase"] = "discard"
        events.append(private("draw", [seat], {"card": face(self._cards(state), card)}, seat=seat, source="stock"))
        return events

    def _discard_to_take(self, state: State, seat: int) -> None:
        if not state["discard"]:
            raise AppError(NOT_ALLOWED, "The discard pile is empty: draw from the stock.")

    @action("draw_discard", phases=("draw",), actor=TURN, allowed="_discard_to_take", label="Take the discard")
    def _draw_discard(self, state: State, seat: int, action: dict[str, Any], ctx: Context) -> list[Event]:
        card = state["discard"].pop()
        state["hands"][seat].append(card)
        state["phase"] = "discard"
        return [event("draw", seat=seat, source="discard", card=face(self._cards(state), card))]

    # -- going out and last turns -------------------------------------------------------------------------------
    def _hand_choices(self, state: State, seat: int) -> dict[str, Any]:
        return {"card": list(state["hands"][seat])}

    def _nobody_out(self, state: State, seat: int) -> None:
        if state["went_out"] is not None:
            raise AppError(NOT_ALLOWED, "Someone has gone out already: lay down your words (lay_down).")

    @action(
        "go_out",
        phases=("discard",),
        actor=TURN,
        fields=(WORDS_FIELD, CARD_FIELD),
        allowed="_nobody_out",
        choices="_hand_choices",
        label="Go out",
    )
    def _go_out(self, state: State, seat: int, action: dict[str, Any], ctx: Context) -> list[Event]:
        return self._lay(state, seat, action["words"], action["card"], ctx, going_out=True)

    def _someone_out(self, state: State, seat: int) -> None:
        if state["went_out"] is None:
            raise AppError(NOT_ALLOWED, "Words are laid only to go out, or on your last turn after someone went out.")

    @action(
        "lay_down",
        phases=("discard",),
        actor=TURN,
        fields=(WORDS_FIELD, CARD_FIELD),
        allowed="_someone_out",
        choices="_hand_choices",
        label="Lay down words and discard",
    )
    def _lay_down(self, state: State, seat: int, action: dict[str, Any], ctx: Context) -> list[Event]:
        return self._lay(state, seat, action["words"], action["card"], ctx, going_out=False)

    @action("discard", phases=("discard",), actor=TURN, fields=(CARD_FIELD,), choices="_hand_choices")
    def _discard(self, state: State, seat: int, action: dict[str, Any], ctx: Context) -> list[Event]:
        card = action["card"]
        if state["went_out"] is not None:  # a last turn: discarding is laying no words
            return self._lay(state, seat, [], card, ctx, going_out=False)
        self._take(state, seat, [card])
        state["discard"].append(card)
        state["turn"] = next_seat(state, seat)
        state["phase"] = "draw"
        return [event("discard", seat=seat, card=face(self._cards(state), card), turn=state["turn"])]

    def _take(self, state: State, seat: int, ids: list[int]) -> None:
        try:
            take(state["hands"][seat], ids)
        except ValueError:
            if len(set(ids)) != len(ids):
                raise AppError(BAD_ACTION, "The same card is used twice.") from None
            raise AppError(NOT_HELD, "You do not hold that card.") from None

    def _lay(
        self, state: State, seat: int, raw_words: list[Any], discard: int, ctx: Context, *, going_out: bool
    ) -> list[Event]:
        """Go out, or (after someone went out) take a last turn: lay words, then discard."""
        words = [word_ids(w) for w in raw_words]
        used = [i for w in words for i in w] + [discard]
        if len(set(used)) != len(used):
            raise AppError(BAD_ACTION, "The same card is used twice.")
        hand = state["hands"][seat]
        if any(i not in hand for i in used):
            raise AppError(NOT_HELD, "You do not hold every card you named.")
        if going_out and len(used) != len(hand):
            raise AppError(NOT_ALLOWED, "To go out, every card but the one you discard must be in words.")
        cards = self._cards(state)
        checked = []
        if state["options"]["checking"] == "automatic":
            for w in words:
                key, ok = look_up(ctx, spell(cards, w))
                if not ok:
                    raise AppError(NOT_A_WORD, f"{spell(cards, w)} is not in the lexicon.")
                checked.append(key)
        self._take(state, seat, used)
        state["laid"][seat].extend(words)
        state["discard"].append(discard)
        records = [word_record(cards, w) for w in words]
        for record, key in zip(records, checked, strict=False):
            record["key"] = key
        # The discard is told without its id: the hand may end with this move and the card go back into hiding.
        if going_out:
            state["went_out"] = seat
            state["last_turns"] = [s for s in self._seats_after(state, seat) if s != seat]
            events = [event("went_out", seat=seat, words=records, discard=blank_face(cards, discard))]
        else:
            state["last_turns"].remove(seat)
            events = [
                event("laid_down", seat=seat, words=records, discard=blank_face(cards, discard), unused=len(hand))
            ]
        return events + self._next_last_turn(state)

    def _seats_after(self, state: State, seat: int) -> list[int]:
        """Active seats clockwise starting after ``seat`` (``seat`` last, if active)."""
        n = state["players"]
        return [(seat + k) % n for k in range(1, n + 1) if (seat + k) % n in active_seats(state)]

    def _next_last_turn(self, state: State) -> list[Event]:
        if state["last_turns"]:
            state["turn"] = state["last_turns"][0]
            state["phase"] = "draw"
            return [event("last_turn", seat=state["turn"])]
        state["turn"] = None
        if state["options"]["checking"] == "challenge":
            state["phase"] = "review"
            state["review"] = {"ready": [], "challenges": []}
            return [event("review", hand_number=state["hand_number"])]
        return self._score_hand(state)

    # -- the challenge review -----------------------------------------------------------------------------------
    def _open_words(self, state: State, seat: int) -> list[tuple[int, int]]:
        """The words ``seat`` may still challenge: another active player's, not challenged yet."""
        challenged = {(c["seat"], c["word"]) for c in state["review"]["challenges"]}
        return [
            (s, i)
            for s in active_seats(state)
            if s != seat
            for i in range(len(state["laid"][s]))
            if (s, i) not in challenged
        ]

    def _may_challenge(self, state: State, seat: int) -> None:
        if seat in state["review"]["ready"]:
            raise AppError(NOT_ALLOWED, "You said you were ready: no more challenges from you this hand.")
        if not self._open_words(state, seat):
            raise AppError(NOT_ALLOWED, "There is no word left for you to challenge.")

    def _challenge_choices(self, state: State, seat: int) -> dict[str, Any]:
        open_words = self._open_words(state, seat)
        return {"seat": sorted({s for s, _ in open_words}), "word": sorted({i for _, i in open_words})}

    @action(
        "challenge",
        phases=("review",),
        actor=PLAYER,
        fields=(Field("seat", INT, help="the seat that laid the word"), Field("word", INT, help="its index")),
        allowed="_may_challenge",
        choices="_challenge_choices",
        label="Challenge a word",
    )
    def _challenge(self, state: State, seat: int, action: dict[str, Any], ctx: Context) -> list[Event]:
        review = state["review"]
        target, index = action["seat"], action["word"]
        if not 0 <= target < state["players"]:
            raise AppError(BAD_ACTION, "Name the seat that laid the word.")
        if not 0 <= index < len(state["laid"][target]):
            raise AppError(BAD_ACTION, "That seat has no such word.")
        if target == seat:
            raise AppError(NOT_ALLOWED, "You cannot challenge your own word.")
        if target not in active_seats(state):
            raise AppError(NOT_ALLOWED, "That player has left the game; their words are not scored.")
        if any(c["seat"] == target and c["word"] == index for c in review["challenges"]):
            raise AppError(NOT_ALLOWED, "That word has been challenged already.")
        cards = self._cards(state)
        ids = state["laid"][target][index]
        text = spell(cards, ids)
        key, valid = look_up(ctx, text)
        record = {
            "challenger": seat,
            "seat": target,
            "word": index,
            "text": text,
            "key": key,
            "valid": valid,
            "points": points(cards, ids),
        }
        review["challenges"].append(record)
        return [event("challenge", **record)]

    @action("ready", phases=("review",), actor=TURN, label="I'm ready")
    def _ready(self, state: State, seat: int, action: dict[str, Any], ctx: Context) -> list[Event]:
        state["review"]["ready"].append(seat)
        events = [event("ready", seat=seat)]
        if all(s in state["review"]["ready"] for s in active_seats(state)):
            events += self._score_hand(state)
        return events

    @action("advance", phases=("review",), actor=TEACHER, label="End the review and score the hand")
    def _advance(self, state: State, seat: None, action: dict[str, Any], ctx: Context) -> list[Event]:
        return [event("advanced"), *self._score_hand(state)]

    # -- scoring ------------------------------------------------------------------------------------------------
    def _score_hand(self, state: State) -> list[Event]:
        """Score the hand from the laid words and the challenge results, then deal the next hand or end."""
        cards = self._cards(state)
        options = state["options"]
        seats = active_seats(state)
        challenges = state["review"]["challenges"] if state["review"] else []
        refused = {(c["seat"], c["word"]) for c in challenges if not c["valid"]}
        events: list[Event] = []
        hand_number = state["hand_number"]

        def add(seat: int, amount: int, reason: str, **fields: Any) -> None:
            if amount:
                events.append(score(seat, amount, reason, hand_number=hand_number, **fields))
                state["totals"][seat] += amount
                breakdown[seat]["total"] += amount

        breakdown: dict[int, dict[str, Any]] = {}
        standing: dict[int, list[list[int]]] = {}
        for s in seats:
            standing[s] = [w for i, w in enumerate(state["laid"][s]) if (s, i) not in refused]
            refused_ids = [i for k, w in enumerate(state["laid"][s]) if (s, k) in refused for i in w]
            for_points = sum(points(cards, w) for w in standing[s])
            against = points(cards, state["hands"][s])
            if options["refused_word"] == "against":
                against += points(cards, refused_ids)
            floor = -(for_points - against) if options["floor_zero"] and for_points < against else 0
            breakdown[s] = {"words": for_points, "unused": -against, "floor": floor, "bonus": 0, "challenges": 0}
            breakdown[s]["total"] = 0
            add(s, for_points, "words")
            add(s, -against, "unused cards")
            add(s, floor, "floor at zero")

        bonuses = self._bonuses(state, seats, standing)
        for bonus in bonuses:
            if bonus["seat"] is not None:
                breakdown[bonus["seat"]]["bonus"] += BONUS
                add(bonus["seat"], BONUS, bonus["reason"])
        for c in challenges:
            if c["valid"] and c["challenger"] in seats and c["seat"] in seats:
                breakdown[c["challenger"]]["challenges"] -= c["points"]
                add(c["challenger"], -c["points"], "lost challenge", word=c["text"])

        state["history"].append(
            {
                "hand_number": hand_number,
                "dealer": state["dealer"],
                "went_out": state["went_out"],
                # Card ids only: the state is copied on every move, and views rebuild the faces.
                "words": [
                    [{"cards": w, "refused": (s, i) in refused} for i, w in enumerate(state["laid"][s])]
                    for s in range(state["players"])
                ],
                "scores": {str(s): b for s, b in breakdown.items()},
                "bonuses": bonuses,
                "challenges": challenges,
            }
        )
        events.append(
            event(
                "hand_scored",
                hand_number=hand_number,
                scores={str(s): dict(b) for s, b in breakdown.items()},
                bonuses=[dict(b) for b in bonuses],
            )
        )
        if hand_number == HANDS:
            return events + self._finish(state)
        state["hand_number"] += 1
        state["dealer"] = next_seat(state, state["dealer"])
        return events + self._deal(state)

    def _bonuses(self, state: State, seats: list[int], standing: dict[int, list[list[int]]]) -> list[dict[str, Any]]:
        """Who gets +10 for most words and for longest word (in letters), and why nobody does on a tie."""
        cards = self._cards(state)
        measures = {
            "most": ("most words", {s: len(standing[s]) for s in seats}),
            "longest": (
                "longest word",
                {s: max((len(spell(cards, w)) for w in standing[s]), default=0) for s in seats},
            ),
        }
        kinds = ["most", "longest"] if len(seats) > 2 else [state["options"]["two_player_bonus"]]
        bonuses = []
        for kind in kinds:
            reason, values = measures[kind]
            best = max(values.values(), default=0)
            leaders = [s for s in seats if values[s] == best]
            if best == 0:
                bonuses.append({"bonus": kind, "reason": reason, "seat": None, "value": 0, "why": "nobody laid a word"})
            elif len(leaders) > 1:
                bonuses.append(
                    {"bonus": kind, "reason": reason, "seat": None, "value": best, "why": "tie", "tied": leaders}
                )
            else:
                bonuses.append({"bonus": kind, "reason": reason, "seat": leaders[0], "value": best, "why": "best"})
        return bonuses

    def _finish(self, state: State) -> list[Event]:
        state["phase"] = "finished"
        state["turn"] = None
        return [event("game_over", totals=list(state["totals"]), winners=self._winners(state))]

    def _winners(self, state: State) -> list[int]:
        seats = active_seats(state)
        best = max((state["totals"][s] for s in seats), default=0)
        return [s for s in seats if state["totals"][s] == best]

    # -- seating during the game ------------------------------------------------------------------------------
    def can_seat(self, state: State, seat: int | None) -> bool:
        """A new player takes a new seat and is dealt in at the next hand (there must be one, and room); a removed
        player's seat cannot be taken over (their cards went out of play)."""
        return (
            seat is None
            and state["phase"] != "finished"
            and state["hand_number"] < HANDS
            and state["players"] < self.max_players
        )

    def _seat_player(self, state: State, seat: int | None, ctx: Context) -> tuple[int, list[Event]]:
        new = add_waiting_seat(state)
        state["hands"].append([])
        state["laid"].append([])
        state["totals"].append(0)
        for hand in state["history"]:
            hand["words"].append([])
        return new, [event("player_joined", seat=new, from_hand=state["hand_number"] + 1)]

    # -- removal ------------------------------------------------------------------------------------------------
    def _after_removal(self, state: State, seat: int, ctx: Context) -> list[Event]:
        if state["phase"] == "finished":
            return []
        out = state["hands"][seat]
        state["out_of_play"].extend(out)
        state["hands"][seat] = []
        events = [event("player_removed", seat=seat, cards_out_of_play=len(out))]
        if not active_seats(state):
            return events + self._finish(state)
        if state["phase"] == "review":
            if all(s in state["review"]["ready"] for s in active_seats(state)):
                events += self._score_hand(state)
            return events
        if not state["discard"] and state["stock"]:
            # They had just taken the only discard: turn up a new one, as after the deal.
            state["discard"] = deal(state["stock"], 1)
            events.append(event("discard_turned", card=face(self._cards(state), state["discard"][-1])))
        if seat in state["last_turns"]:
            state["last_turns"].remove(seat)
        if state["turn"] == seat:
            if state["went_out"] is None:
                state["turn"] = next_seat(state, seat)
                state["phase"] = "draw"
                events.append(event("turn", seat=state["turn"]))
            else:
                events += self._next_last_turn(state)
        return events

    # -- what players see ---------------------------------------------------------------------------------------
    def encounters(self, state: State, events: list[Event]) -> list[WordEncounter]:
        """Every word laid down is played by its player and seen by the rest of the table."""
        found: list[WordEncounter] = []
        for ev in events:
            if ev["type"] in ("went_out", "laid_down"):
                for word in ev["words"]:
                    key = word.get("key", word["word"])
                    found += played_and_seen(active_seats(state), ev["seat"], key, word["word"])
        return found

    def common_body(self, state: State) -> dict[str, Any]:
        """Everything but the hand and the hands past (:attr:`record`): the table and the words laid down, alike for
        every viewer."""
        cards = self._cards(state)
        challenges = state["review"]["challenges"] if state["review"] else []
        by_word = {(c["seat"], c["word"]): c for c in challenges}
        body: dict[str, Any] = {
            "options": dict(state["options"]),
            "hand_number": state["hand_number"],
            "hands_in_game": HANDS,
            "hand_size": FIRST_HAND_SIZE + state["hand_number"] - 1,
            "dealer": state["dealer"],
            "turn": state["turn"],
            "went_out": state["went_out"],
            "last_turns": list(state["last_turns"]),
            "stock_count": len(state["stock"]),
            "discard_count": len(state["discard"]),
            "discard_top": face(cards, state["discard"][-1]) if state["discard"] else None,
            "hand_counts": [len(h) for h in state["hands"]],
            "out_of_play_count": len(state["out_of_play"]),
            "words": [
                [{**word_record(cards, w), "challenge": by_word.get((s, i))} for i, w in enumerate(state["laid"][s])]
                for s in range(state["players"])
            ],
            "ready": list(state["review"]["ready"]) if state["review"] else [],
        }
        return body

    # -- the hands past ---------------------------------------------------------------------------------------
    def record_row(self, state: State, index: int, seat: int | None) -> dict[str, Any]:
        """A scored hand, alike for every viewer: its words by their faces only (their cards are back in the stock
        and in hands), its scores, bonuses and challenges."""
        cards = self._cards(state)
        hand = state["history"][index]
        return {
            **hand,
            "words": [
                [{**word_record(cards, w["cards"]), "refused": w["refused"]} for w in seat_words]
                for seat_words in hand["words"]
            ],
        }

    def changed_rows(self, before: State, after: State) -> list[int] | None:
        """A hand's row is set when it is scored, and changes after only when a player joins (every hand gets the
        new seat's empty list of words): the hands the move added, or all of them."""
        if after["players"] != before["players"]:
            return None
        return added_entries(before["history"], after["history"])

    def body(self, state: State, seat: int | None) -> dict[str, Any]:
        if seat is not None and 0 <= seat < state["players"]:
            return {"hand": [face(self._cards(state), i) for i in state["hands"][seat]]}
        return {}

    def scores(self, state: State) -> Scores:
        """Totals, and their parts over the hands scored so far (words, unused cards, the zero floor, bonuses and
        lost challenges), which add up to them."""
        parts = {name: [0] * state["players"] for name in SCORE_PARTS}
        for hand in state["history"]:
            for s, breakdown in hand["scores"].items():
                for name in SCORE_PARTS:
                    parts[name][int(s)] += breakdown[name]
        return Scores(list(state["totals"]), parts=parts)

    def status(self, state: State) -> Status:
        phase = state["phase"]
        if phase == "finished":
            return Status(phase, (), finished=True, summary=f"Game over after {HANDS} hands.")
        if phase == "review":
            waiting = tuple(s for s in active_seats(state) if s not in state["review"]["ready"])
            return Status(phase, waiting, summary=f"Hand {state['hand_number']} of {HANDS}: challenges, then ready.")
        verb = "draw" if phase == "draw" else "discard"
        last = " (last turn)" if state["went_out"] is not None else ""
        return Status(
            phase,
            (state["turn"],),
            summary=f"Hand {state['hand_number']} of {HANDS}: {seat_ref(state['turn'])} to {verb}{last}.",
        )

    def describe_move(self, state: State, seat: int | None, action: dict[str, Any], public_events: list[Event]) -> str:
        first = public_events[0] if public_events else {}
        kind = first.get("type")
        if kind == "draw":
            if first["source"] == "stock":
                return "drew from the stock"
            return f"took {first['card']['letters']} from the discard pile"
        if kind == "reshuffle":
            return "drew from the stock (the discard pile was shuffled into a new stock)"
        if kind == "discard":
            return f"discarded {first['card']['letters']}"
        if kind in ("went_out", "laid_down"):
            words = ", ".join(w["word"] for w in first["words"])
            discarded = first["discard"]["letters"]
            if kind == "went_out":
                return f"went out with {words}, discarding {discarded}"
            return f"laid {words or 'no words'} and discarded {discarded}"
        if kind == "challenge":
            verdict = "the word stands" if first["valid"] else "upheld, not in the lexicon"
            return f"challenged {first['text']}: {verdict}"
        if kind == "ready":
            return "is ready"
        if kind == "advanced":
            return "ended the review"
        return super().describe_move(state, seat, action, public_events)

    def places(self, state: State) -> dict[str, list[int]]:
        found = {
            "stock": list(state["stock"]),
            "discard": list(state["discard"]),
            "out_of_play": list(state["out_of_play"]),
        }
        for s in range(state["players"]):
            found[f"hand {s}"] = list(state["hands"][s])
            found[f"laid {s}"] = [i for w in state["laid"][s] for i in w]
        return found

    def visible_pieces(self, state: State, seat: int | None) -> set[int]:
        """Your own hand, the discard pile (every card in it was shown face up) and the words laid this hand."""
        seen = set(state["discard"]) | {i for words in state["laid"] for w in words for i in w}
        if seat is not None and 0 <= seat < state["players"]:
            seen |= set(state["hands"][seat])
        return seen


RULES = PalabrasCortas()
