"""Palabra rules, worked through the rulebook's cases with arranged hands."""

import itertools
import json
from collections import Counter

import pytest

from games.engine import AppError, Context, WordSet, censor, score_totals
from games.rules import GAMES
from games.rules.palabra import RULES, card_places
from games.rules.palabra.deck import LETTER_ROWS, cut_rank, deck_for
from games.rules.palabra.words import COMMON_SHORT_WORDS

WORDS = WordSet(
    ["a", "o", "at", "cat", "cats", "scat", "act", "tab", "bat", "rat", "dog", "dogs", "qi", "za", "ox", "red", "tea"]
)
CTX = Context(WORDS)


# -- helpers ----------------------------------------------------------------------------------------------------
def new(players=3, **options):
    state, _ = RULES.new_game(players, options, seed=7)
    return state


def pick(deck, pool, spec):
    """A card id from ``pool`` matching ``spec``: "wild", "vowel", "joker", or a letter followed by optional colours
    and ``*stars`` ("PB*3" is the blue three-star P; "A" is any A without stars)."""
    if spec in ("wild", "vowel", "joker"):
        card = next(i for i in pool if deck[i]["kind"] == spec)
    else:
        head, _, stars = spec.partition("*")
        letter, colours = head[0], head[1:]
        card = next(
            i
            for i in pool
            if deck[i]["letter"] == letter
            and (not colours or deck[i]["colors"] == colours)
            and deck[i]["stars"] == int(stars or 0)
        )
    pool.remove(card)
    return card


def arrange(state, hands, turn=0, pile_top=()):
    """Give each seat the named cards (``pile_top[0]`` is drawn first); every other card goes into the pile, so every
    card is still in exactly one place. Returns the seats' card ids."""
    deck = deck_for(state["options"])
    pool = list(range(len(deck)))
    ids = {seat: [pick(deck, pool, spec) for spec in specs] for seat, specs in hands.items()}
    top = [pick(deck, pool, spec) for spec in pile_top]
    state["hands"] = [ids.get(s, []) for s in range(state["players"])]
    state["pile"] = pool + top[::-1]
    state.update(discard=[], table=[None] * state["players"], turn=turn, phase="preplay", pending=None)
    return ids


def act(state, seat, action, ctx=CTX):
    return RULES.apply(state, seat, action, ctx)


def play_word(state, seat, cards, ctx=CTX):
    """Play ``cards`` (ids, or {card, letter} for wild cards) as a word with automatic checking."""
    state["options"]["checking"] = "auto"
    state, events = act(state, seat, {"type": "word", "cards": cards}, ctx)
    state["options"]["checking"] = "vote"
    return state, events


def offered(state, seat):
    """The action types the view offers ``seat``."""
    return [spec["type"] for spec in RULES.view(state, seat)["actions"]]


def scores_of(events, seat, reason=None):
    return sum(
        e["points"] for e in events if e["type"] == "score" and e["seat"] == seat and reason in (None, e["reason"])
    )


def error_code(state, seat, action, ctx=CTX):
    with pytest.raises(AppError) as caught:
        act(state, seat, action, ctx)
    return caught.value.code


PALABRA = ["PB*3", "AR", "LG", "AB", "BG*3", "RR", "AY"]


# -- the deck ----------------------------------------------------------------------------------------------------
def test_deck_has_122_cards_with_the_listed_letters_and_seven_specials():
    deck = deck_for(RULES.clean_options({}))
    kinds = Counter(card["kind"] for card in deck)
    assert len(deck) == 122
    assert kinds == {"letter": 115, "wild": 3, "vowel": 2, "joker": 2}
    expected = Counter()
    for letter, value, colors, stars, count in LETTER_ROWS:
        expected[(letter, value, colors, stars)] += count
    letters = Counter((c["letter"], c["value"], c["colors"], c["stars"]) for c in deck if c["kind"] == "letter")
    assert letters == expected


def test_letter_cards_colour_totals_match_the_spec():
    deck = deck_for(RULES.clean_options({}))
    colours = Counter(card["colors"] for card in deck if card["kind"] == "letter")
    assert colours == {"R": 22, "B": 22, "G": 22, "Y": 22, "RB": 14, "GY": 13}


def test_wild_and_vowel_cards_have_all_four_colours_and_jokers_none():
    deck = deck_for(RULES.clean_options({}))
    assert {c["colors"] for c in deck if c["kind"] in ("wild", "vowel")} == {"RBGY"}
    assert {c["colors"] for c in deck if c["kind"] == "joker"} == {""}


def test_double_deck_has_244_cards_and_eliminate_high_score_has_no_jokers():
    assert len(deck_for(RULES.clean_options({"double_deck": True}))) == 244
    deck = deck_for(RULES.clean_options({"eliminate_high_score": True}))
    assert len(deck) == 120
    assert not any(c["kind"] == "joker" for c in deck)


def test_registered_in_games():
    assert GAMES["palabra"] is RULES


# -- setting up --------------------------------------------------------------------------------------------------
def test_new_game_deals_seven_cards_each_and_leaves_the_rest_in_the_pile():
    state = new(4)
    assert [len(h) for h in state["hands"]] == [7, 7, 7, 7]
    assert len(state["pile"]) == 122 - 28


def test_up_to_twelve_players_with_a_double_deck():
    state = new(12, double_deck=True)
    assert len(state["pile"]) == 244 - 84
    with pytest.raises(AppError) as caught:
        RULES.new_game(13, {}, seed=1)
    assert caught.value.code == "bad_players"


def test_unknown_option_is_refused():
    with pytest.raises(AppError) as caught:
        RULES.new_game(3, {"shaving": "everyone"}, seed=1)
    assert caught.value.code == "bad_option"


