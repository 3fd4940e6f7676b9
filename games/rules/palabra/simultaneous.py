"""Simultaneous play, the rulebook's variant for six or more players: everyone lays a pre-play and a play face down
at once, in rounds, and a round is turned over when everyone is ready. How the variant is read (targets, what the
others see, conflicts, the end) is in ``docs/games/palabra.md``."""

from typing import Any

from games.engine.events import Event, event, private
from games.engine.game import State
from games.engine.rng import shuffled
from games.engine.turns import active_seats

from .common import ROUND, Common
from .deck import HAND_SIZE

MIN_PLAYERS = 6
WORD_PLAYS = ("word", "build", "straight", "flush")


def face_down_cards(state: State, seat: int) -> list[int]:
    """The cards ``seat`` has laid face down this round (none outside simultaneous play)."""
    rnd = state.get("round")
    if not rnd:
        return []
    play = rnd["plays"][seat]
    return [card for piece in rnd["preplays"][seat] or [] for card in piece["cards"]] + (play["cards"] if play else [])


class SimultaneousRounds(Common):
    """The round flow of simultaneous play, mixed into :class:`~.game.Palabra`: it lays plays down with the same
    checks (``_joker_pieces``, ``_word_play``...) and resolves them with the same scoring (``_resolve_preplays``,
    ``_record``, ``_vowel_play``) as a turn does."""

    def _start_round(self, state: State, events: list[Event], number: int = 1) -> None:
        players = state["players"]
        state["round"] = {"no": number, "preplays": [None] * players, "plays": [None] * players}
        state.update(phase=ROUND, timer=None)
        events.append(event("round", no=number))

    def _not_ready(self, state: State) -> list[int]:
        return [s for s in active_seats(state) if state["round"]["plays"][s] is None]

    def _lay_preplay_face_down(
        self, state: State, seat: int, pieces: list[dict[str, Any]], events: list[Event]
    ) -> None:
        """A checked pre-play laid face down; its player draws replacements at once."""
        cards = [card for piece in pieces for card in piece["cards"]]
        self._take(state, seat, cards)
        state["round"]["preplays"][seat] = pieces
        words = sorted({piece["victim"] for piece in pieces})
        events.append(private("preplay_laid", [seat], {"pieces": pieces}, seat=seat, count=len(cards), words=words))
        self._draw(state, seat, events)

    def _lay_play_face_down(self, state: State, seat: int, play: dict[str, Any], events: list[Event]) -> None:
        """A checked play ``{type, cards}`` (the cards leaving the hand, plus the ``word`` and its ``lookup`` for plays
        that go on the table) laid face down: its player is ready, and the last one ready reveals the round."""
        self._take(state, seat, play["cards"])
        state["round"]["plays"][seat] = play
        events.append(private("play_laid", [seat], {"play": play}, seat=seat, count=len(play["cards"])))
        if not self._not_ready(state):
            self._reveal(state, events)

    def _reveal(self, state: State, events: list[Event]) -> None:
        """Turn everything over: all pre-plays, then all plays, old words off the table, then refill or end."""
        rnd = state["round"]
        seats = range(state["players"])
        events.append(
            event(
                "revealed",
                no=rnd["no"],
                preplays=list(rnd["preplays"]),
                plays=[self._shown(p, public=True) for p in rnd["plays"]],
            )
        )
        state["round"] = None  # everything laid is face up now: its cards go where the reveal puts them
        self._resolve_preplays(state, [piece for s in seats for piece in rnd["preplays"][s] or []], events)
        plays = rnd["plays"]
        winners = self._build_winners(state, plays)
        old_words, state["table"] = state["table"], [None] * state["players"]
        for owner, word in enumerate(old_words):
            if word and owner not in winners:
                state["discard"].extend(word["cards"])
                events.append(event("word_discarded", seat=owner, word=word["id"]))
        placed: dict[int, dict[str, Any]] = {}
        returned: list[int] = []
        for seat in seats:
            play = plays[seat]
            if play is None:
                continue
            if play["type"] in WORD_PLAYS:
                word = play["word"]
                built_on = word.get("built_on")
                if built_on and winners[built_on["seat"]] != seat:
                    state["discard"].extend(play["cards"])
                    self._record(state, word, events, play["lookup"], on_table=False)
                else:
                    state["table"][seat] = word
                    self._record(state, word, events, play["lookup"])
                placed[seat] = word
            elif play["type"] == "vowels":
                self._vowel_play(state, seat, play["cards"], events)
            elif play["type"] == "exchange":
                returned += play["cards"]
                events.append(event("exchanged", seat=seat, count=len(play["cards"])))
            else:
                events.append(event("passed", seat=seat))
        if returned:
            state["pile"] = shuffled(state, state["pile"] + returned)
        acted = any(rnd["preplays"]) or any(play and play["type"] != "pass" for play in plays)
        self._end_round(state, events, placed, acted, rnd["no"])

    def _build_winners(self, state: State, plays: list[dict[str, Any] | None]) -> dict[int, int]:
        """For each word built on, the builder who takes its cards: the first in seat order after its owner."""
        players = state["players"]
        winners: dict[int, int] = {}
        for offset in range(1, players):
            for owner in range(players):
                builder = (owner + offset) % players
                play = plays[builder]
                building = play and play["type"] == "build" and play["word"]["built_on"]["seat"] == owner
                if owner not in winners and building:
                    winners[owner] = builder
        return winners

    def _end_round(
        self, state: State, events: list[Event], placed: dict[int, dict[str, Any]], acted: bool, number: int
    ) -> None:
        seats = active_seats(state)
        needed = sum(HAND_SIZE - len(state["hands"][s]) for s in seats)
        if needed > len(state["pile"]):
            finals = [word for seat, word in placed.items() if not state["hands"][seat]]
            self._end_game(state, events, "pile_short", finals=finals)
        elif not acted and not state["pile"]:
            self._end_game(state, events, "no_plays")
        else:
            for seat in seats:
                self._draw(state, seat, events)
            self._start_round(state, events, number + 1)

    def _pass_stragglers(self, state: State, events: list[Event]) -> None:
        """The impatient timer ran out: everyone not yet ready passes, then the round is revealed."""
        for seat in self._not_ready(state):
            state["round"]["plays"][seat] = {"type": "pass", "cards": []}
            events.append(event("timed_out", seat=seat))
        self._reveal(state, events)

    def _leave_round(self, state: State, seat: int, events: list[Event]) -> None:
        """The teacher removed ``seat`` mid-round: their hand and face-down cards go back into the pile."""
        rnd = state["round"]
        returned = state["hands"][seat] + face_down_cards(state, seat)
        state["hands"][seat] = []
        rnd["preplays"][seat] = rnd["plays"][seat] = None
        state["pile"] = shuffled(state, state["pile"] + returned)
        events.append(event("player_removed", seat=seat, returned=len(returned)))
        if len(active_seats(state)) < 2:
            self._end_game(state, events, "players_left")
        elif not self._not_ready(state):
            self._reveal(state, events)

    def _round_view(self, state: State, seat: int | None) -> dict[str, Any] | None:
        """The round as ``seat`` sees it: everyone's face-down card counts, and their own laid cards."""
        rnd = state["round"]
        if not rnd or state["finished"]:
            return None
        seats = []
        for s in range(state["players"]):
            pieces, play = rnd["preplays"][s], rnd["plays"][s]
            seats.append(
                {
                    "ready": play is not None,
                    "preplay_cards": sum(len(piece["cards"]) for piece in pieces or []),
                    "preplay_words": sorted({piece["victim"] for piece in pieces or []}),
                    "play_cards": len(play["cards"]) if play else 0,
                }
            )
        mine = None
        if seat is not None:
            mine = {"preplay": rnd["preplays"][seat], "play": self._shown(rnd["plays"][seat])}
        return {"no": rnd["no"], "seats": seats, "mine": mine}

    def _shown(self, play: dict[str, Any] | None, public: bool = False) -> dict[str, Any] | None:
        """A laid play as its owner sees it, or (``public``) as everyone sees it at the reveal: exchanged and vowel
        cards go back into the pile, so the reveal names only how many (the vowel play then shows its letters)."""
        if play is None:
            return None
        hidden = public and play["type"] in ("exchange", "vowels")  # those cards go back into the hidden pile
        shown = {"type": play["type"], "count": len(play["cards"]), "cards": [] if hidden else list(play["cards"])}
        if "word" in play:
            shown["letters"] = "".join(play["word"]["letters"])
            shown["value"] = play["word"]["value"]
            shown["built_on"] = play["word"].get("built_on")
        return shown
