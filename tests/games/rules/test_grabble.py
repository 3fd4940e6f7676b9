"""Grabble rules: setup, placement legality, scoring, parses at play, approval, helping, quiz, view."""

import json
import random

import pytest

from games.engine import AppError, Context, WordSet, censor, score_totals
from games.rules import GAMES
from games.rules.grabble import PREMIUMS, RULES, tile_bag
from lexicons.morphology import parse_from_code
from lexicons.normalise import greek_key
from tests.games.contract.cases import case_for
from tests.games.contract.harness import new_played, step


def entry(form, lemma, pos, code, gloss=""):
    return {"form": form, "lemma": lemma, "pos": pos, "parse": parse_from_code(pos, code), "gloss": gloss}


ANALYSES = {
    "ΛΟΓΟΣ": [entry("λόγος", "λόγος", "N", "----NSM-", "word")],
    "ΑΡΧΗ": [entry("ἀρχή", "ἀρχή", "N", "----NSF-", "beginning")],
    "ΗΝ": [
        entry("ἦν", "εἰμί", "V", "3IAI-S--", "I am"),
        entry("ἥν", "ὅς", "RR", "----ASF-", "who, which"),
    ],
    "ΤΟ": [entry("τό", "ὁ", "RA", "----NSN-", "the"), entry("τό", "ὁ", "RA", "----ASN-", "the")],
    "ΟΣ": [entry("ὅς", "ὅς", "RR", "----NSM-", "who, which")],
    "Ο": [entry("ὁ", "ὁ", "RA", "----NSM-", "the")],
    "ΔΙ": [entry("δι’", "διά", "P", "--------", "through")],
    "ΛΕΓΕΤΑΙ": [entry("λέγεται", "λέγω", "V", "3PPI-S--", "I say")],
    "ΕΛΥΘΗ": [entry("ἐλύθη", "λύω", "V", "3API-S--", "I loose")],
    "ΑΠΟΚΑΛΥΨΙΣ": [entry("ἀποκάλυψις", "ἀποκάλυψις", "N", "----NSF-", "revelation")],
}
LEXICON = WordSet([], language="grc", analyses=ANALYSES, normalise=greek_key)
CTX = Context(lexicon=LEXICON)

NOUN_NSM = {"case": "N", "number": "S", "gender": "M"}
NOUN_NSF = {"case": "N", "number": "S", "gender": "F"}
IMPF_3S = {"person": "3", "tense": "I", "voice": "A", "mood": "I", "number": "S"}


def parse(word, lemma, pos, fields=None):
    return {"word": word, "lemma": lemma, "pos": pos, "parse": dict(fields or {})}


def logos(word="ΛΟΓΟΣ"):
    return parse(word, "λόγος", "N", NOUN_NSM)


def new(players=2, seed=1, **options):
    state, _events = RULES.new_game(players, options, seed)
    return state


def give(state, seat, letters):
    """Put exactly ``letters`` on ``seat``'s rack (its old tiles go back to the bag); returns their ids."""
    bag = tile_bag(state["bag_size"])
    state["bag"].extend(state["racks"][seat])
    state["racks"][seat] = []
    for letter in letters:
        tile = next((t for t in state["bag"] if bag[t]["letter"] == letter), None)
        if tile is not None:
            state["bag"].remove(tile)
        else:  # another rack has it: swap it for a tile from the bag, so every tile stays in one place
            rack = next(r for r in state["racks"] if any(bag[t]["letter"] == letter for t in r))
            tile = next(t for t in rack if bag[t]["letter"] == letter)
            rack[rack.index(tile)] = state["bag"].pop()
        state["racks"][seat].append(tile)
    return list(state["racks"][seat])


def tiles_at(state, seat, letters, squares):
    """Give ``seat`` the letters and lay them on ``squares`` (blanks as ``?x``)."""
    ids = give(state, seat, ["" if letter.startswith("?") else letter for letter in letters])
    return [
        {"tile": t, "square": sq} | ({"letter": letter[1:]} if letter.startswith("?") else {})
        for t, letter, sq in zip(ids, letters, squares, strict=True)
    ]


def across(start, length):
    col, row = start[0], int(start[1:])
    return [f"{chr(ord(col) + i)}{row}" for i in range(length)]


def down(start, length):
    col, row = start[0], int(start[1:])
    return [f"{col}{row + i}" for i in range(length)]


def play(state, seat, tiles, parses, ctx=CTX):
    return RULES.apply(state, seat, {"type": "play", "tiles": tiles, "parses": parses}, ctx)


def with_logos(seed=1, players=2, **options):
    """A game where the first player has laid ΛΟΓΟΣ on H8–L8 (22 points: DL on L8, centre DW)."""
    state = new(players, seed, **options)
    seat = state["turn"]
    state, _ = play(state, seat, tiles_at(state, seat, "ΛΟΓΟΣ", across("H8", 5)), [logos()])
    return state, seat


def refused(code, state, seat, action, ctx=CTX):
    with pytest.raises(AppError) as err:
        RULES.apply(state, seat, action, ctx)
    assert err.value.code == code
    return err.value.message


# -- setup -------------------------------------------------------------------------------------------


def test_registered_in_games():
    assert GAMES["grabble"] is RULES


def test_standard_bag_has_104_tiles_with_two_blanks():
    bag = tile_bag("standard")
    assert len(bag) == 104
    assert sum(1 for t in bag if t["letter"] == "") == 2
    assert {t["letter"]: t["value"] for t in bag}["Ψ"] == 10


def test_large_bag_is_used_for_five_players_by_default():
    assert new(4)["bag_size"] == "standard"
    assert new(5)["bag_size"] == "large"
    assert new(2, bag="large")["bag_size"] == "large"
    assert len(tile_bag("large")) == 163


def test_each_player_starts_with_ten_tiles():
    state = new(4)
    assert [len(r) for r in state["racks"]] == [10, 10, 10, 10]
    assert len(state["bag"]) == 104 - 40


def test_first_player_drew_the_tile_nearest_alpha():
    for seed in range(20):
        state, events = RULES.new_game(3, {}, seed)
        draw = events[0]
        assert draw["type"] == "first_player"
        last = draw["draws"][-1]
        order = "ΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩ"
        ranks = {int(s): order.index(letter) if letter else -1 for s, letter in last.items()}
        assert state["turn"] == draw["seat"] == min(ranks, key=ranks.get)
        assert list(ranks.values()).count(min(ranks.values())) == 1