@pytest.mark.parametrize("seed", range(12))
def test_the_cut_nearest_z_starts_and_ties_cut_again(seed):
    state, events = RULES.new_game(5, {}, seed=seed)
    cuts = [e for e in events if e["type"] == "cut"]
    for earlier, later in itertools.pairwise(cuts):
        best = max(cut_rank(c) for c in earlier["cuts"])
        tied = [c["seat"] for c in earlier["cuts"] if cut_rank(c) == best]
        assert sorted(c["seat"] for c in later["cuts"]) == tied
    final = {c["seat"]: cut_rank(c) for c in cuts[-1]["cuts"]}
    winner = max(final, key=final.get)
    assert list(final.values()).count(final[winner]) == 1
    assert state["turn"] == winner


def test_some_seed_needs_a_recut():
    assert any(len([e for e in RULES.new_game(6, {}, seed=s)[1] if e["type"] == "cut"]) > 1 for s in range(60))


def test_non_letter_cuts_rank_below_a():
    deck = deck_for(RULES.clean_options({}))
    a = next(c for c in deck if c["letter"] == "A")
    for kind in ("wild", "vowel", "joker"):
        assert cut_rank(next(c for c in deck if c["kind"] == kind)) < cut_rank(a)


# -- the rulebook's worked example --------------------------------------------------------------------------------
def test_palabra_with_two_three_star_cards_scores_108_plus_70():
    state = new(3)
    ids = arrange(state, {0: PALABRA})
    state, events = act(state, 0, {"type": "word", "cards": ids[0]})  # no vote: PALABRA is always a word
    assert scores_of(events, 0) == 178
    assert state["table"][0]["value"] == 178
    assert state["turn"] == 1


def test_shaving_palabra_with_p_and_r_moves_27_and_a_joker_removes_the_remaining_151():
    state = new(3)
    ids = arrange(state, {0: PALABRA, 1: ["PGY", "RRB", "C"], 2: ["joker", "D"]})
    state, _ = act(state, 0, {"type": "word", "cards": ids[0]})
    p, r = ids[1][0], ids[1][1]
    state, events = act(state, 1, {"type": "shave", "seat": 0, "cards": [{"card": p, "at": 0}, {"card": r, "at": 5}]})
    assert scores_of(events, 0) == -27
    assert scores_of(events, 1) == 27
    assert state["table"][0]["value"] == 151
    state, _ = act(state, 1, {"type": "pass"})
    state, events = act(state, 2, {"type": "joker", "targets": [{"card": ids[2][0], "seat": 0}]})
    assert scores_of(events, 0) == -151
    assert RULES.scores(state).total == [0, 27, 0]
    assert state["table"][0]["jokered"]
    assert state["table"][0]["value"] == 0


# -- word scoring ------------------------------------------------------------------------------------------------
def test_colour_locked_word_doubles():
    state = new(3)
    ids = arrange(state, {0: ["CG", "AG", "TG", "D"]})
    state, events = play_word(state, 0, ids[0][:3])
    assert scores_of(events, 0) == (3 + 1 + 1) * 2
    assert state["table"][0]["lock"] == "G"


def test_word_locked_in_both_colours_of_a_pair_scores_four_times():
    state = new(3)
    ids = arrange(state, {0: ["CRB", "wild", "TRB", "D"]})
    c, wild, t, _ = ids[0]
    state, events = play_word(state, 0, [c, {"card": wild, "letter": "A"}, t])
    assert scores_of(events, 0) == (3 + 0 + 1) * 4
    assert state["table"][0]["lock"] == "RB"


def test_stars_multiply_the_whole_word_and_mixed_colours_do_not_lock():
    state = new(3)
    ids = arrange(state, {0: ["CY*2", "AR", "TG", "D"]})
    state, events = play_word(state, 0, ids[0][:3])
    assert scores_of(events, 0) == 5 * 2
    assert state["table"][0]["lock"] == ""


def test_six_card_word_gets_no_bonus():
    state = new(3)
    ids = arrange(state, {0: ["CRB", "AR", "TG", "D", "E", "F", "G"]})
    _, events = play_word(state, 0, ids[0][:3])
    assert scores_of(events, 0) == 5


def test_vowel_card_can_only_be_a_vowel_and_wild_cards_must_name_a_letter():
    state = new(3)
    ids = arrange(state, {0: ["CRB", "vowel", "wild", "TG"]})
    c, vowel, wild, t = ids[0]
    assert error_code(state, 0, {"type": "word", "cards": [c, {"card": vowel, "letter": "T"}]}) == "bad_action"
    assert error_code(state, 0, {"type": "word", "cards": [c, wild, t]}) == "bad_action"
    assert error_code(state, 0, {"type": "word", "cards": [{"card": c, "letter": "D"}]}) == "bad_action"
    state, events = play_word(state, 0, [c, {"card": vowel, "letter": "a"}, t])
    assert state["table"][0]["letters"] == ["C", "A", "T"]
    assert scores_of(events, 0) == 4


def test_only_a_and_o_are_one_letter_words():
    state = new(3)
    ids = arrange(state, {0: ["IR", "AR", "OG"]})
    assert error_code(state, 0, {"type": "word", "cards": [ids[0][0]]}) == "not_a_word"
    _, events = play_word(state, 0, [ids[0][1]])
    assert scores_of(events, 0) == 2  # a single card is all one colour: locked


def test_jokers_are_not_letters():
    state = new(3)
    ids = arrange(state, {0: ["joker", "AR"]})
    assert error_code(state, 0, {"type": "word", "cards": ids[0]}) == "not_allowed"


# -- shaving -----------------------------------------------------------------------------------------------------
def locked_cat(players=3, **options):
    """Seat 0 has played the green-locked CAT (10 points); seat 1 is on turn."""
    state = new(players, **options)
    ids = arrange(state, {0: ["CG", "AG", "TG"], 1: ["CRB", "CY*2", "AY", "TRB"], 2: ["joker", "AB"]})
    state, _ = play_word(state, 0, ids[0])
    return state, ids


