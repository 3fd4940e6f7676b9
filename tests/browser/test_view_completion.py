"""static/games/completion.js in the browser: a page completes each move's view (sent without the game's fixed parts,
and with only the rows of its record the move changed: Grabble's score sheet, Pala's rounds and Palabras Cortas's
hands past) from the view it holds, and gets the view the server would have sent whole. The moves are random games
played as the contract suite plays them: Grabble through the play, the quiz and its marking; Pala and Palabras Cortas
over rounds and hands scored; Palabra, whose fixed parts come without a record."""

import json
import random

import pytest

from games.engine import Context
from games.rules import GAMES
from tests.games.contract.cases import case_for
from tests.games.contract.harness import new_played, step

pytestmark = pytest.mark.browser

COMPLETE = "async (pairs) => { const { completeView } = await import('/static/games/completion.js');"
COMPLETE += " return pairs.map(([held, sent]) => completeView(held, sent)); }"


def as_sent(obj):
    return json.loads(json.dumps(obj))


def moves_of(slug: str, games: int, seed: str) -> tuple[list, list, list]:
    """(held, sent) pairs for a player and the teacher after every move of ``games`` random games, the whole views
    expected, and the sent views."""
    rules, case = GAMES[slug], case_for(slug)
    rng, ctx = random.Random(seed), Context(case.lexicon, 1_000_000.0)
    pairs, expected, sent_views = [], [], []
    for _ in range(games):
        played = new_played(rules, case, rng)
        for _ in range(200):
            before = played.state
            if not step(played, case, rng, ctx):
                break
            changed = rules.changed_rows(before, played.state)
            for seat in (0, None):
                sent = as_sent(rules.views(played.state, [seat], changed, move=True)[seat])
                pairs.append([as_sent(rules.view(before, seat)), sent])
                expected.append(as_sent(rules.view(played.state, seat)))
                sent_views.append(sent)
    return pairs, expected, sent_views


def test_a_page_completes_every_moves_view_into_the_whole_view(live_server_url, new_page):
    pairs, expected, sent = moves_of("grabble", 3, "record-rows")
    sheets = [view["body"]["sheet"] for view in sent]
    assert sum(1 for sheet in sheets if isinstance(sheet, dict) and sheet["rows"]) > 20, "rows changed one by one"
    assert any(isinstance(sheet, list) for sheet in sheets), "and the whole sheet came when the quiz began"
    assert all("vocabulary" not in view["body"] and "keys" not in view["body"] for view in sent), "no fixed parts"
    for slug, games in (("pala", 2), ("palabras_cortas", 2)):
        more_pairs, more_expected, more_sent = moves_of(slug, games, "past-rows")
        past = [view["body"]["history"] for view in more_sent]
        assert sum(1 for rows in past if rows["rows"]) >= 2, f"{slug}: a scored row sent when it is scored"
        assert sum(1 for rows in past if rows["length"] and not rows["rows"]) > 20, f"{slug}: and not again"
        pairs, expected = pairs + more_pairs, expected + more_expected
    more_pairs, more_expected, more_sent = moves_of("palabra", 2, "fixed-parts")
    assert all("options" not in view["body"] and view["record"] is None for view in more_sent)
    pairs, expected = pairs + more_pairs, expected + more_expected

    page = new_page()
    page.goto(f"{live_server_url}/")
    assert page.evaluate(COMPLETE, pairs) == expected


def test_a_page_without_what_a_move_leaves_out_asks_for_a_snapshot(live_server_url, new_page):
    rules = GAMES["grabble"]
    state, _ = rules.new_game(2, {}, 5)
    sent = as_sent(rules.views(state, [0], [], move=True)[0])
    held = as_sent(rules.view(state, 0))
    short = {**sent, "body": {**sent["body"], "sheet": {"length": 2, "rows": {"1": {"number": 2}}}}}
    no_keyboard = {**held, "body": {k: v for k, v in held["body"].items() if k != "keys"}}
    other_game = {**held, "game": "palabra"}
    page = new_page()
    page.goto(f"{live_server_url}/")
    # No view held yet (the first message of a page), a view without the first row, one without a fixed part, and
    # one of another game: each needs a snapshot.
    assert page.evaluate(COMPLETE, [[None, sent], [held, short], [no_keyboard, sent], [other_game, sent]]) == [None] * 4
    assert page.evaluate(COMPLETE, [[held, sent]]) == [held]
