"""Palabra (Jim Kondrick's card game of words, shaves and jokers): the game, its options, its setting up and what
happens when the teacher takes a player out. The rules are read in ``docs/games/palabra.md``; each part lives in one
module: pre-plays in :mod:`.preplays`, plays in :mod:`.plays`, votes and challenges in :mod:`.disputes`, the turn
flow and the timer in :mod:`.turns`, simultaneous rounds in :mod:`.simultaneous`, what a viewer sees in :mod:`.view`.
"""

from typing import Any

from games.engine import errors
from games.engine.cards import Card, shuffled_ids
from games.engine.events import Event, event
from games.engine.game import Context, Game, Option, State
from games.engine.rng import new_rng_state, shuffled
from games.engine.turns import active_seats

from .common import CHALLENGE, PLAY, PREPLAY, ROUND, VOTE
from .deck import cut_rank, deck_for
from .disputes import Disputes
from .plays import Plays
from .preplays import Preplays
from .simultaneous import MIN_PLAYERS as SIMULTANEOUS_MIN_PLAYERS
from .simultaneous import SimultaneousRounds
from .turns import Turns
from .view import View


class Palabra(Preplays, Plays, Disputes, Turns, SimultaneousRounds, View, Game):
    slug = "palabra"
    title = "Palabra"
    fixed = ("options",)
    language = "eng"
    min_players = 2
    max_players = 12
    renderer = "palabra"
    stylesheet = "games/palabra.css"
    piece_fields = ("card", "cards")  # a word on the table has an "id" of its own: cards are named under these
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
                event(
                    "cut",
                    cuts=[{"seat": s, "kind": deck[c]["kind"], "letter": deck[c]["letter"]} for s, c in cut.items()],
                )
            )
            best = max(cut_rank(deck[c]) for c in cut.values())
            contenders = [s for s, c in cut.items() if cut_rank(deck[c]) == best]
            if len(contenders) == 1:
                return contenders[0]

    def can_seat(self, state: State, seat: int | None) -> bool:
        """Between turns (no vote or challenge running, not in a simultaneous round), a new player may take over a
        removed player's seat and their score so far; that hand went back into the pile, so they draw a fresh one.
        No new seats: the turn order and the deck were set for the table."""
        return (
            seat is not None
            and seat in state.get("removed", [])
            and not state["finished"]
            and state["phase"] in (PREPLAY, PLAY)
            and bool(state["pile"])
        )

    def _seat_player(self, state: State, seat: int | None, ctx: Context) -> tuple[int, list[Event]]:
        if seat is None:  # can_seat allows only a removed seat
            raise errors.AppError(errors.CANNOT_SEAT, "Palabra has no new seats during a game.")
        events: list[Event] = []
        self._draw(state, seat, events)
        return seat, events

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
