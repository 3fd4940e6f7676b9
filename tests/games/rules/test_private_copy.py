"""``games.engine.game.private_copy``: the copy of a state the rules change on every move."""

import json

from games.engine.game import own_entry, private_copy

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


HISTORY = {"phase": "quiz", "plays": [{"number": 0, "learning": {"1": 3}}, {"number": 1, "learning": {}}], "bag": [4]}


def test_a_private_copy_shares_the_entries_of_the_history_and_nothing_else():
    copy = private_copy(HISTORY, history=("plays",))
    assert copy == HISTORY
    assert copy["plays"] is not HISTORY["plays"]
    assert all(mine is theirs for mine, theirs in zip(copy["plays"], HISTORY["plays"], strict=True))
    assert copy["bag"] is not HISTORY["bag"]
    copy["plays"].append({"number": 2, "learning": {}})
    assert len(HISTORY["plays"]) == 2


def test_an_entry_made_ones_own_changes_without_touching_the_state_it_came_from():
    copy = private_copy(HISTORY, history=("plays",))
    entry = own_entry(copy, "plays", 0)
    entry["learning"]["2"] = 5
    assert copy["plays"][0] == {"number": 0, "learning": {"1": 3, "2": 5}}
    assert HISTORY["plays"][0] == {"number": 0, "learning": {"1": 3}}
    assert copy["plays"][1] is HISTORY["plays"][1]
