"""The move finder against the rules, over random games and random small lexicons: every play it finds is
accepted by ``Grabble.apply`` with the same words and score; and on a small rack it finds exactly the plays
that a brute-force search, judged by the rules' own placement and word checks, finds."""

import random
from collections import Counter
from itertools import permutations, product

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from games.engine import AppError, Context, WordSet
from games.engine.board import touches
from games.rules.grabble import RULES
from games.rules.grabble.board import CENTRE, SIZE, tile_bag
from games.rules.grabble.moves import plays_for
from lexicons.normalise import greek_key
from tests.games.rules.test_grabble import give

LETTERS = "ΑΟΣΝΤΕ"  # the commonest tiles, so random racks make words
NOUN = {"case": "N", "number": "S", "gender": "M"}
ANALYSIS = {"form": "", "lemma": "λόγος", "pos": "N", "parse": NOUN, "gloss": ""}


def lexicon(rnd: random.Random, size: int) -> WordSet:
    """``size`` random keys of 2 to 4 of ``LETTERS``, each parsed (for the rules' parse check) as a noun."""
    keys = {"".join(rnd.choices(LETTERS, k=rnd.randint(2, 4))) for _ in range(size)}
    return WordSet([], language="grc", analyses={key: [ANALYSIS] for key in keys}, normalise=greek_key)


def play_action(play) -> dict:
    parses = [{"word": w.word, "lemma": "λόγος", "pos": "N", "parse": NOUN} for w in play.words]
    return {"type": "play", "tiles": play.action_tiles(), "parses": list({p["word"]: p for p in parses}.values())}


def advance(state: dict, words: WordSet, rnd: random.Random, turns: int) -> dict:
    """Play ``turns`` turns, each one of the finder's plays at random (a pass when there is none)."""
    for _turn in range(turns):
        seat = state["turn"]
        plays = plays_for(state, seat, words)
        action = play_action(rnd.choice(plays)) if plays else {"type": "pass"}
        state, _ = RULES.apply(state, seat, action, Context(lexicon=words))
        if state["phase"] != "play":
            break
    return state


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_every_play_found_is_accepted_by_the_rules_with_the_same_words_and_score(seed):
    rnd = random.Random(seed)
    words = lexicon(rnd, 120)
    state, _ = RULES.new_game(2, {"unknown_words": "strict"}, seed)
    for _turn in range(5):
        seat = state["turn"]
        plays = plays_for(state, seat, words)
        for play in rnd.sample(plays, min(4, len(plays))):
            _after, events = RULES.apply(state, seat, play_action(play), Context(lexicon=words))
            played = next(ev for ev in events if ev["type"] == "played")
            assert [(w["word"], w["squares"], w["score"]) for w in played["words"]] == [
                (w.word, list(w.squares), w.score) for w in play.words
            ]
            assert (played["base"], played["bonus"]) == (play.score, play.bonus)
        state = advance(state, words, rnd, 1)
        if state["phase"] != "play":
            break


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**6), turns=st.integers(1, 4))
def test_every_plays_score_is_its_words_scores_and_bonus_whichever_tiles_blanks_are(seed, turns):
    """Scores are counted per placement and adjusted per way of placing the blanks; the words, scored one by
    one with the rules' arithmetic when read, must add up to the same score for every play."""
    rnd = random.Random(seed)
    words = lexicon(rnd, 120)
    state, _ = RULES.new_game(2, {"unknown_words": "strict"}, seed)
    state = advance(state, words, rnd, turns)
    seat = state["turn"]
    left = unseen(state)
    assume("" in left)  # a random play may have laid the blanks
    others = sorted(set(LETTERS) & set(left))
    give(state, seat, [letter for letter in left if letter == ""] + rnd.sample(others, min(4, len(others))))
    plays = plays_for(state, seat, words)
    assert any(t.blank for play in plays for t in play.tiles)
    for play in plays:
        assert play.score == sum(w.score for w in play.words) + play.bonus


def unseen(state: dict) -> list[str]:
    """The letters of the tiles not on the board (``""``: a blank), which a rack can be given."""
    bag = tile_bag(state["bag_size"])
    return [bag[t]["letter"] for t in state["bag"] + [t for rack in state["racks"] for t in rack]]


def brute_force(state: dict, seat: int, words: WordSet) -> dict[frozenset, int]:
    """Every legal play of ``seat``'s rack, by laying 1 to all of its tiles, in every order and with every letter
    for a blank, on every run of consecutive free squares of every row and column, and keeping what the rules'
    placement and word checks accept with every word a key. A blank only needs the letters keys are made of: the
    main word holds every tile laid. Returns each play's (square, letter, blank) set with its base score."""
    board = state["board"]
    bag = tile_bag(state["bag_size"])
    rack = state["racks"][seat]
    alphabet = sorted(set("".join(words.keys())))
    lines = [[f"{'ABCDEFGHIJKLMNO'[c]}{r + 1}" for c in range(SIZE)] for r in range(SIZE)]
    lines += [[f"{'ABCDEFGHIJKLMNO'[c]}{r + 1}" for r in range(SIZE)] for c in range(SIZE)]
    legal = {}
    for line in lines:
        free = [name for name in line if name not in board]
        for first in range(len(free)):
            for count in range(1, len(rack) + 1):
                squares = free[first : first + count]
                if len(squares) < count or not (CENTRE in squares if not board else touches(board, squares, SIZE)):
                    continue
                for tiles in permutations(rack, count):
                    blanks = [t for t in tiles if bag[t]["letter"] == ""]
                    for letters in product(alphabet, repeat=len(blanks)):
                        chosen = dict(zip(blanks, letters, strict=True))
                        placed = [
                            {"tile": t, "square": sq, "letter": chosen.get(t, bag[t]["letter"])}
                            for t, sq in zip(tiles, squares, strict=True)
                        ]
                        try:
                            formed = RULES._words(state, placed)
                        except AppError:
                            continue
                        if all(words.is_word(w["word"]) for w in formed):
                            key = frozenset((p["square"], p["letter"], p["tile"] in chosen) for p in placed)
                            legal[key] = sum(w["score"] for w in formed)
    return legal


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6), turns=st.integers(0, 3), hand=st.text(LETTERS + "?", min_size=1, max_size=3))
def test_the_finder_finds_exactly_the_legal_plays_a_brute_force_search_finds(seed, turns, hand):
    rnd = random.Random(seed)
    words = lexicon(rnd, 40)
    state, _ = RULES.new_game(2, {"unknown_words": "strict"}, seed)
    state = advance(state, words, rnd, turns)
    seat = state["turn"]
    letters = ["" if letter == "?" else letter for letter in hand]
    assume(not Counter(letters) - Counter(unseen(state)))  # a random play may have laid the tiles asked for
    give(state, seat, letters)
    plays = plays_for(state, seat, words)
    found = {frozenset((t.square, t.letter, t.blank) for t in play.tiles): play.score for play in plays}
    assert len(found) == len(plays), "a play was found twice"
    assert found == brute_force(state, seat, words)
