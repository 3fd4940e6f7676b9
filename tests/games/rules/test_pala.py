"""Pala's rules, with the rulebook's worked examples: the deck and the deal, bidding, copying, mixing, smearing,
junking, ties, and both scoring systems."""

import pytest

from games.engine import AppError
from games.rules.pala import RULES
from games.rules.pala.bidding import BOARDS
from games.rules.pala.deck import DECK, MIXES
from games.rules.pala.scoring import impressionism, pointillism
from tests.games.pala_helpers import CTX, Cards, act, offered, table


# -- the deck and the deal -------------------------------------------------------------------------
def test_the_deck_has_48_cards_eight_of_each_colour_with_their_values():
    assert len(DECK) == 48
    by_colour: dict[str, list[int]] = {}
    for card in DECK:
        by_colour.setdefault(card["colour"], []).append(card["value"])
    for primary in ("red", "blue", "yellow"):
        assert sorted(by_colour[primary]) == [1, 1, 2, 2, 3, 3, 4, 5]
    for secondary in ("orange", "green", "purple"):
        assert sorted(by_colour[secondary]) == [2, 3, 4, 5, 6, 7, 8, 9]
    assert dict(MIXES) == {"orange": {"red", "yellow"}, "green": {"blue", "yellow"}, "purple": {"red", "blue"}}


@pytest.mark.parametrize(("players", "hand", "aside"), [(3, 14, 6), (4, 11, 4), (5, 9, 3)])
def test_hands_and_set_aside_cards_by_player_count(players, hand, aside):
    state, _ = RULES.new_game(players, {}, seed=3)
    assert [len(h) for h in state["hands"]] == [hand] * players
    assert len(state["aside"]) == aside
    everywhere = sorted(c for h in state["hands"] for c in h) + sorted(state["aside"])
    assert sorted(everywhere) == list(range(48))
    assert state["dealer"] == 0
    assert RULES.status(state).to_act == (0,)  # the dealer bids first


def test_the_dealer_passes_clockwise_and_every_round_is_a_full_reshuffle():
    state, _ = RULES.new_game(3, {"ties": "auto"}, seed=5)
    first_hands = [list(h) for h in state["hands"]]
    for seat in (0, 1, 2):
        state = act(state, seat, "bid", colours=["white"])
    while state["round"] == 1:
        view = RULES.view(state, state["turn"])
        spec = view["actions"][0]
        field = spec["fields"][0]
        state = act(state, state["turn"], spec["type"], **{field["name"]: field["choices"][0]})
    assert state["round"] == 2
    assert state["dealer"] == 1
    assert RULES.status(state).to_act == (1,)
    assert (
        sorted(c for h in state["hands"] for c in h) + sorted(state["aside"])
        != sorted(c for h in first_hands for c in h)
        or state["hands"] != first_hands
    )
    assert sorted([c for h in state["hands"] for c in h] + state["aside"]) == list(range(48))
    assert state["discard"] == []


# -- Pointillism bidding ---------------------------------------------------------------------------
def test_pointillism_bids_go_round_from_the_dealer_and_the_dealer_leads():
    state, _ = RULES.new_game(3, {}, seed=8)
    with pytest.raises(AppError) as refused:
        act(state, 1, "bid", colours=["red"])
    assert refused.value.code == "not_your_turn"
    with pytest.raises(AppError, match="never combined"):
        act(state, 0, "bid", colours=["white", "red"])
    with pytest.raises(AppError):
        act(state, 0, "bid", colours=[])
    state = act(state, 0, "bid", colours=["green", "red", "yellow"])
    assert state["bids"][0] == ["red", "yellow", "green"]
    state = act(state, 1, "bid", colours=["white"])
    state = act(state, 2, "bid", colours=["red", "blue", "yellow", "orange", "green", "purple"])
    assert state["phase"] == "play"
    assert RULES.status(state).to_act == (0,)
    assert set(offered(state, 0)) == {"lead"}
    assert RULES.view(state, 1)["body"]["bids"] == [
        ["red", "yellow", "green"],
        ["white"],
        list(("red", "blue", "yellow", "orange", "green", "purple")),
    ]


