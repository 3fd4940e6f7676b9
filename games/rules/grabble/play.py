"""Grabble's play phase: laying words (with their parses, or a preview without them), exchanging, passing, hints,
suggestions from the other players, and the teacher's approval of words the lexicon cannot parse."""

from typing import Any

from games.engine import (
    ANYONE,
    INTS,
    LIST,
    STR,
    TEACHER,
    TURN,
    Action,
    AppError,
    Context,
    Event,
    Field,
    Game,
    State,
    action,
    event,
    private,
)
from games.engine.board import BAD_PLACEMENT, coords, touches, words_formed
from games.engine.cards import deal, take
from games.engine.errors import NOT_A_WORD, NOT_ALLOWED, NOT_HELD
from games.engine.rng import shuffled
from games.engine.turns import active_seats, next_seat
from lexicons.normalise import greek_key

from . import moves
from .board import ALPHABET, CENTRE, RACK, SIZE, play_bonus, tile_bag, word_score
from .parses import MAX_TEXT, check_parse, given_parses, is_proper, lemma_previews, need, readings

NO_PLAY = "no_play"
COLUMNS = "ABCDEFGHIJKLMNO"
PARSE_HELP = "One {word, lemma, pos, parse} per word formed; the lemma in Greek or Beta Code."


class PlayPhase(Game):
    """The actions of the play and approval phases: a part of :class:`games.rules.grabble.Grabble`, a :class:`Game` so
    that it may call what the game implements (``scores``, ``status``)."""

    # -- helpers the phases share --------------------------------------------------------------
    def _bag(self, state: State) -> tuple[dict[str, Any], ...]:
        return tile_bag(state["bag_size"])

    def _refill(self, state: State, seat: int) -> Event:
        drawn = deal(state["bag"], RACK - len(state["racks"][seat]))
        state["racks"][seat].extend(drawn)
        return self._rack_event(state, "drew", seat, {"tiles": drawn}, count=len(drawn), bag=len(state["bag"]))

    def _rack_event(self, state: State, type_: str, seat: int, secret: dict[str, Any], **public: Any) -> Event:
        """Tiles are public in an open game, otherwise only their owner sees them."""
        if state["options"]["open_racks"]:
            return event(type_, seat=seat, **public, **secret)
        return private(type_, [seat], secret, seat=seat, **public)

    def _next_turn(self, state: State) -> list[Event]:
        state["suggestions"] = []
        state["hint"] = None
        state["turn"] = next_seat(state, state["turn"])
        state["turn_number"] += 1
        return [event("turn", seat=state["turn"])]

    def _start_quiz(self, state: State, why: str) -> list[Event]:
        """The play is over: the quiz goes through the turns played, first to last (straight to the review when
        no word was played)."""
        state["suggestions"] = []
        state["hint"] = None
        state["phase"] = "quiz"
        state["quiz"] = {"play": 0, "answers": {}, "credits": {}}
        events = [event("play_ended", reason=why)]
        if not state["plays"]:
            state["phase"] = "review"
            return [*events, event("review")]
        return [*events, event("quiz_turn", play=0)]

    # -- play --------------------------------------------------------------------------------------
    @action(
        "play",
        phases=("play",),
        actor=TURN,
        fields=(
            Field("tiles", LIST, max_items=RACK, help="Each {tile, square, letter (blanks only)}."),
            Field("parses", LIST, required=False, help=PARSE_HELP),
        ),
        preview="_preview_play",
        label="Play",
    )
    def _play(self, state: State, seat: int, action: Action, ctx: Context) -> list[Event]:
        placed = self._placement(state, seat, action["tiles"])
        words = self._words(state, placed)
        given = given_parses(action.get("parses"), [w["word"] for w in words])
        unknown = []
        proper_nouns = state["options"].get("proper_nouns", "refused") == "teacher"
        for word in words:
            found = check_parse(ctx, word["word"], given[word["word"]], proper_nouns)
            if found is None:
                unknown.append(word["word"])
            else:
                word["analysis"] = found
                word["analyses"] = readings(ctx, word["word"], proper_nouns)
        for word in words:
            word["given"] = given[word["word"]]
        proper = [w for w in unknown if is_proper(given[w]["lemma"])]
        if proper and not proper_nouns:
            names = ", ".join(f"{w} ({given[w]['lemma']})" for w in proper)
            raise AppError(NOT_A_WORD, f"{names}: proper nouns are not game words at this table.")
        if unknown:
            if state["options"]["unknown_words"] == "strict":
                raise AppError(NOT_A_WORD, f"{', '.join(unknown)}: not in the lexicon.")
            state["phase"] = "approval"
            state["pending"] = {"seat": seat, "tiles": placed, "words": words, "unknown": unknown}
            # The parse given is the player's answer to a quiz question to come: theirs (and the teacher's, in the
            # view) only.
            secret = {"words": public_words(words, given=True)}
            return [
                private(
                    "approval_needed",
                    [seat],
                    secret,
                    seat=seat,
                    tiles=placed,
                    words=public_words(words),
                    unknown=unknown,
                )
            ]
        return self._place(state, seat, placed, words)

    def _preview_play(self, state: State, seat: int, action: Action, ctx: Context) -> dict[str, Any]:
        """The words the tiles form with their scores, the bonus and the total, and the Greek of every lemma given
        so far: what the page shows while the player lays tiles and types. Parses are optional and not checked."""
        placed = self._placement(state, seat, action["tiles"])
        words = self._words(state, placed)
        bonus = play_bonus(len(state["racks"][seat]), len(placed))
        return {
            "words": [{k: w[k] for k in ("word", "squares", "score")} for w in words],
            "bonus": bonus,
            "total": sum(w["score"] for w in words) + bonus,
            "lemmas": lemma_previews(action.get("parses") or []),
        }

    def _placement(self, state: State, seat: int, tiles: list[Any]) -> list[dict[str, Any]]:
        """The tiles of a play, checked: held, on free squares, in one line, touching, no gaps."""
        need(bool(tiles), "A play needs a list of tiles with their squares.")
        bag = self._bag(state)
        placed = []
        for item in tiles:
            need(isinstance(item, dict), "Each tile is {tile, square, letter}.")
            tile, name, letter = item.get("tile"), item.get("square"), item.get("letter")
            need(isinstance(tile, int) and not isinstance(tile, bool), "A tile is given by its id.")
            need(tile in state["racks"][seat], f"Tile {tile} is not on your rack.", NOT_HELD)
            row, col = coords(name, SIZE)
            face = bag[tile]["letter"]
            if face == "":
                need(isinstance(letter, str), "Say which letter the blank stands for.")
                letter = greek_key(letter)
                need(len(letter) == 1 and letter in ALPHABET, f"A blank must be one Greek letter, not {letter!r}.")
            else:
                same = letter is None or (isinstance(letter, str) and greek_key(letter) == face)
                need(same, f"Tile {tile} is {face}, not {letter}.")
                letter = face
            placed.append({"tile": tile, "square": f"{COLUMNS[col]}{row + 1}", "letter": letter})
        need(len({p["tile"] for p in placed}) == len(placed), "The same tile twice.")
        need(len({p["square"] for p in placed}) == len(placed), "Two tiles on one square.", BAD_PLACEMENT)
        return placed

    def _words(self, state: State, placed: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Every word the placement forms, each with its key and base score."""
        board = state["board"]
        new = {p["square"]: p for p in placed}
        runs = words_formed(board, new, SIZE)
        if not board:
            need(CENTRE in new, "The first word must cover the centre square H8 (ἄρχου).", BAD_PLACEMENT)
        else:
            need(touches(board, new, SIZE), "A word must use a letter already on the board.", BAD_PLACEMENT)
        need(bool(runs), "Single-letter words are not allowed.", BAD_PLACEMENT)
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
            "words": [{k: w[k] for k in ("word", "squares", "score", "analysis", "analyses")} for w in words],
            "bonus": bonus,
            "base": base,
            "learning": {},
            "teaching": 0,
            "marked": False,
        }
        state["plays"].append(play)
        state["passes"] = 0
        # Each word's analysis is the answer to a quiz question to come: the placer's only, until the turn is marked.
        secret = {"words": play["words"]}
        public = public_words(play["words"])
        events = [
            private(
                "played",
                [seat],
                secret,
                seat=seat,
                play=play["number"],
                tiles=placed,
                words=public,
                bonus=bonus,
                base=base,
            )
        ]
        events.append(self._refill(state, seat))
        if not state["bag"] and not state["racks"][seat]:
            return events + self._start_quiz(state, "A player used their last tile.")
        return events + self._next_turn(state)

    # -- exchange, pass ------------------------------------------------------------------------------
    def _bag_not_empty(self, state: State, seat: int | None) -> None:
        need(bool(state["bag"]), "The bag is empty: there is nothing to exchange with.", NOT_ALLOWED)

    def _rack_choices(self, state: State, seat: int) -> dict[str, Any]:
        return {"tiles": list(state["racks"][seat])}

    @action(
        "exchange",
        phases=("play",),
        actor=TURN,
        fields=(Field("tiles", INTS, max_items=RACK),),
        allowed="_bag_not_empty",
        choices="_rack_choices",
        label="Exchange tiles",
    )
    def _exchange(self, state: State, seat: int, action: Action, ctx: Context) -> list[Event]:
        tiles = action["tiles"]
        need(bool(tiles), "Name the tiles to exchange.")
        need(len(set(tiles)) == len(tiles), "The same tile twice.")
        need(all(t in state["racks"][seat] for t in tiles), "You can only exchange tiles on your rack.", NOT_HELD)
        need(
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

    @action("pass", phases=("play",), actor=TURN, label="Pass")
    def _pass(self, state: State, seat: int, action: Action, ctx: Context) -> list[Event]:
        state["passes"] += 1
        events = [event("passed", seat=seat)]
        if state["passes"] >= len(active_seats(state)):
            return events + self._start_quiz(state, "Every player passed in turn.")
        return events + self._next_turn(state)

    # -- hint --------------------------------------------------------------------------------------------
    def _hints_left(self, state: State, seat: int) -> int:
        return int(state["options"]["hints"]) - int(state["hints_used"][seat])

    def _can_hint(self, state: State, seat: int) -> None:
        allowed = state["options"]["hints"]
        need(allowed > 0, "Hints are turned off at this table.", NOT_ALLOWED)
        need(state["hints_used"][seat] < allowed, f"You have used all {allowed} of your hints.", NOT_ALLOWED)
        need(state["hint"] is None, "You have this turn's hint already.", NOT_ALLOWED)

    @action("hint", phases=("play",), actor=TURN, allowed="_can_hint", label="Hint")
    def _hint(self, state: State, seat: int, action: Action, ctx: Context) -> list[Event]:
        """The best play of the asker's rack, for their eyes only (see docs/games/grabble.md)."""
        need(ctx.lexicon is not None, "This table has no lexicon to find words in.", NOT_ALLOWED)
        assert ctx.lexicon is not None
        play = moves.best(moves.plays_for(state, seat, ctx.lexicon))
        if play is None:
            raise AppError(NO_PLAY, "No word can be placed with this rack; exchange or pass.")
        state["hints_used"][seat] += 1
        hint = {
            "tiles": [{"tile": t.tile, "square": t.square, "letter": t.letter, "blank": t.blank} for t in play.tiles],
            "words": [{"word": w.word, "squares": list(w.squares), "score": w.score} for w in play.words],
            "bonus": play.bonus,
            "score": play.score,
        }
        state["hint"] = {"seat": seat, **hint}
        left = self._hints_left(state, seat)
        return [private("hinted", [seat], {"hint": hint}, seat=seat, left=left)]

    # -- suggestions ---------------------------------------------------------------------------------
    def _can_suggest(self, state: State, seat: int | None) -> None:
        need(seat != state["turn"], "Suggestions are for the player on turn, from the others.", NOT_ALLOWED)

    @action(
        "suggest",
        phases=("play",),
        actor=ANYONE,
        fields=(
            Field("text", STR, max_length=MAX_TEXT),
            Field("square", STR, required=False, max_length=3),
            Field("direction", STR, required=False, max_length=6),
        ),
        allowed="_can_suggest",
        choices="_suggest_choices",
        label="Suggest",
    )
    def _suggest(self, state: State, seat: int | None, action: Action, ctx: Context) -> list[Event]:
        text = action["text"].strip()
        need(0 < len(text) <= MAX_TEXT, f"A suggestion is 1 to {MAX_TEXT} letters.")
        suggestion: dict[str, Any] = {"seat": seat, "text": text}
        if action.get("square") is not None:
            coords(action["square"], SIZE)
            suggestion["square"] = action["square"].upper()
        if action.get("direction") is not None:
            need(action["direction"] in ("across", "down"), "The direction is across or down.")
            suggestion["direction"] = action["direction"]
        state["suggestions"].append(suggestion)
        return [event("suggested", to=state["turn"], **suggestion)]

    def _suggest_choices(self, state: State, seat: int | None) -> dict[str, Any]:
        return {"direction": ["across", "down"]}

    # -- the teacher ---------------------------------------------------------------------------------
    @action("end_play", phases=("play",), actor=TEACHER, label="End the play and start the quiz")
    def _end_play(self, state: State, seat: None, action: Action, ctx: Context) -> list[Event]:
        return self._start_quiz(state, "The teacher ended the play.")

    @action(
        "approve",
        phases=("approval",),
        actor=TEACHER,
        fields=(Field("gloss", STR, required=False),),
        label="Approve",
    )
    def _approve(self, state: State, seat: None, action: Action, ctx: Context) -> list[Event]:
        gloss = action.get("gloss") or ""
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
                word["analyses"] = [word["analysis"]]
        state["phase"], state["pending"] = "play", None
        events = [event("approved", seat=pending["seat"], words=pending["unknown"])]
        return events + self._place(state, pending["seat"], pending["tiles"], pending["words"])

    @action(
        "reject",
        phases=("approval",),
        actor=TEACHER,
        fields=(Field("reason", STR, required=False),),
        label="Reject",
    )
    def _reject(self, state: State, seat: None, action: Action, ctx: Context) -> list[Event]:
        reason = action.get("reason") or ""
        pending = state["pending"]
        state["phase"], state["pending"] = "play", None
        return [event("rejected", seat=pending["seat"], words=pending["unknown"], reason=reason)]


def public_words(words: list[dict[str, Any]], given: bool = False) -> list[dict[str, Any]]:
    """The words as everyone may see them before the quiz: no analysis, and the given parse only if asked for."""
    return [
        {"word": w["word"], "squares": w["squares"], "score": w["score"]} | ({"given": w["given"]} if given else {})
        for w in words
    ]
