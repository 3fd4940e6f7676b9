"""Grabble: Greek crossword tiles where every word is parsed when played and quizzed afterwards.

The rules are read in ``docs/games/grabble.md``. This module holds the game's setup, where it stands
(:meth:`Grabble.status`), its scores and what each viewer sees (:meth:`Grabble.body`); the actions are declared in
:mod:`.play` (the play and approval phases) and :mod:`.quiz` (the quiz and review).
"""

from typing import Any

from games.engine import Action, AppError, Context, Event, Game, Option, Scores, State, Status, censor, event, seat_ref
from games.engine.cards import shuffled_ids
from games.engine.encounters import PARSED, PLAYED, QUIZZED, SEEN, TAUGHT, WordEncounter
from games.engine.errors import CANNOT_SEAT
from games.engine.game import changed_entries
from games.engine.rng import new_rng_state, shuffled
from games.engine.turns import active_seats

from .board import ALPHABET, CENTRE, KEYS, PREMIUMS, SIZE
from .parses import describe, encounter_details, vocabulary
from .play import PlayPhase, public_words
from .quiz import QuizPhase


def bag_size(options: dict[str, Any], players: int) -> str:
    if options["bag"] == "auto":
        return "large" if players >= 5 else "standard"
    return options["bag"]


def _alphabet_rank(letter: str) -> int:
    """Nearer the start of the alphabet ranks lower; a blank (any letter, so Α) ranks lowest of all."""
    return ALPHABET.index(letter) if letter else -1


