"""Grabble's quiz: turn by turn every player parses the turn's words; a turn is marked when all have answered (or
the teacher closes it), then the review, where the teacher may still give credit before finishing the game."""

from typing import Any

from games.engine import (
    INT,
    LIST,
    PLAYER,
    TEACHER,
    Action,
    Context,
    Event,
    Field,
    Game,
    State,
    action,
    event,
    score,
)
from games.engine.errors import NOT_ALLOWED, WRONG_PHASE
from games.engine.game import own_entry
from games.engine.turns import active_seats

from .parses import closest, given_parses, lemma_previews, need, wrong_fields


class QuizPhase(Game):
    """The actions of the quiz and review phases: a part of :class:`games.rules.grabble.Grabble`, a :class:`Game` so
    that it may call what the game implements (``scores``, ``status``)."""

    @action(
        "answer",
        phases=("quiz",),
        actor=PLAYER,
        fields=(Field("parses", LIST, help="One {word, lemma, pos, parse} per word of the turn."),),
        preview="_preview_answer",
        label="Answer",
    )
    def _answer(self, state: State, seat: int, action: Action, ctx: Context) -> list[Event]:
        play = state["plays"][state["quiz"]["play"]]
        words = [w["word"] for w in play["words"]]
        given = given_parses(action["parses"], words)
        state["quiz"]["answers"][str(seat)] = [given[w] for w in words]
        events = [event("answered", seat=seat, play=play["number"])]
        if all(str(s) in state["quiz"]["answers"] for s in active_seats(state)):
            events += self._mark(state)
        return events

    def _preview_answer(self, state: State, seat: int, action: Action, ctx: Context) -> dict[str, Any]:
        """The Greek of every lemma given so far (the answer itself is not checked: that is the quiz)."""
        return {"lemmas": lemma_previews(action["parses"])}

    @action("close", phases=("quiz",), actor=TEACHER, label="Mark this turn now")
    def _close(self, state: State, seat: None, action: Action, ctx: Context) -> list[Event]:
        return self._mark(state)

    def _mark(self, state: State) -> list[Event]:
        """Mark the quiz turn: learning points to perfect parses (the teacher's credit to the others), teaching to the
        placer."""
        quiz = state["quiz"]
        play = own_entry(state, "plays", quiz["play"])
        results = {}
        events: list[Event] = []
        any_reading = state["options"].get("quiz_readings", "any") == "any"
        for seat in active_seats(state):
            answer = quiz["answers"].get(str(seat))
            wrong, taught = None, None
            if answer is not None:
                marks = [mark(g, w, any_reading) for g, w in zip(answer, play["words"], strict=True)]
                wrong, taught = [m[0] for m in marks], [m[1] for m in marks]
            perfect = wrong is not None and not any(wrong)
            # The answers are shown once marked (the group quiz's teaching moment) and feed the learning records.
            results[str(seat)] = {
                "answered": answer is not None,
                "perfect": perfect,
                "wrong": wrong,
                "given": answer,
                "taught": taught,
            }
            # A perfect answer earns the full base score; the teacher's credit is for the others.
            points = play["base"] if perfect else quiz["credits"].get(str(seat), 0)
            play["learning"][str(seat)] = points
            if points:
                events.append(score(seat, points, "learning", play=play["number"]))
        play["teaching"] = sum(play["learning"].values())
        play["marked"] = True
        play["results"] = results
        if play["teaching"]:
            events.append(score(play["seat"], play["teaching"], "teaching", play=play["number"]))
        events.insert(0, event("marked", play=play["number"], results=results, words=play["words"]))
        quiz["play"] += 1
        quiz["answers"], quiz["credits"] = {}, {}
        if quiz["play"] < len(state["plays"]):
            return [*events, event("quiz_turn", play=quiz["play"])]
        state["phase"] = "review"
        return [*events, event("review")]

    # -- the teacher's credit and the end ----------------------------------------------------------
    def _creditable(self, state: State) -> list[int]:
        """The turns credit may be given for: those marked, and the one being quizzed."""
        current = state["quiz"]["play"] if state["phase"] == "quiz" else None
        return [p["number"] for p in state["plays"] if p["marked"] or p["number"] == current]

    def _can_credit(self, state: State, seat: None) -> None:
        need(bool(self._creditable(state)), "No turn has been quizzed yet.", NOT_ALLOWED)

    def _credit_choices(self, state: State, seat: None) -> dict[str, Any]:
        return {"play": self._creditable(state), "seat": active_seats(state)}

    @action(
        "credit",
        phases=("quiz", "review"),
        actor=TEACHER,
        fields=(Field("play", INT), Field("seat", INT), Field("points", INT)),
        allowed="_can_credit",
        choices="_credit_choices",
        label="Credit",
    )
    def _credit(self, state: State, seat: None, action: Action, ctx: Context) -> list[Event]:
        number, target, points = action["play"], action["seat"], action["points"]
        need(0 <= number < len(state["plays"]), "Which play (turn) is the credit for?")
        play = state["plays"][number]
        need(number in self._creditable(state), "That turn has not been quizzed yet.", WRONG_PHASE)
        need(target in active_seats(state), "Credit goes to a player in the game.")
        need(0 <= points <= play["base"], f"Credit is between 0 and the base score, {play['base']}.")
        if not play["marked"]:
            state["quiz"]["credits"][str(target)] = points
            return [event("credit", play=number, seat=target, points=points)]
        result = (play.get("results") or {}).get(str(target))
        need(not (result and result["perfect"]), "A perfect answer has its full points already.", NOT_ALLOWED)
        change = points - play["learning"].get(str(target), 0)
        play = own_entry(state, "plays", number)
        play["learning"][str(target)] = points
        play["teaching"] += change
        events = [event("credit", play=number, seat=target, points=points)]
        if change:
            events.append(score(target, change, "learning", play=number, credit=True))
            events.append(score(play["seat"], change, "teaching", play=number, credit=True))
        return events

    @action("finish", phases=("review",), actor=TEACHER, label="Finish the game")
    def _finish(self, state: State, seat: None, action: Action, ctx: Context) -> list[Event]:
        state["phase"] = "over"
        return [event("game_over", scores=self.scores(state).total)]


def mark(given: dict[str, Any], word: dict[str, Any], any_reading: bool) -> tuple[list[str], bool]:
    """What is wrong in one answer, and whether it was read as the placer taught the word. With ``any_reading``
    every analysis the placer could have given counts (those the lexicon had at play time, kept with the turn);
    a wrong answer is marked against the closest of them, the taught one first. Otherwise only the taught one."""
    taught = word["analysis"]
    if not any_reading:
        return wrong_fields(given, taught), True
    others = [a for a in word.get("analyses") or [] if a != taught]
    index, wrong = closest(given, [taught, *others])
    return wrong, index == 0
