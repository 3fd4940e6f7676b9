"""static/games/record.js in the browser: a page completes each move's record (Grabble's score sheet, sent as only
the rows the move changed) from the view it holds, and gets the view the server would have sent whole. The moves
are random Grabble games played as the contract suite plays them, through the play, the quiz and its marking."""

import json
import random

import pytest

from games.engine import Context
from games.rules import GAMES
from tests.games.contract.cases import case_for
from tests.games.contract.harness import new_played, step

pytestmark = pytest.mark.browser

COMPLETE = "async (pairs) => { const { withRecordRows } = await import('/static/games/record.js');"
COMPLETE += " return pairs.map(([held, sent]) => withRecordRows(held, sent)); }"


def as_sent(obj):
    return json.loads(json.dumps(obj))


def test_a_page_completes_every_moves_rows_into_the_whole_view(live_server_url, new_page):
    rules, case = GAMES["grabble"], case_for("grabble")
    rng, ctx = random.Random("record-rows"), Context(case.lexicon, 1_000_000.0)
    pairs, expected, partial, whole = [], [], 0, 0
    for _ in range(3):
        played = new_played(rules, case, rng)
        for _ in range(200):
            before = played.state
            if not step(played, case, rng, ctx):
                break
            changed = rules.changed_rows(before, played.state)
            for seat in (0, None):
                sent = rules.views(played.state, [seat], changed)[seat]
                pairs.append([as_sent(rules.view(before, seat)), as_sent(sent)])
                expected.append(as_sent(rules.view(played.state, seat)))
                if isinstance(sent["body"]["sheet"], list):
                    whole += 1
                elif sent["body"]["sheet"]["rows"]:
                    partial += 1
    assert partial > 20, "the games changed rows one by one"
    assert whole > 0, "and sent the whole sheet when the quiz began"

    page = new_page()
    page.goto(f"{live_server_url}/")
    assert page.evaluate(COMPLETE, pairs) == expected


def test_a_page_without_the_rows_asks_for_a_snapshot(live_server_url, new_page):
    rules = GAMES["grabble"]
    state, _ = rules.new_game(2, {}, 5)
    sent = as_sent(rules.views(state, [0], [])[0])
    short = {**sent, "body": {**sent["body"], "sheet": {"length": 2, "rows": {"1": {"number": 2}}}}}
    page = new_page()
    page.goto(f"{live_server_url}/")
    held = as_sent(rules.view(state, 0))
    # No view held yet (the first message of a page), and a view without the first row: both need a snapshot.
    assert page.evaluate(COMPLETE, [[None, sent], [held, short]]) == [None, None]
    assert page.evaluate(COMPLETE, [[held, sent]]) == [held]
