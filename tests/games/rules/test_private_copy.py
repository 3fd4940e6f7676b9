"""``games.engine.game.private_copy``: the copy of a state the rules change on every move."""

import json

from games.engine.game import private_copy

STATE = {
    "board": {"H8": {"tile": 3, "letter": "Λ"}},
    "racks": [[1, 2], []],
    "totals": {0: 5, 1: 7},  # integer keys, as rules may write them: stored and read back as strings
    "gloss": "λόγος, ὁ",
    "clock": 1.5,
    "pending": None,
    "open": True,
    "seed": 2**63 - 1,
}


def test_a_private_copy_is_the_state_as_stored_and_read_back():
    assert private_copy(STATE) == json.loads(json.dumps(STATE))
    assert private_copy(STATE)["totals"] == {"0": 5, "1": 7}


def test_a_private_copy_shares_nothing_with_the_state():
    copy = private_copy(STATE)
    copy["board"]["H8"]["tile"] = 4
    copy["racks"][0].append(9)
    assert STATE["board"]["H8"]["tile"] == 3
    assert STATE["racks"][0] == [1, 2]
