"""Palabras Cortas: the Spanish rule sheet of Quiddler (``/work/shared/rules/palabras-cortas.es.md``).

Eight hands of 3, 4, … 10 cards. On their turn a player draws (stock or top of the discard pile) and discards one
card. After drawing, a player whose cards all but one spell words (at least two cards each; a double-letter card
such as QU adds both its letters) may go out: they lay the words and discard the last card. Everyone else then has
one last turn: draw, lay any words they can, discard. Cards in words count for the player, unused cards against.

Choices where the sheet is silent or ambiguous (◐ in ``specs/components.md``):

- Deck: the sheet's 118 cards, or (option ``deck``) a Spanish deck adding Ñ 8, CH 5, LL 8, RR 8, two of each.
- Words are strings of card letters, checked through ``ctx.lexicon.normalise`` + ``is_word`` (accents folded,
  Ñ distinct). Option ``checking``: ``automatic`` refuses a word the lexicon lacks, naming it; ``challenge``
  follows the sheet's procedure in a *review* phase after the last turn (see below).
- The first dealer is drawn by lot (the seeded RNG), as players cut for the deal; then the deal passes clockwise.
- When a player draws from an empty stock, every discard but the top one is shuffled into a new stock and the top
  card stays as the discard pile. If the discard pile is only its top card, there is no stock: take the discard.
- A player may discard the card they just took from the discard pile (the sheet does not forbid it).
- Words are laid only when going out or on a last turn; nobody adds to another player's words.
- Longest word is counted in letters, not cards: QU, IN, ER, CL, TH — and CH, LL, RR of the Spanish deck — count
  two letters each. Most words and longest word are +10 each; a tie (or nobody having any word) gives nobody that
  bonus. With two players or fewer in the hand only one bonus is used (option ``two_player_bonus``, default longest).
- Option ``floor_zero`` (default on): a hand's card score (words minus unused cards) never goes below 0.
- Challenge review: after the last turn every player may challenge any word another player laid this hand (each
  word once), then says ``ready``; the hand is scored when every player is ready or when the teacher advances. A
  challenged word is looked up as laid (its letters cannot be rearranged) and the result is written into the
  ``challenge`` event, so scoring and replays never consult the lexicon again. A word found in the lexicon costs
  the challenger its points; a word not found costs its player the word's points: by default (option
  ``refused_word`` = ``void``) the word simply earns nothing, as the sheet's "deduct its points" reads; with
  ``against`` its cards count against the player like unused cards. A challenger's penalty is taken after the
  zero floor: the floor protects a player from a bad hand, not from a bad challenge.
- A player the teacher removes is skipped from then on. Their hand goes face down to ``out_of_play`` for the rest
  of the hand (every card is always in exactly one of: hands, stock, discard, laid words, out_of_play); the next
  deal gathers and shuffles every card again. If it was their turn, the turn passes on (if they had just taken the
  only discard, the top stock card is turned up to restart the pile); the words they laid stay on the table but
  they score nothing more, and they count for no bonus.
"""

from typing import Any

from games.engine import AppError, Context, Event, Game, Option, State, Status, event, private, score
from games.engine.cards import Card, build_deck, deal, shuffled_ids, take
from games.engine.encounters import WordEncounter, played_and_seen
from games.engine.errors import (
    BAD_ACTION,
    GAME_OVER,
    NOT_A_WORD,
    NOT_ALLOWED,
    NOT_HELD,
    NOT_YOUR_TURN,
    TEACHER_ONLY,
    WRONG_PHASE,
)
from games.engine.rng import new_rng_state, randint, shuffled
from games.engine.turns import active_seats, next_seat

# (letters, points, count): ``specs/components.md``.
STANDARD_CARDS: tuple[tuple[str, int, int], ...] = (
    ("A", 2, 10), ("B", 8, 2), ("C", 8, 2), ("D", 5, 4), ("E", 2, 12), ("F", 6, 2), ("G", 6, 4), ("H", 7, 2),
    ("I", 2, 8), ("J", 13, 2), ("K", 8, 2), ("L", 3, 4), ("M", 5, 2), ("N", 5, 6), ("O", 2, 8), ("P", 6, 2),
    ("Q", 15, 2), ("R", 5, 6), ("S", 3, 4), ("T", 3, 6), ("U", 4, 6), ("V", 11, 2), ("W", 10, 2), ("X", 12, 2),
    ("Y", 4, 4), ("Z", 14, 2), ("QU", 9, 2), ("IN", 7, 2), ("ER", 7, 2), ("CL", 10, 2), ("TH", 9, 2),
)  # fmt: skip
SPANISH_EXTRA_CARDS: tuple[tuple[str, int, int], ...] = (("Ñ", 8, 2), ("CH", 5, 2), ("LL", 8, 2), ("RR", 8, 2))

