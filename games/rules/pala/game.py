"""Pala (Jeffrey D. Allers): the colour-mixing trick-taking game, as Pointillism or Impressionism.

A round: the whole deck is shuffled and dealt (hands and set-aside cards by player count); bidding from the dealer
(:mod:`.bidding`); tricks, the dealer leading the first and each trick's winner the next (:mod:`.tricks`); the
round ends after a trick when its winner has no cards left or only one player still holds cards; scoring
(:mod:`.scoring`). The dealer passes clockwise each round. Readings where the rulebook is silent are in the
module docstrings and the project's docs (docs/games/pala.md).
"""

from typing import Any

from games.engine import (
    INT,
    INTS,
    LIST,
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
)
from games.engine.cards import deal, shuffled_ids
from games.engine.errors import NOT_ALLOWED, NOT_HELD
from games.engine.game import added_entries
from games.engine.rng import new_rng_state
from games.engine.turns import active_seats, next_seat

from . import scoring
from .bidding import (
    IMPRESSIONISM,
    LEGAL_BIDS,
    POINT_GOAL,
    POINTILLISM,
    THRESHOLD,
    WHITE,
    biddable_cards,
    board_for,
    clean_bid,
    open_slots,
)
from .body import banks_visible_to, board_map, trick_view
from .body import body as body_of
from .deck import COLOURS, DECK, HAND_SIZE, SET_ASIDE, colour, face, value
from .names import CHOICES as LANGUAGE_CHOICES
from .names import LANGUAGES
from .tricks import (
    COPY,
    JUNK,
    LEAD,
    MIX,
    SMEAR,
    add_play,
    award_card,
    legal_plays,
    new_trick,
    next_to_play,
    trick_cards,
)

BID, PLAY, TIE, CANCEL, OVER = "bid", "play", "tie", "cancel", "over"
MIN_TO_DEAL = 3


