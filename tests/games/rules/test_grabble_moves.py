"""Grabble's move finder on hand-made boards and tiny word lists, where every legal play can be listed by hand:
the first play covers the centre, later ones touch the board, every word formed (main and cross) is a key of two
letters or more, blanks stand for any letter, and scores are the rules' (see also test_grabble_moves_properties)."""

import random

from games.engine import WordSet
from games.rules.grabble.board import TILES
from games.rules.grabble.moves import BoardTile, RackTile, Word, best, plays_on, trie_of
from lexicons.normalise import greek_key

VALUE = {letter: value for letter, value, _count in TILES}


def words(*keys):
    return WordSet(keys, language="grc", normalise=greek_key)


def across(start, letters):
    """Board tiles spelling ``letters`` rightwards from ``start``."""
    col, row = start[0], int(start[1:])
    return {f"{chr(ord(col) + i)}{row}": BoardTile(letter, VALUE[letter]) for i, letter in enumerate(letters)}


def rack(letters):
    """Rack tiles with ids 0, 1, …; ``?`` is a blank."""
    return [
        RackTile(i, "" if letter == "?" else letter, VALUE["" if letter == "?" else letter])
        for i, letter in enumerate(letters)
    ]


def shown(play):
    """A play as ``G8:Ο H8:?Σ`` (``?``: a blank standing for the letter)."""
    return " ".join(f"{t.square}:{'?' if t.blank else ''}{t.letter}" for t in play.tiles)


def found(board, letters, lexicon):
    plays = plays_on(board, rack(letters), lexicon)
    assert len({shown(p) for p in plays}) == len(plays), "a play was found twice"
    return {shown(p): p for p in plays}


OS = words("ΟΣ")
CENTRED = {"G8:Ο H8:Σ", "H8:Ο I8:Σ", "H7:Ο H8:Σ", "H8:Ο H9:Σ"}


# -- where plays go ---------------------------------------------------------------------------------------------------
def test_on_an_empty_board_every_play_covers_the_centre_across_or_down():
    assert set(found({}, "ΟΣ", OS)) == CENTRED


def test_the_first_play_scores_double_on_the_centre():
    assert {p.score for p in found({}, "ΟΣ", OS).values()} == {(1 + 1) * 2}


def test_a_rack_that_spells_no_key_has_no_play():
    assert found({}, "ΞΨ", OS) == {}


def test_an_empty_rack_has_no_play():
    assert plays_on(across("H8", "ΟΣ"), [], OS) == []


def test_single_letters_are_never_words():
    lexicon = words("Ο", "ΟΣ")
    assert found({}, "Ο", lexicon) == {}
    assert set(found(across("H8", "Σ"), "Ο", lexicon)) == {"G8:Ο", "H7:Ο"}


def test_an_existing_word_is_extended_at_its_end():
    plays = found(across("H8", "ΛΟΓΟ"), "ΣΝ", words("ΛΟΓΟΣ", "ΛΟΓΟΝ"))
    assert set(plays) == {"L8:Σ", "L8:Ν"}
    assert plays["L8:Σ"].words == (Word("ΛΟΓΟΣ", ("H8", "I8", "J8", "K8", "L8"), 11),)


def test_premiums_count_only_under_the_tiles_a_play_lays():
    # ΛΟΓΟ covers the centre's double word already: extending it, only L8's double letter counts, on Σ.
    assert found(across("H8", "ΛΟΓΟ"), "Σ", words("ΛΟΓΟΣ"))["L8:Σ"].score == 3 + 1 + 4 + 1 + 1 * 2


def test_a_front_hook_makes_a_longer_word():
    plays = found(across("I8", "ΡΧΗ"), "Α", words("ΑΡΧΗ"))
    assert set(plays) == {"H8:Α"}
    assert plays["H8:Α"].score == (1 + 2 + 8 + 1) * 2


def test_a_word_may_run_through_tiles_on_the_board():
    assert set(found(across("I8", "Ο"), "ΛΓΟΣ", words("ΛΟΓΟΣ"))) == {
        "H8:Λ J8:Γ K8:Ο L8:Σ",
        "F8:Λ G8:Ο H8:Γ J8:Σ",
        "I7:Λ I9:Γ I10:Ο I11:Σ",
        "I5:Λ I6:Ο I7:Γ I9:Σ",
    }


def test_a_cross_word_that_is_not_a_key_is_refused():
    # Τ fits above Ο (ΤΟ) but not before ΟΣ (ΤΟΣ), above Σ (ΤΣ), below or after.
    assert set(found(across("H8", "ΟΣ"), "Τ", words("ΟΣ", "ΤΟ"))) == {"H7:Τ"}


def test_a_parallel_play_makes_a_cross_word_under_each_tile():
    plays = found(across("H8", "ΟΣ"), "ΤΟ", words("ΟΣ", "ΤΟ"))
    assert set(plays) == {"H7:Τ", "I7:Ο", "H7:Τ I7:Ο"}  # I7:Ο alone makes ΟΣ down
    parallel = plays["H7:Τ I7:Ο"]
    assert parallel.words == (
        Word("ΤΟ", ("H7", "I7"), 1 + 1 * 2),  # I7 is a double letter
        Word("ΤΟ", ("H7", "H8"), 1 + 1),
        Word("ΟΣ", ("I7", "I8"), 1 * 2 + 1),
    )
    assert parallel.score == 3 + 2 + 3