DECKS: dict[str, list[Card]] = {
    "standard": build_deck([({"letters": letters, "points": points}, n) for letters, points, n in STANDARD_CARDS]),
    "spanish": build_deck(
        [({"letters": letters, "points": points}, n) for letters, points, n in STANDARD_CARDS + SPANISH_EXTRA_CARDS]
    ),
}

DECK_OPTION = Option(
    "deck",
    "Deck",
    "choice",
    "standard",
    choices=(("standard", "Rule sheet (118 cards)"), ("spanish", "Spanish (adds Ñ, CH, LL, RR: 126 cards)")),
)

HANDS = 8
FIRST_HAND_SIZE = 3
BONUS = 10
NO_LEXICON = "no_lexicon"


# -- cards and words: shared with the solitaire ---------------------------------------------------------------
def deck(name: str) -> list[Card]:
    """The cards of deck ``name`` (ids 0..N-1); shared, so never mutate them."""
    return DECKS[name]


def face(cards: list[Card], card_id: int) -> dict[str, Any]:
    """A card as a browser draws it."""
    card = cards[card_id]
    return {"id": card_id, "letters": card["letters"], "points": card["points"]}


def spell(cards: list[Card], ids: list[int]) -> str:
    return "".join(cards[i]["letters"] for i in ids)


def points(cards: list[Card], ids: list[int]) -> int:
    return sum(cards[i]["points"] for i in ids)


def word_record(cards: list[Card], ids: list[int]) -> dict[str, Any]:
    """A laid word as events and views show it: its cards, what it spells, its points and its length in letters."""
    text = spell(cards, ids)
    return {"cards": [face(cards, i) for i in ids], "word": text, "points": points(cards, ids), "letters": len(text)}


def look_up(ctx: Context, text: str) -> tuple[str, bool]:
    """The lexicon key of ``text`` and whether it is a word."""
    if ctx.lexicon is None:
        raise AppError(NO_LEXICON, "This table has no lexicon to check words against.")
    key = ctx.lexicon.normalise(text)
    return key, ctx.lexicon.is_word(key)


def card_id(value: Any, what: str = "card") -> int:
    """A card id from an action, or a clear error."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise AppError(BAD_ACTION, f"The {what} must be given as a card id (a whole number).")
    return value


def word_ids(value: Any) -> list[int]:
    """One word from an action: a list of at least two card ids, in reading order."""
    if not isinstance(value, list):
        raise AppError(BAD_ACTION, "Each word must be a list of card ids.")
    ids = [card_id(v, "word's card") for v in value]
    if len(ids) < 2:
        raise AppError(NOT_A_WORD, "A word needs at least two cards.")
    return ids


def check_shape(action: dict[str, Any], shapes: dict[str, dict[str, Any]]) -> str:
    """The action's type, after refusing unknown types and fields (a typo must not be silently ignored)."""
    kind = action["type"]
    if kind not in shapes:
        raise AppError(BAD_ACTION, f"Unknown action {kind!r}.")
    extra = sorted(set(action) - set(shapes[kind]))
    if extra:
        raise AppError(BAD_ACTION, f"Unexpected field(s) for {kind}: {', '.join(map(str, extra))}.")
    return kind


# -- the game ----------------------------------------------------------------------------------------------------
ACTION_SHAPES: dict[str, dict[str, Any]] = {
    "draw_stock": {"type": "draw_stock"},
    "draw_discard": {"type": "draw_discard"},
    "discard": {"type": "discard", "card": "card id"},
    "go_out": {"type": "go_out", "words": [["card id", "card id"]], "card": "card id to discard"},
    "lay_down": {"type": "lay_down", "words": [["card id", "card id"]], "card": "card id to discard"},
    "challenge": {
        "type": "challenge",
        "seat": "seat that laid the word",
        "word": "index of the word in that seat's list",
    },
    "ready": {"type": "ready"},
    "advance": {"type": "advance"},
}


