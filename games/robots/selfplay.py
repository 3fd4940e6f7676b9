"""Robots-only games, pure: every seat a robot, played from views alone through the rules. For tests and the
benchmark (the services play robots through the move path instead)."""

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from games.engine import AppError, Context, Game, State, WordList
from games.engine.turns import active_seats

from . import decide, teacher_stand_in

Action = dict[str, Any]


@dataclass
class Played:
    state: State
    moves: int = 0
    refused: int = 0
    thinking: list[float] = field(default_factory=list)  # seconds per decision
    log: list[tuple[int | None, Action]] = field(default_factory=list)
    stalemate: bool = False  # every seat passed round after round with nothing else to do: a teacher would end it


def play_one(
    rules: Game,
    state: State,
    words: WordList | None,
    levels: dict[int, str],
    rng: random.Random,
    *,
    max_moves: int = 3000,
    on_move: Callable[[State, int | None, Action, State, list[Any]], None] | None = None,
) -> Played:
    """Play ``state`` to its end with robots of ``levels`` (seat → level) in every seat, and a teacher stand-in
    where the game waits for the teacher. Raises ``AssertionError`` if the game gets stuck (nobody may act). A
    game where every seat only passes, round after round, is stopped as a stalemate (Palabra's hands of
    consonants once the pile is too small to exchange): at a table the teacher, or the practising student, ends it."""
    game = Played(state)
    ctx = Context(words, 1_000_000.0)
    passes = 0
    while not rules.status(game.state).finished and game.moves < max_moves:
        if passes >= 6 * max(1, len(active_seats(game.state))):
            game.stalemate = True
            break
        acted = False
        for seat in active_seats(game.state):
            view = rules.view(game.state, seat)
            if not view["actions"]:
                continue
            started = time.perf_counter()
            candidates = decide(view, words, levels[seat], rng)
            game.thinking.append(time.perf_counter() - started)
            for action in candidates:
                try:
                    new_state, events = rules.apply(game.state, seat, action, ctx)
                except AppError:
                    game.refused += 1
                    continue
                if on_move is not None:
                    on_move(game.state, seat, action, new_state, events)
                game.state = new_state
                game.log.append((seat, action))
                game.moves += 1
                passes = passes + 1 if action["type"] == "pass" else 0
                acted = True
                break
            if acted:
                break
        if acted:
            continue
        stand_in = teacher_stand_in(rules.view(game.state, None))
        if stand_in is None:
            raise AssertionError(f"{rules.slug}: nobody acts in phase {rules.status(game.state).phase}")
        new_state, events = rules.apply(game.state, None, stand_in, ctx)
        if on_move is not None:
            on_move(game.state, None, stand_in, new_state, events)
        game.state = new_state
        game.log.append((None, stand_in))
        game.moves += 1
    return game
