"""Palabras Cortas rules, worked through the rule sheet's cases with arranged hands."""

from collections import Counter

import pytest

from games.engine import AppError, Context, WordSet, censor, score_totals
from games.rules import GAMES
from games.rules.palabras_cortas import DECKS, RULES, STANDARD_CARDS
from lexicons.normalise import spanish_key
from tests.games.contract.harness import check_completion

WORDS = ["sol", "el", "de", "la", "mar", "oso", "sal", "queso", "mesa", "canción", "niño", "era", "perro"]
CTX = Context(WordSet(WORDS, "spa", normalise=spanish_key))


class EveryWord:
    """A lexicon that accepts any spelling: for tests about turn order rather than words."""

    language = "spa"

    def normalise(self, text: str) -> str:
        return spanish_key(text)

    def is_word(self, key: str) -> bool:
        return True

    def analyses(self, key: str) -> list:
        return []


ANY = Context(EveryWord())


# -- helpers ----------------------------------------------------------------------------------------------------
def arrange(state, hands, discard=("K",), stock=(), turn=0):
    """Give each seat the named cards, the discard pile and the top of the stock (``stock[0]`` drawn first);
    every other card goes into the stock, so every card is still in exactly one place."""
    deck = DECKS[state["options"]["deck"]]
    pool = list(range(len(deck)))

    def pick(letters):
        card = next(i for i in pool if deck[i]["letters"] == letters)
        pool.remove(card)
        return card

    state["hands"] = [[pick(c) for c in hands.get(s, [])] for s in range(state["players"])]
    state["discard"] = [pick(c) for c in discard]
    top = [pick(c) for c in stock]
    state["stock"] = pool + top[::-1]
    state["turn"] = turn
    state["dealer"] = (turn - 1) % state["players"]
    state["phase"] = "draw"
    return state


def new(players=3, **options):
    state, _ = RULES.new_game(players, options, seed=7)
    return state


def ids(state, seat, *letters):
    """Card ids in ``seat``'s hand with these letters, each card used once, in the order given."""
    deck = DECKS[state["options"]["deck"]]
    hand = list(state["hands"][seat])
    chosen = []
    for letters_ in letters:
        card = next(i for i in hand if deck[i]["letters"] == letters_)
        hand.remove(card)
        chosen.append(card)
    return chosen


def offered(state, seat):
    """The action types the view offers ``seat``."""
    return [a["type"] for a in RULES.view(state, seat)["actions"]]


def act(state, actor, kind, ctx=CTX, **fields):
    return RULES.apply(state, actor, {"type": kind, **fields}, ctx)


def word_and_discard(state, seat, words, discard):
    """Words given as lists of letters; the cards are distinct ids from the seat's hand."""
    letters = [c for w in words for c in w] + [discard]
    chosen = ids(state, seat, *letters)
    out, k = [], 0
    for w in words:
        out.append(chosen[k : k + len(w)])
        k += len(w)
    return out, chosen[-1]


def lay(state, seat, kind, words, discard, ctx=CTX):
    word_ids, card = word_and_discard(state, seat, words, discard)
    return act(state, seat, kind, ctx, words=word_ids, card=card)


def all_ids(state):
    laid = [i for seat in state["laid"] for w in seat for i in w]
    return [i for h in state["hands"] for i in h] + state["stock"] + state["discard"] + laid + state["out_of_play"]


def hand_scores(state, hand_number):
    return {int(s): b["total"] for s, b in state["history"][hand_number - 1]["scores"].items()}


# -- the deck ---------------------------------------------------------------------------------------------------
def test_standard_deck_has_the_sheets_118_cards_and_letter_frequencies():
    deck = DECKS["standard"]
    counts = Counter(card["letters"] for card in deck)
    assert len(deck) == 118
    # Frequencies as printed on the sheet (its second "D - 2" is a typo for the D 4 of the table).
    sheet = "A10 B2 C2 D4 E12 F2 G4 H2 I8 J2 K2 L4 M2 N6 O8 P2 Q2 R6 S4 T6 U6 V2 W2 X2 Y4 Z2 QU2 IN2 ER2 CL2 TH2"
    for entry in sheet.split():
        letters = entry.rstrip("0123456789")
        assert counts[letters] == int(entry[len(letters) :]), letters
    assert [card["id"] for card in deck] == list(range(118))


def test_card_points_follow_the_components_table():
    values = {card["letters"]: card["points"] for card in DECKS["standard"]}
    assert values["Q"] == 15
    assert values["Z"] == 14
    assert values["QU"] == 9
    assert values["A"] == 2
    assert values == {letters: pts for letters, pts, _ in STANDARD_CARDS}


