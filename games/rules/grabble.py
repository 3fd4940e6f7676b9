"""Grabble: Greek crossword tiles where every word is parsed when played and quizzed afterwards.

Play phase: players lay words on a 15×15 board with the standard premiums (centre H8, ἄρχου, is a
double word). Each ``play`` carries a parse (lemma, part of speech, fields) for every word it forms,
checked against the lexicon's analyses of the word's key; the matched analysis is stored with the
play so the quiz never needs the lexicon again. Quiz phase: turn by turn, every player parses the
turn's words; a perfect parse earns the turn's base score as learning points, the placer earns the
turn's learning points (their own included) as teaching points. Final score = learning + teaching.

Choices where the rulebook is silent (players of the physical game do the same):

- First player: each seat draws a tile; nearest the start of the alphabet goes first, a blank beats
  Α (as in Scrabble); tied seats draw again. The drawn tiles go back into the bag before the deal.
- Bag: the 104-tile Greek set; ``bag="large"`` multiplies every letter's count by 1.5 rounded up
  (163 tiles), and ``"auto"`` (the default) uses it for 5 or more players, as racks hold ten tiles.
- The 50-point bonus is for laying all ten tiles of a full rack in one move.
- Exchange: any number of tiles, as long as the bag holds at least as many tiles as are returned.
  An exchange is a turn but not a pass, and is not quizzed.
- End of play: the bag is empty and the mover has used all their tiles; or every active player
  passes in turn (only passes count: an exchange breaks the run); or the teacher ends play.
- Words the lexicon cannot parse (unknown keys, or known keys without analyses): ``unknown_words``
  ``"strict"`` refuses them, ``"teacher"`` (default) holds the play until the teacher approves
  (the player's own parse is then recorded as approved) or rejects it (the turn stays with them).
  A wrong parse of a word the lexicon knows is always refused, naming the wrong fields only.
- Quiz: a parse is perfect when it matches the analysis the placer taught (lemma by key, so accents
  are optional; Beta Code accepted); other readings of an ambiguous form get teacher credit.
  Middle/passive is accepted where MorphGNT tags it editorially (see ``lexicons.morphology``).
  Answers may be changed until the turn is marked. After the last turn is marked the game is in
  ``review``: the teacher may still give partial credit, then ``finish``-es the game.
- A removed player's tiles go back into the bag; their turn is skipped and the quiz doesn't wait.
- Racks are open by default (all players help); ``open_racks=False`` shows a seat only its own.
- Hints (``hints`` per player per game, default 3; 0 turns them off): the player on turn may ask
  for the best play their rack allows, found by ``grabble_moves`` among the plays whose words are
  all in the lexicon (an unknown word would need the teacher): the highest base score, the fewest
  blanks spent on a tie. Only the asker sees it (tiles, squares, words, score), never a parse:
  they must still parse every word to play it, or play something else. One hint a turn; it lasts
  until the turn ends. Asking when no word fits is refused and costs nothing. The hint is a move
  of the log, so a replay with the same lexicon finds the same play.

Actions (seat numbers are players; ``None`` is the teacher):
``play`` {tiles: [{tile, square, letter (blanks only)}], parses: [{word, lemma, pos, parse}]},
``exchange`` {tiles: [ids]}, ``pass``, ``hint``, ``suggest`` {text, square?, direction?},
teacher ``approve`` {gloss?} / ``reject`` {reason?}, ``end_play``,
``answer`` {parses: [{word, lemma, pos, parse}]}, teacher ``close``, ``credit`` {turn, seat, points},
teacher ``finish``.
"""

from typing import Any

