"""Pablo, the memory card game: the actions of a round, declared for the engine.

A round: everyone looks at two of their four face-down cards (``first_look``, then ``ready``); then in turn each
player ``draw``s and ``keep``s the card (replacing one of theirs, which is discarded face up), ``discard``s it, or
discards it with a field card of the same rank (``pair``). A 10, jack, queen or king drawn and discarded acts:
``peek`` (10), ``spy`` (J), ``swap`` (Q, compulsory), ``look`` then ``swap`` or not (K); ``skip`` passes an
optional action. At the end of the turn the player may ``call`` Pablo or ``end_turn``. At any time in play any
player may ``match`` the top of the discard pile. After the reveal the round's loser ``deal``s the next round.
The readings where the rulebook is silent are in the module docstrings and the game's documentation.
"""

from typing import Any

from games.engine import INT, PLAYER, TURN, AppError, Context, Event, Field, Game, Option, Scores, State, Status
from games.engine import action as declare
from games.engine.errors import BAD_ACTION, NOT_ALLOWED, NOT_HELD
from games.engine.events import event, private
from games.engine.rng import new_rng_state
from games.engine.turns import active_seats, next_seat

from . import rounds, view
from .deck import KING, PEEK, SPY, SWAP, face, rank, special
from .table import (
    card_at,
    draw_card,
    field_cards,
    forget_where,
    own_slots,
    protected,
    show,
    targets,
    to_discard,
)
from .words import LANGUAGES

PLAY_PHASES = ("draw", "decide", "ten", "jack", "queen", "king", "end")
SPECIAL_PHASES = {PEEK: "ten", SPY: "jack", SWAP: "queen", KING: "king"}
TOO_LATE = "too_late"
Action = dict[str, Any]