def test_shaving_a_locked_word_needs_a_card_of_its_colour():
    state, ids = locked_cat()
    red_c = ids[1][0]
    assert error_code(state, 1, {"type": "shave", "seat": 0, "cards": [{"card": red_c, "at": 0}]}) == "not_allowed"


def test_shaving_a_locked_word_in_colour_moves_the_doubled_value():
    state = new(3)
    ids = arrange(state, {0: ["CG", "AG", "TG"], 1: ["AG", "D"]})
    state, _ = play_word(state, 0, ids[0])
    state, events = act(state, 1, {"type": "shave", "seat": 0, "cards": [{"card": ids[1][0], "at": 1}]})
    assert scores_of(events, 1) == 2
    assert scores_of(events, 0) == -2
    assert state["table"][0]["value"] == 8


def test_wild_card_shaves_a_locked_word_as_the_letter_it_covers():
    state = new(3)
    ids = arrange(state, {0: ["CG", "AG", "TG"], 1: ["wild", "D"]})
    state, _ = play_word(state, 0, ids[0])
    state, events = act(state, 1, {"type": "shave", "seat": 0, "cards": [{"card": ids[1][0], "at": 0}]})
    assert scores_of(events, 1) == 6


def test_shaving_card_must_match_and_a_position_is_shaved_once():
    state = new(3)
    ids = arrange(state, {0: ["CRB", "AR", "TG"], 1: ["CG", "CY*2", "D"]})
    state, _ = play_word(state, 0, ids[0])
    c1, c2, d = ids[1]
    assert error_code(state, 1, {"type": "shave", "seat": 0, "cards": [{"card": d, "at": 0}]}) == "not_allowed"
    twice = [{"card": c1, "at": 0}, {"card": c2, "at": 0}]
    assert error_code(state, 1, {"type": "shave", "seat": 0, "cards": twice}) == "not_allowed"


def test_only_the_previous_players_word_can_be_shaved():
    state = new(3)
    ids = arrange(state, {0: ["CRB", "AR", "TG"], 1: ["D"], 2: ["CG", "E"]})
    state, _ = play_word(state, 0, ids[0])
    state, _ = act(state, 1, {"type": "pass"})
    assert error_code(state, 2, {"type": "shave", "seat": 0, "cards": [{"card": ids[2][0], "at": 0}]}) == "not_allowed"


def test_shave_anyone_lets_a_player_shave_two_seats_back():
    state = new(3, shaving="anyone")
    ids = arrange(state, {0: ["CRB", "AR", "TG"], 1: ["D"], 2: ["CG", "E"]})
    state, _ = play_word(state, 0, ids[0])
    state, _ = act(state, 1, {"type": "pass"})
    state, events = act(state, 2, {"type": "shave", "seat": 0, "cards": [{"card": ids[2][0], "at": 0}]})
    assert scores_of(events, 2) == 3


def test_shave_last_and_next_allows_the_next_seat_but_not_others():
    state = new(4, shaving="last_and_next")
    ids = arrange(state, {1: ["CRB", "AR", "TG"], 2: ["OR", "XRB"], 3: ["D"], 0: ["CG", "OB", "E"]}, turn=1)
    state, _ = play_word(state, 1, ids[1])
    state, _ = play_word(state, 2, ids[2])
    state, _ = act(state, 3, {"type": "pass"})
    # seat 0's neighbours are 3 (no word) and 1 (CAT); seat 2's OX is across the table
    assert error_code(state, 0, {"type": "shave", "seat": 2, "cards": [{"card": ids[0][1], "at": 0}]}) == "not_allowed"
    state, events = act(state, 0, {"type": "shave", "seat": 1, "cards": [{"card": ids[0][0], "at": 0}]})
    assert scores_of(events, 0) == 3


def test_cannot_joker_after_shaving():
    state = new(3)
    ids = arrange(state, {0: ["CRB", "AR", "TG"], 1: ["CG", "joker", "D"]})
    state, _ = play_word(state, 0, ids[0])
    state, _ = act(state, 1, {"type": "shave", "seat": 0, "cards": [{"card": ids[1][0], "at": 0}]})
    assert state["phase"] == "play"
    assert error_code(state, 1, {"type": "joker", "targets": [{"card": ids[1][1], "seat": 0}]}) == "wrong_phase"


def test_pre_play_draws_back_to_seven():
    state = new(3)
    ids = arrange(state, {0: ["CRB", "AR", "TG"], 1: ["CG", "D", "E", "F", "G", "H", "I"]})
    state, _ = play_word(state, 0, ids[0])
    state, _ = act(state, 1, {"type": "shave", "seat": 0, "cards": [{"card": ids[1][0], "at": 0}]})
    assert len(state["hands"][1]) == 7


def test_several_jokers_against_several_words():
    state = new(3)
    ids = arrange(state, {0: ["CRB", "AR", "TG"], 1: ["OR", "XRB"], 2: ["joker", "joker"]})
    state, _ = play_word(state, 0, ids[0])
    state, _ = play_word(state, 1, ids[1])
    targets = [{"card": ids[2][0], "seat": 0}, {"card": ids[2][1], "seat": 1}]
    state, events = act(state, 2, {"type": "joker", "targets": targets})
    assert scores_of(events, 0) == -5
    assert scores_of(events, 1) == -18
    fresh = new(3)
    ids = arrange(fresh, {0: ["CRB", "AR", "TG"], 1: ["D"], 2: ["joker", "joker"]})
    fresh, _ = play_word(fresh, 0, ids[0])
    fresh, _ = act(fresh, 1, {"type": "pass"})
    doubled = [{"card": ids[2][0], "seat": 0}, {"card": ids[2][1], "seat": 0}]
    assert error_code(fresh, 2, {"type": "joker", "targets": doubled}) == "not_allowed"