from games.engine import Action, AppError, Context, Event, Game, Option, State, Status, event, private, score
from games.engine.board import BAD_PLACEMENT, coords, touches, words_formed
from games.engine.cards import deal, shuffled_ids, take
from games.engine.encounters import PARSED, QUIZZED, TAUGHT, WordEncounter, played_and_seen
from games.engine.errors import (
    BAD_ACTION,
    NOT_A_WORD,
    NOT_ALLOWED,
    NOT_HELD,
    NOT_YOUR_TURN,
    TEACHER_ONLY,
    WRONG_PHASE,
)
from games.engine.rng import new_rng_state, shuffled
from games.engine.turns import active_seats, next_seat
from games.rules import grabble_moves
from games.rules.grabble_board import ALPHABET, CENTRE, PREMIUMS, RACK, SIZE, play_bonus, tile_bag, word_score
from lexicons import morphology
from lexicons.betacode import BetaCodeError, looks_like_beta_code, to_greek
from lexicons.normalise import greek_key

WRONG_PARSE = "wrong_parse"
NO_PLAY = "no_play"
MAX_TEXT = 60


def bag_size(options: dict[str, Any], players: int) -> str:
    if options["bag"] == "auto":
        return "large" if players >= 5 else "standard"
    return options["bag"]


def _alphabet_rank(letter: str) -> int:
    """Nearer the start of the alphabet ranks lower; a blank (any letter, so Α) ranks lowest of all."""
    return ALPHABET.index(letter) if letter else -1


def _fail(code: str, message: str) -> AppError:
    return AppError(code, message)


def _need(condition: bool, message: str, code: str = BAD_ACTION) -> None:
    if not condition:
        raise _fail(code, message)