def test_spanish_deck_adds_two_each_of_enye_ch_ll_rr():
    spanish = Counter((c["letters"], c["points"]) for c in DECKS["spanish"])
    standard = Counter((c["letters"], c["points"]) for c in DECKS["standard"])
    assert spanish - standard == Counter({("Ñ", 8): 2, ("CH", 5): 2, ("LL", 8): 2, ("RR", 8): 2})
    assert "Ñ" not in {c["letters"] for c in DECKS["standard"]}


def test_both_games_are_registered():
    assert GAMES["palabras_cortas"] is RULES
    assert GAMES["palabras_cortas_solitario"].min_players == 1


# -- setting up -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [1, 9])
def test_two_to_eight_players(players):
    with pytest.raises(AppError) as err:
        RULES.new_game(players, {}, 1)
    assert err.value.code == "bad_players"


def test_unknown_or_bad_options_are_refused():
    for options in ({"checking": "sometimes"}, {"deck": "english"}, {"colour": "red"}):
        with pytest.raises(AppError) as err:
            RULES.new_game(3, options, 1)
        assert err.value.code == "bad_option"


def test_first_hand_deals_three_each_turns_up_a_discard_and_left_of_dealer_starts():
    state, events = RULES.new_game(4, {}, seed=3)
    assert [len(h) for h in state["hands"]] == [3, 3, 3, 3]
    assert len(state["discard"]) == 1
    assert len(state["stock"]) == 118 - 12 - 1
    assert state["turn"] == (state["dealer"] + 1) % 4
    assert sorted(all_ids(state)) == list(range(118))
    dealt = [e for e in events if e["type"] == "dealt"]
    assert [e["seat"] for e in dealt] == [0, 1, 2, 3]
    assert "cards" not in censor(dealt[0], 1)
    assert len(censor(dealt[0], 0)["cards"]) == 3


def test_the_first_dealer_depends_on_the_seed():
    dealers = {RULES.new_game(5, {}, seed)[0]["dealer"] for seed in range(40)}
    assert len(dealers) > 1


def play_quick_hand(state):
    """The player on turn draws and goes out with one word; everyone else discards on their last turn."""
    seat = state["turn"]
    state, _ = act(state, seat, "draw_stock", ANY)
    hand = state["hands"][seat]
    state, _ = act(state, seat, "go_out", ANY, words=[hand[:-1]], card=hand[-1])
    while state["went_out"] is not None and state["phase"] == "draw":
        last = state["turn"]
        state, _ = act(state, last, "draw_discard", ANY)
        state, _ = act(state, last, "discard", ANY, card=state["hands"][last][0])
    return state


def test_eight_hands_of_three_to_ten_cards_with_the_deal_passing_clockwise():
    state = new(3)
    sizes, dealers, starters = [], [], []
    for _ in range(8):
        sizes.append(len(state["hands"][0]))
        dealers.append(state["dealer"])
        starters.append(state["turn"])
        state = play_quick_hand(state)
    assert sizes == [3, 4, 5, 6, 7, 8, 9, 10]
    first = dealers[0]
    assert dealers == [(first + k) % 3 for k in range(8)]
    assert starters == [(d + 1) % 3 for d in dealers]
    assert state["phase"] == "finished"
    assert [h["hand_number"] for h in state["history"]] == list(range(1, 9))


def test_each_hand_is_scored_once_for_every_active_player():
    state, log = RULES.new_game(3, {}, seed=11)
    state, events = RULES.remove_player(state, 2, ANY)
    log += events
    for _ in range(8):
        seat = state["turn"]
        state, events = act(state, seat, "draw_stock", ANY)
        log += events
        hand = state["hands"][seat]
        state, events = act(state, seat, "go_out", ANY, words=[hand[:-1]], card=hand[-1])
        log += events
        while state["went_out"] is not None and state["phase"] == "draw":
            last = state["turn"]
            state, events = act(state, last, "draw_discard", ANY)
            log += events
            state, events = act(state, last, "discard", ANY, card=state["hands"][last][0])
            log += events
    scored = [e for e in log if e["type"] == "hand_scored"]
    assert [e["hand_number"] for e in scored] == list(range(1, 9))
    assert all(set(e["scores"]) == {"0", "1"} for e in scored)
    assert score_totals(log, 3) == RULES.scores(state).total


def test_after_the_eighth_hand_the_game_is_over_and_refuses_actions():
    state = new(2)
    for _ in range(8):
        state = play_quick_hand(state)
    status = RULES.status(state)
    assert status.finished
    assert status.to_act == ()
    assert RULES.view(state, 0)["winners"] == [s for s in (0, 1) if state["totals"][s] == max(state["totals"])]
    with pytest.raises(AppError) as err:
        act(state, 0, "draw_stock")
    assert err.value.code == "game_over"