class Grabble(PlayPhase, QuizPhase, Game):
    slug = "grabble"
    title = "Grabble"
    language = "grc"
    renderer = "grabble"
    record = "sheet"  # the score sheet: a row per turn played, sent to pages row by row as turns change
    fixed = ("size", "centre", "premiums", "alphabet", "keys", "options", "vocabulary")  # the board, keyboard: 4.3 kB
    history = ("plays",)  # every turn played, with its quiz results: shared, not copied, by a move's private copy
    end_action = "end_play"  # ending a lesson may end the play here: the quiz then runs for the turns played
    long_actions = frozenset({"hint"})  # the move finder searches every play of the rack (bench/grabble/hint.py)
    stylesheet = "games/grabble.css"
    min_players = 2
    max_players = 8
    options = (
        Option(
            "bag",
            "Tile bag",
            "choice",
            "auto",
            choices=(
                ("auto", "Standard, ×1.5 for 5+ players"),
                ("standard", "Standard (104)"),
                ("large", "×1.5 (163)"),
            ),
        ),
        Option("open_racks", "Open game (everyone sees every rack)", "bool", True),
        Option(
            "hints",
            "Hints per player (0: none)",
            "int",
            3,
            low=0,
            high=20,
            help="A hint shows the player on turn the best play of their rack; they still parse its words.",
        ),
        Option(
            "unknown_words",
            "Words the lexicon cannot parse",
            "choice",
            "teacher",
            choices=(("teacher", "Teacher approves"), ("strict", "Refused")),
        ),
        Option(
            "proper_nouns",
            "Proper nouns (Παῦλος)",
            "choice",
            "refused",
            choices=(
                ("refused", "Refused, as the rulebook says"),
                ("teacher", "Allowed (the teacher approves unknown ones)"),
            ),
            help="A proper noun is a lemma written with a capital (Παῦλος, or *pau=los in Beta Code).",
        ),
        Option(
            "quiz_readings",
            "Quiz answers accepted",
            "choice",
            "any",
            choices=(("any", "Any reading of the word"), ("taught", "Only the reading the player taught")),
            help="In the quiz an ambiguous form (ΗΝ: ἦν or ἥν) may be parsed as any of its readings, or as taught.",
        ),
    )

    # -- setting up --------------------------------------------------------------------------
    def _new(self, players: int, options: dict[str, Any], seed: int) -> tuple[State, list[Event]]:
        state: State = {
            "players": players,
            "removed": [],
            "options": options,
            "bag_size": bag_size(options, players),
            "rng": new_rng_state(seed),
            "phase": "play",
            "turn": 0,
            "turn_number": 1,
            "passes": 0,
            "board": {},
            "racks": [[] for _ in range(players)],
            "plays": [],
            "pending": None,
            "suggestions": [],
            "hints_used": [0] * players,
            "hint": None,
            "quiz": None,
            "first_draws": [],
        }
        bag = self._bag(state)
        state["bag"] = shuffled_ids(state, list(bag))
        events = [self._draw_for_first(state, bag)]
        for seat in range(players):
            events.append(self._refill(state, seat))
        return state, events

    def _draw_for_first(self, state: State, bag: tuple[dict[str, Any], ...]) -> Event:
        """Each tied seat draws a tile until one seat alone is nearest the start of the alphabet."""
        contenders = list(range(state["players"]))
        rounds = []
        while True:
            draws = {seat: state["bag"][-1 - i] for i, seat in enumerate(contenders)}
            rounds.append({str(seat): bag[tile]["letter"] for seat, tile in draws.items()})
            rank = {seat: _alphabet_rank(bag[tile]["letter"]) for seat, tile in draws.items()}
            best = min(rank.values())
            contenders = [seat for seat in contenders if rank[seat] == best]
            state["bag"] = shuffled(state, state["bag"])
            if len(contenders) == 1:
                break
        state["turn"] = contenders[0]
        state["first_draws"] = rounds
        return event("first_player", seat=contenders[0], draws=rounds)

    # -- removal -----------------------------------------------------------------------------
    def can_seat(self, state: State, seat: int | None) -> bool:
        """Between turns, a new player may take over a removed player's seat (and their scores so far); their rack
        went back to the bag, so they draw a fresh one. No new seats: the bag was sized for the table."""
        return seat is not None and seat in state.get("removed", []) and state["phase"] == "play" and bool(state["bag"])

    def _seat_player(self, state: State, seat: int | None, ctx: Context) -> tuple[int, list[Event]]:
        if seat is None:  # can_seat allows only a removed seat
            raise AppError(CANNOT_SEAT, "Grabble has no new seats during a game.")
        return seat, [self._refill(state, seat)]

    def _after_removal(self, state: State, seat: int, ctx: Context) -> list[Event]:
        events: list[Event] = []
        rack = state["racks"][seat]
        if rack:
            state["bag"] = shuffled(state, state["bag"] + rack)
            state["racks"][seat] = []
            events.append(event("returned", seat=seat, count=len(rack)))
        if not active_seats(state):
            state["phase"] = "over"
            return [*events, event("game_over", scores=self.scores(state).total)]
        if state["phase"] == "approval" and state["pending"]["seat"] == seat:
            state["phase"], state["pending"] = "play", None
        if state["phase"] == "play" and state["turn"] == seat:
            state["passes"] = 0
            events += self._next_turn(state)
        elif state["phase"] == "quiz":
            state["quiz"]["answers"].pop(str(seat), None)
            if all(str(s) in state["quiz"]["answers"] for s in active_seats(state)):
                events += self._mark(state)
        return events

    # -- where the game stands, and the scores ----------------------------------------------------
    def status(self, state: State) -> Status:
        phase = state["phase"]
        if phase == "play":
            return Status(
                phase, (state["turn"],), summary=f"Turn {state['turn_number']}: {seat_ref(state['turn'])} to play."
            )
        if phase == "approval":
            return Status(phase, (), awaiting_teacher=True, summary="A word waits for the teacher's approval.")
        if phase == "quiz":
            waiting = tuple(s for s in active_seats(state) if str(s) not in state["quiz"]["answers"])
            number = state["quiz"]["play"] + 1
            return Status(phase, waiting, summary=f"Quiz on turn {number} of {len(state['plays'])}.")
        if phase == "review":
            return Status(phase, (), awaiting_teacher=True, summary="Quiz done: the teacher reviews and finishes.")
        return Status(phase, (), finished=True, summary="Game over.")

    def scores(self, state: State) -> Scores:
        """``play``: the base scores of each player's turns (what the board says, provisional while the play goes
        on); ``learning``: points for perfect parses in the quiz (or the teacher's credit); ``teaching``: what the
        others learnt from a player's turns. The total is learning + teaching."""
        players = state["players"]
        play, learning, teaching = [0] * players, [0] * players, [0] * players
        for turn in state["plays"]:
            play[turn["seat"]] += turn["base"]
            for seat, points in turn["learning"].items():
                learning[int(seat)] += points
            teaching[turn["seat"]] += turn["teaching"]
        total = [a + b for a, b in zip(learning, teaching, strict=True)]
        parts = {"play": play, "learning": learning, "teaching": teaching}
        return Scores(total, parts, provisional=state["phase"] in ("play", "approval"))

    def describe_move(self, state: State, seat: int | None, action: Action, public_events: list[Event]) -> str:
        """The public line of a move: the words and score of a play, never a parse."""
        kind = action["type"]
        found = {ev["type"]: ev for ev in public_events}
        if "played" in found:
            played = found["played"]
            words = ", ".join(dict.fromkeys(w["word"] for w in played["words"]))
            text = f"played {words} for {played['base']}"
            return f"approved {', '.join(found['approved']['words'])}: {text}" if kind == "approve" else text
        if "approval_needed" in found:
            return f"played {', '.join(found['approval_needed']['unknown'])}: the teacher decides"
        if kind == "exchange":
            count = len(action["tiles"])
            return f"exchanged {count} tile{'' if count == 1 else 's'}"
        texts = {
            "pass": "passed",
            "hint": "asked for a hint",
            "suggest": "made a suggestion",
            "end_play": "ended the play: the quiz begins",
            "reject": "rejected the word",
            "answer": "answered",
            "close": "marked the turn",
            "credit": f"gave credit on turn {action.get('play', 0) + 1}",
            "finish": "finished the game",
        }
        return texts.get(kind, kind.replace("_", " "))

    # -- where the tiles are, and who sees them --------------------------------------------------------
    def places(self, state: State) -> dict[str, list[int]]:
        found = {"bag": list(state["bag"]), "board": [sq["tile"] for sq in state["board"].values()]}
        found.update({f"rack {s}": list(rack) for s, rack in enumerate(state["racks"])})
        return found

    def visible_pieces(self, state: State, seat: int | None) -> set[int]:
        """The board; every rack in an open game, else the viewer's own; a play waiting for the teacher."""
        seen = {sq["tile"] for sq in state["board"].values()}
        for s, rack in enumerate(state["racks"]):
            if state["options"]["open_racks"] or s == seat:
                seen.update(rack)
        if state["pending"] is not None:
            seen.update(t["tile"] for t in state["pending"]["tiles"])
        return seen

    # -- the learning records ------------------------------------------------------------------------
    def encounters(self, state: State, events: list[Event]) -> list[WordEncounter]:
        """A play: its placer played and parsed every word formed (the parse was checked, or approved by the
        teacher). A marked quiz turn: everyone else saw the words (recorded only now, with their analyses, which
        are the quiz's answers until then), each player who answered was quizzed on each word, right or wrong
        field by field, and the placer taught the words."""
        found: list[WordEncounter] = []
        for ev in events:
            if ev["type"] == "played":
                for word in censor(ev, ev["seat"])["words"]:
                    details = encounter_details(word, turn=ev["play"])
                    found.append(WordEncounter(seat=ev["seat"], kind=PLAYED, **details))
                    found.append(WordEncounter(seat=ev["seat"], kind=PARSED, correct=True, **details))
            elif ev["type"] == "marked":
                placer = state["plays"][ev["play"]]["seat"]
                for word in ev["words"]:
                    found += [
                        WordEncounter(seat=s, kind=SEEN, **encounter_details(word, turn=ev["play"]))
                        for s in active_seats(state)
                        if s != placer
                    ]
                for seat, result in ev["results"].items():
                    if not result["answered"]:
                        continue
                    for word, wrong, given in zip(ev["words"], result["wrong"], result["given"], strict=True):
                        fields = tuple("pos" if f == "part of speech" else f for f in wrong)
                        found.append(
                            WordEncounter(
                                seat=int(seat),
                                kind=QUIZZED,
                                correct=not fields,
                                wrong_fields=fields,
                                given=given,
                                **encounter_details(word, turn=ev["play"]),
                            )
                        )
                found += [
                    WordEncounter(seat=placer, kind=TAUGHT, **encounter_details(word, turn=ev["play"]))
                    for word in ev["words"]
                ]
        return found

    # -- what each viewer sees ---------------------------------------------------------------------
    def common_body(self, state: State) -> dict[str, Any]:
        """What every viewer sees alike: the board, the tiles left, the quiz and the parse vocabulary."""
        bag = self._bag(state)
        quiz = None
        if state["phase"] == "quiz":
            quiz = {"play": state["quiz"]["play"], "answered": sorted(int(s) for s in state["quiz"]["answers"])}
        return {
            "board": {
                name: {
                    "letter": sq["letter"],
                    "blank": bag[sq["tile"]]["letter"] == "",
                    "value": bag[sq["tile"]]["value"],
                }
                for name, sq in state["board"].items()
            },
            # The board's premium squares, covered or not (the page draws a tile over its square's premium, which
            # then no longer counts): the same all game, so a move's message leaves them out.
            "premiums": PREMIUMS,
            "size": SIZE,
            "centre": CENTRE,
            "alphabet": ALPHABET,  # the letters a blank may stand for
            "keys": KEYS,  # the letter each key typed stands for (Greek, and Beta Code transliteration)
            "rack_sizes": [len(r) for r in state["racks"]],
            "bag": len(state["bag"]),
            "first_draws": state["first_draws"],
            "suggestions": state["suggestions"],
            "hints_left": [self._hints_left(state, s) for s in range(state["players"])],
            "quiz": quiz,
            "options": state["options"],
            "vocabulary": vocabulary(),
        }

    def body(self, state: State, seat: int | None) -> dict[str, Any]:
        """The racks this viewer may see, a pending play (its given parses to its player and the teacher) and the
        viewer's own hint, beside :meth:`common_body`; the engine adds the score sheet (the :attr:`record`,
        :meth:`record_row`)."""
        bag = self._bag(state)
        open_racks = state["options"]["open_racks"]
        racks = {
            str(s): [dict(bag[t]) for t in rack] for s, rack in enumerate(state["racks"]) if open_racks or s == seat
        }
        pending = state["pending"]
        return {
            "racks": racks,
            "hint": _own_hint(state["hint"], seat),
            "pending": None
            if pending is None
            else {
                "seat": pending["seat"],
                "tiles": [
                    p | {"value": bag[p["tile"]]["value"], "blank": bag[p["tile"]]["letter"] == ""}
                    for p in pending["tiles"]
                ],
                "words": public_words(pending["words"], given=seat in (pending["seat"], None)),
                "unknown": pending["unknown"],
            },
        }

    # -- the score sheet ---------------------------------------------------------------------------------
    def record_length(self, state: State) -> int:
        return len(state["plays"])

    def record_row(self, state: State, index: int, seat: int | None) -> dict[str, Any]:
        """A turn played, with each word's analysis once the turn is marked, or before the quiz to its placer and
        the teacher (who approves words): the analyses are the answers of the turn's quiz question."""
        play = state["plays"][index]
        show = play["marked"] or (not _quizzing(state) and seat in (play["seat"], None))
        return {
            "number": play["number"],
            "turn": play["turn"],
            "seat": play["seat"],
            "words": [
                {"word": w["word"], "squares": w["squares"], "score": w["score"]} | (_analyses(w) if show else {})
                for w in play["words"]
            ],
            "bonus": play["bonus"],
            "base": play["base"],
            "marked": play["marked"],
            "learning": play["learning"],
            "teaching": play["teaching"],
            "results": play.get("results"),
        }

    def changed_rows(self, before: State, after: State) -> list[int] | None:
        """A row is its turn's play, and whether the quiz has begun: the plays that are not the same objects (a move
        shares the plays it does not change, :attr:`history`), or all of them when the quiz begins (the analyses
        leave the placers' rows until each turn is marked)."""
        if _quizzing(before) != _quizzing(after):
            return None
        return changed_entries(before["plays"], after["plays"])


def _quizzing(state: State) -> bool:
    return state["phase"] in ("quiz", "review")


def _analyses(word: dict[str, Any]) -> dict[str, Any]:
    """A word's analysis as taught, and the other readings the quiz accepted, each with its description."""
    taught = word["analysis"]
    others = [a for a in word.get("analyses") or [] if a != taught]
    return {
        "analysis": taught,
        "description": describe(taught),
        "other_readings": [a | {"description": describe(a)} for a in others],
    }


def _own_hint(hint: dict[str, Any] | None, seat: int | None) -> dict[str, Any] | None:
    """The hint, for the seat that asked for it only."""
    if hint is None or seat is None or hint["seat"] != seat:
        return None
    return {k: v for k, v in hint.items() if k != "seat"}


RULES = Grabble()