# -- builds ------------------------------------------------------------------------------------------------------
def test_build_scores_taken_face_values_plus_new_cards_with_their_stars():
    state = new(3)
    ids = arrange(state, {0: ["CRB", "AR", "TG"], 1: ["SY*2", "D"]})
    state, _ = play_word(state, 0, ids[0])
    state["options"]["checking"] = "auto"
    state, events = act(state, 1, {"type": "build", "seat": 0, "before": [ids[1][0]]})
    assert scores_of(events, 1) == (3 + 1 + 1) + 1 * 2
    assert scores_of(events, 0) == 0  # the owner keeps the points the word scored
    assert state["table"][0] is None
    assert state["table"][1]["letters"] == list("SCAT")


def test_building_star_word_takes_face_values_without_stars():
    state = new(3)
    ids = arrange(state, {0: ["CY*2", "AR", "TG"], 1: ["SR", "D"]})
    state, _ = play_word(state, 0, ids[0])
    state["options"]["checking"] = "auto"
    state, events = act(state, 1, {"type": "build", "seat": 0, "after": [ids[1][0]]})
    assert scores_of(events, 1) == 5 + 1


def test_building_on_a_locked_word_must_keep_the_lock_and_is_doubled():
    state = new(3)
    ids = arrange(state, {0: ["CG", "AG", "TG"], 1: ["SR", "SG", "D"]})
    state, _ = play_word(state, 0, ids[0])
    state["options"]["checking"] = "auto"
    assert error_code(state, 1, {"type": "build", "seat": 0, "after": [ids[1][0]]}) == "not_allowed"
    state, events = act(state, 1, {"type": "build", "seat": 0, "after": [ids[1][1]]})
    assert scores_of(events, 1) == 5 + 1 * 2
    assert state["table"][1]["lock"] == "G"


def test_build_needs_new_cards_and_a_word_to_build_on():
    state = new(3)
    ids = arrange(state, {0: ["CRB", "AR", "TG"], 1: ["SR", "D"]})
    state, _ = play_word(state, 0, ids[0])
    assert error_code(state, 1, {"type": "build", "seat": 0}) == "bad_action"
    assert error_code(state, 1, {"type": "build", "seat": 2, "after": [ids[1][0]]}) == "not_allowed"


# -- straights, flushes, vowel plays, exchanges, passes -----------------------------------------------------------
def test_straight_of_three_needs_no_check_and_scores_like_a_word():
    state = new(3)
    ids = arrange(state, {0: ["AR", "BR", "CG"]})
    state, events = act(state, 0, {"type": "straight", "cards": ids[0]}, Context())
    assert scores_of(events, 0) == 1 + 4 + 3
    assert state["table"][0]["kind"] == "straight"


def test_straight_wraps_from_z_to_a():
    state = new(3)
    ids = arrange(state, {0: ["YR", "ZRB", "AR"]})
    _, events = act(state, 0, {"type": "straight", "cards": ids[0]})
    assert scores_of(events, 0) == (4 + 10 + 1) * 2  # all red: locked


def test_broken_or_short_straight_is_refused():
    state = new(3)
    ids = arrange(state, {0: ["AR", "CRB", "DG"]})
    assert error_code(state, 0, {"type": "straight", "cards": ids[0]}) == "not_allowed"
    assert error_code(state, 0, {"type": "straight", "cards": ids[0][1:]}) == "not_allowed"


def test_flush_scores_face_values_only():
    state = new(3)
    ids = arrange(state, {0: ["HR*2", "MR*3", "AR", "ER", "RR"]})
    state, events = act(state, 0, {"type": "flush", "cards": ids[0]})
    assert scores_of(events, 0) == 4 + 3 + 1 + 1 + 1
    assert state["table"][0]["kind"] == "flush"


def test_flush_needs_five_cards_of_one_colour():
    state = new(3)
    ids = arrange(state, {0: ["HR*2", "MR*3", "AR", "ER", "RGY"]})
    assert error_code(state, 0, {"type": "flush", "cards": ids[0]}) == "not_allowed"
    assert error_code(state, 0, {"type": "flush", "cards": ids[0][:4]}) == "not_allowed"


def test_flush_cannot_be_shaved_or_built_on_but_can_be_jokered():
    state = new(3)
    ids = arrange(state, {0: ["HR*2", "MR*3", "AR", "ER", "RR"], 1: ["AB", "joker", "SB"]})
    state, _ = act(state, 0, {"type": "flush", "cards": ids[0]})
    assert error_code(state, 1, {"type": "shave", "seat": 0, "cards": [{"card": ids[1][0], "at": 2}]}) == "not_allowed"
    assert error_code(state, 1, {"type": "build", "seat": 0, "after": [ids[1][2]]}) == "not_allowed"
    _, events = act(state, 1, {"type": "joker", "targets": [{"card": ids[1][1], "seat": 0}]})
    assert scores_of(events, 0) == -10


@pytest.mark.parametrize(("count", "points"), [(6, 20), (7, 40)])
def test_vowel_play_scores_and_returns_the_cards_to_the_pile(count, points):
    state = new(3)
    ids = arrange(state, {0: ["AR", "EB", "IG", "OY", "UR", "YR", "vowel"][:count]})
    pile = len(state["pile"])
    state, events = act(state, 0, {"type": "vowels", "cards": ids[0]})
    assert scores_of(events, 0) == points
    assert len(state["hands"][0]) == 7
    assert len(state["pile"]) == pile + count - 7
    assert state["turn"] == 1
    assert all(t is None for t in state["table"])


def test_vowel_play_needs_six_vowels():
    state = new(3)
    ids = arrange(state, {0: ["AR", "EB", "IG", "OY", "UR", "CRB"]})
    assert error_code(state, 0, {"type": "vowels", "cards": ids[0]}) == "not_allowed"
    assert error_code(state, 0, {"type": "vowels", "cards": ids[0][:5]}) == "not_allowed"


