"""Robots-only games of every game at every level, played to the end from views alone, with the contract suite's
invariants checked after every move; and what a robot is given is exactly its own seat's view."""

import functools
import random
from pathlib import Path
from typing import Any

import pytest

from games import robots
from games.engine import AppError, Context, Game, State, WordList, WordSet
from games.robots.selfplay import play_one
from games.rules import GAMES
from lexicons.loaders import read_records
from lexicons.normalise import key_function
from tests.games.contract.cases import case_for
from tests.games.contract.harness import Played, check_state, new_played, replay, totals


@functools.cache
def english() -> WordSet:
    """The bundled English list (Palabra's robots need more words than the contract case's few to get anywhere)."""
    key = key_function("eng")
    return WordSet([key(r.form) for r in read_records("csv", [ENGLISH])], "eng", normalise=key)


def words_for(slug: str) -> WordList | None:
    return english() if slug == "palabra" else case_for(slug).lexicon


ENGLISH = Path(__file__).resolve().parents[3] / "lexicons" / "data" / "eng-enable.tsv.gz"
GAMES_PER_LEVEL = {"grabble": 4, "palabra": 6, "palabras_cortas": 3, "palabras_cortas_solitario": 10, "pala": 4}


def _contract_check(played: Played):
    def on_move(before: State, seat: int | None, action: dict[str, Any], after: State, events: list) -> None:
        played.state = after
        played.log.append(("action", seat, action))
        played.score_events = totals(events, played.players, played.score_events)
        check_state(played, after, events, before)

    return on_move


@pytest.mark.parametrize("level", robots.LEVELS)
@pytest.mark.parametrize("slug", sorted(GAMES))
def test_robots_play_every_game_to_its_end(slug: str, level: str) -> None:
    rules: Game = GAMES[slug]
    case = case_for(slug)
    rng = random.Random(f"robots-{slug}-{level}")
    finished = 0
    runs = GAMES_PER_LEVEL.get(slug, 6)
    for _ in range(runs):
        played = new_played(rules, case, rng)
        levels = {seat: level for seat in range(played.players)}
        words = words_for(slug)
        game = play_one(rules, played.state, words, levels, rng, on_move=_contract_check(played))
        assert replay(played, Context(words, 1_000_000.0)) == game.state
        finished += rules.status(game.state).finished
        assert rules.status(game.state).finished or game.stalemate, f"{slug} at {level} did not end"
    # Only Palabra's stalemates (hands of consonants, the pile too small to exchange) may stop a game short.
    assert finished >= (runs // 2 if slug == "palabra" else runs)


def test_mixed_levels_at_one_table() -> None:
    rules = GAMES["palabras_cortas"]
    case = case_for("palabras_cortas")
    rng = random.Random(5)
    state, _ = rules.new_game(3, {"checking": "challenge"}, 11)
    game = play_one(rules, state, case.lexicon, dict(enumerate(robots.LEVELS)), rng)
    assert rules.status(game.state).finished


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_a_robot_is_given_only_its_own_view(slug: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever a brain is passed is exactly the envelope its seat's page gets: no state, no other hand."""
    rules = GAMES[slug]
    case = case_for(slug)
    given: list[tuple[dict[str, Any], State]] = []
    brain = robots.BRAINS[slug]
    holder: dict[str, State] = {}

    def spy(view: dict[str, Any], words: Any, level: str, rng: random.Random) -> list[dict[str, Any]]:
        given.append((view, holder["state"]))
        return brain(view, words, level, rng)

    monkeypatch.setitem(robots.BRAINS, slug, spy)
    rng = random.Random(1)
    played = new_played(rules, case, rng)

    def track(before: State, seat: Any, action: Any, after: State, events: Any) -> None:
        holder["state"] = after

    holder["state"] = played.state
    play_one(rules, played.state, case.lexicon, dict.fromkeys(range(played.players), "steady"), rng,
             max_moves=150, on_move=track)  # fmt: skip
    assert given
    for view, state in given:
        assert set(view) == set(rules.view(state, view["seat"]))
        assert view == rules.view(state, view["seat"])
        assert "state" not in view
        from tests.games.contract.harness import piece_ids

        shown = set(piece_ids(rules, view["body"]))
        assert shown <= set(rules.visible_pieces(state, view["seat"]))


def _at_the_queens_swap(rules: Game, rng: random.Random) -> State:
    """A Pablo game played by steady robots until a player's turn is the queen's swap (which may not be declined)."""
    reached: list[State] = []

    def note_the_queen(before: State, seat: int | None, action: Any, after: State, events: Any) -> None:
        if after["phase"] == "queen":
            reached.append(after)

    for _ in range(50):
        state, _ = rules.new_game(3, None, rng.randrange(2**62))
        play_one(rules, state, None, dict.fromkeys(range(3), "steady"), rng, on_move=note_the_queen)
        if reached:
            return reached[0]
    raise AssertionError("no queen's swap came up")


def _first_accepted(rules: Game, state: State, seat: int, answers: list[dict[str, Any]], ctx: Context) -> State | None:
    """The state after the first of a robot's ``answers`` that the rules accept; ``None``: they refused them all."""
    for action in answers:
        try:
            return rules.apply(state, seat, action, ctx)[0]
        except AppError:
            continue
    return None


def test_a_beginner_who_would_rather_not_swap_still_makes_the_queens_swap() -> None:
    """The queen's swap cannot be declined while a card can be swapped. A beginner who would rather not swap used to
    answer with the fallback's swap alone, its slot drawn from every slot offered: aimed at an empty place, every
    answer was refused, and at a live table, where the robot decides the same way each time it looks at the same
    version, the game waited for it for ever (a practice game found it)."""
    rules = GAMES["pablo"]
    ctx = Context(None, 1_000_000.0)
    state = _at_the_queens_swap(rules, random.Random("queen"))
    swapper = state["turn"]
    # A card matched away: an empty place in one other field, while the same place holds a card in another (so it is
    # among the slots offered).
    victim = next(owner for owner in range(state["players"]) if owner != swapper)
    state["fields"][victim][0] = None
    view = rules.view(state, swapper)
    for seed in range(200):
        after = _first_accepted(rules, state, swapper, robots.decide(view, None, "beginner", random.Random(seed)), ctx)
        assert after is not None, f"seed {seed}: every answer of the beginner was refused"
        assert after["phase"] != "queen" or after["turn"] != swapper