def test_ties_redraw_only_the_tied_seats():
    tied = None
    for seed in range(200):
        _state, events = RULES.new_game(8, {}, seed)
        if len(events[0]["draws"]) > 1:
            tied = events[0]["draws"]
            break
    assert tied is not None
    assert set(tied[1]) < set(tied[0])


def test_state_round_trips_through_json():
    state, _ = with_logos()
    assert json.loads(json.dumps(state)) == state


# -- placement legality ---------------------------------------------------------------------------


def test_first_word_must_cover_the_centre():
    state = new()
    seat = state["turn"]
    action = {"type": "play", "tiles": tiles_at(state, seat, "ΛΟΓΟΣ", across("A1", 5)), "parses": [logos()]}
    assert "H8" in refused("bad_placement", state, seat, action)


def test_single_letter_word_refused():
    state = new()
    seat = state["turn"]
    action = {"type": "play", "tiles": tiles_at(state, seat, "Ο", ["H8"]), "parses": [parse("Ο", "ὁ", "RA")]}
    assert "Single-letter" in refused("bad_placement", state, seat, action)


def test_tiles_not_in_one_line_refused():
    state = new()
    seat = state["turn"]
    tiles = tiles_at(state, seat, "ΛΟΓΟΣ", ["H8", "I8", "J8", "K8", "K9"])
    refused("bad_placement", state, seat, {"type": "play", "tiles": tiles, "parses": [logos()]})


def test_gap_in_the_word_refused():
    state = new()
    seat = state["turn"]
    tiles = tiles_at(state, seat, "ΛΟΓΟΣ", ["H8", "I8", "J8", "K8", "M8"])
    assert "gap" in refused("bad_placement", state, seat, {"type": "play", "tiles": tiles, "parses": [logos()]})


def test_later_word_must_touch_the_board():
    state, _first = with_logos()
    seat = state["turn"]
    tiles = tiles_at(state, seat, "ΑΡΧΗ", across("A1", 4))
    action = {"type": "play", "tiles": tiles, "parses": [parse("ΑΡΧΗ", "ἀρχή", "N", NOUN_NSF)]}
    assert "already on the board" in refused("bad_placement", state, seat, action)


def test_square_already_taken_refused():
    state, _ = with_logos()
    seat = state["turn"]
    tiles = tiles_at(state, seat, "ΛΟΓΟΣ", across("H8", 5))
    assert "already has a tile" in refused("bad_placement", state, seat, {"type": "play", "tiles": tiles})


def test_square_off_the_board_refused():
    state = new()
    seat = state["turn"]
    tiles = tiles_at(state, seat, "ΛΟ", ["H8", "P8"])
    refused("bad_placement", state, seat, {"type": "play", "tiles": tiles, "parses": []})


def test_tile_not_on_rack_refused():
    state = new()
    seat = state["turn"]
    other = 1 - seat
    tile = state["racks"][other][0]
    refused("not_held", state, seat, {"type": "play", "tiles": [{"tile": tile, "square": "H8"}], "parses": []})


def test_playing_out_of_turn_refused():
    state = new()
    other = 1 - state["turn"]
    tiles = tiles_at(state, other, "ΛΟΓΟΣ", across("H8", 5))
    refused("not_your_turn", state, other, {"type": "play", "tiles": tiles, "parses": [logos()]})


def test_word_not_in_lexicon_refused_when_strict():
    state = new(unknown_words="strict")
    seat = state["turn"]
    tiles = tiles_at(state, seat, "ΛΟΓΟΙ", across("H8", 5))
    action = {"type": "play", "tiles": tiles, "parses": [parse("ΛΟΓΟΙ", "λόγος", "N", NOUN_NSM)]}
    assert "ΛΟΓΟΙ" in refused("not_a_word", state, seat, action)


@pytest.mark.parametrize(
    "tiles",
    [None, [], "H8", [{"tile": "x", "square": "H8"}], [{"tile": True, "square": "H8"}], [{"square": "H8"}]],
)
def test_malformed_plays_are_bad_actions(tiles):
    state = new()
    refused("bad_action", state, state["turn"], {"type": "play", "tiles": tiles, "parses": []})


def test_refused_action_leaves_state_unchanged():
    state = new()
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(AppError):
        RULES.apply(state, state["turn"], {"type": "play", "tiles": [], "parses": []}, CTX)
    assert json.dumps(state, sort_keys=True) == before


# -- scoring ---------------------------------------------------------------------------------------


def test_first_word_scores_double_with_letter_premium():
    # Λ3 Ο1 Γ4 Ο1 Σ1×2 (L8 double letter) = 11, doubled by the centre: 22.
    state, _seat = with_logos()
    assert state["plays"][0]["base"] == 22
    assert state["plays"][0]["words"][0]["word"] == "ΛΟΓΟΣ"


def test_cross_words_score_and_premiums_count_once():
    # Τ on K7 and Ο on L7 make ΤΟ across, ΤΟ down (K7–K8) and ΟΣ down (L7–L8): 2 + 2 + 2. L8's double
    # letter was used by ΛΟΓΟΣ, so Σ counts 1 in ΟΣ.
    state, _ = with_logos()
    seat = state["turn"]
    to = parse("ΤΟ", "ὁ", "RA", {"case": "N", "number": "S", "gender": "N"})
    hos = parse("ΟΣ", "ὅς", "RR", NOUN_NSM)
    state, _events = play(state, seat, tiles_at(state, seat, "ΤΟ", ["K7", "L7"]), [to, hos])
    words = state["plays"][1]["words"]
    assert sorted(w["word"] for w in words) == ["ΟΣ", "ΤΟ", "ΤΟ"]
    assert [w["score"] for w in words] == [2, 2, 2]
    assert state["plays"][1]["base"] == 6