class Pablo(Game):
    slug = "pablo"
    title = "Pablo"
    language = ""  # no lexicon: a Pablo lesson can be played in any class
    min_players = 2
    max_players = 6
    renderer = "pablo"
    stylesheet = "games/pablo.css"
    high_score_wins = False
    piece_fields = ("card", "cards")
    options = (
        Option(
            "reminders",
            "Remind players of the cards they have seen (for young classes)",
            "bool",
            False,
            help="Off: a card you look at is shown only until your next action, as at a real table.",
        ),
        Option(
            "number_words",
            "Card values and scores in words",
            "choice",
            "",
            choices=(("", "No, digits"), *((code, words.label) for code, words in LANGUAGES.items())),
        ),
        Option(
            "empty_field_queen",
            "Advanced rule: a player with no cards who discards a queen takes a card",
            "bool",
            False,
        ),
    )

    # -- setting up ----------------------------------------------------------------------------------------
    def _new(self, players: int, options: dict[str, Any], seed: int) -> tuple[State, list[Event]]:
        state: State = {
            "players": players,
            "options": options,
            "rng": new_rng_state(seed),
            "removed": [],
            "round": 0,
            "parts": {"cards": [0] * players, "penalty": [0] * players, "reset": [0] * players},
            "results": [],
            "finished": False,
            "next_starter": None,
        }
        events: list[Event] = []
        starter = rounds.roll_off(state, list(range(players)), "starts", events)
        rounds.deal(state, starter, None, events)
        return state, events

    # -- the first look ------------------------------------------------------------------------------------
    def _can_first_look(self, state: State, seat: int) -> None:
        if len(state["first_looks"][seat]) >= 2:
            raise AppError(NOT_ALLOWED, "You have looked at two cards already.")

    def _first_look_choices(self, state: State, seat: int) -> dict[str, Any]:
        return {"slot": [i for i in own_slots(state, seat) if i not in state["first_looks"][seat]]}

    @declare(
        "first_look",
        phases=("peek",),
        actor=TURN,
        fields=(Field("slot", INT),),
        allowed="_can_first_look",
        choices="_first_look_choices",
        label="Look at a card",
    )
    def _first_look(self, state: State, seat: int, action: Action, ctx: Context) -> list[Event]:
        slot = action["slot"]
        card = self._own_card(state, seat, slot)
        if slot in state["first_looks"][seat]:
            raise AppError(NOT_ALLOWED, "You looked at that card already: choose another.")
        state["first_looks"][seat].append(slot)
        show(state, seat, card)
        return [private("looked", [seat], face(card), seat=seat, owner=seat, slot=slot)]

    @declare("ready", phases=("peek",), actor=TURN, label="I remember them")
    def _ready(self, state: State, seat: int, action: Action, ctx: Context) -> list[Event]:
        state["glimpse"][seat] = []
        state["ready"][seat] = True
        events = [event("ready", seat=seat)]
        self._start_play_if_ready(state, events)
        return events

    def _start_play_if_ready(self, state: State, events: list[Event]) -> None:
        if all(state["ready"][s] for s in active_seats(state)):
            state["phase"] = "draw"
            events.append(event("turn", seat=state["turn"]))

    # -- a turn --------------------------------------------------------------------------------------------
    @declare("draw", phases=("draw",), actor=TURN, label="Draw a card")
    def _draw(self, state: State, seat: int, action: Action, ctx: Context) -> list[Event]:
        events = self._begin(state, seat)
        card = draw_card(state, events)
        if card is None:
            events.append(event("no_cards_left"))
            rounds.end_round(state, events)
            return events
        state["held"] = card
        state["phase"] = "decide"
        events.append(private("drew", [seat], face(card), seat=seat))
        return events

    def _has_cards(self, state: State, seat: int) -> None:
        if not field_cards(state, seat):
            raise AppError(NOT_HELD, "You have no cards in your field.")

    def _own_choices(self, state: State, seat: int) -> dict[str, Any]:
        return {"slot": own_slots(state, seat)}

    @declare(
        "keep",
        phases=("decide",),
        actor=TURN,
        fields=(Field("slot", INT),),
        allowed="_has_cards",
        choices="_own_choices",
        label="Keep it",
    )
    def _keep(self, state: State, seat: int, action: Action, ctx: Context) -> list[Event]:
        old = self._own_card(state, seat, action["slot"])
        events = self._begin(state, seat)
        new = state["held"]
        state["fields"][seat][action["slot"]] = new
        state["held"] = None
        to_discard(state, old, open_match=True)
        show(state, seat, new)
        events.append(event("kept", seat=seat, slot=action["slot"], **face(old)))
        self._turn_done(state, events)
        return events

    @declare("discard", phases=("decide",), actor=TURN, label="Discard it")
    def _discard(self, state: State, seat: int, action: Action, ctx: Context) -> list[Event]:
        events = self._begin(state, seat)
        card = state["held"]
        state["held"] = None
        to_discard(state, card, open_match=True)
        events.append(event("discarded", seat=seat, **face(card)))
        kind = special(card)
        if kind is None:
            self._turn_done(state, events)
        else:
            self._start_special(state, seat, kind, events)
        return events

    @declare(
        "pair",
        phases=("decide",),
        actor=TURN,
        fields=(Field("slot", INT),),
        allowed="_has_cards",
        choices="_own_choices",
        label="Discard it with a pair from my field",
    )
    def _pair(self, state: State, seat: int, action: Action, ctx: Context) -> list[Event]:
        slot = action["slot"]
        card = self._own_card(state, seat, slot)
        events = self._begin(state, seat)
        held = state["held"]
        if rank(card) != rank(held):
            self._wrong_match(state, seat, seat, slot, events)
            return events
        state["fields"][seat][slot] = None
        state["held"] = None
        to_discard(state, card, open_match=False)
        to_discard(state, held, open_match=False)
        state["matched_by"] = seat
        events.append(event("paired", seat=seat, slot=slot, field_card=face(card), **face(held)))
        self._turn_done(state, events)
        return events

    # -- special cards -------------------------------------------------------------------------------------
    def _start_special(self, state: State, seat: int, kind: str, events: list[Event]) -> None:
        own = bool(field_cards(state, seat))
        possible = {
            PEEK: own,
            SPY: bool(targets(state, seat, swappable=False)),
            SWAP: own and bool(targets(state, seat, swappable=True)),
            KING: bool(targets(state, seat, swappable=True)),
        }[kind]
        if possible:
            state["special"] = kind
            state["phase"] = SPECIAL_PHASES[kind]
            return
        if kind == SWAP and not own and state["options"]["empty_field_queen"]:
            events.append(event("queen_penalty", seat=seat))
            self._penalty(state, seat, events)
        else:
            events.append(event("no_action", seat=seat, special=kind))
        self._turn_done(state, events)

    @declare(
        "peek",
        phases=("ten",),
        actor=TURN,
        fields=(Field("slot", INT),),
        allowed="_has_cards",
        choices="_own_choices",
        label="Peek at one of your cards",
    )
    def _peek(self, state: State, seat: int, action: Action, ctx: Context) -> list[Event]:
        card = self._own_card(state, seat, action["slot"])
        events = self._begin(state, seat)
        show(state, seat, card)
        events.append(private("peeked", [seat], face(card), seat=seat, owner=seat, slot=action["slot"]))
        self._turn_done(state, events)
        return events

    def _spy_choices(self, state: State, seat: int) -> dict[str, Any]:
        return self._target_choices(state, targets(state, seat, swappable=False))

    def _can_spy(self, state: State, seat: int) -> None:
        if not targets(state, seat, swappable=False):
            raise AppError(NOT_ALLOWED, "No other player has a card to spy on.")

    @declare(
        "spy",
        phases=("jack",),
        actor=TURN,
        fields=(Field("owner", INT), Field("slot", INT)),
        allowed="_can_spy",
        choices="_spy_choices",
        label="Spy on another player's card",
    )
    def _spy(self, state: State, seat: int, action: Action, ctx: Context) -> list[Event]:
        owner, slot = action["owner"], action["slot"]
        card = self._other_card(state, seat, owner, slot, swappable=False)
        events = self._begin(state, seat)
        show(state, seat, card)
        events.append(private("spied", [seat], face(card), seat=seat, owner=owner, slot=slot))
        self._turn_done(state, events)
        return events

    def _can_look(self, state: State, seat: int) -> None:
        if state["king_look"] is not None:
            raise AppError(NOT_ALLOWED, "You have looked already: swap or not.")
        if not targets(state, seat, swappable=True):
            raise AppError(NOT_ALLOWED, "No card can be swapped.")

    def _look_choices(self, state: State, seat: int) -> dict[str, Any]:
        return self._target_choices(state, targets(state, seat, swappable=True))

    @declare(
        "look",
        phases=("king",),
        actor=TURN,
        fields=(Field("owner", INT), Field("slot", INT)),
        allowed="_can_look",
        choices="_look_choices",
        label="Look at another player's card",
    )
    def _look(self, state: State, seat: int, action: Action, ctx: Context) -> list[Event]:
        owner, slot = action["owner"], action["slot"]
        card = self._other_card(state, seat, owner, slot, swappable=True)
        events = self._begin(state, seat)
        show(state, seat, card)
        state["king_look"] = {"owner": owner, "slot": slot}
        events.append(private("looked", [seat], face(card), seat=seat, owner=owner, slot=slot))
        return events

    def _can_swap(self, state: State, seat: int) -> None:
        if not field_cards(state, seat):
            raise AppError(NOT_HELD, "You have no card to swap.")
        look = state["king_look"]
        if look is not None:
            if card_at(state, look["owner"], look["slot"]) is None or protected(state, look["owner"]):
                raise AppError(NOT_ALLOWED, "The card you looked at is no longer there.")
        elif not targets(state, seat, swappable=True):
            raise AppError(NOT_ALLOWED, "No card can be swapped.")

    def _swap_choices(self, state: State, seat: int) -> dict[str, Any]:
        look = state["king_look"]
        if look is not None:
            theirs = {"owner": [look["owner"]], "slot": [look["slot"]]}
        else:
            theirs = self._target_choices(state, targets(state, seat, swappable=True))
        return {"mine": own_slots(state, seat), **theirs}

    @declare(
        "swap",
        phases=("queen", "king"),
        actor=TURN,
        fields=(Field("mine", INT), Field("owner", INT), Field("slot", INT)),
        allowed="_can_swap",
        choices="_swap_choices",
        label="Swap one of your cards with theirs",
    )
    def _swap(self, state: State, seat: int, action: Action, ctx: Context) -> list[Event]:
        mine, owner, slot = action["mine"], action["owner"], action["slot"]
        look = state["king_look"]
        if look is not None and (look["owner"], look["slot"]) != (owner, slot):
            raise AppError(NOT_ALLOWED, "Swap with the card you looked at, or do not swap.")
        own = self._own_card(state, seat, mine)
        other = self._other_card(state, seat, owner, slot, swappable=True)
        events = self._begin(state, seat)
        state["fields"][seat][mine], state["fields"][owner][slot] = other, own
        events.append(event("swapped", seat=seat, mine=mine, owner=owner, slot=slot))
        self._turn_done(state, events)
        return events

    def _can_skip(self, state: State, seat: int) -> None:
        if state["phase"] == "queen":
            try:
                self._can_swap(state, seat)
            except AppError:
                return
            raise AppError(NOT_ALLOWED, "The queen's swap must be made.")

    @declare(
        "skip",
        phases=("ten", "jack", "queen", "king"),
        actor=TURN,
        allowed="_can_skip",
        label="Do not use the action",
    )
    def _skip(self, state: State, seat: int, action: Action, ctx: Context) -> list[Event]:
        events = self._begin(state, seat)
        events.append(event("skipped", seat=seat, special=state["special"]))
        self._turn_done(state, events)
        return events

    # -- the end of a turn ---------------------------------------------------------------------------------
    def _turn_done(self, state: State, events: list[Event]) -> None:
        state["special"] = None
        state["king_look"] = None
        if state["pablo"] is None:
            state["phase"] = "end"
        else:
            self._next_turn(state, events)

    def _next_turn(self, state: State, events: list[Event]) -> None:
        following = next_seat(state, state["turn"])
        if state["stop_at"] is not None and following == state["stop_at"]:
            rounds.end_round(state, events)
            return
        state["turn"] = following
        state["phase"] = "draw"
        events.append(event("turn", seat=following))

    @declare("call", phases=("end",), actor=TURN, label="Call Pablo!")
    def _call(self, state: State, seat: int, action: Action, ctx: Context) -> list[Event]:
        events = self._begin(state, seat)
        state["pablo"] = seat
        state["stop_at"] = seat
        events.append(event("pablo", seat=seat))
        self._next_turn(state, events)
        return events

    @declare("end_turn", phases=("end",), actor=TURN, label="End my turn")
    def _end_turn(self, state: State, seat: int, action: Action, ctx: Context) -> list[Event]:
        events = self._begin(state, seat)
        self._next_turn(state, events)
        return events

    # -- matching, by anyone at any time in play -------------------------------------------------------------
    def _can_match(self, state: State, seat: int) -> None:
        if not state["discard"]:
            raise AppError(NOT_ALLOWED, "The discard pile is empty.")
        if not state["match_open"]:
            raise AppError(TOO_LATE, "Too late: the top card has been matched already.")

    def _match_choices(self, state: State, seat: int) -> dict[str, Any]:
        owners = [seat] if field_cards(state, seat) else []
        owners += targets(state, seat, swappable=True)
        found = self._target_choices(state, sorted(owners))
        return {**found, "top": [state["discard"][-1]], "give": own_slots(state, seat)}

    @declare(
        "match",
        phases=PLAY_PHASES,
        actor=PLAYER,
        fields=(
            Field("owner", INT, help="whose card"),
            Field("slot", INT, help="which of their cards"),
            Field("top", INT, help="the discard pile's top card you are matching"),
            Field("give", INT, required=False, help="matching another player's card: which of yours they get"),
        ),
        allowed="_can_match",
        choices="_match_choices",
        label="Match!",
    )
    def _match(self, state: State, seat: int, action: Action, ctx: Context) -> list[Event]:
        if action["top"] != state["discard"][-1]:
            raise AppError(TOO_LATE, "Too late: that card is no longer on top of the discard pile.")
        owner, slot, give = action["owner"], action["slot"], action.get("give")
        if owner == seat:
            card = self._own_card(state, seat, slot)
            if give is not None:
                raise AppError(BAD_ACTION, "You give a card only when you match another player's card.")
        else:
            card = self._other_card(state, seat, owner, slot, swappable=True)
            if give is None and field_cards(state, seat):
                raise AppError(BAD_ACTION, "Say which of your cards the other player gets.")
            if give is not None:
                self._own_card(state, seat, give)
        events = self._begin(state, seat)
        top = state["discard"][-1]
        if rank(card) != rank(top):
            self._wrong_match(state, seat, owner, slot, events)
            return events
        state["fields"][owner][slot] = None
        to_discard(state, card, open_match=False)
        state["matched_by"] = seat
        events.append(event("matched", seat=seat, owner=owner, slot=slot, **face(card)))
        if owner != seat and give is not None:
            state["fields"][owner][slot] = state["fields"][seat][give]
            state["fields"][seat][give] = None
            events.append(event("gave", seat=seat, mine=give, owner=owner, slot=slot))
        return events

    def _wrong_match(self, state: State, seat: int, owner: int, slot: int, events: list[Event]) -> None:
        """A wrong match: the card is shown to everyone and put back, and the player takes a penalty card."""
        card = state["fields"][owner][slot]
        state["shown"] = [card]
        events.append(event("wrong_match", seat=seat, owner=owner, slot=slot, **face(card)))
        self._penalty(state, seat, events)

    def _penalty(self, state: State, seat: int, events: list[Event]) -> None:
        card = draw_card(state, events)
        if card is None:
            events.append(event("no_penalty_card", seat=seat))
            return
        state["fields"][seat].append(card)
        show(state, seat, card)
        events.append(private("penalty", [seat], face(card), seat=seat, slot=len(state["fields"][seat]) - 1))

    def _has_glimpse(self, state: State, seat: int) -> None:
        if not state["glimpse"][seat]:
            raise AppError(NOT_ALLOWED, "Nothing is being shown to you.")

    @declare("hide", phases=PLAY_PHASES, actor=PLAYER, allowed="_has_glimpse", label="Hide (I remember)")
    def _hide(self, state: State, seat: int, action: Action, ctx: Context) -> list[Event]:
        self._begin(state, seat)
        return [event("hid", seat=seat)]

    # -- between rounds ------------------------------------------------------------------------------------
    @declare("deal", phases=("reveal",), actor=TURN, label="Shuffle and deal the next round")
    def _deal(self, state: State, seat: int, action: Action, ctx: Context) -> list[Event]:
        events: list[Event] = []
        rounds.deal(state, state["next_starter"], seat, events)
        return events

    # -- helpers -------------------------------------------------------------------------------------------
    def _begin(self, state: State, seat: int) -> list[Event]:
        """Every action ends what was being shown: the flash of a wrong match, and the actor's own glimpses."""
        state["shown"] = []
        state["glimpse"][seat] = []
        return []

    def _own_card(self, state: State, seat: int, slot: int) -> int:
        card = card_at(state, seat, slot)
        if card is None:
            raise AppError(NOT_HELD, "There is no card of yours in that place.")
        return card

    def _other_card(self, state: State, seat: int, owner: int, slot: int, *, swappable: bool) -> int:
        if owner == seat or owner not in active_seats(state):
            raise AppError(BAD_ACTION, "Choose another player's card.")
        if swappable and protected(state, owner):
            raise AppError(NOT_ALLOWED, "The player who called Pablo is protected.")
        card = card_at(state, owner, slot)
        if card is None:
            raise AppError(NOT_HELD, "There is no card in that place.")
        return card

    def _target_choices(self, state: State, owners: list[int]) -> dict[str, Any]:
        slots = sorted({i for s in owners for i in own_slots(state, s)})
        return {"owner": owners, "slot": slots}

    # -- the protocol ----------------------------------------------------------------------------------------
    def status(self, state: State) -> Status:
        phase = state["phase"]
        if state["finished"]:
            return Status("over", (), finished=True, summary="The game is over: the lowest score wins.")
        if phase == "peek":
            waiting = tuple(s for s in active_seats(state) if not state["ready"][s])
            return Status(phase, waiting, summary=f"Round {state['round']}: everyone looks at two of their cards.")
        if phase == "reveal":
            return Status(phase, (state["dealer"],), summary=f"Round {state['round']} is over: the cards are shown.")
        called = " Pablo has been called." if state["pablo"] is not None else ""
        return Status(phase, (state["turn"],), summary=f"Round {state['round']}.{called}")

    def scores(self, state: State) -> Scores:
        parts = state["parts"]
        n = state["players"]
        return Scores([rounds.total(state, s) for s in range(n)], parts={k: list(v) for k, v in parts.items()})

    def body(self, state: State, seat: int | None) -> dict[str, Any]:
        return view.body(state, seat)

    def places(self, state: State) -> dict[str, list[int]]:
        found = {"draw": list(state["draw"]), "discard": list(state["discard"])}
        found["held"] = [] if state["held"] is None else [state["held"]]
        for s, field in enumerate(state["fields"]):
            found[f"field {s}"] = [c for c in field if c is not None]
        return found

    def visible_pieces(self, state: State, seat: int | None) -> set[int]:
        return view.visible(state, seat)

    def describe_move(self, state: State, seat: int | None, action: Action, public_events: list[Event]) -> str:
        return view.describe(public_events)

    def _after_removal(self, state: State, seat: int, ctx: Context) -> list[Event]:
        """The player's cards go face down under the draw pile; the game goes on without them (over with one left)."""
        events: list[Event] = [event("player_removed", seat=seat)]
        gone = [c for c in state["fields"][seat] if c is not None]
        if state["turn"] == seat and state["held"] is not None:
            gone.append(state["held"])
            state["held"] = None
        state["fields"][seat] = []
        state["draw"][:0] = gone
        forget_where(state, gone)
        state["glimpse"][seat] = []
        if len(active_seats(state)) < 2:
            state.update(finished=True, phase="over")
            events.append(event("game_over", totals=[rounds.total(state, s) for s in range(state["players"])]))
            return events
        if state["stop_at"] == seat:
            state["stop_at"] = next_seat(state, seat)
        if state["next_starter"] == seat:
            state["next_starter"] = next_seat(state, seat)
        phase = state["phase"]
        if phase == "peek":
            if state["turn"] == seat:
                state["turn"] = next_seat(state, seat)
            state["ready"][seat] = True
            self._start_play_if_ready(state, events)
        elif phase == "reveal":
            if state["dealer"] == seat:
                state["dealer"] = state["turn"] = next_seat(state, seat)
        elif state["turn"] == seat:
            state["special"] = None
            state["king_look"] = None
            self._next_turn(state, events)
        return events
