"""The turn flow: a play stands and scores, the turn ends and passes on (skipping forfeited turns), the game ends
and is scored; and the impatient timer (``start_timer``, ``timer_expired``)."""

from typing import Any

from games.engine import errors
from games.engine.actions import ANY_PHASE, ANYONE, action
from games.engine.events import Event, event
from games.engine.game import Action, Context, State
from games.engine.turns import active_seats, next_seat

from . import scoring
from .common import CHALLENGE, DECIDE, OVER, PLAY, PREPLAY, ROUND, TIMER_SECONDS, VOTE, Common
from .deck import deck_for

TIMER_PHASES = (PREPLAY, PLAY, DECIDE, ROUND)


class Turns(Common):
    # -- the impatient timer -----------------------------------------------------------------------
    def _timer_may_start(self, state: State, seat: int | None) -> None:
        if not state["options"]["impatient_timer"]:
            raise errors.AppError(errors.NOT_ALLOWED, "This table plays without the impatient timer.")
        if state["timer"]:
            raise errors.AppError(errors.NOT_ALLOWED, "The timer is already running.")

    def _timer_running(self, state: State, seat: int | None) -> None:
        if not state["timer"]:
            raise errors.AppError(errors.NOT_ALLOWED, "No timer is running.")

    @action("start_timer", phases=TIMER_PHASES, actor=ANYONE, allowed="_timer_may_start", label="Start the timer")
    def _start_timer(self, state: State, seat: int | None, action: Action, ctx: Context) -> list[Event]:
        state["timer"] = {"deadline": ctx.now + TIMER_SECONDS, "started_by": seat}
        player = None if state["phase"] == ROUND else state["turn"]
        return [
            event(
                "timer_started",
                seat=seat,
                player=player,
                waiting_for=self._waiting_for(state),
                deadline=state["timer"]["deadline"],
            )
        ]

    @action("timer_expired", phases=ANY_PHASE, actor=ANYONE, allowed="_timer_running", label="Time is up")
    def _timer_expired(self, state: State, seat: int | None, action: Action, ctx: Context) -> list[Event]:
        deadline = state["timer"]["deadline"]
        if ctx.now < deadline:
            raise errors.AppError(errors.NOT_ALLOWED, f"The timer runs until {deadline}.")
        events: list[Event] = []
        if state["phase"] == ROUND:
            events.append(event("timer_expired", player=None))
            self._pass_stragglers(state, events)
            return events
        events.append(event("timer_expired", player=state["turn"]))
        if state["phase"] == DECIDE:
            self._withdraw(state, events)
        events.append(event("passed", seat=state["turn"]))
        self._finish_turn(state, events)
        return events

    # -- who is awaited --------------------------------------------------------------------------------
    def _waiting_for(self, state: State) -> list[int]:
        if state["phase"] == OVER:
            return []
        if state["phase"] == VOTE:
            return [s for s in self._voters(state) if str(s) not in state["votes"]]
        if state["phase"] == CHALLENGE:
            return list(state["rejecters"])
        if state["phase"] == ROUND:
            return self._not_ready(state)
        return [state["turn"]]

    # -- a play stands ---------------------------------------------------------------------------------
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

    # -- turns -----------------------------------------------------------------------------------------
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
        """The player's previous word leaves the table as their turn begins."""
        state.update(turn=seat, phase=PREPLAY, preplayed=False, acted=False, timer=None)
        state["turn_no"] += 1
        word = state["table"][seat]
        if word:
            state["discard"].extend(word["cards"])
            state["table"][seat] = None
            events.append(event("word_discarded", seat=seat, word=word["id"]))
        events.append(event("turn", seat=seat, turn_no=state["turn_no"]))

    # -- the end ---------------------------------------------------------------------------------------
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