def test_hand_computed_ten_tile_play_with_bonus():
    # ΑΠΟΚΑΛΥΨΙΣ on D8–M8: Α on D8 (DL) 2, Π2 Ο1 Κ2, Α on H8 (DW) 1, Λ3 Υ2 Ψ10, Ι on L8 (DL) 2, Σ1 = 26;
    # ×2 for the centre = 52; all ten tiles: +50 = 102.
    state = new()
    seat = state["turn"]
    tiles = tiles_at(state, seat, "ΑΠΟΚΑΛΥΨΙΣ", across("D8", 10))
    word = parse("ΑΠΟΚΑΛΥΨΙΣ", "ἀποκάλυψις", "N", NOUN_NSF)
    state, _events = play(state, seat, tiles, [word])
    assert state["plays"][0]["bonus"] == 50
    assert state["plays"][0]["base"] == 102


def test_no_bonus_for_fewer_than_ten_tiles():
    state, _ = with_logos()
    assert state["plays"][0]["bonus"] == 0


def test_premium_layout_matches_the_spec():
    from games.rules.grabble.board import LETTER_FACTOR, WORD_FACTOR

    assert PREMIUMS["H1"] == "TW"
    assert WORD_FACTOR["TW"] == 3
    assert PREMIUMS["F2"] == "TL"
    assert LETTER_FACTOR["TL"] == 3
    assert PREMIUMS["H8"] == "DW"
    assert len(PREMIUMS) == 8 + 17 + 12 + 24


def test_blank_takes_its_chosen_letter_and_scores_zero():
    # Blank as Λ on H8: 0 + Ο1 Γ4 Ο1 + Σ1×2 = 8, doubled: 16.
    state = new()
    seat = state["turn"]
    tiles = tiles_at(state, seat, ["?λ", "Ο", "Γ", "Ο", "Σ"], across("H8", 5))
    state, _ = play(state, seat, tiles, [logos()])
    assert state["board"]["H8"]["letter"] == "Λ"
    assert state["plays"][0]["base"] == 16
    view = RULES.view(state, None)
    assert view["body"]["board"]["H8"] == {"letter": "Λ", "blank": True, "value": 0}


def test_blank_stays_the_letter_it_was_played_as():
    state = new()
    seat = state["turn"]
    state, _ = play(state, seat, tiles_at(state, seat, ["?λ", "Ο", "Γ", "Ο", "Σ"], across("H8", 5)), [logos()])
    other = state["turn"]
    # Reading down through H8 the blank is still Λ: ΛΟΓΟΣ down from H8 needs no new Λ.
    tiles = tiles_at(state, other, "ΟΓΟΣ", down("H9", 4))
    state, _ = play(state, other, tiles, [logos()])
    assert state["plays"][1]["words"][0]["word"] == "ΛΟΓΟΣ"
    assert state["board"]["H8"]["letter"] == "Λ"


def test_blank_needs_a_greek_letter():
    state = new()
    seat = state["turn"]
    tiles = tiles_at(state, seat, ["?x", "Ο"], ["H8", "I8"])
    assert "Greek letter" in refused("bad_action", state, seat, {"type": "play", "tiles": tiles, "parses": []})


def test_rack_refilled_to_ten_after_a_play():
    state, seat = with_logos()
    assert len(state["racks"][seat]) == 10


# -- parses at play ----------------------------------------------------------------------------------


def first_play(word, letters, given, **options):
    state = new(**options)
    seat = state["turn"]
    return state, seat, {"type": "play", "tiles": tiles_at(state, seat, letters, across("H8", len(letters))),
                         "parses": [given]}  # fmt: skip


def test_wrong_case_is_named_without_the_answer():
    state, seat, action = first_play("ΛΟΓΟΣ", "ΛΟΓΟΣ", parse("ΛΟΓΟΣ", "λόγος", "N", NOUN_NSM | {"case": "G"}))
    message = refused("wrong_parse", state, seat, action)
    assert message == "ΛΟΓΟΣ: case is wrong."


def test_several_wrong_fields_are_all_named():
    state, seat, action = first_play("ΛΟΓΟΣ", "ΛΟΓΟΣ", parse("ΛΟΓΟΣ", "λόγος", "N", {"case": "A", "number": "P"}))
    assert refused("wrong_parse", state, seat, action) == "ΛΟΓΟΣ: case, number and gender are wrong."


def test_wrong_lemma_refused():
    state, seat, action = first_play("ΛΟΓΟΣ", "ΛΟΓΟΣ", parse("ΛΟΓΟΣ", "λέγω", "N", NOUN_NSM))
    assert refused("wrong_parse", state, seat, action) == "ΛΟΓΟΣ: lemma is wrong."


def test_lemma_accents_are_optional_and_beta_code_accepted():
    for lemma in ("λογος", "ΛΟΓΟΣ", "lo/gos", "logos"):
        state, seat, action = first_play("ΛΟΓΟΣ", "ΛΟΓΟΣ", parse("ΛΟΓΟΣ", lemma, "N", NOUN_NSM))
        state, _ = RULES.apply(state, seat, action, CTX)
        assert state["plays"][0]["words"][0]["analysis"]["lemma"] == "λόγος"


def test_missing_parse_for_a_cross_word_refused():
    state, _ = with_logos()
    seat = state["turn"]
    to = parse("ΤΟ", "ὁ", "RA", {"case": "N", "number": "S", "gender": "N"})
    action = {"type": "play", "tiles": tiles_at(state, seat, "ΤΟ", ["K7", "L7"]), "parses": [to]}
    assert "ΟΣ" in refused("bad_action", state, seat, action)


def test_parse_for_a_word_not_formed_refused():
    state, seat, action = first_play("ΛΟΓΟΣ", "ΛΟΓΟΣ", logos())
    action["parses"].append(parse("ΑΡΧΗ", "ἀρχή", "N", NOUN_NSF))
    assert "ΑΡΧΗ" in refused("bad_action", state, seat, action)


@pytest.mark.parametrize(
    "given",
    [
        parse("ΗΝ", "εἰμί", "V", IMPF_3S),
        parse("ΗΝ", "ὅς", "RR", {"case": "A", "number": "S", "gender": "F"}),
    ],
)
def test_ambiguous_key_accepts_each_analysis(given):
    state, seat, action = first_play("ΗΝ", "ΗΝ", given)
    state, events = RULES.apply(state, seat, action, CTX)
    analysis = state["plays"][0]["words"][0]["analysis"]
    assert analysis["lemma"] == given["lemma"]
    assert censor(events[0], seat)["words"][0]["analysis"] == analysis