# -- turns ------------------------------------------------------------------------------------------------------
def test_a_turn_is_draw_then_discard_and_passes_clockwise():
    state = arrange(new(3), {0: ["S", "O", "L"], 1: ["E", "L", "Z"], 2: ["O", "S", "O"]}, stock=["M"])
    state, events = act(state, 0, "draw_stock")
    assert state["phase"] == "discard"
    assert len(state["hands"][0]) == 4
    assert censor(events[0], 1) == {"type": "draw", "seat": 0, "source": "stock"}
    assert censor(events[0], 0)["card"]["letters"] == "M"
    state, _ = act(state, 0, "discard", card=ids(state, 0, "M")[0])
    assert state["turn"] == 1
    assert state["phase"] == "draw"
    assert len(state["hands"][0]) == 3
    assert DECKS["standard"][state["discard"][-1]]["letters"] == "M"


def test_taking_the_discard_is_public_and_it_may_be_discarded_again():
    state = arrange(new(3), {0: ["S", "O", "L"]}, discard=["A", "Q"])
    top = state["discard"][-1]
    state, events = act(state, 0, "draw_discard")
    assert events[0]["card"]["letters"] == "Q"
    state, _ = act(state, 0, "discard", card=top)
    assert state["discard"][-1] == top


@pytest.mark.parametrize(
    ("seat", "action", "code"),
    [
        (1, {"type": "draw_stock"}, "not_your_turn"),
        (0, {"type": "discard", "card": 0}, "wrong_phase"),
        (0, {"type": "fly"}, "bad_action"),
        (0, {"type": "challenge", "seat": 1, "word": 0}, "wrong_phase"),
        (0, {"type": "advance"}, "wrong_phase"),  # the engine checks the phase first: no review to end
        (None, {"type": "draw_stock"}, "not_allowed"),
        (None, {"type": "advance"}, "wrong_phase"),
        (5, {"type": "draw_stock"}, "not_allowed"),
    ],
)
def test_out_of_place_actions_get_clear_errors(seat, action, code):
    state = arrange(new(3), {0: ["S", "O", "L"]})
    with pytest.raises(AppError) as err:
        RULES.apply(state, seat, action, CTX)
    assert err.value.code == code
    assert err.value.message


def test_unexpected_fields_are_refused_not_ignored():
    state = arrange(new(3), {0: ["S", "O", "L"]})
    with pytest.raises(AppError) as err:
        act(state, 0, "draw_stock", card=3)
    assert err.value.code == "bad_action"
    assert "card" in err.value.message


def test_drawing_twice_is_refused():
    state, _ = act(arrange(new(3), {0: ["S", "O", "L"]}), 0, "draw_stock")
    with pytest.raises(AppError) as err:
        act(state, 0, "draw_discard")
    assert err.value.code == "wrong_phase"


@pytest.mark.parametrize(("card", "code"), [(None, "bad_action"), ("3", "bad_action"), (True, "bad_action")])
def test_discard_needs_a_card_id(card, code):
    state, _ = act(arrange(new(3), {0: ["S", "O", "L"]}), 0, "draw_stock")
    with pytest.raises(AppError) as err:
        act(state, 0, "discard", card=card)
    assert err.value.code == code


def test_discarding_a_card_not_held_is_refused():
    state, _ = act(arrange(new(3), {0: ["S", "O", "L"], 1: ["E", "L", "Z"]}), 0, "draw_stock")
    with pytest.raises(AppError) as err:
        act(state, 0, "discard", card=state["hands"][1][0])
    assert err.value.code == "not_held"


def test_an_empty_stock_is_the_discard_pile_reshuffled_under_its_top_card():
    state = arrange(new(3), {0: ["S", "O", "L"]}, discard=["A", "B", "C"])
    state["discard"] = state["stock"][:-2] + state["discard"]
    state["stock"] = state["stock"][-2:]
    before = sorted(all_ids(state))
    state, _ = act(state, 0, "draw_stock")
    state, _ = act(state, 0, "discard", card=state["hands"][0][0])
    state, _ = act(state, 1, "draw_stock")
    assert state["stock"] == []
    state, _ = act(state, 1, "discard", card=state["hands"][1][0])
    top = state["discard"][-1]
    state, events = act(state, 2, "draw_stock")
    assert events[0]["type"] == "reshuffle"
    assert state["discard"] == [top]
    assert len(state["stock"]) == events[0]["stock"] - 1
    assert sorted(all_ids(state)) == before


def test_with_no_stock_and_a_single_discard_only_the_discard_can_be_taken():
    state = arrange(new(3), {0: ["S", "O", "L"]}, discard=["A"])
    state["out_of_play"], state["stock"] = state["stock"], []  # parked, to keep every card somewhere
    assert offered(state, 0) == ["draw_discard"]
    with pytest.raises(AppError) as err:
        act(state, 0, "draw_stock")
    assert err.value.code == "not_allowed"


# -- going out --------------------------------------------------------------------------------------------------
def three_player_hand(**options):
    return arrange(
        new(3, **options),
        {0: ["S", "O", "L"], 1: ["E", "L", "Z"], 2: ["O", "S", "O"]},
        stock=["X", "A"],
    )


