"""What each game reports to the learning records: the words each seat met in a move."""

from games.engine import Context, WordSet
from games.engine.encounters import PARSED, PLAYED, QUIZZED, SEEN, TAUGHT
from games.rules.grabble import RULES as GRABBLE
from games.rules.palabra import RULES as PALABRA
from games.rules.palabras_cortas import RULES as CORTAS
from games.rules.palabras_cortas_solitario import RULES as SOLITARIO
from lexicons.normalise import spanish_key
from tests.games.rules.test_grabble import CTX, NOUN_NSM, across, answer, logos, new, parse, play, tiles_at
from tests.games.rules.test_palabra import arrange as palabra_arrange
from tests.games.rules.test_palabra import new as palabra_new
from tests.games.rules.test_palabra import play_word as palabra_play_word
from tests.games.rules.test_palabras_cortas import act, lay, three_player_hand


def summary(encounters):
    return sorted((e.seat, e.kind, e.key, e.correct, e.wrong_fields) for e in encounters)


def test_grabble_play_is_played_and_parsed_by_the_placer():
    # The others' "seen" records wait for the quiz: their analyses are its answers until the turn is marked.
    state = new(players=3)
    placer = state["turn"]
    state, events = play(state, placer, tiles_at(state, placer, "ΛΟΓΟΣ", across("H8", 5)), [logos()])
    found = GRABBLE.encounters(state, events)
    assert summary(found) == sorted([(placer, PLAYED, "ΛΟΓΟΣ", None, ()), (placer, PARSED, "ΛΟΓΟΣ", True, ())])
    parsed = next(e for e in found if e.kind == PARSED)
    assert (parsed.form, parsed.lemma, parsed.analysis["gloss"]) == ("λόγος", "λόγος", "word")


def test_grabble_marked_quiz_turn_records_the_others_seeing_each_answer_field_by_field_and_the_teaching():
    state = new(players=3)
    placer = state["turn"]
    state, _ = play(state, placer, tiles_at(state, placer, "ΛΟΓΟΣ", across("H8", 5)), [logos()])
    state, _ = GRABBLE.apply(state, None, {"type": "end_play"}, CTX)
    right, wrong = [s for s in range(3) if s != placer]
    state, _ = answer(state, placer, logos())
    state, _ = answer(state, right, logos())
    state, events = answer(state, wrong, parse("ΛΟΓΟΣ", "λέγω", "N", NOUN_NSM | {"case": "A"}))
    assert summary(GRABBLE.encounters(state, events)) == sorted(
        [
            (placer, QUIZZED, "ΛΟΓΟΣ", True, ()),
            (right, QUIZZED, "ΛΟΓΟΣ", True, ()),
            (wrong, QUIZZED, "ΛΟΓΟΣ", False, ("lemma", "case")),
            (placer, TAUGHT, "ΛΟΓΟΣ", None, ()),
            (right, SEEN, "ΛΟΓΟΣ", None, ()),
            (wrong, SEEN, "ΛΟΓΟΣ", None, ()),
        ]
    )
    given = next(e.given for e in GRABBLE.encounters(state, events) if e.seat == wrong and e.kind == QUIZZED)
    assert (given["lemma"], given["parse"]["case"]) == ("λέγω", "A")


def test_grabble_moves_without_words_report_nothing():
    state = new(players=2)
    seat = state["turn"]
    state, events = GRABBLE.apply(state, seat, {"type": "pass"}, CTX)
    assert GRABBLE.encounters(state, events) == []


SPANISH = WordSet(["sol", "la", "mar"], language="spa", normalise=spanish_key)


def test_palabras_cortas_words_laid_are_played_by_their_player_and_seen_by_the_rest():
    state, _ = act(three_player_hand(), 0, "draw_stock")
    state, events = lay(state, 0, "go_out", [["S", "O", "L"]], "X")
    assert summary(CORTAS.encounters(state, events)) == [
        (0, PLAYED, "SOL", None, ()),
        (1, SEEN, "SOL", None, ()),
        (2, SEEN, "SOL", None, ()),
    ]


def test_palabras_cortas_draws_and_discards_report_nothing():
    state, _ = CORTAS.new_game(2, {}, 5)
    seat = state["turn"]
    state, events = CORTAS.apply(state, seat, {"type": "draw_stock"}, Context(lexicon=SPANISH))
    assert CORTAS.encounters(state, events) == []


def test_solitaire_words_are_played_by_the_one_player():
    state, _ = SOLITARIO.new_game(1, {}, 3)
    events = [{"type": "word", "word": "MAR", "key": "MAR"}, {"type": "score", "seat": 0, "points": 9}]
    assert summary(SOLITARIO.encounters(state, events)) == [(0, PLAYED, "MAR", None, ())]


def test_palabra_word_is_played_by_its_player_and_seen_by_the_others():
    state = palabra_new(3)
    ids = palabra_arrange(state, {0: ["C", "A", "T"]})
    state, events = palabra_play_word(state, 0, ids[0])
    assert summary(PALABRA.encounters(state, events)) == [
        (0, PLAYED, "CAT", None, ()),
        (1, SEEN, "CAT", None, ()),
        (2, SEEN, "CAT", None, ()),
    ]


def test_palabra_straights_teach_no_word():
    state = palabra_new(3)
    ids = palabra_arrange(state, {0: ["AR", "BR", "CG"]})
    state, events = PALABRA.apply(state, 0, {"type": "straight", "cards": ids[0]}, Context())
    assert PALABRA.encounters(state, events) == []