class Grabble(Game):
    slug = "grabble"
    title = "Grabble"
    language = "grc"
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

    def _bag(self, state: State) -> tuple[dict[str, Any], ...]:
        return tile_bag(state["bag_size"])

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

    def _refill(self, state: State, seat: int) -> Event:
        drawn = deal(state["bag"], RACK - len(state["racks"][seat]))
        state["racks"][seat].extend(drawn)
        return self._rack_event(state, "drew", seat, {"tiles": drawn}, count=len(drawn), bag=len(state["bag"]))

    def _rack_event(self, state: State, type_: str, seat: int, secret: dict[str, Any], **public: Any) -> Event:
        """Tiles are public in an open game, otherwise only their owner sees them."""
        if state["options"]["open_racks"]:
            return event(type_, seat=seat, **public, **secret)
        return private(type_, [seat], secret, seat=seat, **public)

    # -- actions -----------------------------------------------------------------------------
    def _apply(self, state: State, seat: int | None, action: Action, ctx: Context) -> list[Event]:
        handlers = {
            "play": ("play", False, self._play),
            "exchange": ("play", False, self._exchange),
            "pass": ("play", False, self._pass),
            "hint": ("play", False, self._hint),
            "suggest": ("play", None, self._suggest),
            "end_play": ("play", True, self._end_play),
            "approve": ("approval", True, self._approve),
            "reject": ("approval", True, self._reject),
            "answer": ("quiz", False, self._answer),
            "close": ("quiz", True, self._close),
            "credit": (None, True, self._credit),
            "finish": ("review", True, self._finish),
        }
        kind = action["type"]
        _need(kind in handlers, f"Unknown action {kind!r}.")
        phase, teacher, handler = handlers[kind]
        if state["phase"] == "over":
            raise _fail("game_over", "The game is over.")
        if phase is not None and state["phase"] != phase:
            raise _fail(WRONG_PHASE, f"{kind} is not possible in the {state['phase']} phase.")
        if teacher is True and seat is not None:
            raise _fail(TEACHER_ONLY, f"Only the teacher can {kind.replace('_', ' ')}.")
        if teacher is False:
            _need(seat is not None, f"The teacher has no seat to {kind} from.", TEACHER_ONLY)
        if seat is not None:
            _need(seat in active_seats(state), "That seat is not in the game.", NOT_ALLOWED)
        return handler(state, seat, action, ctx)

    def _on_turn(self, state: State, seat: int) -> None:
        if state["turn"] != seat:
            raise _fail(NOT_YOUR_TURN, "It is not your turn.")

    # play phase
    def _play(self, state: State, seat: int, action: Action, ctx: Context) -> list[Event]:
        self._on_turn(state, seat)
        placed = self._placement(state, seat, action.get("tiles"))
        words = self._words(state, placed)
        given = _given_parses(action.get("parses"), [w["word"] for w in words])
        unknown = []
        for word in words:
            found = _check_parse(ctx, word["word"], given[word["word"]])
            if found is None:
                unknown.append(word["word"])
            else:
                word["analysis"] = found
        for word in words:
            word["given"] = given[word["word"]]
        if unknown:
            if state["options"]["unknown_words"] == "strict":
                raise _fail(NOT_A_WORD, f"{', '.join(unknown)}: not in the lexicon.")
            state["phase"] = "approval"
            state["pending"] = {"seat": seat, "tiles": placed, "words": words, "unknown": unknown}
            return [event("approval_needed", seat=seat, tiles=placed, words=_public_words(words), unknown=unknown)]
        return self._place(state, seat, placed, words)

    def _placement(self, state: State, seat: int, tiles: Any) -> list[dict[str, Any]]:
        """The tiles of a play, checked: held, on free squares, in one line, touching, no gaps."""
        _need(isinstance(tiles, list) and tiles, "A play needs a list of tiles with their squares.")
        bag = self._bag(state)
        placed = []
        for item in tiles:
            _need(isinstance(item, dict), "Each tile is {tile, square, letter}.")
            tile, name, letter = item.get("tile"), item.get("square"), item.get("letter")
            _need(isinstance(tile, int) and not isinstance(tile, bool), "A tile is given by its id.")
            _need(tile in state["racks"][seat], f"Tile {tile} is not on your rack.", NOT_HELD)
            row, col = coords(name, SIZE)
            face = bag[tile]["letter"]
            if face == "":
                _need(isinstance(letter, str), "Say which letter the blank stands for.")
                letter = greek_key(letter)
                _need(len(letter) == 1 and letter in ALPHABET, f"A blank must be one Greek letter, not {letter!r}.")
            else:
                same = letter is None or (isinstance(letter, str) and greek_key(letter) == face)
                _need(same, f"Tile {tile} is {face}, not {letter}.")
                letter = face
            placed.append({"tile": tile, "square": f"{'ABCDEFGHIJKLMNO'[col]}{row + 1}", "letter": letter})
        _need(len({p["tile"] for p in placed}) == len(placed), "The same tile twice.")
        _need(len({p["square"] for p in placed}) == len(placed), "Two tiles on one square.", BAD_PLACEMENT)
        return placed

    def _words(self, state: State, placed: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Every word the placement forms, each with its key and base score."""
        board = state["board"]
        new = {p["square"]: p for p in placed}
        runs = words_formed(board, new, SIZE)
        if not board:
            _need(CENTRE in new, "The first word must cover the centre square H8 (ἄρχου).", BAD_PLACEMENT)
        else:
            _need(touches(board, new, SIZE), "A word must use a letter already on the board.", BAD_PLACEMENT)
        _need(bool(runs), "Single-letter words are not allowed.", BAD_PLACEMENT)
        bag = self._bag(state)
        words = []
        for run in runs:
            old = sum(bag[board[name]["tile"]]["value"] for name in run if name not in new)
            score_ = word_score(old, [(bag[new[name]["tile"]]["value"], name) for name in run if name in new])
            word = "".join(new[n]["letter"] if n in new else board[n]["letter"] for n in run)
            words.append({"word": word, "squares": run, "score": score_})
        return words

    def _place(self, state: State, seat: int, placed: list[dict[str, Any]], words: list[dict[str, Any]]) -> list[Event]:
        bonus = play_bonus(len(state["racks"][seat]), len(placed))
        take(state["racks"][seat], [p["tile"] for p in placed])
        for p in placed:
            state["board"][p["square"]] = {"tile": p["tile"], "letter": p["letter"]}
        base = sum(w["score"] for w in words) + bonus
        play = {
            "number": len(state["plays"]),
            "turn": state["turn_number"],
            "seat": seat,
            "tiles": placed,
            "words": [{k: w[k] for k in ("word", "squares", "score", "analysis")} for w in words],
            "bonus": bonus,
            "base": base,
            "learning": {},
            "teaching": 0,
            "marked": False,
        }
        state["plays"].append(play)
        state["passes"] = 0
        events = [
            event("played", seat=seat, play=play["number"], tiles=placed, words=play["words"], bonus=bonus, base=base)
        ]
        events.append(self._refill(state, seat))
        if not state["bag"] and not state["racks"][seat]:
            return events + self._start_quiz(state, "A player used their last tile.")
        return events + self._next_turn(state)

    def _exchange(self, state: State, seat: int, action: Action, ctx: Context) -> list[Event]:
        self._on_turn(state, seat)
        tiles = action.get("tiles")
        _need(
            isinstance(tiles, list) and tiles and all(isinstance(t, int) for t in tiles), "Name the tiles to exchange."
        )
        _need(len(set(tiles)) == len(tiles), "The same tile twice.")
        _need(all(t in state["racks"][seat] for t in tiles), "You can only exchange tiles on your rack.", NOT_HELD)
        _need(
            len(state["bag"]) >= len(tiles),
            f"The bag has only {len(state['bag'])} tiles: you cannot exchange {len(tiles)}.",
            NOT_ALLOWED,
        )
        take(state["racks"][seat], tiles)
        events = [self._refill(state, seat)]
        state["bag"] = shuffled(state, state["bag"] + tiles)
        events.insert(0, self._rack_event(state, "exchanged", seat, {"tiles": tiles}, count=len(tiles)))
        state["passes"] = 0
        return events + self._next_turn(state)

    def _pass(self, state: State, seat: int, action: Action, ctx: Context) -> list[Event]:
        self._on_turn(state, seat)
        state["passes"] += 1
        events = [event("passed", seat=seat)]
        if state["passes"] >= len(active_seats(state)):
            return events + self._start_quiz(state, "Every player passed in turn.")
        return events + self._next_turn(state)

    def _hint(self, state: State, seat: int, action: Action, ctx: Context) -> list[Event]:
        """The best play of the asker's rack, for their eyes only (see the module docstring)."""
        self._on_turn(state, seat)
        allowed = state["options"]["hints"]
        _need(allowed > 0, "Hints are turned off at this table.", NOT_ALLOWED)
        _need(state["hints_used"][seat] < allowed, f"You have used all {allowed} of your hints.", NOT_ALLOWED)
        _need(state["hint"] is None, "You have this turn's hint already.", NOT_ALLOWED)
        _need(ctx.lexicon is not None, "This table has no lexicon to find words in.", NOT_ALLOWED)
        play = grabble_moves.best(grabble_moves.plays_for(state, seat, ctx.lexicon))
        if play is None:
            raise _fail(NO_PLAY, "No word can be placed with this rack; exchange or pass.")
        state["hints_used"][seat] += 1
        hint = {
            "tiles": [{"tile": t.tile, "square": t.square, "letter": t.letter, "blank": t.blank} for t in play.tiles],
            "words": [{"word": w.word, "squares": list(w.squares), "score": w.score} for w in play.words],
            "bonus": play.bonus,
            "score": play.score,
        }
        state["hint"] = {"seat": seat, **hint}
        return [private("hinted", [seat], {"hint": hint}, seat=seat, left=allowed - state["hints_used"][seat])]

    def _suggest(self, state: State, seat: int | None, action: Action, ctx: Context) -> list[Event]:
        _need(state["phase"] == "play", "Suggestions are for the play phase.", WRONG_PHASE)
        _need(seat != state["turn"], "Suggestions are for the player on turn, from the others.", NOT_ALLOWED)
        text = action.get("text")
        _need(isinstance(text, str) and 0 < len(text.strip()) <= MAX_TEXT, f"A suggestion is 1 to {MAX_TEXT} letters.")
        suggestion: dict[str, Any] = {"seat": seat, "text": text.strip()}
        if action.get("square") is not None:
            coords(action["square"], SIZE)
            suggestion["square"] = action["square"].upper()
        if action.get("direction") is not None:
            _need(action["direction"] in ("across", "down"), "The direction is across or down.")
            suggestion["direction"] = action["direction"]
        state["suggestions"].append(suggestion)
        return [event("suggested", to=state["turn"], **suggestion)]

    def _next_turn(self, state: State) -> list[Event]:
        state["suggestions"] = []
        state["hint"] = None
        state["turn"] = next_seat(state, state["turn"])
        state["turn_number"] += 1
        return [event("turn", seat=state["turn"])]

    def _end_play(self, state: State, seat: None, action: Action, ctx: Context) -> list[Event]:
        return self._start_quiz(state, "The teacher ended the play.")

    # teacher approval of words the lexicon cannot parse
    def _approve(self, state: State, seat: None, action: Action, ctx: Context) -> list[Event]:
        gloss = action.get("gloss", "")
        _need(isinstance(gloss, str) and len(gloss) <= 200, "A gloss is a short text.")
        pending = state["pending"]
        for word in pending["words"]:
            if "analysis" not in word:
                given = word["given"]
                word["analysis"] = {
                    "form": word["word"],
                    "lemma": given["lemma"],
                    "pos": given["pos"],
                    "parse": given["parse"],
                    "gloss": gloss,
                    "approved": True,
                }
        state["phase"], state["pending"] = "play", None
        events = [event("approved", seat=pending["seat"], words=pending["unknown"])]
        return events + self._place(state, pending["seat"], pending["tiles"], pending["words"])

    def _reject(self, state: State, seat: None, action: Action, ctx: Context) -> list[Event]:
        reason = action.get("reason", "")
        _need(isinstance(reason, str) and len(reason) <= 200, "A reason is a short text.")
        pending = state["pending"]
        state["phase"], state["pending"] = "play", None
        return [event("rejected", seat=pending["seat"], words=pending["unknown"], reason=reason)]

    # quiz phase
    def _start_quiz(self, state: State, why: str) -> list[Event]:
        state["suggestions"] = []
        state["hint"] = None
        state["phase"] = "quiz"
        state["quiz"] = {"play": 0, "answers": {}, "credits": {}}
        events = [event("play_ended", reason=why)]
        if not state["plays"]:
            state["phase"] = "review"
            return [*events, event("review")]
        return [*events, event("quiz_turn", play=0)]

    def _answer(self, state: State, seat: int, action: Action, ctx: Context) -> list[Event]:
        play = state["plays"][state["quiz"]["play"]]
        words = [w["word"] for w in play["words"]]
        given = _given_parses(action.get("parses"), words)
        state["quiz"]["answers"][str(seat)] = [given[w] for w in words]
        events = [event("answered", seat=seat, play=play["number"])]
        if all(str(s) in state["quiz"]["answers"] for s in active_seats(state)):
            events += self._mark(state)
        return events

    def _close(self, state: State, seat: None, action: Action, ctx: Context) -> list[Event]:
        return self._mark(state)

    def _mark(self, state: State) -> list[Event]:
        """Mark the quiz turn: learning points to perfect parses (or the teacher's credit), teaching to the placer."""
        quiz = state["quiz"]
        play = state["plays"][quiz["play"]]
        results = {}
        events: list[Event] = []
        for seat in active_seats(state):
            answer = quiz["answers"].get(str(seat))
            wrong = (
                None
                if answer is None
                else [_wrong_fields(g, w["analysis"]) for g, w in zip(answer, play["words"], strict=True)]
            )
            perfect = wrong is not None and not any(wrong)
            # The answers are shown once marked (the group quiz's teaching moment) and feed the learning records.
            results[str(seat)] = {"answered": answer is not None, "perfect": perfect, "wrong": wrong, "given": answer}
            points = quiz["credits"].get(str(seat), play["base"] if perfect else 0)
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

    def _credit(self, state: State, seat: None, action: Action, ctx: Context) -> list[Event]:
        _need(state["phase"] in ("quiz", "review"), "Credit is given in the quiz.", WRONG_PHASE)
        number, target, points = action.get("play"), action.get("seat"), action.get("points")
        _need(isinstance(number, int) and 0 <= number < len(state["plays"]), "Which play (turn) is the credit for?")
        play = state["plays"][number]
        _need(play["marked"] or number == state["quiz"]["play"], "That turn has not been quizzed yet.", WRONG_PHASE)
        _need(target in active_seats(state), "Credit goes to a player in the game.")
        _need(
            isinstance(points, int) and not isinstance(points, bool) and 0 <= points <= play["base"],
            f"Credit is between 0 and the base score, {play['base']}.",
        )
        if not play["marked"]:
            state["quiz"]["credits"][str(target)] = points
            return [event("credit", play=number, seat=target, points=points)]
        change = points - play["learning"].get(str(target), 0)
        play["learning"][str(target)] = points
        play["teaching"] += change
        events = [event("credit", play=number, seat=target, points=points)]
        if change:
            events.append(score(target, change, "learning", play=number, credit=True))
            events.append(score(play["seat"], change, "teaching", play=number, credit=True))
        return events

    def _finish(self, state: State, seat: None, action: Action, ctx: Context) -> list[Event]:
        state["phase"] = "over"
        return [event("game_over", scores=self.scores(state))]

    # -- removal -----------------------------------------------------------------------------
    def _after_removal(self, state: State, seat: int, ctx: Context) -> list[Event]:
        events: list[Event] = []
        rack = state["racks"][seat]
        if rack:
            state["bag"] = shuffled(state, state["bag"] + rack)
            state["racks"][seat] = []
            events.append(event("returned", seat=seat, count=len(rack)))
        if not active_seats(state):
            state["phase"] = "over"
            return [*events, event("game_over", scores=self.scores(state))]
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

    # -- what players see --------------------------------------------------------------------
    def scores(self, state: State) -> list[int]:
        totals = [0] * state["players"]
        for play in state["plays"]:
            for seat, points in play["learning"].items():
                totals[int(seat)] += points
            totals[play["seat"]] += play["teaching"]
        return totals

    def status(self, state: State) -> Status:
        phase = state["phase"]
        if phase == "play":
            return Status(phase, (state["turn"],), summary=f"Seat {state['turn']} to play.")
        if phase == "approval":
            return Status(phase, (), awaiting_teacher=True, summary="A word waits for the teacher's approval.")
        if phase == "quiz":
            waiting = tuple(s for s in active_seats(state) if str(s) not in state["quiz"]["answers"])
            return Status(phase, waiting, summary=f"Quiz on turn {state['quiz']['play'] + 1}.")
        if phase == "review":
            return Status(phase, (), awaiting_teacher=True, summary="Quiz done: the teacher reviews and finishes.")
        return Status(phase, (), finished=True, summary="Game over.")

    def actions(self, state: State, seat: int | None) -> list[str]:
        """The action types ``seat`` (``None``: the teacher) may send now."""
        phase = state["phase"]
        if seat is None:
            return {
                "play": ["end_play", "suggest"],
                "approval": ["approve", "reject"],
                "quiz": ["close", "credit"],
                "review": ["credit", "finish"],
            }.get(phase, [])
        if seat not in active_seats(state):
            return []
        if phase == "play":
            if state["turn"] != seat:
                return ["suggest"]
            hint = ["hint"] if self._hints_left(state, seat) and state["hint"] is None else []
            return ["play", "exchange", "pass", *hint]
        if phase == "quiz":
            return ["answer"]
        return []

    def _hints_left(self, state: State, seat: int) -> int:
        return state["options"]["hints"] - state["hints_used"][seat]

    def encounters(self, state: State, events: list[Event]) -> list[WordEncounter]:
        """A play: its placer played and parsed every word formed (the parse was checked, or approved by the
        teacher), everyone else saw them. A marked quiz turn: each player who answered was quizzed on each
        word, right or wrong field by field, and the placer taught the words."""
        found: list[WordEncounter] = []
        for ev in events:
            if ev["type"] == "played":
                for word in ev["words"]:
                    details = _encounter_details(word, turn=ev["play"])
                    found += played_and_seen(active_seats(state), ev["seat"], **details)
                    found.append(WordEncounter(seat=ev["seat"], kind=PARSED, correct=True, **details))
            elif ev["type"] == "marked":
                placer = state["plays"][ev["play"]]["seat"]
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
                                **_encounter_details(word, turn=ev["play"]),
                            )
                        )
                found += [
                    WordEncounter(seat=placer, kind=TAUGHT, **_encounter_details(word, turn=ev["play"]))
                    for word in ev["words"]
                ]
        return found

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        bag = self._bag(state)
        open_racks = state["options"]["open_racks"]
        quizzing = state["phase"] in ("quiz", "review")
        racks = {}
        for s in range(state["players"]):
            if open_racks or s == seat:
                racks[str(s)] = [dict(bag[t]) for t in state["racks"][s]]
        sheet = []
        for play in state["plays"]:
            show = play["marked"] or not quizzing
            sheet.append(
                {
                    "number": play["number"],
                    "turn": play["turn"],
                    "seat": play["seat"],
                    "words": [
                        {"word": w["word"], "squares": w["squares"], "score": w["score"]}
                        | ({"analysis": w["analysis"], "description": _describe(w["analysis"])} if show else {})
                        for w in play["words"]
                    ],
                    "bonus": play["bonus"],
                    "base": play["base"],
                    "marked": play["marked"],
                    "learning": play["learning"],
                    "teaching": play["teaching"],
                    "results": play.get("results"),
                }
            )
        scores = self.scores(state)
        learning = [0] * state["players"]
        for play in state["plays"]:
            for s, points in play["learning"].items():
                learning[int(s)] += points
        quiz = None
        if state["phase"] == "quiz":
            quiz = {"play": state["quiz"]["play"], "answered": sorted(int(s) for s in state["quiz"]["answers"])}
        pending = state["pending"]
        return {
            "game": self.slug,
            "phase": state["phase"],
            "players": state["players"],
            "removed": state["removed"],
            "you": seat,
            "turn": state["turn"] if state["phase"] == "play" else None,
            "actions": self.actions(state, seat),
            "board": {
                name: {
                    "letter": sq["letter"],
                    "blank": bag[sq["tile"]]["letter"] == "",
                    "value": bag[sq["tile"]]["value"],
                }
                for name, sq in state["board"].items()
            },
            "premiums": {name: kind for name, kind in PREMIUMS.items() if name not in state["board"]},
            "size": SIZE,
            "centre": CENTRE,
            "racks": racks,
            "rack_sizes": [len(r) for r in state["racks"]],
            "bag": len(state["bag"]),
            "first_draws": state["first_draws"],
            "suggestions": state["suggestions"],
            "hints_left": [self._hints_left(state, s) for s in range(state["players"])],
            "hint": _own_hint(state["hint"], seat),
            "pending": None
            if pending is None
            else {
                "seat": pending["seat"],
                "tiles": pending["tiles"],
                "words": _public_words(pending["words"]),
                "unknown": pending["unknown"],
            },
            "quiz": quiz,
            "sheet": sheet,
            "totals": {
                "learning": learning,
                "teaching": [total - learned for total, learned in zip(scores, learning, strict=True)],
                "final": scores,
            },
            "options": state["options"],
        }