def test_going_out_lays_every_card_but_the_discard():
    state, _ = act(three_player_hand(), 0, "draw_stock")
    state, events = lay(state, 0, "go_out", [["S", "O", "L"]], "X")
    assert events[0]["type"] == "went_out"
    assert events[0]["words"][0]["word"] == "SOL"
    assert events[0]["words"][0]["key"] == "SOL"
    assert state["hands"][0] == []
    assert state["went_out"] == 0
    assert state["last_turns"] == [1, 2]
    assert state["turn"] == 1


def test_going_out_with_a_card_left_over_is_refused():
    state = arrange(new(3), {0: ["S", "O", "L", "E"]}, stock=["X"])
    state, _ = act(state, 0, "draw_stock")
    with pytest.raises(AppError) as err:
        lay(state, 0, "go_out", [["S", "O", "L"]], "X")
    assert err.value.code == "not_allowed"
    assert "every card" in err.value.message


def test_a_one_card_word_is_refused():
    state, _ = act(arrange(new(3), {0: ["S", "O", "L"]}, stock=["X"]), 0, "draw_stock")
    with pytest.raises(AppError) as err:
        lay(state, 0, "go_out", [["S", "O"], ["L"]], "X")
    assert err.value.code == "not_a_word"


def test_a_word_missing_from_the_lexicon_is_refused_by_name():
    state, _ = act(arrange(new(3), {0: ["L", "O", "S"]}, stock=["X"]), 0, "draw_stock")
    with pytest.raises(AppError) as err:
        lay(state, 0, "go_out", [["S", "L", "O"]], "X")
    assert err.value.code == "not_a_word"
    assert "SLO" in err.value.message


def test_words_must_be_lists_of_held_distinct_cards():
    state, _ = act(arrange(new(3), {0: ["S", "O", "L"], 1: ["E", "L", "Z"]}, stock=["X"]), 0, "draw_stock")
    s, o, _l, x = state["hands"][0]
    other = state["hands"][1][1]
    cases = [
        ({"words": "SOL", "card": x}, "bad_action"),
        ({"words": [[s, o, s]], "card": x}, "bad_action"),
        ({"words": [[s, o, other]], "card": x}, "not_held"),
        ({"words": [[s, o, _l]], "card": s}, "bad_action"),
        ({"words": [[s, o, _l]]}, "bad_action"),
    ]
    for fields, code in cases:
        with pytest.raises(AppError) as err:
            act(state, 0, "go_out", **fields)
        assert err.value.code == code, fields


def test_cards_spell_words_with_accents_folded():
    state = arrange(new(2), {0: ["C", "A", "N", "C", "I", "O", "N"]}, stock=["X"])
    state, _ = act(state, 0, "draw_stock")
    state, events = lay(state, 0, "go_out", [list("CANCION")], "X")
    assert events[0]["words"][0]["word"] == "CANCION"


def test_spanish_deck_enye_spells_nino_but_n_does_not():
    state = arrange(new(2, deck="spanish"), {0: ["N", "I", "Ñ", "O"], 1: ["N", "I", "N", "O"]}, stock=["X", "Y"])
    assert len(all_ids(state)) == 126
    state, _ = act(state, 0, "draw_stock")
    state, events = lay(state, 0, "go_out", [["N", "I", "Ñ", "O"]], "X")
    assert events[0]["words"][0]["key"] == "NIÑO"
    state, _ = act(state, 1, "draw_stock")
    with pytest.raises(AppError) as err:
        lay(state, 1, "lay_down", [["N", "I", "N", "O"]], "Y")
    assert "NINO" in err.value.message


def test_words_cannot_be_laid_before_someone_goes_out():
    state, _ = act(arrange(new(3), {0: ["S", "O", "L", "Z"]}, stock=["X"]), 0, "draw_stock")
    with pytest.raises(AppError) as err:
        lay(state, 0, "lay_down", [["S", "O", "L"]], "X")
    assert err.value.code == "not_allowed"


def test_after_going_out_each_other_player_has_one_last_turn_then_the_hand_ends():
    state, _ = act(three_player_hand(), 0, "draw_stock")
    state, _ = lay(state, 0, "go_out", [["S", "O", "L"]], "X")
    with pytest.raises(AppError) as err:
        act(state, 1, "go_out", words=[], card=0)
    assert err.value.code in ("not_allowed", "wrong_phase")
    state, _ = act(state, 1, "draw_stock")
    assert offered(state, 1) == ["lay_down", "discard"]
    state, events = lay(state, 1, "lay_down", [["E", "L"]], "A")
    assert events[0]["unused"] == 1
    assert state["turn"] == 2
    state, _ = act(state, 2, "draw_discard")
    state, events = lay(state, 2, "lay_down", [["O", "S", "O"]], "A")
    assert state["hand_number"] == 2
    assert len(state["history"]) == 1
    assert [len(h) for h in state["hands"]] == [4, 4, 4]
    assert any(e["type"] == "hand_scored" for e in events)