# -- Impressionism bidding -------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("players", "options", "slots"),
    [
        (3, {}, ["face", "two", "cancel"]),
        (4, {}, ["face", "one", "one", "cancel"]),
        (5, {}, ["face", "one", "one", "zero", "cancel"]),
        (5, {"five_player_board": "two"}, ["face", "two", "one", "zero", "cancel"]),
    ],
)
def test_the_bid_board_by_player_count(players, options, slots):
    state, _ = RULES.new_game(players, {"variant": "impressionism", **options}, seed=2)
    assert [s["slot"] for s in state["board"]] == slots
    assert set(BOARDS) >= {"3", "4", "5"}


def test_impressionism_bids_a_card_on_a_slot_or_passes_never_a_colour_twice_until_the_board_is_full():
    state, _ = RULES.new_game(3, {"variant": "impressionism"}, seed=4)
    assert set(offered(state, 0)) == {"place", "pass"}
    assert "bid" not in offered(state, 0)
    card = state["hands"][0][0]
    colour = DECK[card]["colour"]
    state = act(state, 0, "place", card=card, slot=0)
    assert card not in state["hands"][0]
    same = next((c for c in state["hands"][1] if DECK[c]["colour"] == colour), None)
    if same is not None:
        assert same not in offered(state, 1)["place"]["card"]
        with pytest.raises(AppError, match="already on the board"):
            act(state, 1, "place", card=same, slot=1)
    with pytest.raises(AppError, match="not open"):
        act(state, 1, "place", card=offered(state, 1)["place"]["card"][0], slot=0)
    state = act(state, 1, "pass")
    # Everyone else passed since the last bid: seat 2 must bid, then seat 0 may pass (seat 1 bids last).
    state = act(state, 2, "pass")
    assert "pass" not in offered(state, 0)
    state = act(state, 0, "place", card=offered(state, 0)["place"]["card"][0], slot=1)
    state = act(state, 1, "place", card=offered(state, 1)["place"]["card"][0], slot=2)
    assert state["phase"] == "play"
    colours = [DECK[s["card"]]["colour"] for s in state["board"]]
    assert len(set(colours)) == 3
    assert RULES.status(state).to_act == (state["dealer"],)


# -- copying, junking, mixing ------------------------------------------------------------------------
def test_a_primary_trick_must_be_copied_if_you_can():
    state, _ = table([["red 2"], ["red 4", "green 9"], ["blue 3", "blue 5"]])
    state = act(state, 0, "lead", card=state["hands"][0][0])
    assert set(offered(state, 1)) == {"copy"}
    with pytest.raises(AppError):
        act(state, 1, "junk", card=state["hands"][1][1])
    state = act(state, 1, "copy", card=state["hands"][1][0])
    assert state["trick"]["best"] == 1
    assert set(offered(state, 2)) == {"junk"}  # no red, no smear (no purple to go with a blue)


def test_mixing_on_a_purple_trick_is_a_choice_never_forced():
    # Rulebook: on a purple trick with purple 3, purple 4, red 3, blue 5: one purple card, or mix red 3 + blue 5.
    state, _ = table([["purple 2"], ["purple 3", "purple 4", "red 3", "blue 5"], ["green 2"]])
    state = act(state, 0, "lead", card=state["hands"][0][0])
    hand = state["hands"][1]
    choices = offered(state, 1)
    assert set(choices) == {"copy", "mix"}
    assert sorted(choices["copy"]["card"]) == sorted(hand[:2])
    assert choices["mix"]["cards"] == [[hand[2], hand[3]]]
    mixed = act(state, 1, "mix", cards=[hand[2], hand[3]])
    play = mixed["trick"]["plays"][1]
    body_play = RULES.view(mixed, 0)["body"]["trick"]["plays"][1]
    assert body_play["counts_as"] == {"colour": "purple", "value": 8}
    assert play["kind"] == "mix"
    assert mixed["trick"]["best"] == 1
    with pytest.raises(AppError):
        act(state, 1, "mix", cards=[hand[0], hand[3]])


def test_without_the_trick_colour_you_may_junk_any_card_or_mix_but_never_mix_to_junk():
    # Rulebook: purple trick, hand yellow 1, red 3, blue 5: junk any of them, or mix red + blue into purple 8; never
    # yellow + red (an orange junk).
    state, _ = table([["purple 2"], ["yellow 1", "red 3", "blue 5"], ["green 2"]])
    state = act(state, 0, "lead", card=state["hands"][0][0])
    yellow, red, blue = state["hands"][1]
    choices = offered(state, 1)
    assert set(choices) == {"junk", "mix"}
    assert sorted(choices["junk"]["card"]) == sorted([yellow, red, blue])
    assert choices["mix"]["cards"] == [[red, blue]]
    with pytest.raises(AppError):
        act(state, 1, "mix", cards=[yellow, red])
    state = act(state, 1, "junk", card=blue)
    assert state["trick"]["best"] == 0  # a junked card loses whatever its number