class Pala(Game):
    slug = "pala"
    title = "Pala"
    fixed = ("variant", "names", "goal")  # from the options and the number of players
    record = "history"  # the rounds scored: a row per round, sent to pages as rounds are scored
    language = ""  # no words: colour names come from the card_language option, so any class may play
    min_players = 3
    max_players = 5
    renderer = "pala"
    stylesheet = "games/pala.css"
    options = (
        Option(
            "variant",
            "Variant",
            "choice",
            POINTILLISM,
            choices=(
                (POINTILLISM, "Pointillism: bid colours, win tricks, highest score wins"),
                (IMPRESSIONISM, "Impressionism: the bid board prices colours, lowest score wins"),
            ),
        ),
        Option(
            "card_language",
            "Colour names and numbers on the cards",
            "choice",
            "eng",
            choices=LANGUAGE_CHOICES,
            follows_class_language=True,
        ),
        Option(
            "ties",
            "Ties",
            "choice",
            "ask",
            choices=(
                ("ask", "The tied player chooses to win or lose the tie"),
                ("auto", "Automatic: win ties in Pointillism, lose them in Impressionism"),
            ),
        ),
        Option(
            "cancels",
            "Impressionism's Cancel cards",
            "choice",
            "choose",
            choices=(("choose", "Each player chooses what to cancel"), ("auto", "Automatic: the dearest cards")),
        ),
        Option(
            "five_player_board",
            "Impressionism bid board for 5 players",
            "choice",
            "one",
            choices=(("one", "+Face, +1, +1, +0, Cancel"), ("two", "+Face, +2, +1, +0, Cancel")),
        ),
        Option(
            "banks",
            "Banked cards",
            "choice",
            "open",
            choices=(("open", "Face up: everyone sees them"), ("hidden", "Face down, as in the rulebook")),
        ),
        Option("rounds", "Rounds (0: play to the rulebook's score)", "int", 0, low=0, high=30),
    )

    # -- setting up ------------------------------------------------------------------------------
    def _new(self, players: int, options: dict[str, Any], seed: int) -> tuple[State, list[Event]]:
        state: State = {
            "players": players,
            "options": options,
            "rng": new_rng_state(seed),
            "removed": [],
            "round": 0,
            "dealer": 0,
            "phase": BID,
            "hands": [[] for _ in range(players)],
            "aside": [],
            "discard": list(range(len(DECK))),
            "bids": [None] * players,
            "bid_turn": None,
            "passes": 0,
            "board": [],
            "trick": None,
            "turn": None,
            "tie": None,
            "banks": [[] for _ in range(players)],
            "won": [[] for _ in range(players)],
            "last_trick": None,
            "cancel_pending": {},
            "cancelled": {},
            "totals": [0] * players,
            "history": [],
            "finished": False,
            "end_reason": None,
        }
        events: list[Event] = []
        self._deal(state, events)
        return state, events

    def _deal(self, state: State, events: list[Event]) -> None:
        """A new round: every card back, a full reshuffle, hands and set-aside cards by the players at the table."""
        seats = active_seats(state)
        count = len(seats)
        state["round"] += 1
        state["discard"] = []
        pile = shuffled_ids(state, list(DECK))
        state["hands"] = [[] for _ in range(state["players"])]
        for seat in seats:
            state["hands"][seat] = sorted(deal(pile, HAND_SIZE[count]), key=_card_order)
        state["aside"] = deal(pile, SET_ASIDE[count])
        state["discard"] = pile  # empty: the deck is dealt out exactly
        state.update(
            bids=[None] * state["players"],
            passes=0,
            board=(
                [{"slot": slot, "card": None} for slot in board_for(count, state["options"]["five_player_board"])]
                if self._impressionism(state)
                else []
            ),
            trick=None,
            turn=None,
            tie=None,
            banks=[[] for _ in range(state["players"])],
            won=[[] for _ in range(state["players"])],
            last_trick=None,
            cancel_pending={},
            cancelled={},
            phase=BID,
            bid_turn=state["dealer"],
        )
        events.append(event("deal", round=state["round"], dealer=state["dealer"], hand_size=HAND_SIZE[count]))
        events.extend(private("dealt", [s], {"cards": list(state["hands"][s])}, seat=s) for s in seats)
        if self._impressionism(state):
            self._next_board_bidder(state, state["dealer"], events, include_self=True)

    @staticmethod
    def _impressionism(state: State) -> bool:
        return bool(state["options"]["variant"] == IMPRESSIONISM)

    def _names(self, state: State) -> dict[str, Any]:
        return LANGUAGES[state["options"]["card_language"]]

    # -- Pointillism bidding ---------------------------------------------------------------------
    def _pointillism_bidding(self, state: State, seat: int) -> None:
        if self._impressionism(state):
            raise AppError(NOT_ALLOWED, "Impressionism bids on the bid board, with a card.")

    def _chip_choices(self, state: State, seat: int) -> dict[str, Any]:
        return {"colours": [list(b) for b in LEGAL_BIDS]}

    @action(
        "bid",
        phases=(BID,),
        actor=TURN,
        fields=(Field("colours", LIST, max_items=7, help='colour chips, or ["white"] for a null bid'),),
        allowed="_pointillism_bidding",
        choices="_chip_choices",
        label="Bid",
    )
    def _bid(self, state: State, seat: int, action: dict[str, Any], ctx: Context) -> list[Event]:
        chips = clean_bid(action["colours"])
        state["bids"][seat] = chips
        events = [event("bid", seat=seat, chips=chips)]
        waiting = [s for s in self._order_from(state, state["dealer"]) if state["bids"][s] is None]
        if waiting:
            state["bid_turn"] = waiting[0]
        else:
            self._start_play(state, events)
        return events

    # -- Impressionism bidding -------------------------------------------------------------------
    def _board_bidding(self, state: State, seat: int) -> None:
        if not self._impressionism(state):
            raise AppError(NOT_ALLOWED, "Pointillism bids with colour chips.")

    def _can_place(self, state: State, seat: int) -> None:
        self._board_bidding(state, seat)
        if not biddable_cards(state["hands"][seat], state["board"]):
            raise AppError(NOT_ALLOWED, "You hold no colour that is not on the board yet.")

    def _place_choices(self, state: State, seat: int) -> dict[str, Any]:
        return {"card": biddable_cards(state["hands"][seat], state["board"]), "slot": open_slots(state["board"])}

    @action(
        "place",
        phases=(BID,),
        actor=TURN,
        fields=(Field("card", INT), Field("slot", INT)),
        allowed="_can_place",
        choices="_place_choices",
        label="Put on the board",
    )
    def _place(self, state: State, seat: int, action: dict[str, Any], ctx: Context) -> list[Event]:
        card, slot = action["card"], action["slot"]
        if card not in state["hands"][seat]:
            raise AppError(NOT_HELD, "You do not hold that card.")
        if card not in biddable_cards(state["hands"][seat], state["board"]):
            raise AppError(NOT_ALLOWED, f"{colour(card).capitalize()} is already on the board.")
        if slot not in open_slots(state["board"]):
            raise AppError(NOT_ALLOWED, "That slot is not open.")
        state["hands"][seat].remove(card)
        state["board"][slot]["card"] = card
        state["passes"] = 0
        events = [event("placed", seat=seat, card=card, slot=state["board"][slot]["slot"], colour=colour(card))]
        self._next_board_bidder(state, seat, events)
        return events

    def _can_pass(self, state: State, seat: int) -> None:
        self._board_bidding(state, seat)
        if state["passes"] >= len(active_seats(state)) - 1:
            raise AppError(NOT_ALLOWED, "Everyone else has passed since the last bid: put a card on the board.")

    @action("pass", phases=(BID,), actor=TURN, allowed="_can_pass", label="Pass")
    def _pass(self, state: State, seat: int, action: dict[str, Any], ctx: Context) -> list[Event]:
        state["passes"] += 1
        events = [event("passed", seat=seat)]
        self._next_board_bidder(state, seat, events)
        return events

    def _next_board_bidder(self, state: State, after: int, events: list[Event], include_self: bool = False) -> None:
        """The next player able to bid, skipping (as passes) those with no colour left to bid; play starts when the
        board is full or nobody can bid any more."""
        if not open_slots(state["board"]):
            self._start_play(state, events)
            return
        order = self._order_from(state, after)
        if not include_self:
            order = order[1:] + order[:1]
        for seat in order:
            if biddable_cards(state["hands"][seat], state["board"]):
                state["bid_turn"] = seat
                return
            state["passes"] += 1
        events.append(event("board_closed", open_slots=len(open_slots(state["board"]))))
        self._start_play(state, events)

    # -- tricks ----------------------------------------------------------------------------------
    def _start_play(self, state: State, events: list[Event]) -> None:
        state["bid_turn"] = None
        state["phase"] = PLAY
        leader = state["dealer"]
        if leader not in self._holders(state):
            leader = next((s for s in self._order_from(state, leader) if state["hands"][s]), leader)
        self._start_trick(state, leader, events)

    def _holders(self, state: State) -> list[int]:
        return [s for s in active_seats(state) if state["hands"][s]]

    def _order_from(self, state: State, first: int) -> list[int]:
        """Active seats clockwise from ``first`` (or from the next active seat if ``first`` has left)."""
        seats = active_seats(state)
        if not seats:
            return []
        start = first if first in seats else next_seat(state, first)
        order = [start]
        while len(order) < len(seats):
            order.append(next_seat(state, order[-1]))
        return order

    def _start_trick(self, state: State, leader: int, events: list[Event]) -> None:
        order = [s for s in self._order_from(state, leader) if state["hands"][s]]
        state["trick"] = new_trick(leader, order)
        state["turn"] = leader
        events.append(event("trick_start", leader=leader))

    def _legal(self, state: State, seat: int) -> dict[str, list[Any]]:
        return legal_plays(state["hands"][seat], state["trick"])

    def _open(self, kind: str, state: State, seat: int) -> None:
        if kind not in self._legal(state, seat):
            raise AppError(NOT_ALLOWED, _WHY_NOT[kind])

    def _can_lead(self, state: State, seat: int) -> None:
        self._open(LEAD, state, seat)

    def _can_copy(self, state: State, seat: int) -> None:
        self._open(COPY, state, seat)

    def _can_junk(self, state: State, seat: int) -> None:
        self._open(JUNK, state, seat)

    def _can_mix(self, state: State, seat: int) -> None:
        self._open(MIX, state, seat)

    def _can_smear(self, state: State, seat: int) -> None:
        self._open(SMEAR, state, seat)

    def _lead_choices(self, state: State, seat: int) -> dict[str, Any]:
        return {"card": self._legal(state, seat).get(LEAD, [])}

    def _copy_choices(self, state: State, seat: int) -> dict[str, Any]:
        return {"card": self._legal(state, seat).get(COPY, [])}

    def _junk_choices(self, state: State, seat: int) -> dict[str, Any]:
        return {"card": self._legal(state, seat).get(JUNK, [])}

    def _mix_choices(self, state: State, seat: int) -> dict[str, Any]:
        return {"cards": self._legal(state, seat).get(MIX, [])}

    def _smear_choices(self, state: State, seat: int) -> dict[str, Any]:
        return {"cards": self._legal(state, seat).get(SMEAR, [])}

    @action("lead", phases=(PLAY,), actor=TURN, fields=(Field("card", INT),), allowed="_can_lead",
            choices="_lead_choices", label="Lead")  # fmt: skip
    def _lead(self, state: State, seat: int, action: dict[str, Any], ctx: Context) -> list[Event]:
        return self._play(state, seat, LEAD, [action["card"]])

    @action("copy", phases=(PLAY,), actor=TURN, fields=(Field("card", INT),), allowed="_can_copy",
            choices="_copy_choices", label="Copy")  # fmt: skip
    def _copy(self, state: State, seat: int, action: dict[str, Any], ctx: Context) -> list[Event]:
        return self._play(state, seat, COPY, [action["card"]])

    @action("junk", phases=(PLAY,), actor=TURN, fields=(Field("card", INT),), allowed="_can_junk",
            choices="_junk_choices", label="Junk")  # fmt: skip
    def _junk(self, state: State, seat: int, action: dict[str, Any], ctx: Context) -> list[Event]:
        return self._play(state, seat, JUNK, [action["card"]])

    @action("mix", phases=(PLAY,), actor=TURN, fields=(Field("cards", INTS, max_items=2),), allowed="_can_mix",
            choices="_mix_choices", label="Mix")  # fmt: skip
    def _mix(self, state: State, seat: int, action: dict[str, Any], ctx: Context) -> list[Event]:
        return self._play(state, seat, MIX, list(action["cards"]))

    @action("smear", phases=(PLAY,), actor=TURN, fields=(Field("cards", INTS, max_items=2),), allowed="_can_smear",
            choices="_smear_choices", label="Smear")  # fmt: skip
    def _smear(self, state: State, seat: int, action: dict[str, Any], ctx: Context) -> list[Event]:
        return self._play(state, seat, SMEAR, list(action["cards"]))

    def _play(self, state: State, seat: int, kind: str, cards: list[int]) -> list[Event]:
        legal = self._legal(state, seat)[kind]
        wanted = cards[0] if kind in (LEAD, COPY, JUNK) else cards
        if wanted not in legal:
            if any(c not in state["hands"][seat] for c in cards):
                raise AppError(NOT_HELD, "You do not hold that card.")
            raise AppError(NOT_ALLOWED, _WHY_NOT[kind])
        for card in cards:
            state["hands"][seat].remove(card)
        trick = state["trick"]
        onto = trick["best"] if kind == SMEAR else None
        tied_with = add_play(trick, seat, kind, cards)
        events = [
            event(
                "played",
                seat=seat,
                kind=kind,
                cards=[face(c, with_id=False) for c in cards],
                onto=onto,
                colour=trick["colour"],
                winning=trick["best"],
            )
        ]
        if tied_with is not None:
            if state["options"]["ties"] == "auto":
                win = not self._impressionism(state)
                events.append(self._settle_tie(state, seat, tied_with, win))
            else:
                state["tie"] = {"seat": seat, "with": tied_with}
                state["phase"] = TIE
                state["turn"] = seat
                events.append(event("tie", seat=seat, tied_with=tied_with))
                return events
        self._advance(state, events)
        return events

    def _settle_tie(self, state: State, seat: int, other: int, win: bool) -> Event:
        state["trick"]["best"] = seat if win else other
        state["tie"] = None
        state["phase"] = PLAY
        return event("tie_decided", seat=seat, win=win, winning=state["trick"]["best"])

    @action("win_tie", phases=(TIE,), actor=TURN, label="Win the tie")
    def _win_tie(self, state: State, seat: int, action: dict[str, Any], ctx: Context) -> list[Event]:
        events = [self._settle_tie(state, seat, state["tie"]["with"], True)]
        self._advance(state, events)
        return events

    @action("lose_tie", phases=(TIE,), actor=TURN, label="Lose the tie")
    def _lose_tie(self, state: State, seat: int, action: dict[str, Any], ctx: Context) -> list[Event]:
        events = [self._settle_tie(state, seat, state["tie"]["with"], False)]
        self._advance(state, events)
        return events

    def _advance(self, state: State, events: list[Event]) -> None:
        """The next player of the trick, or the trick awarded (and the next trick, or the round's end)."""
        nxt = next_to_play(state["trick"])
        if nxt is not None:
            state["turn"] = nxt
            return
        trick = state["trick"]
        winner, cards = trick["best"], trick_cards(trick)
        shown = trick_view(trick)
        if self._impressionism(state):
            state["banks"][winner].extend(cards)
            banked = list(cards)
        else:
            banked = [award_card(trick)]
            state["banks"][winner].extend(banked)
            state["discard"].extend(c for c in cards if c not in banked)
        state["won"][winner].append(trick["colour"])
        for play in (shown or {}).get("plays", []):  # the finished trick is shown without ids: its cards moved on
            play["cards"] = [{k: v for k, v in c.items() if k != "id"} for c in play["cards"]]
            if play["daub"] is not None:
                play["daub"] = {k: v for k, v in play["daub"].items() if k != "id"}
        state["last_trick"] = {**(shown or {}), "winner": winner, "banked": [face(c, with_id=False) for c in banked]}
        state["trick"] = None
        state["turn"] = None
        events.append(
            event("trick_won", seat=winner, colour=trick["colour"], banked=[face(c, with_id=False) for c in banked])
        )
        if not state["hands"][winner] or len(self._holders(state)) <= 1 or winner not in active_seats(state):
            self._end_round(state, events)
        else:
            self._start_trick(state, winner, events)

    # -- the end of a round ----------------------------------------------------------------------
    def _end_round(self, state: State, events: list[Event]) -> None:
        state["trick"] = None
        if not self._impressionism(state):
            self._finish_round(state, events)
            return
        board = board_map(state)
        for seat in active_seats(state):
            pile = state["banks"][seat] + state["hands"][seat]
            need, others = scoring.cancel_count(pile, board)
            if need == 0:
                state["cancelled"][str(seat)] = []
            elif need == len(others):
                state["cancelled"][str(seat)] = list(others)
            elif state["options"]["cancels"] == "auto":
                state["cancelled"][str(seat)] = scoring.best_cancels(others, need, board)
            else:
                state["cancel_pending"][str(seat)] = need
        if state["cancel_pending"]:
            state["phase"] = CANCEL
            events.append(event("choose_cancels", seats=sorted(int(s) for s in state["cancel_pending"])))
        else:
            self._finish_round(state, events)

    def _cancel_choices(self, state: State, seat: int) -> dict[str, Any]:
        pile = state["banks"][seat] + state["hands"][seat]
        return {"cards": scoring.cancel_count(pile, board_map(state))[1]}

    @action(
        "cancel",
        phases=(CANCEL,),
        actor=TURN,
        fields=(Field("cards", INTS, max_items=48, help="the cards your Cancel cards remove"),),
        choices="_cancel_choices",
        label="Cancel these cards",
    )
    def _cancel(self, state: State, seat: int, action: dict[str, Any], ctx: Context) -> list[Event]:
        need, others = scoring.cancel_count(state["banks"][seat] + state["hands"][seat], board_map(state))
        cards = list(action["cards"])
        if len(set(cards)) != len(cards) or any(c not in others for c in cards):
            raise AppError(NOT_ALLOWED, "Cancel only cards of your score pile in a counted colour, each once.")
        if len(cards) != need:
            raise AppError(NOT_ALLOWED, f"Your Cancel cards remove exactly {need} card{'s' if need != 1 else ''}.")
        state["cancelled"][str(seat)] = cards
        del state["cancel_pending"][str(seat)]
        events = [event("cancelled", seat=seat, count=len(cards))]
        if not state["cancel_pending"]:
            self._finish_round(state, events)
        return events

    def _finish_round(self, state: State, events: list[Event]) -> None:
        players = state["players"]
        points: list[int] = [0] * players
        details: list[dict[str, Any] | None] = [None] * players  # None for a seat out of the game
        board = board_map(state)
        for seat in active_seats(state):
            if self._impressionism(state):
                pile = state["banks"][seat] + state["hands"][seat]
                detail = scoring.impressionism(pile, board, state["cancelled"].get(str(seat), []))
            else:
                detail = scoring.pointillism(state["bids"][seat], state["won"][seat], players)
            points[seat], details[seat] = detail["points"], detail
        for seat in range(players):
            state["discard"].extend(state["hands"][seat] + state["banks"][seat])
            state["hands"][seat], state["banks"][seat] = [], []
        state["discard"].extend(state["aside"])
        state["discard"].extend(s["card"] for s in state["board"] if s["card"] is not None)
        state["aside"] = []
        for slot in state["board"]:
            slot["card"] = None
        state["history"].append(
            {
                "round": state["round"],
                "dealer": state["dealer"],
                "points": points,
                "details": details,
                "board": [{"slot": slot, "colour": c} for c, slot in board.items()],
            }
        )
        for seat in active_seats(state):
            state["totals"][seat] += points[seat]
            events.append(score(seat, points[seat], f"round {state['round']}", round=state["round"]))
        state["cancel_pending"], state["cancelled"] = {}, {}
        events.append(event("round_scored", round=state["round"], points=points))
        reason = self._game_end(state)
        if reason:
            self._finish(state, reason, events)
            return
        state["dealer"] = next_seat(state, state["dealer"])
        self._deal(state, events)

    def _game_end(self, state: State) -> str | None:
        seats = active_seats(state)
        rounds = state["options"]["rounds"]
        if rounds and state["round"] >= rounds:
            return f"{rounds} round{'s' if rounds != 1 else ''} played"
        if self._impressionism(state):
            line = THRESHOLD[state["players"]]
            if any(state["totals"][s] >= line for s in seats):
                return f"a player reached {line} points"
        else:
            line = POINT_GOAL[state["players"]]
            if any(state["totals"][s] >= line for s in seats):
                return f"a player reached the goal of {line} points"
        if len(seats) < MIN_TO_DEAL:
            return "too few players left to deal another round"
        return None

    def _finish(self, state: State, reason: str, events: list[Event]) -> None:
        state.update(finished=True, phase=OVER, end_reason=reason, trick=None, turn=None, bid_turn=None, tie=None)
        events.append(event("game_over", reason=reason, winners=self.winners(state, self.scores(state))))

    # -- removal ---------------------------------------------------------------------------------
    def _after_removal(self, state: State, seat: int, ctx: Context) -> list[Event]:
        events = [event("player_removed", seat=seat)]
        if state["finished"]:
            return events
        state["discard"].extend(state["hands"][seat])
        state["hands"][seat] = []
        state["cancel_pending"].pop(str(seat), None)
        if len(active_seats(state)) < 2:
            self._finish(state, "too few players left", events)
            return events
        phase = state["phase"]
        if phase == BID and not self._impressionism(state):
            waiting = [s for s in self._order_from(state, state["dealer"]) if state["bids"][s] is None]
            if waiting:
                state["bid_turn"] = waiting[0]
            else:
                self._start_play(state, events)
        elif phase == BID:
            if state["bid_turn"] == seat:
                self._next_board_bidder(state, next_seat(state, seat), events, include_self=True)
        elif phase in (PLAY, TIE):
            self._resume_trick(state, seat, events)
        elif phase == CANCEL and not state["cancel_pending"]:
            self._finish_round(state, events)
        return events

    def _resume_trick(self, state: State, seat: int, events: list[Event]) -> None:
        trick = state["trick"]
        tie = state["tie"]
        if tie is not None and seat in (tie["seat"], tie["with"]):
            # The one who left loses the tie (the tied player wins it if the other one left).
            events.append(self._settle_tie(state, tie["seat"], tie["with"], win=seat == tie["with"]))
        if not trick["plays"]:
            holders = self._holders(state)
            if len(holders) <= 1:
                self._end_round(state, events)
            elif trick["leader"] == seat:
                leader = next(s for s in self._order_from(state, seat) if state["hands"][s])
                self._start_trick(state, leader, events)
            else:
                trick["order"] = [s for s in trick["order"] if s != seat]
            return
        if seat not in {p["seat"] for p in trick["plays"]}:
            trick["order"] = [s for s in trick["order"] if s != seat]
        if state["phase"] == PLAY:
            self._advance(state, events)

    # -- the view --------------------------------------------------------------------------------
    def body(self, state: State, seat: int | None) -> dict[str, Any]:
        return body_of(state, seat)

    def record_row(self, state: State, index: int, seat: int | None) -> dict[str, Any]:
        """A scored round, public: its points and how each seat's were made, and the bid board it was played on."""
        return state["history"][index]

    def changed_rows(self, before: State, after: State) -> list[int] | None:
        """A round's row is set when the round is scored and never changes: the rounds the move scored."""
        return added_entries(before["history"], after["history"])

    def scores(self, state: State) -> Scores:
        total = list(state["totals"])
        last = list(state["history"][-1]["points"]) if state["history"] else [0] * state["players"]
        earlier = [t - p for t, p in zip(total, last, strict=True)]
        return Scores(total, parts={"earlier rounds": earlier, "last round": last})

    def winners(self, state: State, scores: Scores) -> list[int]:
        seats = active_seats(state) or list(range(state["players"]))
        best = (min if self._impressionism(state) else max)(scores.total[s] for s in seats)
        return [s for s in seats if scores.total[s] == best]

    def status(self, state: State) -> Status:
        phase = state["phase"]
        round_no = state["round"]
        if state["finished"]:
            return Status(OVER, (), finished=True, summary=f"Game over after round {round_no}: {state['end_reason']}.")
        if phase == BID:
            return Status(BID, (state["bid_turn"],), summary=f"Round {round_no}: bidding.")
        if phase == TIE:
            return Status(TIE, (state["tie"]["seat"],), summary=f"Round {round_no}: a tie to settle.")
        if phase == CANCEL:
            seats = tuple(sorted(int(s) for s in state["cancel_pending"]))
            return Status(CANCEL, seats, summary=f"Round {round_no}: choosing what to cancel.")
        return Status(PLAY, (state["turn"],), summary=f"Round {round_no}: tricks.")

    def places(self, state: State) -> dict[str, list[int]]:
        found = {
            "aside": list(state["aside"]),
            "discard": list(state["discard"]),
            "board": [s["card"] for s in state["board"] if s["card"] is not None],
            "trick": trick_cards(state["trick"]) if state["trick"] else [],
        }
        for seat in range(state["players"]):
            found[f"hand {seat}"] = list(state["hands"][seat])
            found[f"bank {seat}"] = list(state["banks"][seat])
        return found

    def visible_pieces(self, state: State, seat: int | None) -> set[int]:
        seen = {s["card"] for s in state["board"] if s["card"] is not None}
        if state["trick"]:
            seen.update(trick_cards(state["trick"]))
        if seat is not None:
            seen.update(state["hands"][seat])
        for owner in banks_visible_to(state, seat):
            seen.update(state["banks"][owner])
        return seen

    def describe_move(self, state: State, seat: int | None, action: dict[str, Any], public_events: list[Event]) -> str:
        names = self._names(state)["colours"]

        def card(shown: dict[str, Any]) -> str:
            return f"{names[shown['colour']]} {shown['value']}"

        kind = action["type"]
        played = next((e for e in public_events if e["type"] == "played"), None)
        if kind == "bid":
            chips = next(e["chips"] for e in public_events if e["type"] == "bid")
            if chips == [WHITE]:
                return f"bid null (the {names[WHITE]} chip)"
            return "bid " + ", ".join(names[c] for c in chips)
        if kind == "place":
            placed = next(e for e in public_events if e["type"] == "placed")
            slot = self._names(state)["slots"][placed["slot"]]
            return f"put {names[placed['colour']]} on {slot}"
        if kind == "pass":
            return "passed"
        if played is not None:
            cards = played["cards"]
            if kind == MIX:
                total = sum(c["value"] for c in cards)
                return f"mixed {card(cards[0])} and {card(cards[1])} into {names[played['colour']]} {total}"
            if kind == SMEAR:
                return f"smeared {card(cards[0])} onto the winning card and played {card(cards[1])}"
            verb = {LEAD: "led", COPY: "copied with", JUNK: "junked"}[kind]
            return f"{verb} {card(cards[0])}"
        if kind in ("win_tie", "lose_tie"):
            return "won the tie" if kind == "win_tie" else "lost the tie"
        if kind == "cancel":
            return "chose what to cancel"
        return kind.replace("_", " ")


_WHY_NOT = {
    LEAD: "You do not lead this trick.",
    COPY: "You have no card of the trick's colour to copy with.",
    JUNK: "You must copy while you hold the trick's colour.",
    MIX: "Mix two primaries into the colour of a secondary trick.",
    SMEAR: (
        "Smear only on a primary trick you cannot copy, with another primary and the secondary the two make "
        "(and never with your last card)."
    ),
}


def _card_order(card: int) -> tuple[int, int, int]:
    return (COLOURS.index(colour(card)), value(card), card)