def test_exchange_draws_new_cards_and_ends_the_turn():
    state = new(3)
    ids = arrange(state, {0: ["AR", "EB", "IG", "OY", "UR", "CRB", "D"]})
    state, events = act(state, 0, {"type": "exchange", "cards": ids[0][:3]})
    assert len(state["hands"][0]) == 7
    assert set(ids[0][3:]) <= set(state["hands"][0])
    assert state["turn"] == 1
    assert "cards" not in censor(next(e for e in events if e["type"] == "exchanged"), 1)


def test_exchange_needs_ten_cards_in_the_pile():
    state = new(3)
    ids = arrange(state, {0: ["AR", "EB"]})
    state["discard"], state["pile"] = state["pile"][9:], state["pile"][:9]
    assert error_code(state, 0, {"type": "exchange", "cards": ids[0][:1]}) == "not_allowed"


def test_players_previous_word_is_discarded_at_the_start_of_their_turn():
    state = new(2)
    ids = arrange(state, {0: ["CRB", "AR", "TG"], 1: ["D"]})
    state, _ = play_word(state, 0, ids[0])
    state, events = act(state, 1, {"type": "pass"})
    assert state["table"][0] is None
    assert set(ids[0]) <= set(state["discard"])
    assert any(e["type"] == "word_discarded" and e["seat"] == 0 for e in events)
    assert RULES.scores(state).total[0] == 5  # discarding keeps the points


# -- the end ------------------------------------------------------------------------------------------------------
def empty_pile(state):
    state["discard"].extend(state["pile"])
    state["pile"] = []


def test_using_all_cards_with_an_empty_pile_ends_the_game_and_doubles_the_final_word():
    state = new(3)
    ids = arrange(state, {0: ["CRB", "AR", "TG"], 1: ["QRB", "MR*3"], 2: ["D"]})
    empty_pile(state)
    state, events = play_word(state, 0, ids[0])
    assert state["finished"]
    assert RULES.status(state).finished
    assert scores_of(events, 0, "final_play") == 5
    assert scores_of(events, 1, "penalty") == -(10 + 3) * 3
    assert scores_of(events, 2, "penalty") == -2
    assert RULES.scores(state).total == [10, -39, -2]


def test_final_play_can_be_tripled():
    state = new(3, final_multiplier=3)
    ids = arrange(state, {0: ["CRB", "AR", "TG"], 1: ["D"], 2: ["E"]})
    empty_pile(state)
    state, _ = play_word(state, 0, ids[0])
    assert RULES.scores(state).total[0] == 15


def test_going_out_with_a_vowel_free_pre_play_does_not_double():
    state = new(3)
    ids = arrange(state, {0: ["CRB", "AR", "TG"], 1: ["CG"], 2: ["D"]})
    state, _ = play_word(state, 0, ids[0])
    empty_pile(state)
    state, events = act(state, 1, {"type": "shave", "seat": 0, "cards": [{"card": ids[1][0], "at": 0}]})
    assert state["finished"]
    assert not scores_of(events, 1, "final_play")


def test_a_round_of_passes_with_an_empty_pile_ends_the_game():
    state = new(3)
    arrange(state, {0: ["D"], 1: ["E"], 2: ["F"]})
    empty_pile(state)
    for seat in (0, 1):
        state, _ = act(state, seat, {"type": "pass"})
        assert not state["finished"]
    state, events = act(state, 2, {"type": "pass"})
    assert state["finished"]
    assert state["end_reason"] == "no_plays"
    assert [scores_of(events, s, "penalty") for s in range(3)] == [-2, -1, -4]


def test_no_actions_after_the_game_is_over():
    state = new(3)
    ids = arrange(state, {0: ["CRB", "AR", "TG"], 1: ["D"], 2: ["E"]})
    empty_pile(state)
    state, _ = play_word(state, 0, ids[0])
    assert error_code(state, 1, {"type": "pass"}) == "game_over"
    assert RULES.view(state, 1)["actions"] == []


def test_eliminate_high_score_drops_each_players_best_word():
    state = new(2, eliminate_high_score=True)
    ids = arrange(state, {0: ["CRB", "AR", "TG", "OR", "XRB"], 1: ["AY", "TY"]})
    state, _ = play_word(state, 0, ids[0][:3])  # CAT 5
    state, _ = play_word(state, 1, ids[1])  # AT locked yellow: 4
    for seat, keep in ((0, ids[0][3:]), (1, [])):  # clear the hands down to the final OX
        state["discard"] += [c for c in state["hands"][seat] if c not in keep]
        state["hands"][seat] = list(keep)
    empty_pile(state)
    state, events = play_word(state, 0, ids[0][3:])  # OX locked red: 18, doubled to 36 as the final play
    assert scores_of(events, 0, "high_word_dropped") == -36
    assert scores_of(events, 1, "high_word_dropped") == -4
    assert RULES.scores(state).total == [5, 0]


# -- challenges ----------------------------------------------------------------------------------------------------
def proposed(word_cards=("DG", "OR", "GB"), players=3, **options):
    state = new(players, **options)
    ids = arrange(state, {0: [*word_cards, "AR", "TY"], 1: ["E"], 2: ["F"]})
    state, events = act(state, 0, {"type": "word", "cards": ids[0][: len(word_cards)]})
    return state, ids, events


def test_a_word_waits_for_the_other_players_votes():
    state, _, events = proposed()
    assert state["phase"] == "vote"
    assert RULES.status(state).to_act == (1, 2)
    assert any(e["type"] == "proposed" for e in events)
    assert error_code(state, 0, {"type": "vote", "accept": True}) == "not_your_turn"  # the engine: not a voter
    assert error_code(state, 0, {"type": "pass"}) == "wrong_phase"