def test_leads_are_single_cards():
    state, _ = table([["red 1", "blue 1"], ["red 2"], ["red 3"]])
    assert set(offered(state, 0)) == {"lead"}
    assert "mix" not in offered(state, 0)


# -- smearing -------------------------------------------------------------------------------------------
def test_smearing_the_rulebooks_example():
    # Vincent leads a blue 2, Claude copies with a blue 4; you (yellow 2, green 5, green 7) smear the yellow 2 onto
    # Claude's blue 4 (now a green 6) and play the green 7: a green trick that you are winning.
    state, _ = table([["blue 2", "red 1"], ["blue 4", "red 2"], ["yellow 2", "green 5", "green 7"], ["red 5"]])
    state = act(state, 0, "lead", card=state["hands"][0][0])
    state = act(state, 1, "copy", card=state["hands"][1][0])
    yellow, green5, green7 = state["hands"][2]
    choices = offered(state, 2)
    assert set(choices) == {"junk", "smear"}
    assert sorted(choices["smear"]["cards"]) == sorted([[yellow, green5], [yellow, green7]])
    won = act(state, 2, "smear", cards=[yellow, green7])
    trick = RULES.view(won, 0)["body"]["trick"]
    assert trick["colour"] == "green"
    assert trick["smeared"]
    assert trick["plays"][1]["daub"]["colour"] == "yellow"
    assert trick["plays"][1]["counts_as"] == {"colour": "green", "value": 6}
    assert trick["plays"][2]["onto"] == 1
    assert trick["plays"][0]["in_colour"] is False  # Vincent's blue 2 was not smeared: it cannot win
    assert won["trick"]["best"] == 2
    # With the green 5 instead, Claude's green 6 wins.
    lost = act(state, 2, "smear", cards=[yellow, green5])
    assert lost["trick"]["best"] == 1


def test_a_junked_secondary_wins_when_a_smear_turns_the_trick_its_colour():
    # Berthe leads a yellow 5; you junk a green 8; Pierre-Auguste smears a blue 1 and a green 7: you win a green trick.
    state, _ = table([["yellow 5", "red 1"], ["green 8", "red 2"], ["blue 1", "green 7", "red 3"]])
    state = act(state, 0, "lead", card=state["hands"][0][0])
    state = act(state, 1, "junk", card=state["hands"][1][0])
    blue, green7, _red = state["hands"][2]
    state = act(state, 2, "smear", cards=[blue, green7])
    assert state["trick"]["plays"] == []  # the trick is over: its winner leads the next
    assert state["trick"]["leader"] == 1
    assert state["won"][1] == ["green"]
    assert state["last_trick"]["winner"] == 1
    assert state["last_trick"]["colour"] == "green"


def test_no_smear_without_the_secondary_with_the_last_card_or_while_you_can_copy():
    state, _ = table([["blue 2", "red 1"], ["yellow 3"], ["yellow 2", "orange 5"], ["blue 1", "yellow 1", "green 2"]])
    state = act(state, 0, "lead", card=state["hands"][0][0])
    assert set(offered(state, 1)) == {"junk"}  # one card left: no smear
    state = act(state, 1, "junk", card=state["hands"][1][0])
    assert set(offered(state, 2)) == {"junk"}  # yellow + blue makes green: an orange card cannot smear it
    state = act(state, 2, "junk", card=state["hands"][2][0])
    assert set(offered(state, 3)) == {"copy"}  # holding blue, you must copy


def test_a_smeared_trick_never_changes_colour_again():
    state, _ = table([["blue 2", "red 1"], ["yellow 2", "green 5", "red 2"], ["red 4", "purple 9", "yellow 1"]])
    state = act(state, 0, "lead", card=state["hands"][0][0])
    yellow, green, _ = state["hands"][1]
    state = act(state, 1, "smear", cards=[yellow, green])
    assert state["trick"]["colour"] == "green"
    choices = offered(state, 2)
    assert "smear" not in choices
    assert set(choices) == {"junk"}  # a secondary trick: copy or mix, else mix or junk (no blue to mix green)