def test_ambiguous_key_mixing_analyses_refused():
    state, seat, action = first_play("ΗΝ", "ΗΝ", parse("ΗΝ", "εἰμί", "V", IMPF_3S | {"tense": "A"}))
    assert refused("wrong_parse", state, seat, action) == "ΗΝ: tense is wrong."


@pytest.mark.parametrize("voice", ["M", "P", "E"])
def test_middle_passive_accepted_in_present(voice):
    fields = {"person": "3", "tense": "P", "voice": voice, "mood": "I", "number": "S"}
    state, seat, action = first_play("ΛΕΓΕΤΑΙ", "ΛΕΓΕΤΑΙ", parse("ΛΕΓΕΤΑΙ", "λέγω", "V", fields))
    state, _ = RULES.apply(state, seat, action, CTX)
    assert state["plays"][0]["words"][0]["analysis"]["parse"]["voice"] == "P"


def test_aorist_passive_must_be_passive():
    fields = {"person": "3", "tense": "A", "voice": "M", "mood": "I", "number": "S"}
    state, seat, action = first_play("ΕΛΥΘΗ", "ΕΛΥΘΗ", parse("ΕΛΥΘΗ", "λύω", "V", fields))
    assert refused("wrong_parse", state, seat, action) == "ΕΛΥΘΗ: voice is wrong."


def test_elided_preposition_parsed_as_the_full_preposition():
    state, seat, action = first_play("ΔΙ", "ΔΙ", parse("δι’", "διά", "P-"))
    state, _ = RULES.apply(state, seat, action, CTX)
    assert state["plays"][0]["words"][0]["analysis"]["lemma"] == "διά"


def test_play_event_records_the_matched_analysis_with_gloss():
    state = new()
    seat = state["turn"]
    _state, events = play(state, seat, tiles_at(state, seat, "ΛΟΓΟΣ", across("H8", 5)), [logos()])
    played = censor(next(e for e in events if e["type"] == "played"), seat)
    assert played["words"][0]["analysis"] == {
        "form": "λόγος",
        "lemma": "λόγος",
        "pos": "N",
        "parse": NOUN_NSM,
        "gloss": "word",
    }


def test_bad_parse_field_is_a_bad_action():
    state, seat, action = first_play("ΛΟΓΟΣ", "ΛΟΓΟΣ", parse("ΛΟΓΟΣ", "λόγος", "N", {"case": "Z"}))
    refused("bad_action", state, seat, action)


def test_missing_part_of_speech_is_a_bad_action():
    state, seat, action = first_play("ΛΟΓΟΣ", "ΛΟΓΟΣ", parse("ΛΟΓΟΣ", "λόγος", "", NOUN_NSM))
    assert "part of speech" in refused("bad_action", state, seat, action)


# -- teacher approval of unknown words ----------------------------------------------------------------


def unknown_play():
    state = new()
    seat = state["turn"]
    tiles = tiles_at(state, seat, "ΛΟΓΟΙ", across("H8", 5))
    given = parse("ΛΟΓΟΙ", "λόγος", "N", {"case": "N", "number": "P", "gender": "M"})
    state, events = play(state, seat, tiles, [given])
    return state, seat, events


def test_unknown_word_waits_for_the_teacher():
    state, seat, events = unknown_play()
    assert state["phase"] == "approval"
    assert events[0]["type"] == "approval_needed"
    assert RULES.status(state).awaiting_teacher
    assert not state["board"]
    refused("wrong_phase", state, 1 - seat, {"type": "pass"})
    refused("teacher_only", state, seat, {"type": "approve"})


def test_teacher_approval_places_the_word_with_the_players_parse():
    state, seat, _ = unknown_play()
    state, _events = RULES.apply(state, None, {"type": "approve", "gloss": "words"}, CTX)
    analysis = state["plays"][0]["words"][0]["analysis"]
    assert analysis["approved"] is True
    assert analysis["lemma"] == "λόγος"
    assert analysis["parse"]["number"] == "P"
    assert analysis["gloss"] == "words"
    assert state["phase"] == "play"
    assert state["turn"] != seat
    assert len(state["board"]) == 5


def test_teacher_rejection_leaves_the_turn_with_the_player():
    state, seat, _ = unknown_play()
    state, events = RULES.apply(state, None, {"type": "reject", "reason": "not Koine"}, CTX)
    assert state["phase"] == "play"
    assert state["turn"] == seat
    assert not state["board"]
    assert events[0]["reason"] == "not Koine"


# -- exchange, pass, end of play ---------------------------------------------------------------------


def test_exchange_swaps_tiles_with_the_bag():
    state = new()
    seat = state["turn"]
    out = state["racks"][seat][:3]
    after, _events = RULES.apply(state, seat, {"type": "exchange", "tiles": out}, CTX)
    assert len(after["racks"][seat]) == 10
    assert not set(out) & set(after["racks"][seat])
    assert set(out) <= set(after["bag"])
    assert len(after["bag"]) == len(state["bag"])
    assert after["turn"] != seat


def test_exchange_needs_enough_tiles_in_the_bag():
    state = new()
    seat = state["turn"]
    state["bag"], spare = state["bag"][:2], state["bag"][2:]
    state["racks"][1 - seat].extend(spare)
    message = refused("not_allowed", state, seat, {"type": "exchange", "tiles": state["racks"][seat][:3]})
    assert "only 2" in message


def test_exchange_of_tiles_not_held_refused():
    state = new()
    seat = state["turn"]
    refused("not_held", state, seat, {"type": "exchange", "tiles": [state["racks"][1 - seat][0]]})


def test_every_player_passing_in_turn_ends_play():
    state, _ = with_logos(players=3)
    for _ in range(2):
        state, _ = RULES.apply(state, state["turn"], {"type": "pass"}, CTX)
        assert state["phase"] == "play"
    state, events = RULES.apply(state, state["turn"], {"type": "pass"}, CTX)
    assert state["phase"] == "quiz"
    assert any(e["type"] == "play_ended" for e in events)