# -- parses ----------------------------------------------------------------------------------
def _given_parses(parses: Any, words: list[str]) -> dict[str, dict[str, Any]]:
    """The player's parses, one per word formed, keyed by the word; checked for shape."""
    _need(isinstance(parses, list), f"Parse every word formed: {', '.join(words)}.")
    given: dict[str, dict[str, Any]] = {}
    for item in parses:
        _need(isinstance(item, dict) and isinstance(item.get("word"), str), "Each parse names its word.")
        key = greek_key(item["word"])
        _need(key in words, f"{key} is not a word formed by this move.")
        lemma = item.get("lemma")
        _need(isinstance(lemma, str) and 0 < len(lemma) <= MAX_TEXT, f"{key}: give the lemma.")
        if looks_like_beta_code(lemma):
            try:
                lemma = to_greek(lemma)
            except BetaCodeError as exc:
                raise _fail(BAD_ACTION, f"{key}: the lemma {lemma!r} is neither Greek nor Beta Code.") from exc
        pos = item.get("pos")
        try:
            pos = morphology.pos_code(pos) if isinstance(pos, str) else None
        except ValueError:
            pos = None
        _need(pos is not None, f"{key}: give the part of speech ({', '.join(morphology.POS)}).")
        parse = item.get("parse", {})
        _need(isinstance(parse, dict), f"{key}: the parse is a dict of fields.")
        clean = {}
        for name, value in parse.items():
            _need(name in morphology.FIELDS, f"{key}: {name!r} is not a parse field.")
            _need(isinstance(value, str) and value.strip().upper() in morphology.VALUES[name], f"{key}: bad {name}.")
            clean[name] = value.strip().upper()
        given[key] = {"lemma": lemma, "pos": pos, "parse": clean}
    missing = [w for w in words if w not in given]
    _need(not missing, f"Parse every word formed; missing: {', '.join(missing)}.")
    return given