# -- ties -------------------------------------------------------------------------------------------
def test_a_tied_player_chooses_to_win_or_lose_the_tie():
    state, _ = table([["red 3", "red 1"], ["red 3", "red 2"], ["red 4", "blue 1"]])
    state = act(state, 0, "lead", card=state["hands"][0][0])
    state = act(state, 1, "copy", card=state["hands"][1][0])
    assert state["phase"] == "tie"
    assert set(offered(state, 1)) == {"win_tie", "lose_tie"}
    assert RULES.status(state).to_act == (1,)
    won = act(state, 1, "win_tie")
    assert won["trick"]["best"] == 1
    assert RULES.status(won).to_act == (2,)
    lost = act(state, 1, "lose_tie")
    assert lost["trick"]["best"] == 0


def test_ties_may_be_settled_automatically_by_variant():
    for variant, winner in (("pointillism", 1), ("impressionism", 0)):
        state, _ = table([["red 3", "red 1"], ["red 3", "red 2"], ["blue 1", "blue 2"]], variant=variant, ties="auto")
        state = act(state, 0, "lead", card=state["hands"][0][0])
        state = act(state, 1, "copy", card=state["hands"][1][0])
        assert state["phase"] == "play"
        assert state["trick"]["best"] == winner


def test_a_smearer_tied_with_the_smeared_card_chooses():
    state, _ = table([["blue 4", "red 1"], ["yellow 2", "green 6", "red 2"], ["blue 1", "blue 2"]])
    state = act(state, 0, "lead", card=state["hands"][0][0])
    yellow, green, _ = state["hands"][1]
    state = act(state, 1, "smear", cards=[yellow, green])  # blue 4 + yellow 2 = green 6 against a green 6
    assert state["phase"] == "tie"
    assert state["tie"] == {"seat": 1, "with": 0}


# -- awarding the trick and the end of the round -------------------------------------------------------
def test_pointillism_banks_one_card_of_the_final_colour_even_after_a_smear():
    # A yellow trick smeared into orange: the winner banks an orange card, the rest is discarded.
    state, _ = table([["yellow 5", "red 1"], ["red 2", "orange 4", "blue 1"], ["yellow 1", "blue 2"]])
    state = act(state, 0, "lead", card=state["hands"][0][0])
    red, orange, _ = state["hands"][1]
    state = act(state, 1, "smear", cards=[red, orange])  # yellow 5 + red 2 = orange 7 beats orange 4
    state = (
        act(state, 2, "copy", card=state["hands"][2][0])
        if "copy" in offered(state, 2)
        else act(state, 2, "junk", card=state["hands"][2][0])
    )
    assert state["won"][0] == ["orange"]
    assert [DECK[c]["colour"] for c in state["banks"][0]] == ["orange"]
    assert state["banks"][0] == [orange]


def test_impressionism_banks_whole_tricks():
    state, _ = table([["red 5", "red 1"], ["red 2", "blue 1"], ["red 3", "blue 2"]], variant="impressionism")
    cards = [state["hands"][s][0] for s in range(3)]
    state = act(state, 0, "lead", card=cards[0])
    state = act(state, 1, "copy", card=cards[1])
    state = act(state, 2, "copy", card=cards[2])
    assert sorted(state["banks"][0]) == sorted(cards)


def test_the_round_ends_when_the_trick_winner_has_no_cards():
    state, _ = table([["red 5"], ["red 2", "blue 1"], ["red 3", "blue 2"]], rounds=1)
    state = act(state, 0, "lead", card=state["hands"][0][0])
    state = act(state, 1, "copy", card=state["hands"][1][0])
    state = act(state, 2, "copy", card=state["hands"][2][0])
    assert state["finished"]  # seat 0 won with its last card: the round (the only one) is over
    assert len(state["history"]) == 1


def test_the_round_ends_when_only_one_player_still_has_cards():
    state, _ = table([["red 2", "blue 3"], ["red 5"], ["red 1"]], rounds=1)
    state = act(state, 0, "lead", card=state["hands"][0][0])
    state = act(state, 1, "copy", card=state["hands"][1][0])
    state = act(state, 2, "copy", card=state["hands"][2][0])
    assert state["finished"]


