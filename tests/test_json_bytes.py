"""``config.transport.json_bytes``: the JSON of every state saved and every message sent on the move path."""

import json

from config.transport import json_bytes


def test_a_payload_with_string_keys_is_what_the_standard_library_writes():
    payload = {"board": {"H8": {"letter": "Λ", "blank": False}}, "racks": [[1, 2], []], "clock": 1.5, "hint": None}
    assert json.loads(json_bytes(payload)) == payload
    assert json_bytes({"gloss": "λόγος, ὁ"}) == '{"gloss":"λόγος, ὁ"}'.encode()


def test_integer_keys_become_strings_as_with_the_standard_library():
    payload = {"totals": {0: 5, 1: 7}, "names": {"2": "Ἀνδρέας"}}
    assert json.loads(json_bytes(payload)) == json.loads(json.dumps(payload))
    assert json.loads(json_bytes(payload))["totals"] == {"0": 5, "1": 7}


def test_a_nan_becomes_null():
    assert json.loads(json_bytes({"score": float("nan")})) == {"score": None}