def test_exchange_breaks_a_run_of_passes():
    state, _ = with_logos(players=2)
    state, _ = RULES.apply(state, state["turn"], {"type": "pass"}, CTX)
    state, _ = RULES.apply(state, state["turn"], {"type": "exchange", "tiles": state["racks"][state["turn"]][:1]}, CTX)
    state, _ = RULES.apply(state, state["turn"], {"type": "pass"}, CTX)
    assert state["phase"] == "play"


def test_using_the_last_tile_with_an_empty_bag_ends_play():
    state, _ = with_logos()
    seat = state["turn"]
    tiles = tiles_at(state, seat, "ΤΟ", ["K7", "L7"])
    state["racks"][1 - seat].extend(state["bag"])
    state["bag"] = []
    to = parse("ΤΟ", "ὁ", "RA", {"case": "A", "number": "S", "gender": "N"})
    state, _ = play(state, seat, tiles, [to, parse("ΟΣ", "ὅς", "RR", NOUN_NSM)])
    assert state["phase"] == "quiz"


def test_teacher_ends_play():
    state, _ = with_logos()
    refused("teacher_only", state, state["turn"], {"type": "end_play"})
    state, _ = RULES.apply(state, None, {"type": "end_play"}, CTX)
    assert state["phase"] == "quiz"


def test_ending_play_without_any_word_goes_straight_to_review():
    state = new()
    state, _ = RULES.apply(state, None, {"type": "end_play"}, CTX)
    assert state["phase"] == "review"


# -- helping ---------------------------------------------------------------------------------------------


def test_suggestions_are_shown_until_the_turn_ends():
    state = new()
    helper = 1 - state["turn"]
    action = {"type": "suggest", "text": "λόγος", "square": "H8", "direction": "across"}
    state, _events = RULES.apply(state, helper, action, CTX)
    assert RULES.view(state, None)["body"]["suggestions"] == [
        {"seat": helper, "text": "λόγος", "square": "H8", "direction": "across"}
    ]
    state, _ = RULES.apply(state, state["turn"], {"type": "pass"}, CTX)
    assert RULES.view(state, None)["body"]["suggestions"] == []


def test_player_on_turn_cannot_suggest_to_themselves():
    state = new()
    refused("not_allowed", state, state["turn"], {"type": "suggest", "text": "λόγος"})


@pytest.mark.parametrize("action", [{"text": ""}, {"text": "x" * 61}, {"text": "ok", "direction": "up"}])
def test_malformed_suggestions_refused(action):
    state = new()
    refused("bad_action", state, 1 - state["turn"], {"type": "suggest", **action})


# -- open and hidden racks -------------------------------------------------------------------------------


def test_open_game_shows_every_rack_to_everyone():
    state = new()
    view = RULES.view(state, 0)
    assert set(view["body"]["racks"]) == {"0", "1"}
    assert set(RULES.view(state, None)["body"]["racks"]) == {"0", "1"}


def test_hidden_racks_show_a_seat_only_its_own():
    state = new(open_racks=False)
    assert set(RULES.view(state, 0)["body"]["racks"]) == {"0"}
    assert RULES.view(state, None)["body"]["racks"] == {}
    assert RULES.view(state, 1)["body"]["rack_sizes"] == [10, 10]


def test_hidden_rack_draws_are_private():
    from games.engine import censor

    _state, events = RULES.new_game(2, {"open_racks": False}, 3)
    drew = [e for e in events if e["type"] == "drew"]
    assert "tiles" in censor(drew[0], 0)
    assert "tiles" not in censor(drew[0], 1)
    assert "tiles" not in censor(drew[0], None)


# -- the quiz ----------------------------------------------------------------------------------------------


def quiz_game(players=3):
    """ΛΟΓΟΣ (base 22) by the first player, then the teacher ends play."""
    state, placer = with_logos(players=players)
    state, _ = RULES.apply(state, None, {"type": "end_play"}, CTX)
    return state, placer


def answer(state, seat, given):
    return RULES.apply(state, seat, {"type": "answer", "parses": [given]}, CTX)


def test_quiz_scores_learning_and_teaching_as_the_rulebook():
    # Two of three players parse perfectly, the placer among them: each learns 22, the placer teaches 44.
    state, placer = quiz_game()
    others = [s for s in range(3) if s != placer]
    all_events = []
    state, events = answer(state, placer, logos())
    all_events += events
    state, events = answer(state, others[0], logos())
    all_events += events
    assert not state["plays"][0]["marked"]
    state, events = answer(state, others[1], parse("ΛΟΓΟΣ", "λόγος", "N", NOUN_NSM | {"case": "A"}))
    all_events += events
    assert state["plays"][0]["marked"]
    expected = [0, 0, 0]
    expected[placer] = 22 + 44
    expected[others[0]] = 22
    assert RULES.scores(state).total == expected
    assert score_totals(all_events, 3) == expected
    assert state["phase"] == "review"


def test_base_score_is_kept_but_is_not_a_final_point():
    state, _placer = quiz_game()
    assert state["plays"][0]["base"] == 22
    assert RULES.scores(state).total == [0, 0, 0]


def test_marked_turn_shows_analyses_and_results_to_everyone():
    state, _placer = quiz_game(players=2)
    assert "analysis" not in RULES.view(state, None)["body"]["sheet"][0]["words"][0]
    state, _ = answer(state, 0, logos())
    state, _ = answer(state, 1, parse("ΛΟΓΟΣ", "λόγος", "N", NOUN_NSM | {"gender": "F"}))
    word = RULES.view(state, None)["body"]["sheet"][0]["words"][0]
    assert word["analysis"]["gloss"] == "word"
    assert word["description"] == "noun, nominative singular masculine"
    results = RULES.view(state, 1)["body"]["sheet"][0]["results"]
    assert results["1"]["wrong"] == [["gender"]]


def test_teacher_closes_a_turn_without_waiting():
    state, placer = quiz_game()
    state, _ = answer(state, placer, logos())
    state, _ = RULES.apply(state, None, {"type": "close"}, CTX)
    assert state["plays"][0]["learning"] == {str(placer): 22, **{str(s): 0 for s in range(3) if s != placer}}
    assert RULES.scores(state).total[placer] == 44