class PalabrasCortas(Game):
    slug = "palabras_cortas"
    title = "Palabras Cortas"
    language = "spa"
    min_players = 2
    max_players = 8
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

    # -- actions ------------------------------------------------------------------------------------------------
    def _apply(self, state: State, seat: int | None, action: dict[str, Any], ctx: Context) -> list[Event]:
        kind = check_shape(action, ACTION_SHAPES)
        if state["phase"] == "finished":
            raise AppError(GAME_OVER, "The game is over.")
        if seat is None:
            if kind != "advance":
                raise AppError(NOT_ALLOWED, "The teacher can only advance the game (to end a challenge review).")
            return self._advance(state)
        if kind == "advance":
            raise AppError(TEACHER_ONLY, "Only the teacher can advance the game.")
        if not isinstance(seat, int) or seat not in active_seats(state):
            raise AppError(NOT_ALLOWED, "That seat is not playing.")
        if kind in ("challenge", "ready"):
            if state["phase"] != "review":
                raise AppError(WRONG_PHASE, "Words can be challenged only in the review after a hand.")
            return self._challenge(state, seat, action, ctx) if kind == "challenge" else self._ready(state, seat)
        if state["phase"] == "review":
            raise AppError(WRONG_PHASE, "The hand is over: challenge words or say you are ready.")
        if state["turn"] != seat:
            raise AppError(NOT_YOUR_TURN, "It is not your turn.")
        if kind in ("draw_stock", "draw_discard"):
            if state["phase"] != "draw":
                raise AppError(WRONG_PHASE, "You have drawn already: now discard.")
            return self._draw_stock(state, seat) if kind == "draw_stock" else self._draw_discard(state, seat)
        if state["phase"] != "discard":
            raise AppError(WRONG_PHASE, "Draw a card first, from the stock or the discard pile.")
        if kind == "go_out":
            if state["went_out"] is not None:
                raise AppError(NOT_ALLOWED, "Someone has gone out already: lay down your words (lay_down).")
            return self._lay(state, seat, action, ctx, going_out=True)
        if kind == "lay_down" or state["went_out"] is not None:
            if state["went_out"] is None:
                raise AppError(
                    NOT_ALLOWED, "Words are laid only to go out, or on your last turn after someone went out."
                )
            return self._lay(state, seat, {**action, "words": action.get("words", [])}, ctx, going_out=False)
        return self._discard(state, seat, action)

    def _draw_stock(self, state: State, seat: int) -> list[Event]:
        events: list[Event] = []
        if not state["stock"]:
            if len(state["discard"]) < 2:
                raise AppError(NOT_ALLOWED, "The stock is empty and the discard pile is only its top card: take it.")
            top = state["discard"].pop()
            state["stock"] = shuffled(state, state["discard"])
            state["discard"] = [top]
            events.append(event("reshuffle", stock=len(state["stock"])))
        card = deal(state["stock"], 1)[0]
        state["hands"][seat].append(card)
        state["phase"] = "discard"
        events.append(private("draw", [seat], {"card": face(self._cards(state), card)}, seat=seat, source="stock"))
        return events

    def _draw_discard(self, state: State, seat: int) -> list[Event]:
        if not state["discard"]:
            raise AppError(NOT_ALLOWED, "The discard pile is empty: draw from the stock.")
        card = state["discard"].pop()
        state["hands"][seat].append(card)
        state["phase"] = "discard"
        return [event("draw", seat=seat, source="discard", card=face(self._cards(state), card))]

    def _discard(self, state: State, seat: int, action: dict[str, Any]) -> list[Event]:
        card = card_id(action.get("card"))
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

    def _lay(self, state: State, seat: int, action: dict[str, Any], ctx: Context, *, going_out: bool) -> list[Event]:
        """Go out, or (after someone went out) take a last turn: lay words, then discard."""
        raw_words = action.get("words")
        if not isinstance(raw_words, list):
            raise AppError(BAD_ACTION, "Give the words as a list of lists of card ids.")
        words = [word_ids(w) for w in raw_words]
        discard = card_id(action.get("card"), "discard")
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
        if going_out:
            state["went_out"] = seat
            state["last_turns"] = [s for s in self._seats_after(state, seat) if s != seat]
            events = [event("went_out", seat=seat, words=records, discard=face(cards, discard))]
        else:
            state["last_turns"].remove(seat)
            events = [event("laid_down", seat=seat, words=records, discard=face(cards, discard), unused=len(hand))]
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
    def _challenge(self, state: State, seat: int, action: dict[str, Any], ctx: Context) -> list[Event]:
        review = state["review"]
        if seat in review["ready"]:
            raise AppError(NOT_ALLOWED, "You said you were ready: no more challenges from you this hand.")
        target, index = action.get("seat"), action.get("word")
        if isinstance(target, bool) or not isinstance(target, int) or not 0 <= target < state["players"]:
            raise AppError(BAD_ACTION, "Name the seat that laid the word.")
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(state["laid"][target]):
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

    def _ready(self, state: State, seat: int) -> list[Event]:
        if seat in state["review"]["ready"]:
            raise AppError(NOT_ALLOWED, "You are ready already.")
        state["review"]["ready"].append(seat)
        events = [event("ready", seat=seat)]
        if all(s in state["review"]["ready"] for s in active_seats(state)):
            events += self._score_hand(state)
        return events

    def _advance(self, state: State) -> list[Event]:
        if state["phase"] != "review":
            raise AppError(WRONG_PHASE, "There is no challenge review to end.")
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
    def actions(self, state: State, seat: int | None) -> list[str]:
        """The action types ``seat`` (``None``: the teacher) may send now."""
        phase = state["phase"]
        if phase == "finished":
            return []
        if seat is None:
            return ["advance"] if phase == "review" else []
        if seat not in active_seats(state):
            return []
        if phase == "review":
            if seat in state["review"]["ready"]:
                return []
            challenged = {(c["seat"], c["word"]) for c in state["review"]["challenges"]}
            open_words = [
                (s, i)
                for s in active_seats(state)
                if s != seat
                for i in range(len(state["laid"][s]))
                if (s, i) not in challenged
            ]
            return ["challenge", "ready"] if open_words else ["ready"]
        if state["turn"] != seat:
            return []
        if phase == "draw":
            can_stock = bool(state["stock"]) or len(state["discard"]) > 1
            return (["draw_stock"] if can_stock else []) + (["draw_discard"] if state["discard"] else [])
        return ["discard", "go_out"] if state["went_out"] is None else ["lay_down", "discard"]

    def encounters(self, state: State, events: list[Event]) -> list[WordEncounter]:
        """Every word laid down is played by its player and seen by the rest of the table."""
        found: list[WordEncounter] = []
        for ev in events:
            if ev["type"] in ("went_out", "laid_down"):
                for word in ev["words"]:
                    key = word.get("key", word["word"])
                    found += played_and_seen(active_seats(state), ev["seat"], key, word["word"])
        return found

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        cards = self._cards(state)
        challenges = state["review"]["challenges"] if state["review"] else []
        by_word = {(c["seat"], c["word"]): c for c in challenges}
        actions = self.actions(state, seat)
        view: dict[str, Any] = {
            "game": self.slug,
            "seat": seat,
            "players": state["players"],
            "removed": list(state["removed"]),
            "options": dict(state["options"]),
            "hand_number": state["hand_number"],
            "hands_in_game": HANDS,
            "hand_size": FIRST_HAND_SIZE + state["hand_number"] - 1,
            "dealer": state["dealer"],
            "turn": state["turn"],
            "phase": state["phase"],
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
            "totals": list(state["totals"]),
            "history": [
                {
                    **hand,
                    "words": [
                        [{**word_record(cards, w["cards"]), "refused": w["refused"]} for w in seat_words]
                        for seat_words in hand["words"]
                    ],
                }
                for hand in state["history"]
            ],
            "winners": self._winners(state) if state["phase"] == "finished" else [],
            "actions": actions,
            "action_shapes": {a: ACTION_SHAPES[a] for a in actions},
        }
        if seat is not None and 0 <= seat < state["players"]:
            view["hand"] = [face(cards, i) for i in state["hands"][seat]]
        return view

    def scores(self, state: State) -> list[int]:
        return list(state["totals"])

    def status(self, state: State) -> Status:
        phase = state["phase"]
        if phase == "finished":
            return Status(phase, (), finished=True, summary=f"Game over: seats {self._winners(state)} win.")
        if phase == "review":
            waiting = tuple(s for s in active_seats(state) if s not in state["review"]["ready"])
            return Status(phase, waiting, summary=f"Hand {state['hand_number']}: challenges, then ready.")
        verb = "draw" if phase == "draw" else "discard"
        last = " (last turn)" if state["went_out"] is not None else ""
        return Status(
            phase,
            (state["turn"],),
            summary=f"Hand {state['hand_number']} of {HANDS}: seat {state['turn']} to {verb}{last}.",
        )


RULES = PalabrasCortas()