def test_a_last_turn_may_lay_no_words():
    state, _ = act(three_player_hand(), 0, "draw_stock")
    state, _ = lay(state, 0, "go_out", [["S", "O", "L"]], "X")
    state, _ = act(state, 1, "draw_stock")
    state, events = act(state, 1, "discard", card=ids(state, 1, "Z")[0])
    assert events[0]["type"] == "laid_down"
    assert events[0]["words"] == []
    assert state["turn"] == 2


# -- scoring ----------------------------------------------------------------------------------------------------
def play_three_player_hand(**options):
    """seat 0 goes out with SOL (8); seat 1 lays EL (5) and keeps Z (14); seat 2 lays OSO (7)."""
    state, _ = act(three_player_hand(**options), 0, "draw_stock")
    state, _ = lay(state, 0, "go_out", [["S", "O", "L"]], "X")
    state, _ = act(state, 1, "draw_stock")
    state, _ = lay(state, 1, "lay_down", [["E", "L"]], "A")
    state, _ = act(state, 2, "draw_discard")
    return lay(state, 2, "lay_down", [["O", "S", "O"]], "A")


def test_words_count_for_unused_cards_against_and_a_hand_never_scores_below_zero():
    state, events = play_three_player_hand()
    assert hand_scores(state, 1) == {0: 8, 1: 0, 2: 7}
    floor = [e for e in events if e["type"] == "score" and e["reason"] == "floor at zero"]
    assert [(e["seat"], e["points"]) for e in floor] == [(1, 9)]
    assert state["totals"] == [8, 0, 7]


def test_without_the_floor_a_hand_can_score_below_zero():
    state, _ = play_three_player_hand(floor_zero=False)
    assert hand_scores(state, 1) == {0: 8, 1: -9, 2: 7}


def test_a_tie_gives_nobody_the_bonus():
    state, _ = play_three_player_hand()
    bonuses = state["history"][0]["bonuses"]
    assert [(b["bonus"], b["seat"], b["why"]) for b in bonuses] == [("most", None, "tie"), ("longest", None, "tie")]
    assert bonuses[0]["tied"] == [0, 1, 2]
    assert bonuses[1]["tied"] == [0, 2]


def bonus_hand(players=3, **options):
    """seat 0: QUESO + LA (2 words, 5 letters, 21 points); seat 1: MESA, keeps S (9);
    seat 2 (3 players): SAL, keeps Z and J (8 - 27 = -19)."""
    hands = {0: ["QU", "E", "S", "O", "L", "A"], 1: ["M", "E", "S", "A", "S"], 2: ["S", "A", "L", "Z", "J"]}
    state = arrange(new(players, **options), {s: hands[s] for s in range(players)}, stock=["X", "K"])
    state, _ = act(state, 0, "draw_stock")
    state, _ = lay(state, 0, "go_out", [["QU", "E", "S", "O"], ["L", "A"]], "X")
    state, _ = act(state, 1, "draw_stock")
    state, events = lay(state, 1, "lay_down", [["M", "E", "S", "A"]], "K")
    if players == 3:
        state, _ = act(state, 2, "draw_discard")
        state, events = lay(state, 2, "lay_down", [["S", "A", "L"]], "K")
    return state, events


def test_one_player_can_take_both_bonuses():
    state, events = bonus_hand()
    assert hand_scores(state, 1) == {0: 21 + 10 + 10, 1: 9, 2: 0}
    bonus_events = [(e["seat"], e["reason"]) for e in events if e["type"] == "score" and e["points"] == 10]
    assert bonus_events == [(0, "most words"), (0, "longest word")]


def test_both_bonuses_with_the_floor_off():
    state, _ = bonus_hand(floor_zero=False)
    assert hand_scores(state, 1) == {0: 41, 1: 9, 2: -19}


def test_two_players_use_only_the_longest_word_bonus_by_default():
    two = arrange(new(2), {0: ["QU", "E", "S", "O"], 1: ["E", "L", "D", "E"]}, stock=["X", "A"])
    state, _ = act(two, 0, "draw_stock")
    state, _ = lay(state, 0, "go_out", [["QU", "E", "S", "O"]], "X")
    state, _ = act(state, 1, "draw_stock")
    state, _ = lay(state, 1, "lay_down", [["E", "L"], ["D", "E"]], "A")
    assert hand_scores(state, 1) == {0: 16 + 10, 1: 12}
    assert [b["bonus"] for b in state["history"][0]["bonuses"]] == ["longest"]