def test_partial_credit_after_marking_moves_learning_and_teaching():
    state, placer = quiz_game(players=2)
    other = 1 - placer
    state, _ = answer(state, placer, logos())
    state, _ = answer(state, other, parse("ΛΟΓΟΣ", "λόγος", "N", NOUN_NSM | {"case": "G"}))
    state, events = RULES.apply(state, None, {"type": "credit", "play": 0, "seat": other, "points": 11}, CTX)
    assert [e["points"] for e in events if e["type"] == "score"] == [11, 11]
    expected = [0, 0]
    expected[placer] = 22 + 33
    expected[other] = 11
    assert RULES.scores(state).total == expected


def test_credit_before_marking_overrides_the_result_of_an_answer_that_is_not_perfect():
    state, placer = quiz_game(players=2)
    other = 1 - placer
    state, _ = RULES.apply(state, None, {"type": "credit", "play": 0, "seat": other, "points": 5}, CTX)
    state, _ = answer(state, placer, logos())
    state, _ = answer(state, other, parse("ΛΟΓΟΣ", "λόγος", "N", NOUN_NSM | {"case": "G"}))
    assert state["plays"][0]["learning"][str(other)] == 5


@pytest.mark.parametrize("points", [-1, 23, "5", True])
def test_credit_must_be_between_zero_and_base(points):
    state, _placer = quiz_game(players=2)
    refused("bad_action", state, None, {"type": "credit", "play": 0, "seat": 0, "points": points})


def test_credit_is_teacher_only():
    state, placer = quiz_game(players=2)
    refused("teacher_only", state, placer, {"type": "credit", "play": 0, "seat": 0, "points": 1})


def test_quiz_goes_turn_by_turn_and_skips_passes_and_exchanges():
    state, first = with_logos(players=2)
    second = state["turn"]
    state, _ = RULES.apply(state, second, {"type": "exchange", "tiles": state["racks"][second][:2]}, CTX)
    state, _ = RULES.apply(state, first, {"type": "pass"}, CTX)
    to = parse("ΤΟ", "ὁ", "RA", {"case": "N", "number": "S", "gender": "N"})
    hos = parse("ΟΣ", "ὅς", "RR", NOUN_NSM)
    state, _ = play(state, second, tiles_at(state, second, "ΤΟ", ["K7", "L7"]), [to, hos])
    state, _ = RULES.apply(state, None, {"type": "end_play"}, CTX)
    assert len(state["plays"]) == 2
    assert state["quiz"]["play"] == 0
    refused("bad_action", state, 0, {"type": "answer", "parses": [to, hos]})
    state, _ = answer(state, 0, logos())
    state, _ = answer(state, 1, logos())
    assert state["quiz"]["play"] == 1
    state, _ = RULES.apply(state, 0, {"type": "answer", "parses": [to, hos]}, CTX)
    refused("bad_action", state, 1, {"type": "answer", "parses": [to]})
    state, _ = RULES.apply(state, 1, {"type": "answer", "parses": [to, hos]}, CTX)
    assert state["phase"] == "review"
    expected = [0, 0]
    expected[first] = 22 + 44 + 6  # learnt ΛΟΓΟΣ, taught it to both, learnt ΤΟ
    expected[second] = 22 + 6 + 12
    assert RULES.scores(state).total == expected


def test_finish_ends_the_game():
    state, _placer = quiz_game(players=2)
    state, _ = RULES.apply(state, None, {"type": "close"}, CTX)
    state, _events = RULES.apply(state, None, {"type": "finish"}, CTX)
    assert RULES.status(state).finished
    refused("game_over", state, None, {"type": "credit", "play": 0, "seat": 0, "points": 1})


# -- removal -----------------------------------------------------------------------------------------------


def test_removed_player_on_turn_is_skipped_and_tiles_return_to_the_bag():
    state = new(players=3)
    seat = state["turn"]
    bag = len(state["bag"])
    state, _ = RULES.remove_player(state, seat, CTX)
    assert state["turn"] != seat
    assert state["racks"][seat] == []
    assert len(state["bag"]) == bag + 10
    refused("not_allowed", state, seat, {"type": "pass"})


def test_quiz_does_not_wait_for_a_removed_player():
    state, placer = quiz_game(players=3)
    leaver = next(s for s in range(3) if s != placer)
    for seat in range(3):
        if seat != leaver:
            state, _ = answer(state, seat, logos())
    assert not state["plays"][0]["marked"]
    state, _ = RULES.remove_player(state, leaver, CTX)
    assert state["plays"][0]["marked"]
    assert RULES.scores(state).total[placer] == 22 + 44


# -- the view ----------------------------------------------------------------------------------------------


def test_view_has_the_score_sheet_and_board():
    state, placer = with_logos()
    view = RULES.view(state, 0)
    body = view["body"]
    assert body["board"]["H8"] == {"letter": "Λ", "blank": False, "value": 3}
    assert body["premiums"]["H8"] == "DW"  # the board's layout, covered squares too: the page draws the tile
    assert body["premiums"]["A1"] == "TW"
    assert body["bag"] == len(state["bag"])
    assert body["sheet"][0]["base"] == 22
    assert body["sheet"][0]["seat"] == placer
    parts = view["scores"]["parts"]
    assert (parts["learning"], parts["teaching"], view["scores"]["total"]) == ([0, 0], [0, 0], [0, 0])
    offered = sorted(a["type"] for a in view["actions"])
    assert offered == (sorted(["play", "exchange", "pass", "hint"]) if state["turn"] == 0 else ["suggest"])
    assert json.loads(json.dumps(view)) == view


def test_view_of_teacher_lists_moderator_actions():
    state = new()
    assert sorted(a["type"] for a in RULES.view(state, None)["actions"]) == ["end_play", "suggest"]


def test_letter_of_a_lettered_tile_may_be_given_but_must_match():
    state = new()
    seat = state["turn"]
    tiles = tiles_at(state, seat, "ΛΟΓΟΣ", across("H8", 5))
    tiles[0]["letter"] = "λ"
    after, _ = play(state, seat, tiles, [logos()])
    assert after["board"]["H8"]["letter"] == "Λ"
    tiles[0]["letter"] = "Α"
    assert "not Α" in refused("bad_action", state, seat, {"type": "play", "tiles": tiles, "parses": [logos()]})


# -- over random games (the contract suite checks the rest: tiles conserved and hidden, scores, replay) -------------