def test_a_single_tile_making_words_both_ways_is_found_once_with_the_across_word_first():
    board = across("G8", "Ο") | across("H9", "Σ")
    plays = found(board, "Ο", words("ΟΟ", "ΟΣ"))
    assert set(plays) == {"H8:Ο", "F8:Ο", "G7:Ο", "G9:Ο"}
    assert [w.word for w in plays["H8:Ο"].words] == ["ΟΟ", "ΟΣ"]
    assert [w.squares for w in plays["G9:Ο"].words] == [("G9", "H9"), ("G8", "G9")]


# -- blanks -----------------------------------------------------------------------------------------------------------
def test_a_blank_stands_for_a_letter_the_rack_lacks_and_scores_nothing():
    plays = found({}, "Ο?", OS)
    assert set(plays) == {"G8:Ο H8:?Σ", "H8:Ο I8:?Σ", "H7:Ο H8:?Σ", "H8:Ο H9:?Σ"}
    assert {p.score for p in plays.values()} == {(1 + 0) * 2}


def test_a_blank_may_also_stand_for_a_letter_the_rack_has():
    plays = found({}, "ΟΣ?", OS)
    assert len(plays) == 3 * 4
    assert plays["G8:Ο H8:Σ"].score == 4
    assert plays["G8:?Ο H8:Σ"].score == plays["G8:Ο H8:?Σ"].score == 2


def test_a_blank_loses_its_tiles_premium_value_in_the_main_word_and_the_cross_word():
    # The play's score is counted once with every tile at face value, less what each blank's tile brought.
    plays = found(across("H8", "ΟΣ"), "ΤΟ?", words("ΟΣ", "ΤΟ"))
    assert plays["H7:Τ I7:Ο"].score == 3 + 2 + 3
    assert plays["H7:?Τ I7:Ο"].score == (0 + 1 * 2) + (0 + 1) + (1 * 2 + 1)
    assert plays["H7:Τ I7:?Ο"].score == (1 + 0) + (1 + 1) + (0 + 1)  # I7's double letter doubles nothing
    assert all(p.score == sum(w.score for w in p.words) for p in plays.values())


def test_two_blanks_make_a_word_alone():
    plays = found({}, "??", OS)
    assert set(plays) == {"G8:?Ο H8:?Σ", "H8:?Ο I8:?Σ", "H7:?Ο H8:?Σ", "H8:?Ο H9:?Σ"}
    assert {p.score for p in plays.values()} == {0}


def test_a_blank_on_the_board_is_worth_nothing_to_the_next_word():
    board = {"H8": BoardTile("Ο", 0)}
    assert found(board, "Σ", OS)["I8:Σ"].score == 0 + 1


def test_action_tiles_name_the_letter_of_a_blank_only():
    play = found({}, "Ο?", OS)["G8:Ο H8:?Σ"]
    assert play.action_tiles() == [{"tile": 0, "square": "G8"}, {"tile": 1, "square": "H8", "letter": "Σ"}]


# -- tiles, bonus, best ----------------------------------------------------------------------------------------------
def test_of_two_like_tiles_the_first_on_the_rack_is_laid_first():
    tiles = [RackTile(7, "Ο", 1), RackTile(3, "Ο", 1)]
    for play in plays_on({}, tiles, words("ΟΟ")):
        assert [t.tile for t in play.tiles] == [7, 3]


def test_laying_all_ten_tiles_of_a_full_rack_earns_the_bonus():
    plays = found({}, "ΑΠΟΚΑΛΥΨΙΣ", words("ΑΠΟΚΑΛΥΨΙΣ"))
    assert plays
    assert all(p.bonus == 50 and p.score == sum(w.score for w in p.words) + 50 for p in plays.values())


def test_the_best_play_scores_most_and_spends_no_blank_on_a_tie():
    plays = list(found({}, "ΟΝΡ?", words("ΟΝ", "ΑΡ")).values())
    assert {shown(p) for p in plays if p.score == 4} >= {"H8:?Α I8:Ρ", "H8:Ο I8:Ν"}
    choice = best(plays)
    assert choice.score == max(p.score for p in plays) == 4
    assert shown(choice).replace("?", "") == shown(choice)
    assert [w.word for w in choice.words] == ["ΟΝ"]


def test_the_best_play_does_not_depend_on_the_order_plays_were_found_in():
    plays = list(found({}, "Ο?", words("ΟΟ")).values())  # eight plays, all worth 2 with one blank
    shuffled = plays[:]
    random.Random(4).shuffle(shuffled)
    assert shown(best(plays)) == shown(best(reversed(plays))) == shown(best(shuffled))


def test_no_play_means_no_best_play():
    assert best([]) is None


# -- the word list and the trie ----------------------------------------------------------------------------------------
def test_a_word_sets_keys_are_its_normalised_words_and_analysed_keys_the_same_set_each_time():
    lexicon = WordSet(["λόγος"], language="grc", analyses={"ΟΣ": []}, normalise=greek_key)
    assert lexicon.keys() == frozenset({"ΛΟΓΟΣ", "ΟΣ"})
    assert lexicon.keys() is lexicon.keys()


def test_the_trie_is_built_once_per_word_list():
    lexicon = words("ΟΣ", "ΤΟ")
    assert trie_of(lexicon) is trie_of(lexicon)
    assert trie_of(words("ΛΟΓΟΣ")) is not trie_of(lexicon)


def test_keys_that_cannot_be_laid_are_left_out_of_the_trie():
    trie = trie_of(words("Ο", "ΟΣ", "LOGOS", "Α" * 16))
    assert set(trie.root) == {"Ο"}