def test_two_players_may_choose_the_most_words_bonus_instead():
    two = arrange(
        new(2, two_player_bonus="most"), {0: ["QU", "E", "S", "O"], 1: ["E", "L", "D", "E"]}, stock=["X", "A"]
    )
    state, _ = act(two, 0, "draw_stock")
    state, _ = lay(state, 0, "go_out", [["QU", "E", "S", "O"]], "X")
    state, _ = act(state, 1, "draw_stock")
    state, _ = lay(state, 1, "lay_down", [["E", "L"], ["D", "E"]], "A")
    assert hand_scores(state, 1) == {0: 16, 1: 12 + 10}


def two_player_longest(first, second):
    state = arrange(new(2), {0: first, 1: second}, stock=["X", "K"])
    state, _ = act(state, 0, "draw_stock")
    state, _ = lay(state, 0, "go_out", [first], "X")
    state, _ = act(state, 1, "draw_stock")
    state, _ = lay(state, 1, "lay_down", [second], "K")
    return state["history"][0]["bonuses"][0]


def test_longest_word_counts_letters_so_a_qu_card_counts_two():
    bonus = two_player_longest(["QU", "E", "S", "O"], ["M", "E", "S", "A"])  # four cards each: 5 letters beat 4
    assert (bonus["seat"], bonus["value"]) == (0, 5)


def test_longest_word_ties_on_letters_even_when_card_counts_differ():
    bonus = two_player_longest(["ER", "A"], ["S", "O", "L"])  # 2 cards vs 3 cards, 3 letters each
    assert (bonus["seat"], bonus["why"], bonus["value"]) == (None, "tie", 3)


def test_scores_are_the_sum_of_score_events():
    state, events = RULES.new_game(3, {}, 7)
    state = arrange(
        state,
        {0: ["QU", "E", "S", "O", "L", "A"], 1: ["M", "E", "S", "A", "S"], 2: ["S", "A", "L", "Z", "J"]},
        stock=["X", "K"],
    )
    log = list(events)
    for step in (
        lambda s: act(s, 0, "draw_stock"),
        lambda s: lay(s, 0, "go_out", [["QU", "E", "S", "O"], ["L", "A"]], "X"),
        lambda s: act(s, 1, "draw_stock"),
        lambda s: lay(s, 1, "lay_down", [["M", "E", "S", "A"]], "K"),
        lambda s: act(s, 2, "draw_discard"),
        lambda s: lay(s, 2, "lay_down", [["S", "A", "L"]], "K"),
    ):
        state, events = step(state)
        log += events
    assert score_totals(log, 3) == RULES.scores(state).total == [41, 9, 0]


# -- challenges -------------------------------------------------------------------------------------------------
def challenge_hand(**options):
    """Challenge mode: seat 0 goes out with the non-word SLO; seat 1 lays EL, keeps Z; seat 2 lays OSO."""
    state = arrange(
        new(3, checking="challenge", **options),
        {0: ["S", "L", "O"], 1: ["E", "L", "Z"], 2: ["O", "S", "O"]},
        stock=["X", "A"],
    )
    state, _ = act(state, 0, "draw_stock")
    state, events = lay(state, 0, "go_out", [["S", "L", "O"]], "X")
    assert "key" not in events[0]["words"][0]  # nothing looked up while laying
    state, _ = act(state, 1, "draw_stock")
    state, _ = lay(state, 1, "lay_down", [["E", "L"]], "A")
    state, _ = act(state, 2, "draw_discard")
    state, events = lay(state, 2, "lay_down", [["O", "S", "O"]], "A")
    assert state["phase"] == "review"
    assert events[-1]["type"] == "review"
    return state


def test_in_challenge_mode_the_hand_waits_in_review():
    state = challenge_hand()
    status = RULES.status(state)
    assert status.phase == "review"
    assert status.to_act == (0, 1, 2)
    assert offered(state, 0) == ["challenge", "ready"]
    assert offered(state, None) == ["advance"]


def test_a_refused_word_costs_its_player_and_an_upheld_word_costs_the_challenger():
    state = challenge_hand()
    state, events = act(state, 1, "challenge", seat=0, word=0)
    assert events == [
        {
            "type": "challenge",
            "challenger": 1,
            "seat": 0,
            "word": 0,
            "text": "SLO",
            "key": "SLO",
            "valid": False,
            "points": 8,
        }
    ]
    state, events = act(state, 2, "challenge", seat=1, word=0)
    assert events[0]["valid"] is True
    assert events[0]["points"] == 5
    for seat in (0, 1, 2):
        state, events = act(state, seat, "ready")
    # seat 0: SLO earns nothing; seat 1: 5 - 14 floored to 0; seat 2: OSO 7, longest word alone (SLO is out), -5.
    assert hand_scores(state, 1) == {0: 0, 1: 0, 2: 7 + 10 - 5}
    lost = [e for e in events if e["type"] == "score" and e["reason"] == "lost challenge"]
    assert [(e["seat"], e["points"], e["word"]) for e in lost] == [(2, -5, "EL")]
    assert state["history"][0]["words"][0][0]["refused"] is True