def test_random_games_keep_the_board_equal_to_the_plays_and_racks_within_ten():
    case = case_for("grabble")
    rng = random.Random("grabble-board")
    ctx = Context(case.lexicon, 0.0)
    for _ in range(6):
        played = new_played(RULES, case, rng)
        for _ in range(80):
            if not step(played, case, rng, ctx):
                break
            state = played.state
            from_plays = {
                t["square"]: {"tile": t["tile"], "letter": t["letter"]} for p in state["plays"] for t in p["tiles"]
            }
            assert from_plays == state["board"]
            assert all(len(rack) <= 10 for rack in state["racks"])


# -- a parse gives exactly the fields of one analysis ----------------------------------------------------------------


def test_a_parse_with_a_field_the_word_does_not_have_is_refused_at_play():
    state = new()
    seat = state["turn"]
    tiles = tiles_at(state, seat, "ΛΟΓΟΣ", across("H8", 5))
    extra = parse("ΛΟΓΟΣ", "λόγος", "N", NOUN_NSM | {"tense": "A"})
    assert "tense" in refused("wrong_parse", state, seat, {"type": "play", "tiles": tiles, "parses": [extra]})


def test_a_quiz_answer_with_an_extra_field_is_not_perfect():
    state, _placer = with_logos()
    state, _ = RULES.apply(state, None, {"type": "end_play"}, CTX)
    extra = parse("ΛΟΓΟΣ", "λόγος", "N", NOUN_NSM | {"degree": "C"})
    state, _ = RULES.apply(state, 0, {"type": "answer", "parses": [extra]}, CTX)
    state, _ = RULES.apply(state, 1, {"type": "answer", "parses": [logos()]}, CTX)
    results = state["plays"][0]["results"]
    assert (results["0"]["perfect"], results["0"]["wrong"]) == (False, [["degree"]])
    assert results["1"]["perfect"]


# -- a perfect answer keeps its full points; credit is for answers that are not perfect ------------------------------


def test_credit_given_before_marking_does_not_lower_a_perfect_answer():
    state, placer = quiz_game(players=2)
    other = 1 - placer
    state, _ = RULES.apply(state, None, {"type": "credit", "play": 0, "seat": other, "points": 5}, CTX)
    state, _ = RULES.apply(state, None, {"type": "credit", "play": 0, "seat": placer, "points": 5}, CTX)
    state, _ = answer(state, placer, logos())
    state, _ = answer(state, other, parse("ΛΟΓΟΣ", "λόγος", "N", NOUN_NSM | {"case": "G"}))
    assert state["plays"][0]["learning"] == {str(placer): 22, str(other): 5}


def test_credit_after_marking_is_refused_for_a_perfect_answer():
    state, placer = quiz_game(players=2)
    state, _ = answer(state, placer, logos())
    state, _ = answer(state, 1 - placer, logos())
    refused("not_allowed", state, None, {"type": "credit", "play": 0, "seat": placer, "points": 3})


# -- the quiz's answers stay hidden until the quiz --------------------------------------------------------------


ANALYSIS_KEYS = ("analysis", "analyses", "given", "description")


def leaked(found, own_words):
    """The words in ``found`` (views, events) carrying an analysis or a given parse, other than ``own_words``."""
    out = []
    if isinstance(found, dict):
        if "word" in found and any(k in found for k in ANALYSIS_KEYS) and found["word"] not in own_words:
            out.append(found["word"])
        for value in found.values():
            out += leaked(value, own_words)
    elif isinstance(found, list):
        for value in found:
            out += leaked(value, own_words)
    return out


def test_no_player_but_the_placer_receives_an_analysis_before_the_quiz():
    state = new(players=3)
    a = state["turn"]
    b, c = (a + 1) % 3, (a + 2) % 3
    placed_by = {a: {"ΛΟΓΟΣ"}, b: {"ΟΣ"}, c: {"ΟΙ"}}
    own = {a: {"λόγος"}, b: {"ὅς", "who, which"}, c: {"ὁ"}}
    secrets = set().union(*own.values())

    def check(state, events):
        for seat in range(3):
            seen = {"events": [censor(e, seat) for e in events], "view": RULES.view(state, seat)}
            assert leaked(seen, placed_by[seat]) == [], seat
            text = json.dumps(seen, ensure_ascii=False)
            assert [s for s in secrets if s in text and s not in own[seat]] == [], seat

    state, events = play(state, a, tiles_at(state, a, "ΛΟΓΟΣ", across("H8", 5)), [logos()])
    check(state, events)
    state, events = play(state, b, tiles_at(state, b, "Σ", ["I9"]), [parse("ΟΣ", "ὅς", "RR", NOUN_NSM)])
    check(state, events)
    assert state["turn"] == c
    given = parse("ΟΙ", "ὁ", "RA", {"case": "N", "number": "P", "gender": "M"})
    state, events = play(state, c, tiles_at(state, c, "Ι", ["K9"]), [given])
    assert state["phase"] == "approval"
    check(state, events)
    # The teacher approves from the pending word: its given parse is theirs to see.
    assert RULES.view(state, None)["body"]["pending"]["words"][0]["given"]["lemma"] == "ὁ"
    state, events = RULES.apply(state, None, {"type": "approve"}, CTX)
    check(state, events)
    assert RULES.view(state, None)["body"]["sheet"][1]["words"][0]["analysis"]["lemma"] == "ὅς"
    # The placer keeps their own.
    assert RULES.view(state, b)["body"]["sheet"][1]["words"][0]["analysis"]["lemma"] == "ὅς"
    state, events = RULES.apply(state, None, {"type": "end_play"}, CTX)
    check(state, events)
    # Once marked, the turn's analyses are everyone's.
    state, events = RULES.apply(state, None, {"type": "close"}, CTX)
    assert next(e for e in events if e["type"] == "marked")["words"][0]["analysis"]["lemma"] == "λόγος"
    for seat in range(3):
        assert RULES.view(state, seat)["body"]["sheet"][0]["words"][0]["analysis"]["lemma"] == "λόγος"
        assert "analysis" not in RULES.view(state, seat)["body"]["sheet"][1]["words"][0]


# -- the quiz accepts any reading the placer could have given -----------------------------------------------------

