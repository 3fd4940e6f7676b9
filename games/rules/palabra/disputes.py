"""Whether a proposed word stands: the others ``vote``; after a majority rejection its player may ``withdraw`` or
``insist``; a rejecter may then ``challenge`` (a lookup) or ``concede``; the teacher may ``check`` at any point."""

from typing import Any

from games.engine import errors
from games.engine.actions import BOOL, TEACHER, TURN, Field, action
from games.engine.events import Event, event
from games.engine.game import Action, Context, State
from games.engine.turns import active_seats

from .common import CHALLENGE, DECIDE, NO_LEXICON, PLAY, VOTE, Common
from .words import look_up


class Disputes(Common):
    def _vote_choices(self, state: State, seat: int) -> dict[str, Any]:
        return {"accept": [True, False]}

    @action(
        "vote",
        phases=(VOTE,),
        actor=TURN,
        fields=(Field("accept", BOOL),),
        choices="_vote_choices",
        label="Vote",
    )
    def _vote(self, state: State, seat: int, action: Action, ctx: Context) -> list[Event]:
        events: list[Event] = []
        state["votes"][str(seat)] = action["accept"]
        events.append(event("vote", seat=seat, accept=action["accept"]))
        self._tally(state, events)
        return events

    @action("withdraw", phases=(DECIDE,), actor=TURN, label="Withdraw the word")
    def _withdraw_word(self, state: State, seat: int, action: Action, ctx: Context) -> list[Event]:
        events: list[Event] = []
        self._withdraw(state, events)
        state["phase"] = PLAY
        return events

    @action("insist", phases=(DECIDE,), actor=TURN, label="Insist")
    def _insist(self, state: State, seat: int, action: Action, ctx: Context) -> list[Event]:
        state["timer"] = None
        events: list[Event] = [event("insisted", seat=seat, rejecters=list(state["rejecters"]))]
        if state["rejecters"]:
            state["phase"] = CHALLENGE
        else:  # every rejecter has left the game
            self._place(state, events)
        return events

    @action("challenge", phases=(CHALLENGE,), actor=TURN, label="Challenge")
    def _challenge(self, state: State, seat: int, action: Action, ctx: Context) -> list[Event]:
        word = state["pending"]["word"]
        lookup = self._look_up(state, word, ctx)
        events: list[Event] = [
            event("challenge", seat=seat, player=state["turn"], lookup=lookup, upheld=not lookup["legal"])
        ]
        if lookup["legal"]:
            state["forfeits"][seat] += 1
            self._place(state, events, lookup=lookup)
        else:
            self._withdraw(state, events)
            self._finish_turn(state, events)
        return events

    @action("concede", phases=(CHALLENGE,), actor=TURN, label="Concede")
    def _concede(self, state: State, seat: int, action: Action, ctx: Context) -> list[Event]:
        state["rejecters"].remove(seat)
        events: list[Event] = [event("conceded", seat=seat)]
        if not state["rejecters"]:
            self._place(state, events)
        return events

    @action("check", phases=(VOTE, DECIDE, CHALLENGE), actor=TEACHER, label="Check the word")
    def _check(self, state: State, seat: None, action: Action, ctx: Context) -> list[Event]:
        lookup = self._look_up(state, state["pending"]["word"], ctx)
        events: list[Event] = [event("teacher_check", player=state["turn"], lookup=lookup)]
        if lookup["legal"]:
            self._place(state, events, lookup=lookup)
        else:
            self._withdraw(state, events)
            state["phase"] = PLAY
        return events

    # -- settling ----------------------------------------------------------------------------------
    def _voters(self, state: State) -> list[int]:
        return [s for s in active_seats(state) if s != state["turn"]]

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

    def _withdraw(self, state: State, events: list[Event]) -> None:
        """The pending word goes back: its new cards to its player's hand, a word it built on to its owner."""
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
