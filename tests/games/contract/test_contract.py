"""One contract suite for every registered game (and the toy game the framework tests use): random games played
only from the envelope's actions, with the invariants of :mod:`.harness` checked after every move."""

import os
import random

import pytest

from games.engine import Context, Game
from games.rules import GAMES
from tests.games.toygame import TOY

from .cases import case_for
from .harness import new_played, replay, step

EVERY_GAME = {**GAMES, TOY.slug: TOY}
# CONTRACT_GAMES=n plays n random games per game instead of each case's count (e.g. 2000 before a release).
SCALE = int(os.environ.get("CONTRACT_GAMES", "0"))


@pytest.mark.parametrize("slug", sorted(EVERY_GAME))
def test_random_games_keep_the_contract(slug):
    rules: Game = EVERY_GAME[slug]
    case = case_for(slug)
    rng = random.Random(f"contract-{slug}")
    ctx = Context(case.lexicon, 1_000_000.0)
    finished = moves = 0
    for _ in range(SCALE or case.games):
        played = new_played(rules, case, rng)
        for _ in range(case.steps):
            if not step(played, case, rng, ctx):
                break
        assert replay(played, ctx) == played.state, f"replay of seed {played.seed} differs"
        finished += rules.status(played.state).finished
        moves += played.accepted
    assert moves > 0, "random play from the envelope made no move at all"


@pytest.mark.parametrize("slug", sorted(EVERY_GAME))
def test_every_game_declares_the_contract(slug):
    rules: Game = EVERY_GAME[slug]
    assert rules.action_specs, "a game declares its actions"
    assert rules.long_actions <= set(rules.action_specs), "long_actions names declared actions"
    for spec in rules.action_specs.values():
        assert callable(getattr(rules, spec.handler))
        for hook in (spec.allowed, spec.choices, spec.preview):
            assert hook is None or callable(getattr(rules, hook))
    state, _ = rules.new_game(rules.min_players, {}, 7)
    view = rules.view(state, 0)
    assert set(view) >= {"game", "seat", "phase", "to_act", "actions", "scores", "finished", "winners", "last_move"}
    assert view["game"] == slug
    assert "body" in view