def test_vote_accept_places_and_scores_the_word():
    state, _, _ = proposed()
    state, events = act(state, 1, {"type": "vote", "accept": True})
    assert state["table"][0]["letters"] == list("DOG")
    assert scores_of(events, 0) == 8
    assert state["turn"] == 1


def test_a_tied_vote_lets_the_word_stand():
    state, _, _ = proposed(players=3)
    state, _ = act(state, 1, {"type": "vote", "accept": False})
    assert state["phase"] == "vote"
    state, _ = act(state, 2, {"type": "vote", "accept": True})
    assert state["table"][0] is not None


def test_vote_reject_then_withdraw_returns_the_cards_and_allows_another_play():
    state, ids, _ = proposed(players=2)
    state, _ = act(state, 1, {"type": "vote", "accept": False})
    assert state["phase"] == "decide"
    assert state["rejecters"] == [1]
    state, _ = act(state, 0, {"type": "withdraw"})
    assert state["phase"] == "play"
    assert set(ids[0]) == set(state["hands"][0])
    assert RULES.scores(state).total == [0, 0]
    state, _ = act(state, 0, {"type": "word", "cards": ids[0][3:]})
    assert state["phase"] == "vote"


def reject_and_insist(word_cards):
    state, ids, _ = proposed(word_cards=word_cards)
    state, _ = act(state, 1, {"type": "vote", "accept": False})
    state, _ = act(state, 2, {"type": "vote", "accept": False})
    state, _ = act(state, 0, {"type": "insist"})
    assert state["phase"] == "challenge"
    return state, ids


def test_failed_formal_challenge_costs_the_challenger_the_next_turn():
    state, _ids = reject_and_insist(("DG", "OR", "GB"))
    state, events = act(state, 1, {"type": "challenge"})
    challenge = next(e for e in events if e["type"] == "challenge")
    assert challenge["lookup"]["legal"]
    assert not challenge["upheld"]
    assert state["table"][0]["letters"] == list("DOG")
    assert RULES.scores(state).total[0] == 8
    assert state["turn"] == 2  # seat 1 forfeited
    assert any(e["type"] == "turn_forfeited" and e["seat"] == 1 for e in events)
    state, _ = act(state, 2, {"type": "pass"})
    assert state["turn"] == 0
    assert state["forfeits"][1] == 0


def test_successful_formal_challenge_withdraws_the_word_and_ends_the_turn():
    state, ids = reject_and_insist(("GB", "OR", "DG"))
    state, events = act(state, 2, {"type": "challenge"})
    challenge = next(e for e in events if e["type"] == "challenge")
    assert challenge["upheld"]
    assert challenge["lookup"] == {
        "word": "GOD",
        "key": "GOD",
        "in_lexicon": False,
        "legal": False,
        "why": "not in the word list",
    }
    assert state["turn"] == 1
    assert set(ids[0]) <= set(state["hands"][0])
    assert RULES.scores(state).total == [0, 0, 0]


def test_only_rejecters_challenge_and_if_all_concede_the_word_stands():
    state, _ = reject_and_insist(("GB", "OR", "DG"))
    state, _ = act(state, 1, {"type": "concede"})
    assert state["phase"] == "challenge"
    state, _ = act(state, 2, {"type": "concede"})
    assert state["table"][0]["letters"] == list("GOD")
    assert state["turn"] == 1


def test_formal_challenge_without_a_lexicon_is_refused():
    state, _ = reject_and_insist(("GB", "OR", "DG"))
    assert error_code(state, 1, {"type": "challenge"}, Context()) == "no_lexicon"


def test_teacher_check_settles_a_vote():
    state, _, _ = proposed(word_cards=("GB", "OR", "DG"))
    assert error_code(state, 1, {"type": "check"}) == "teacher_only"
    state, events = act(state, None, {"type": "check"})
    assert state["phase"] == "play"
    assert not state["table"][0]
    assert next(e for e in events if e["type"] == "teacher_check")["lookup"]["legal"] is False


def test_palabra_needs_no_vote_even_outside_the_lexicon():
    state = new(3, checking="auto")
    ids = arrange(state, {0: PALABRA})
    state, _events = act(state, 0, {"type": "word", "cards": ids[0]}, Context(WordSet([])))
    assert state["table"][0]["value"] == 178


def test_automatic_checking_refuses_a_word_not_in_the_lexicon():
    state = new(3, checking="auto")
    ids = arrange(state, {0: ["GB", "OR", "DG"]})
    assert error_code(state, 0, {"type": "word", "cards": ids[0]}) == "not_a_word"
    assert error_code(state, 0, {"type": "word", "cards": ids[0]}, Context()) == "no_lexicon"


def test_automatic_checking_records_the_lookup():
    state = new(3, checking="auto")
    ids = arrange(state, {0: ["DG", "OR", "GB"]})
    _, events = act(state, 0, {"type": "word", "cards": ids[0]})
    assert next(e for e in events if e["type"] == "placed")["lookup"]["key"] == "DOG"


@pytest.mark.parametrize(("short_words", "legal"), [("all", True), ("common", False)])
def test_scrabble_only_short_words_follow_the_table_option(short_words, legal):
    state = new(3, checking="auto", short_words=short_words)
    ids = arrange(state, {0: ["QRB", "IR"]})
    if legal:
        assert act(state, 0, {"type": "word", "cards": ids[0]})[0]["table"][0]
    else:
        assert error_code(state, 0, {"type": "word", "cards": ids[0]}) == "not_a_word"


# The bundled word list has no one-letter words; the rulebook makes A and O words on every table.
NO_ONE_LETTER_WORDS = Context(WordSet(["at", "cat", "dog", "tab"]))


@pytest.mark.parametrize("letter", ["A", "O"])
def test_a_and_o_are_words_under_automatic_checking(letter):
    state = new(3, checking="auto")
    ids = arrange(state, {0: [letter]})
    state, events = act(state, 0, {"type": "word", "cards": ids[0]}, NO_ONE_LETTER_WORDS)
    assert state["table"][0]["letters"] == [letter]
    assert next(e for e in events if e["type"] == "placed")["lookup"]["legal"] is True