def test_a_refused_word_can_count_against_its_player():
    state = challenge_hand(refused_word="against", floor_zero=False)
    state, _ = act(state, 1, "challenge", seat=0, word=0)
    for seat in (0, 1, 2):
        state, _ = act(state, seat, "ready")
    assert hand_scores(state, 1) == {0: -8, 1: -9, 2: 7 + 10}


def test_scoring_after_a_challenge_does_not_consult_the_lexicon():
    state = challenge_hand()
    state, _ = act(state, 1, "challenge", seat=0, word=0)
    for seat in (0, 1, 2):
        state, _ = act(state, seat, "ready", ctx=Context(None))
    assert hand_scores(state, 1)[0] == 0
    assert state["hand_number"] == 2


@pytest.mark.parametrize(
    ("seat", "fields", "code"),
    [
        (0, {"seat": 0, "word": 0}, "not_allowed"),
        (1, {"seat": 0, "word": 1}, "bad_action"),
        (1, {"seat": 7, "word": 0}, "bad_action"),
        (1, {"seat": "0", "word": 0}, "bad_action"),
        (1, {"word": 0}, "bad_action"),
    ],
)
def test_bad_challenges_are_refused(seat, fields, code):
    with pytest.raises(AppError) as err:
        act(challenge_hand(), seat, "challenge", **fields)
    assert err.value.code == code


def test_a_word_is_challenged_once_and_not_after_saying_ready():
    state, _ = act(challenge_hand(), 1, "challenge", seat=0, word=0)
    with pytest.raises(AppError) as err:
        act(state, 2, "challenge", seat=0, word=0)
    assert "already" in err.value.message
    state, _ = act(state, 2, "ready")
    with pytest.raises(AppError) as err:
        act(state, 2, "challenge", seat=1, word=0)
    assert err.value.code == "not_allowed"
    with pytest.raises(AppError):
        act(state, 2, "ready")


def test_a_challenge_needs_a_lexicon():
    with pytest.raises(AppError) as err:
        act(challenge_hand(), 1, "challenge", ctx=Context(None), seat=0, word=0)
    assert err.value.code == "no_lexicon"


def test_the_teacher_can_end_the_review():
    state, _ = act(challenge_hand(), 1, "ready")
    state, events = RULES.apply(state, None, {"type": "advance"}, CTX)
    assert events[0]["type"] == "advanced"
    assert state["hand_number"] == 2
    assert state["phase"] == "draw"


def test_no_one_plays_cards_during_the_review():
    with pytest.raises(AppError) as err:
        act(challenge_hand(), 1, "draw_stock")
    assert err.value.code == "wrong_phase"


# -- removing a player ------------------------------------------------------------------------------------------
def test_removing_the_player_on_turn_passes_the_turn_and_puts_their_cards_out_of_play():
    state, _ = act(three_player_hand(), 0, "draw_stock")
    held = list(state["hands"][0])
    state, events = RULES.remove_player(state, 0, CTX)
    assert state["out_of_play"] == held
    assert state["hands"][0] == []
    assert state["turn"] == 1
    assert state["phase"] == "draw"
    assert events[0] == {"type": "player_removed", "seat": 0, "cards_out_of_play": 4}
    assert sorted(all_ids(state)) == list(range(118))
    state, _ = act(state, 1, "draw_stock")
    state, _ = act(state, 1, "discard", card=state["hands"][1][0])
    state, _ = act(state, 2, "draw_stock")
    state, _ = act(state, 2, "discard", card=state["hands"][2][0])
    assert state["turn"] == 1
    with pytest.raises(AppError):
        act(state, 0, "draw_stock")


def test_removing_a_player_who_took_the_only_discard_turns_up_a_new_one():
    state, _ = act(three_player_hand(), 0, "draw_discard")
    assert state["discard"] == []
    next_stock = state["stock"][-1]
    state, events = RULES.remove_player(state, 0, CTX)
    assert state["discard"] == [next_stock]
    assert events[1]["type"] == "discard_turned"
    assert offered(state, 1) == ["draw_stock", "draw_discard"]
    assert sorted(all_ids(state)) == list(range(118))


def test_an_empty_discard_pile_cannot_be_drawn():
    state = arrange(new(3), {0: ["S", "O", "L"]}, discard=[])
    assert offered(state, 0) == ["draw_stock"]
    with pytest.raises(AppError) as err:
        act(state, 0, "draw_discard")
    assert err.value.code == "not_allowed"