def _encounter_details(word: dict[str, Any], turn: int) -> dict[str, Any]:
    analysis = word.get("analysis") or {}
    return {
        "key": word["word"],
        "form": analysis.get("form") or word["word"],
        "lemma": analysis.get("lemma", ""),
        "analysis": analysis,
        "turn": turn,
    }


def _wrong_fields(given: dict[str, Any], analysis: dict[str, Any]) -> list[str]:
    """What is wrong in ``given`` against one analysis: "lemma", "part of speech", then parse fields."""
    wrong = []
    if greek_key(given["lemma"]) != greek_key(analysis["lemma"]):
        wrong.append("lemma")
    pos = morphology.pos_code(analysis["pos"])
    if given["pos"] != pos:
        wrong.append("part of speech")
    return wrong + morphology.compare(given["parse"], {"pos": pos, "parse": analysis["parse"]})


def _check_parse(ctx: Context, key: str, given: dict[str, Any]) -> dict[str, Any] | None:
    """The lexicon analysis of ``key`` that ``given`` matches; ``None`` if the lexicon cannot tell.

    A wrong parse raises, naming what is wrong against the closest analysis (never the answer)."""
    lexicon = ctx.lexicon
    analyses = [dict(a) for a in lexicon.analyses(key)] if lexicon is not None and lexicon.is_word(key) else []
    if not analyses:
        return None
    best = None
    for analysis in analyses:
        wrong = _wrong_fields(given, analysis)
        if not wrong:
            return {k: analysis.get(k, "") for k in ("form", "lemma", "pos", "parse", "gloss")}
        if best is None or len(wrong) < len(best):
            best = wrong
    fields = [name for name in best]
    verb = "is" if len(fields) == 1 else "are"
    raise _fail(WRONG_PARSE, f"{key}: {_join(fields)} {verb} wrong.")


def _join(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _describe(analysis: dict[str, Any]) -> str:
    try:
        return morphology.describe(analysis["pos"], analysis["parse"])
    except (ValueError, KeyError):
        return ""


def _own_hint(hint: dict[str, Any] | None, seat: int | None) -> dict[str, Any] | None:
    """The hint, for the seat that asked for it only."""
    if hint is None or seat is None or hint["seat"] != seat:
        return None
    return {k: v for k, v in hint.items() if k != "seat"}


def _public_words(words: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"word": w["word"], "squares": w["squares"], "score": w["score"], "given": w["given"]} for w in words]


RULES = Grabble()