@pytest.mark.parametrize("short_words", ["all", "common"])
def test_a_and_o_stand_whatever_the_short_word_option(short_words):
    from games.rules.palabra.words import look_up

    for letter in ("A", "O"):
        assert look_up(letter, short_words, NO_ONE_LETTER_WORDS.lexicon)["legal"] is True
    assert look_up("I", short_words, NO_ONE_LETTER_WORDS.lexicon)["legal"] is False


def test_a_teacher_check_keeps_o():
    state = new(3)
    ids = arrange(state, {0: ["O", "AR"], 1: ["E"], 2: ["F"]})
    state, _ = act(state, 0, {"type": "word", "cards": ids[0][:1]}, NO_ONE_LETTER_WORDS)
    assert state["phase"] == "vote"
    state, events = act(state, None, {"type": "check"}, NO_ONE_LETTER_WORDS)
    assert next(e for e in events if e["type"] == "teacher_check")["lookup"]["legal"] is True
    assert state["table"][0]["letters"] == ["O"]


def test_a_formal_challenge_of_a_fails():
    state = new(3)
    ids = arrange(state, {0: ["A", "TY"], 1: ["E"], 2: ["F"]})
    state, _ = act(state, 0, {"type": "word", "cards": ids[0][:1]}, NO_ONE_LETTER_WORDS)
    state, _ = act(state, 1, {"type": "vote", "accept": False}, NO_ONE_LETTER_WORDS)
    state, _ = act(state, 2, {"type": "vote", "accept": False}, NO_ONE_LETTER_WORDS)
    state, _ = act(state, 0, {"type": "insist"}, NO_ONE_LETTER_WORDS)
    state, events = act(state, 1, {"type": "challenge"}, NO_ONE_LETTER_WORDS)
    challenge = next(e for e in events if e["type"] == "challenge")
    assert not challenge["upheld"]
    assert state["table"][0]["letters"] == ["A"]
    assert any(e["type"] == "turn_forfeited" and e["seat"] == 1 for e in events)


def test_common_short_words_are_short():
    assert {len(w) for w in COMMON_SHORT_WORDS} == {2, 3}
    assert "QI" not in COMMON_SHORT_WORDS


def test_straights_and_flushes_are_never_voted_on():
    state = new(3)
    ids = arrange(state, {0: ["AR", "BR", "CG"]})
    state, _ = act(state, 0, {"type": "straight", "cards": ids[0]})
    assert state["phase"] == "preplay"
    assert state["table"][0]


# -- the impatient timer -------------------------------------------------------------------------------------------
def test_timer_passes_the_player_on_turn_when_it_runs_out():
    state = new(3, impatient_timer=True)
    state, events = act(state, 2, {"type": "start_timer"}, Context(WORDS, now=100.0))
    turn = state["turn"]
    assert state["timer"]["deadline"] == 160.0
    assert error_code(state, 1, {"type": "timer_expired"}, Context(WORDS, now=159.0)) == "not_allowed"
    state, events = act(state, 1, {"type": "timer_expired"}, Context(WORDS, now=160.0))
    assert state["turn"] != turn
    assert state["timer"] is None
    assert any(e["type"] == "passed" and e["seat"] == turn for e in events)


def test_timer_is_off_unless_the_table_chose_it():
    assert error_code(new(3), 1, {"type": "start_timer"}) == "not_allowed"


def test_timer_cannot_run_twice_and_stops_when_the_word_goes_to_the_vote():
    state, _ids, _ = proposed(impatient_timer=True)
    assert error_code(state, 1, {"type": "start_timer"}) == "wrong_phase"
    state = new(3, impatient_timer=True)
    state, _ = act(state, 1, {"type": "start_timer"})
    assert error_code(state, 2, {"type": "start_timer"}) == "not_allowed"


def test_timer_in_the_decide_phase_withdraws_the_word():
    state, ids, _ = proposed(players=2, impatient_timer=True)
    state, _ = act(state, 1, {"type": "vote", "accept": False})
    state, _ = act(state, 1, {"type": "start_timer"}, Context(WORDS, now=0))
    state, _ = act(state, 1, {"type": "timer_expired"}, Context(WORDS, now=61))
    assert state["turn"] == 1
    assert set(ids[0]) <= set(state["hands"][0])


# -- removal ---------------------------------------------------------------------------------------------------------
def test_removed_player_is_skipped_and_their_hand_and_word_leave_the_table():
    state = new(3)
    ids = arrange(state, {0: ["CRB", "AR", "TG"], 1: ["D"], 2: ["E"]})
    state, _ = play_word(state, 0, ids[0])
    pile = len(state["pile"])
    hand = len(state["hands"][0])
    state, _events = RULES.remove_player(state, 0, CTX)
    assert state["table"][0] is None
    assert state["hands"][0] == []
    assert len(state["pile"]) == pile + hand
    assert RULES.scores(state).total[0] == 5
    state, _ = act(state, 1, {"type": "pass"})
    state, _ = act(state, 2, {"type": "pass"})
    assert state["turn"] == 1


def test_removing_the_player_on_turn_passes_the_turn():
    state = new(3)
    arrange(state, {0: ["D"], 1: ["E"], 2: ["F"]})
    state, _ = RULES.remove_player(state, 0, CTX)
    assert state["turn"] == 1
    assert error_code(state, 0, {"type": "pass"}) == "not_allowed"  # the engine: that seat is not in the game


def test_removing_a_voter_can_settle_the_vote():
    state, _, _ = proposed()
    state, _ = act(state, 1, {"type": "vote", "accept": False})
    state, _ = RULES.remove_player(state, 2, CTX)
    assert state["phase"] == "decide"
    assert state["rejecters"] == [1]