def test_removing_a_player_waiting_for_a_last_turn_skips_them():
    state, _ = act(three_player_hand(), 0, "draw_stock")
    state, _ = lay(state, 0, "go_out", [["S", "O", "L"]], "X")
    state, _ = RULES.remove_player(state, 2, CTX)
    state, _ = act(state, 1, "draw_stock")
    state, _ = lay(state, 1, "lay_down", [["E", "L"]], "A")
    assert state["hand_number"] == 2
    assert "2" not in state["history"][0]["scores"]
    assert state["hands"][2] == []
    assert len(state["hands"][0]) == 4


def test_removing_the_player_on_a_last_turn_ends_the_hand_if_they_were_last():
    state, _ = act(three_player_hand(), 0, "draw_stock")
    state, _ = lay(state, 0, "go_out", [["S", "O", "L"]], "X")
    state, _ = act(state, 1, "draw_stock")
    state, _ = lay(state, 1, "lay_down", [["E", "L"]], "A")
    state, _ = act(state, 2, "draw_discard")
    state, events = RULES.remove_player(state, 2, CTX)
    assert [e["type"] for e in events][:2] == ["player_removed", "score"]
    assert state["hand_number"] == 2


def test_removing_the_last_unready_player_ends_the_review():
    state = challenge_hand()
    state, _ = act(state, 0, "ready")
    state, _ = act(state, 1, "ready")
    state, _ = RULES.remove_player(state, 2, CTX)
    assert state["hand_number"] == 2
    assert state["phase"] == "draw"


def test_removing_everyone_ends_the_game():
    state = new(2)
    state, _ = RULES.remove_player(state, 0, CTX)
    state, events = RULES.remove_player(state, 1, CTX)
    assert state["phase"] == "finished"
    assert events[-1]["type"] == "game_over"


# -- views ------------------------------------------------------------------------------------------------------
def test_a_player_sees_their_own_hand_and_only_counts_of_others():
    state = three_player_hand()
    view = RULES.view(state, 1)["body"]
    assert [c["letters"] for c in view["hand"]] == ["E", "L", "Z"]
    assert all(set(c) == {"id", "letters", "points"} for c in view["hand"])
    assert view["hand_counts"] == [3, 3, 3]
    assert view["discard_top"]["letters"] == "K"
    assert view["stock_count"] == len(state["stock"])
    assert offered(state, 1) == []
    assert offered(state, 0) == ["draw_stock", "draw_discard"]
    assert RULES.view(state, 0)["actions"][0]["fields"] == []
    assert "hand" not in RULES.view(state, None)["body"]


def test_views_show_laid_words_scores_and_bonus_reasons():
    state, _ = bonus_hand()
    view = RULES.view(state, None)["body"]
    last = view["history"][0]
    assert [w["word"] for w in last["words"][0]] == ["QUESO", "LA"]
    assert {b["reason"] for b in last["bonuses"]} == {"most words", "longest word"}
    assert RULES.view(state, None)["scores"]["total"] == [41, 9, 0]
    assert view["hand_number"] == 2
    assert view["hand_size"] == 4


def test_a_moves_message_carries_only_the_hands_it_scored():
    """The hands past are the game's record: a move's message sends a scored hand once, and a page keeps it."""
    state = play_quick_hand(new(3))
    drawn, _ = act(state, state["turn"], "draw_stock", ANY)
    assert RULES.changed_rows(state, drawn) == []
    sent = RULES.views(drawn, [0], [], move=True)[0]["body"]["history"]
    assert sent == {"length": 1, "rows": {}}
    scored = play_quick_hand(state)
    assert RULES.changed_rows(state, scored) == [1]
    sent = RULES.views(scored, [0], [1], move=True)[0]["body"]["history"]
    assert sent["length"] == 2
    assert list(sent["rows"]) == ["1"]
    assert sent["rows"]["1"]["hand_number"] == 2
    check_completion(RULES, state, scored, {0: RULES.view(state, 0)}, {0: RULES.view(scored, 0)})


def test_a_late_joiner_changes_every_hand_past():
    """A player seated after a hand was scored has an empty list of words in every past hand: every seat's page
    gets all the hands again, and completes them to the whole view."""
    state = play_quick_hand(new(3))
    joined, _, seat = RULES.add_player(state, None, ANY)
    assert seat == 3
    assert RULES.changed_rows(state, joined) is None
    assert RULES.view(joined, 0)["body"]["history"][0]["words"][3] == []
    held = {s: RULES.view(state, s) for s in (0, None)}
    check_completion(RULES, state, joined, held, {s: RULES.view(joined, s) for s in (0, None)})


def test_no_view_holds_another_seats_cards():
    state, _ = act(three_player_hand(), 0, "draw_stock")
    for seat in (None, 0, 1, 2):
        view = RULES.view(state, seat)["body"]
        shown = {c["id"] for c in view.get("hand", [])} | {view["discard_top"]["id"]}
        hidden = {i for s, hand in enumerate(state["hands"]) if s != seat for i in hand}
        text = repr(view)
        assert shown.isdisjoint(hidden)
        for card in hidden:
            assert f"'id': {card}," not in text
