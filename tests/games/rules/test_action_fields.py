"""``games.engine.actions.Field.check``: the text an action's fields may hold, checked before any rule runs."""

import pytest

from games.engine import AppError
from games.engine.actions import LIST, OBJECT, STR, Field

GREEK = "λόγος, ὁ · ἦν"


@pytest.mark.parametrize("kind", [STR, LIST, OBJECT])
def test_greek_text_is_accepted_in_every_text_carrying_field(kind):
    value = {STR: GREEK, LIST: [GREEK], OBJECT: {"lemma": GREEK, GREEK: [GREEK]}}[kind]
    Field("answer", kind).check("answer", value)


@pytest.mark.parametrize("bad", ["λό\x00γος", "λό\ud800γος", "\udfff"])
@pytest.mark.parametrize("kind", [STR, LIST, OBJECT])
def test_a_nul_or_a_lone_surrogate_is_refused_in_values_and_keys(kind, bad):
    values = {STR: [bad], LIST: [[bad], [{"lemma": bad}]], OBJECT: [{"lemma": bad}, {bad: 1}, {"x": [bad]}]}[kind]
    for value in values:
        with pytest.raises(AppError) as refused:
            Field("answer", kind).check("answer", value)
        assert refused.value.code == "bad_action"
        assert "not allowed" in refused.value.message or "bad key" in refused.value.message