def test_players_out_of_cards_sit_out_the_next_tricks():
    state, _ = table([["red 5", "blue 5", "blue 4"], ["red 2"], ["red 1", "blue 1", "blue 2"]], rounds=1)
    state = act(state, 0, "lead", card=state["hands"][0][0])
    state = act(state, 1, "copy", card=state["hands"][1][0])
    state = act(state, 2, "copy", card=state["hands"][2][0])
    assert state["trick"]["order"] == [0, 2]
    state = act(state, 0, "lead", card=state["hands"][0][0])
    assert RULES.status(state).to_act == (2,)


# -- scoring ------------------------------------------------------------------------------------------
def test_pointillism_scoring_the_rulebooks_examples():
    made = pointillism(["green", "red", "yellow"], ["green", "red", "yellow", "yellow", "orange", "orange"], 3)
    assert made["made"]
    assert made["points"] == 18
    missed = pointillism(["orange", "green"], ["orange"] * 4 + ["red", "purple"], 3)
    assert not missed["made"]
    assert missed["points"] == 0
    assert pointillism(["white"], ["red"], 3)["points"] == -25
    assert pointillism(["white"], [], 3)["points"] == 25
    assert pointillism(["white"], [], 4)["points"] == 7
    assert pointillism(["white"], ["blue", "blue"], 5)["points"] == -2
    rainbow = ["red", "blue", "yellow", "orange", "green", "purple"]
    assert pointillism(rainbow, [*rainbow, "red"], 4)["points"] == 7 * 6 + 100
    assert pointillism(rainbow, rainbow[:5], 4)["points"] == 0


def test_impressionism_scoring_the_rulebooks_example():
    # Yellow on +Face, purple on +2, red on Cancel.
    board = {"yellow": "face", "purple": "two", "red": "cancel"}
    cards = Cards()
    y4, p3, p5, r2, r3 = (cards(c) for c in ("yellow 4", "purple 3", "purple 5", "red 2", "red 3"))
    green = cards("green 9")  # off the board: worth nothing
    vincent = impressionism([y4, p3, p5, r2, r3, green], board, cancelled=[y4, p3])
    assert vincent["points"] == 2
    mary_cards = [cards("red 1"), cards("red 4"), cards("red 5"), cards("yellow 5")]
    mary = impressionism(mary_cards, board, cancelled=[mary_cards[3]])
    assert mary["points"] == -2
    assert impressionism([], board, cancelled=[])["points"] == 0
    one = impressionism([cards("purple 9"), cards("yellow 3")], {"purple": "one", "yellow": "zero"}, cancelled=[])
    assert one["points"] == 1


def test_impressionism_cancels_are_chosen_by_the_player_at_the_round_end():
    state, _ = table([["red 5"], ["red 2", "blue 1"], ["red 3", "blue 2"]], variant="impressionism", rounds=1)
    cards = Cards()
    cards.used = {c for h in state["hands"] for c in h}
    state["board"] = [
        {"slot": "face", "card": cards("yellow 4")},
        {"slot": "two", "card": cards("purple 6")},
        {"slot": "cancel", "card": cards("blue 3")},
    ]
    keep = [cards("yellow 5"), cards("purple 2"), cards("blue 4")]
    state["banks"][0] = list(keep)
    state["discard"] = [c for c in state["discard"] if c not in cards.used]
    state = act(state, 0, "lead", card=state["hands"][0][0])
    state = act(state, 1, "copy", card=state["hands"][1][0])
    state = act(state, 2, "copy", card=state["hands"][2][0])
    # Seat 0 banked the red trick (red is off the board) and holds a yellow 5, a purple 2 and a blue 4 (Cancel).
    assert state["phase"] == "cancel"
    assert RULES.status(state).to_act == (0,)
    assert RULES.view(state, 0)["body"]["cancel"]["need"] == 1
    assert RULES.view(state, 1)["body"]["cancel"] is None
    with pytest.raises(AppError, match="exactly 1"):
        act(state, 0, "cancel", cards=[])
    with pytest.raises(AppError):
        act(state, 0, "cancel", cards=[keep[2]])  # a Cancel card cannot cancel a Cancel card
    done = act(state, 0, "cancel", cards=[keep[1]])  # keeps the yellow 5 (+Face): 5 points
    assert done["totals"][0] == 5
    best = act(state, 0, "cancel", cards=[keep[0]])  # cancels the yellow 5, keeps the purple 2 (+2): 2 points
    assert best["totals"][0] == 2
    assert best["finished"]
    assert RULES.view(best, 0)["winners"] == [1, 2]  # lowest wins