def test_last_player_standing_ends_the_game():
    state = new(2)
    state, _events = RULES.remove_player(state, 1, CTX)
    assert state["finished"]
    assert state["end_reason"] == "players_left"


# -- views ---------------------------------------------------------------------------------------------------------
def test_player_sees_only_their_own_hand():
    state = new(3)
    ids = arrange(state, {0: ["CRB", "AR", "TG"], 1: ["D"], 2: ["E"]})
    view = RULES.view(state, 0)["body"]
    assert [c["id"] for c in view["hand"]] == ids[0]
    assert view["hand"][0] == {"id": ids[0][0], "kind": "letter", "letter": "C", "value": 3, "colors": "RB", "stars": 0}
    assert view["hand_counts"] == [3, 1, 1]
    text = json.dumps(RULES.view(state, 1))
    assert all(f'"id": {c}' not in text for c in ids[0])


def test_spectator_sees_no_hands():
    state = new(3)
    view = RULES.view(state, None)["body"]
    assert view["hand"] is None
    text = json.dumps(view)
    assert not any(f'"id": {c},' in text for hand in state["hands"] for c in hand)


def test_view_marks_shave_and_joker_targets_and_lists_actions():
    state = new(3)
    ids = arrange(state, {0: ["CRB", "AR", "TG"], 1: ["CG", "joker", "D"], 2: ["E"]})
    state, _ = play_word(state, 0, ids[0])
    view = RULES.view(state, 1)["body"]
    word = view["table"][0]
    assert word["shave_target"]
    assert word["joker_target"]
    assert word["build_target"]
    assert word["value"] == 5
    assert word["lock"] == ""
    assert [f["letter"] for f in word["faces"]] == list("CAT")
    assert {"joker", "shave", "word", "pass"} <= set(offered(state, 1))
    assert offered(state, 2) == []
    assert not RULES.view(state, 2)["body"]["table"][0]["shave_target"]


def test_view_of_a_vote_lists_vote_for_voters():
    state, _, _ = proposed()
    assert offered(state, 1) == ["vote"]
    assert RULES.view(state, 0)["body"]["pending"]["letters"] == list("DOG")
    assert offered(state, None) == ["check"]


def test_drawn_cards_are_private():
    _, events = RULES.new_game(3, {}, seed=3)
    drew = [e for e in events if e["type"] == "drew"]
    assert all("cards" in censor(e, e["seat"]) for e in drew)
    assert all("cards" not in censor(e, (e["seat"] + 1) % 3) for e in drew)


# -- bad input -------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("seat", "action", "code"),
    [
        (1, {"type": "pass"}, "not_your_turn"),
        (None, {"type": "pass"}, "not_allowed"),  # the engine: the teacher has no seat to play from
        (0, {"type": "dance"}, "bad_action"),
        (0, {"type": "word", "cards": "CAT"}, "bad_action"),
        (0, {"type": "word", "cards": [999]}, "bad_action"),
        (0, {"type": "word", "cards": [True]}, "bad_action"),
        (0, {"type": "word", "cards": []}, "bad_action"),
        (0, {"type": "vote", "accept": True}, "wrong_phase"),
        (0, {"type": "withdraw"}, "wrong_phase"),
        (7, {"type": "pass"}, "not_allowed"),  # the engine: that seat is not in the game
    ],
)
def test_bad_actions_get_clear_codes(seat, action, code):
    state = new(3)
    arrange(state, {0: ["CRB", "AR"], 1: ["TG"]})
    assert error_code(state, seat, action) == code


def test_cards_not_held_are_refused():
    state = new(3)
    ids = arrange(state, {0: ["CRB", "AR"], 1: ["TG"]})
    assert error_code(state, 0, {"type": "word", "cards": [ids[0][0], ids[1][0]]}) == "not_held"


def test_scores_are_the_sum_of_score_events_in_a_scripted_game():
    state, all_events = RULES.new_game(3, {}, seed=7)
    ids = arrange(state, {0: PALABRA, 1: ["PGY", "RRB", "C"], 2: ["joker", "D"]})
    for seat, action in [
        (0, {"type": "word", "cards": ids[0]}),
        (1, {"type": "shave", "seat": 0, "cards": [{"card": ids[1][0], "at": 0}]}),
        (1, {"type": "pass"}),
        (2, {"type": "joker", "targets": [{"card": ids[2][0], "seat": 0}]}),
    ]:
        state, events = act(state, seat, action)
        all_events += events
    assert score_totals(all_events, 3) == RULES.scores(state).total == [178 - 18 - 160, 18, 0]
    places = card_places(state)
    assert sorted(c for cards in places.values() for c in cards) == list(range(122))


def test_a_late_joiner_takes_over_a_removed_seat_between_turns_with_a_fresh_hand():
    state = new(3)
    state, _ = RULES.remove_player(state, 1, CTX)
    assert state["hands"][1] == []
    assert RULES.can_seat(state, 1)
    assert not RULES.can_seat(state, None)  # no new seats
    assert not RULES.can_seat(state, 2)  # a seat still played
    score = state["scores"][1]
    seated, events, number = RULES.add_player(state, 1, CTX)
    assert number == 1
    assert 1 not in seated["removed"]
    assert len(seated["hands"][1]) == 7
    assert seated["scores"][1] == score
    assert censor(events[0], 0).get("cards") is None  # the others do not see the new hand
    assert sorted(i for ids in card_places(seated).values() for i in ids) == sorted(
        i for ids in card_places(state).values() for i in ids
    )


def test_nobody_sits_down_during_a_vote():
    state = new(3)
    state, _ = RULES.remove_player(state, 2, CTX)
    state["phase"] = "vote"
    assert not RULES.can_seat(state, 2)
    with pytest.raises(AppError) as refused:
        RULES.add_player(state, 2, CTX)
    assert refused.value.code == "cannot_seat"