RELATIVE_ASF = {"case": "A", "number": "S", "gender": "F"}


def quiz_on_en(**options):
    """ΗΝ laid and taught as ἦν (εἰμί), then the quiz."""
    state, seat, action = first_play("ΗΝ", "ΗΝ", parse("ΗΝ", "εἰμί", "V", IMPF_3S), **options)
    state, _ = RULES.apply(state, seat, action, CTX)
    state, _ = RULES.apply(state, None, {"type": "end_play"}, CTX)
    return state, seat


def test_another_reading_of_the_word_is_a_perfect_answer():
    state, placer = quiz_on_en()
    other = 1 - placer
    state, _ = answer(state, placer, parse("ΗΝ", "εἰμί", "V", IMPF_3S))
    state, events = answer(state, other, parse("ΗΝ", "ὅς", "RR", RELATIVE_ASF))
    results = state["plays"][0]["results"]
    assert results[str(other)]["perfect"]
    assert state["plays"][0]["learning"][str(other)] == state["plays"][0]["base"]
    # Which reading was taught, and which the answer matched, are said.
    assert results[str(other)]["taught"] == [False]
    assert results[str(placer)]["taught"] == [True]
    marked = next(e for e in events if e["type"] == "marked")
    assert marked["words"][0]["analysis"]["lemma"] == "εἰμί"
    assert {a["lemma"] for a in marked["words"][0]["analyses"]} == {"εἰμί", "ὅς"}


def test_the_stored_readings_are_enough_without_the_lexicon():
    state, placer = quiz_on_en()
    state, _ = RULES.apply(
        state, placer, {"type": "answer", "parses": [parse("ΗΝ", "ὅς", "RR", RELATIVE_ASF)]}, Context()
    )
    state, _ = RULES.apply(
        state, 1 - placer, {"type": "answer", "parses": [parse("ΗΝ", "ὅς", "RR", RELATIVE_ASF)]}, Context()
    )
    assert all(r["perfect"] for r in state["plays"][0]["results"].values())


def test_a_wrong_answer_is_marked_against_the_closest_reading():
    state, placer = quiz_on_en()
    state, _ = answer(state, placer, parse("ΗΝ", "ὅς", "RR", RELATIVE_ASF | {"case": "N"}))
    state, _ = answer(state, 1 - placer, parse("ΗΝ", "εἰμί", "V", IMPF_3S | {"person": "1"}))
    results = state["plays"][0]["results"]
    assert results[str(placer)]["wrong"] == [["case"]]
    assert results[str(1 - placer)]["wrong"] == [["person"]]


def test_the_taught_reading_only_option_keeps_the_stricter_rule():
    state, placer = quiz_on_en(quiz_readings="taught")
    state, _ = answer(state, placer, parse("ΗΝ", "εἰμί", "V", IMPF_3S))
    state, _ = answer(state, 1 - placer, parse("ΗΝ", "ὅς", "RR", RELATIVE_ASF))
    results = state["plays"][0]["results"]
    assert results[str(placer)]["perfect"]
    assert not results[str(1 - placer)]["perfect"]


def test_an_approved_word_has_only_the_players_reading():
    state, _seat, _ = unknown_play()
    state, _ = RULES.apply(state, None, {"type": "approve"}, CTX)
    word = state["plays"][0]["words"][0]
    assert word["analyses"] == [word["analysis"]]


# -- proper nouns are not game words ---------------------------------------------------------------------------

PROPER = WordSet(
    [],
    language="grc",
    analyses={
        **ANALYSES,
        "ΠΕΤΡΟΣ": [entry("Πέτρος", "Πέτρος", "N", "----NSM-", "Peter")],
        "ΠΕΤΡΑ": [
            entry("πέτρα", "πέτρα", "N", "----NSF-", "a rock"),
            entry("Πέτρα", "Πέτρα", "N", "----NSF-", "Petra"),
        ],
    },
    normalise=greek_key,
)


@pytest.mark.parametrize("lemma", ["Παῦλος", "*pau=los"])
def test_a_proper_noun_cannot_go_to_the_teacher_by_default(lemma):
    state, seat, action = first_play("ΠΑΥΛΟΣ", "ΠΑΥΛΟΣ", parse("ΠΑΥΛΟΣ", lemma, "N", NOUN_NSM))
    assert "proper noun" in refused("not_a_word", state, seat, action)


def test_a_table_may_let_the_teacher_approve_proper_nouns():
    state, seat, action = first_play(
        "ΠΑΥΛΟΣ", "ΠΑΥΛΟΣ", parse("ΠΑΥΛΟΣ", "Παῦλος", "N", NOUN_NSM), proper_nouns="teacher"
    )
    state, _ = RULES.apply(state, seat, action, CTX)
    assert state["phase"] == "approval"
    state, _ = RULES.apply(state, None, {"type": "approve"}, CTX)
    assert state["plays"][0]["words"][0]["analysis"]["lemma"] == "Παῦλος"


def test_a_lexicons_proper_noun_readings_are_not_game_words_by_default():
    ctx = Context(lexicon=PROPER)
    state, seat, action = first_play("ΠΕΤΡΟΣ", "ΠΕΤΡΟΣ", parse("ΠΕΤΡΟΣ", "Πέτρος", "N", NOUN_NSM))
    assert "proper noun" in refused("not_a_word", state, seat, action, ctx)
    state, seat, action = first_play("ΠΕΤΡΑ", "ΠΕΤΡΑ", parse("ΠΕΤΡΑ", "πέτρα", "N", NOUN_NSF))
    state, _ = RULES.apply(state, seat, action, ctx)
    assert [a["lemma"] for a in state["plays"][0]["words"][0]["analyses"]] == ["πέτρα"]


def test_with_proper_nouns_allowed_a_lexicons_proper_noun_is_a_reading():
    ctx = Context(lexicon=PROPER)
    options = {"proper_nouns": "teacher"}
    state, seat, action = first_play("ΠΕΤΡΟΣ", "ΠΕΤΡΟΣ", parse("ΠΕΤΡΟΣ", "Πέτρος", "N", NOUN_NSM), **options)
    state, _ = RULES.apply(state, seat, action, ctx)
    assert state["plays"][0]["words"][0]["analysis"]["gloss"] == "Peter"