# -- the end of the game ------------------------------------------------------------------------------
def test_pointillism_ends_at_the_goal_and_the_highest_total_wins():
    state, _ = table([["red 5", "red 4"], ["red 2", "blue 1"], ["red 3", "blue 2"]])
    state["bids"] = [["white"], ["white"], ["red"]]
    state["totals"] = [80, 90, 0]
    state = act(state, 0, "lead", card=state["hands"][0][0])
    state = act(state, 1, "copy", card=state["hands"][1][0])
    state = act(state, 2, "copy", card=state["hands"][2][0])
    # seat 0 won a trick with a null bid: -25; seat 1 made its null bid: +25 = 115 ≥ 100.
    state = act(state, 0, "lead", card=state["hands"][0][0])
    state = act(state, 1, "junk", card=state["hands"][1][0])
    state = act(state, 2, "junk", card=state["hands"][2][0])
    assert state["finished"]
    assert state["totals"] == [55, 115, 0]
    view = RULES.view(state, 0)
    assert view["winners"] == [1]
    assert view["scores"]["parts"] == {"earlier rounds": [80, 90, 0], "last round": [-25, 25, 0]}


def test_impressionism_ends_at_the_threshold_and_the_lowest_total_wins():
    state, _ = table([["red 5"], ["red 2", "blue 1"], ["red 3", "blue 2"]], variant="impressionism")
    cards = Cards()
    cards.used = {c for h in state["hands"] for c in h}
    state["board"] = [
        {"slot": "face", "card": cards("red 1")},
        {"slot": "two", "card": cards("purple 6")},
        {"slot": "cancel", "card": cards("green 3")},
    ]
    state["discard"] = [c for c in state["discard"] if c not in cards.used]
    state["totals"] = [30, 10, 20]
    state = act(state, 0, "lead", card=state["hands"][0][0])
    state = act(state, 1, "copy", card=state["hands"][1][0])
    state = act(state, 2, "copy", card=state["hands"][2][0])
    # Seat 0 banks red 5 + red 2 + red 3 = 10 on +Face: 40, the 3-player threshold.
    assert state["totals"][0] == 40
    assert state["finished"]
    assert RULES.view(state, 0)["winners"] == [1]
    # Negative totals are possible: Cancel cards with nothing to cancel.
    assert impressionism([cards("green 4")], {"green": "cancel"}, [])["points"] == -1


# -- the language of the cards and what each viewer sees ------------------------------------------------
def test_colour_names_and_numbers_come_in_the_classs_language():
    state, _ = RULES.new_game(3, {"card_language": "spa"}, seed=1)
    names = RULES.view(state, 0)["body"]["names"]
    assert names["colours"]["orange"] == "naranja"
    assert names["colours"]["purple"] == "morado"
    assert names["numbers"]["7"] == "siete"
    assert names["slots"]["cancel"] == "Anular"
    greek = RULES.view(RULES.new_game(3, {"card_language": "grc"}, seed=1)[0], 0)["body"]["names"]
    assert greek["colours"]["green"] == "χλωρός"
    assert greek["numerals"]["6"] == "ϛ′"
    state = act(state, 0, "bid", colours=["orange", "purple"])
    assert state["last_move"]["text"] == "bid naranja, morado"


def test_hands_and_set_aside_cards_are_hidden():
    state, _ = RULES.new_game(4, {}, seed=9)
    view = RULES.view(state, 1)["body"]
    assert [c["id"] for c in view["hand"]] == state["hands"][1]
    assert view["hand_counts"] == [11, 11, 11, 11]
    assert view["aside_count"] == 4
    assert RULES.view(state, None)["body"]["hand"] is None
    assert RULES.visible_pieces(state, 1) == set(state["hands"][1])


def test_hidden_banks_show_counts_only():
    state, _ = table([["red 5", "blue 1"], ["red 2", "blue 2"], ["red 3", "blue 3"]], banks="hidden")
    for seat in (0, 1, 2):
        state = act(state, seat, "lead" if seat == 0 else "copy", card=state["hands"][seat][0])
    assert RULES.view(state, 0)["body"]["banks"][0]["cards"]
    assert RULES.view(state, 1)["body"]["banks"][0] == {"count": 1, "cards": None}


def test_pala_is_offered_in_every_class_and_needs_no_lexicon():
    assert RULES.language == ""
    assert RULES.encounters({}, []) == []
    assert CTX.lexicon is None
