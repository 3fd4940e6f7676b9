"""Grabble's move finder: every legal play of a rack on a board, and the best of them for a hint.

A legal play here is what the rules accept without the teacher: tiles in one line across or down with no gap,
the first play covering the centre and later ones touching the board, and every word formed (the main word and
each cross word, two letters or more) a key of the word list; blanks stand for any letter.

The search is Appel and Jacobson's ("The World's Fastest Scrabble Program", CACM 31(5), 1988) over a prefix
trie of the word list's keys, built once per key set and cached while the key set lives:

- *Anchors* are the empty squares next to a tile (on an empty board, the centre). Every play covers one, and
  is found once per direction, from the first anchor it covers.
- *Cross-checks*: for each empty square with tiles above or below it (left or right of it for down plays), the
  letters that complete a word with them, found by looking the candidates up in the keys.
- From each anchor, a *left part* is read from the tiles just before it, or spelled from the rack on the empty
  squares before it that are not anchors (they have no neighbours, so nothing to check); then the word is
  extended through the trie over board tiles and cross-checked rack tiles, and every node ending a word where
  the next square is free is a play.

What makes Python fast enough (``bench/grabble/hint.py`` measures it; a rack with blanks may have 19,000
plays, and the cost follows their number):

- The rack's left parts are spelled once, not once per anchor, each with what the rack holds after it; an
  anchor picks the few that fit its room and can precede what it takes by set operations.
- A blank stands in for a letter the rack lacks while searching, which laid letters the blanks stand for being
  chosen once a placement is found, so the search walks each spelling once.
- A placement is its letters (a string) on a span of a line; the scoring of a span (see :class:`_Span`) is
  worked out once for every play laid on its squares, and each of a placement's plays (one per way the blanks
  can stand) costs a multiply-add per tile. A play's words are scored by
  :func:`games.rules.grabble.board.word_score` itself when read, and add up to its score, so a hint's score is
  what the play will score.
- The objects made per play are few and the trie's nodes are untracked by the garbage collector, whose passes
  would otherwise add tens of milliseconds to a large rack.
"""

import threading
import weakref
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain, combinations, product
from operator import mul
from typing import Any, NamedTuple

from games.engine import State, WordList
from games.engine.board import ACROSS, DOWN, coords, square
from games.rules.grabble.board import ALPHABET, CENTRE, SIZE, play_bonus, premium_factors, tile_bag, word_score

Node = dict[str, int]  # a trie node: letter -> the child's index in ``Trie.nodes``


class BoardTile(NamedTuple):
    """A tile on the board as the finder needs it: the letter it shows (a blank's chosen one) and its value."""

    letter: str
    value: int


class RackTile(NamedTuple):
    """A tile on the rack: its id, its face (``""`` for a blank) and its value."""

    id: int
    letter: str
    value: int


class Placement(NamedTuple):
    """One tile of a play: which rack tile goes where, showing which letter (``blank``: a blank stands for it)."""

    tile: int
    square: str
    letter: str
    blank: bool


class Word(NamedTuple):
    """A word a play forms: its key, its squares in reading order and its base score."""

    word: str
    squares: tuple[str, ...]
    score: int


# -- the trie -------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Trie:
    """The prefix trie of the keys that can be laid (2 to 15 of the 24 tile letters), with the nodes where a key
    ends, and an index that lets an anchor just before a board tile ``w`` pick the left parts that can precede it
    without trying them all: for each pair of letters ``(L, w)``, the nodes with a child ``L`` that has a child
    ``w``.

    Nodes are numbered, the root 0, and each maps a letter to its child's number: dicts of strings and integers,
    which the garbage collector does not track, so the tens of thousands of them cost nothing when it runs (it
    runs often while a rack's thousands of plays are made; nested dicts would be traversed every full pass)."""

    nodes: list[Node]
    ends: frozenset[int]  # the nodes where a key ends
    before_pair: dict[tuple[str, str], frozenset[int]]  # (L, w) -> the nodes with a child L that has a child w

    @property
    def root(self) -> Node:
        """The root node: the letters keys start with."""
        return self.nodes[0]


_tries: "weakref.WeakKeyDictionary[frozenset[str], Trie]" = weakref.WeakKeyDictionary()
_tries_lock = threading.Lock()


def trie_of(words: WordList) -> Trie:
    """The trie of ``words``, built on first use and cached per key set: a word list keeps its key set for as long
    as it lives, and a new lexicon version brings a new one (the old trie goes with the old key set)."""
    keys = words.keys()
    with _tries_lock:
        trie = _tries.get(keys)
        if trie is None:
            trie = _build_trie(keys)
            _tries[keys] = trie
    return trie


def _build_trie(keys: Iterable[str]) -> Trie:
    letters = set(ALPHABET)
    nodes: list[Node] = [{}]
    ends = set()
    for key in keys:
        if 2 <= len(key) <= SIZE and letters.issuperset(key):
            node = 0
            for letter in key:
                child = nodes[node].get(letter)
                if child is None:
                    child = nodes[node][letter] = len(nodes)
                    nodes.append({})
                node = child
            ends.add(node)
    before_pair: dict[tuple[str, str], set[int]] = {}
    for node, children in enumerate(nodes):
        for letter, child in children.items():
            for after in nodes[child]:
                before_pair.setdefault((letter, after), set()).add(node)
    return Trie(nodes, frozenset(ends), {pair: frozenset(ids) for pair, ids in before_pair.items()})


# -- one line of the board, seen along the direction of play ---------------------------------------------------------
@dataclass
class _Cross:
    """The tiles a square of a line touches across the line: the cross word a tile laid there makes."""

    before: str
    after: str
    squares: tuple[str, ...]
    old: int  # the value of those board tiles
    allowed: frozenset[str]  # the letters that make the cross word a key


@dataclass
class _Line:
    """A row (across plays) or a column (down plays): square names, board letters and values, cross words, and
    the letter and word factors a tile laid there scores with, indexed by position along the line; and its
    anchors, each with how many free squares before it a left part may fill (``-1``: the square before it holds
    a tile, which starts the word)."""

    names: list[str]
    letters: list[str | None]
    values: list[int]
    crosses: list[_Cross | None]
    letter_factors: list[int]
    word_factors: list[int]
    anchors: list[tuple[int, int]]


def _lines(grid: list[list[BoardTile | None]], step: tuple[int, int], keys: frozenset[str]) -> list[_Line]:
    """The board's lines along ``step`` that have anchors, with their cross-checks."""
    empty = not any(any(row) for row in grid)
    centre = coords(CENTRE, SIZE)
    lines = []
    for index in range(SIZE):
        spots = [(index, i) if step == ACROSS else (i, index) for i in range(SIZE)]
        tiles = [grid[r][c] for r, c in spots]
        anchored = [
            tiles[i] is None and ((r, c) == centre if empty else _next_to_a_tile(grid, r, c))
            for i, (r, c) in enumerate(spots)
        ]
        if any(anchored):
            names = [square(r, c) for r, c in spots]
            factors = [premium_factors(name) for name in names]
            lines.append(
                _Line(
                    names=names,
                    letters=[t.letter if t else None for t in tiles],
                    values=[t.value if t else 0 for t in tiles],
                    crosses=[None if tiles[i] else _cross(grid, r, c, step, keys) for i, (r, c) in enumerate(spots)],
                    letter_factors=[letter for letter, _word in factors],
                    word_factors=[word for _letter, word in factors],
                    anchors=[(i, _room_before(tiles, anchored, i)) for i in range(SIZE) if anchored[i]],
                )
            )
    return lines


def _room_before(tiles: list[BoardTile | None], anchored: list[bool], anchor: int) -> int:
    """How many free squares before ``anchor`` a left part may use: up to the previous anchor, as those squares
    touch nothing (a square next to a tile is an anchor itself); ``-1`` when a tile is right before it."""
    if anchor and tiles[anchor - 1] is not None:
        return -1
    room = 0
    while anchor - room > 0 and not anchored[anchor - room - 1]:
        room += 1
    return room


def _next_to_a_tile(grid: list[list[BoardTile | None]], row: int, col: int) -> bool:
    return any(
        0 <= r < SIZE and 0 <= c < SIZE and grid[r][c] is not None
        for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1))
    )


def _cross(
    grid: list[list[BoardTile | None]], row: int, col: int, step: tuple[int, int], keys: frozenset[str]
) -> _Cross | None:
    """The cross word through an empty square, for plays along ``step``; ``None`` if it has no tile either side."""
    dr, dc = step[1], step[0]  # across the line
    before = _run(grid, row - dr, col - dc, -dr, -dc)[::-1]
    after = _run(grid, row + dr, col + dc, dr, dc)
    if not before and not after:
        return None
    head = "".join(tile.letter for _r, _c, tile in before)
    tail = "".join(tile.letter for _r, _c, tile in after)
    return _Cross(
        before=head,
        after=tail,
        squares=(*(square(r, c) for r, c, _tile in before), square(row, col), *(square(r, c) for r, c, _tile in after)),
        old=sum(tile.value for _r, _c, tile in before + after),
        allowed=frozenset(letter for letter in ALPHABET if head + letter + tail in keys),
    )


def _run(grid: list[list[BoardTile | None]], row: int, col: int, dr: int, dc: int) -> list[tuple[int, int, BoardTile]]:
    """The tiles from ``(row, col)`` on, stepping by ``(dr, dc)``, up to the first free square or the board's edge:
    each with its row and column, nearest first."""
    run: list[tuple[int, int, BoardTile]] = []
    while 0 <= row < SIZE and 0 <= col < SIZE:
        tile = grid[row][col]
        if tile is None:
            break
        run.append((row, col, tile))
        row, col = row + dr, col + dc
    return run


# -- the search ------------------------------------------------------------------------------------------------------
# A placement found on a line: where the main word ends (the position after it), where its first tile is laid,
# the letters laid in reading order (on the free squares from there), and how many of them the rack lacked
# (blanks stand in for them). Letters as a string, not (square, letter) pairs: a rack may have thousands of
# placements, and strings cost less to make and nothing to the garbage collector.
Found = tuple[int, int, str, int]


class _Parts(NamedTuple):
    """The left parts a rack can spell: by trie node, the prefix, what the rack holds after it (the counts of its
    non-blank letters) and how many blanks it spends; and by letter ``L`` and then by length, the parts (nodes)
    that ``L`` can follow (the node has a child ``L``), so that an anchor with little room before it picks among
    the short parts only."""

    spelled: dict[int, tuple[str, dict[str, int], int]]
    before: dict[str, list[set[int]]]


def _left_parts(nodes: list[Node], rack: dict[str, int], blanks: int, longest: int) -> _Parts:
    """Every prefix of a key the rack can spell with at most ``longest`` tiles. Spelled once per rack and used by
    every anchor, as the left part of a word laid on the free squares before the anchor."""
    parts = _Parts({}, {letter: [set() for _length in range(longest + 1)] for letter in ALPHABET})

    def spell(node: int, prefix: str, wild: int) -> None:
        parts.spelled[node] = (prefix, dict(rack), wild)
        for letter in nodes[node]:
            parts.before[letter][len(prefix)].add(node)
        if len(prefix) == longest:
            return
        for letter, child in nodes[node].items():
            count = rack.get(letter)
            if count:
                rack[letter] = count - 1
                spell(child, prefix + letter, wild)
                rack[letter] = count
            elif wild < blanks:
                spell(child, prefix + letter, wild + 1)

    spell(0, "", 0)
    return parts


def _heads(trie: Trie, parts: _Parts, fits: set[str], then: str | None, room: int) -> set[int]:
    """The left parts (node ids) of at most ``room`` letters that can precede an anchor taking one of ``fits``,
    followed by the board's letter ``then`` if there is one: set operations instead of trying every left part
    at every anchor."""
    heads: set[int] = set()
    for letter in fits:
        if then is None:
            heads.update(*parts.before[letter][: room + 1])
        else:
            pair = trie.before_pair.get((letter, then))
            if pair:
                for ids in parts.before[letter][: room + 1]:
                    heads |= ids.intersection(pair)
    return heads


def _search(line: _Line, trie: Trie, parts: _Parts, rack: dict[str, int], blanks: int) -> list[Found]:
    """Every placement along ``line`` whose words are all keys, as :data:`Found`: from each anchor, the left part
    (the board's tiles before it, or a spelled one that can precede what the anchor takes), then the extension
    through the trie. ``rack`` counts the non-blank letters in hand."""
    letters, crosses, nodes, ends = line.letters, line.crosses, trie.nodes, trie.ends
    checks = [None if cross is None else cross.allowed for cross in crosses]
    following = [*letters[1:], None]
    found: list[Found] = []
    in_hand = sum(rack.values()) + blanks
    held = {letter for letter, count in rack.items() if count}
    faces = len(rack)  # every hand below counts the same faces, some maybe at 0
    # Set for each left part extended: the anchor, where the placement's first tile goes, and the letters in hand
    # after the left part (``extend`` takes and puts back its tiles there).
    anchor = first = 0
    hand = rack

    def extend(at: int, pos: int, spelled: str, wild: int) -> None:
        """Extend the word at trie node ``at`` from ``pos``, having laid ``spelled`` (``wild`` of them blanks
        for letters the rack lacks)."""
        while pos < SIZE:  # the board's tiles are part of the word
            board_letter = letters[pos]
            if board_letter is None:
                break
            on = nodes[at].get(board_letter)
            if on is None:
                return
            at, pos = on, pos + 1
        if pos > anchor and at in ends:
            found.append((pos, first, spelled, wild))
        if pos == SIZE:
            return
        children = nodes[at]
        allowed = checks[pos]
        if allowed is not None:  # a cross word: only its letters, usually few
            candidates: Iterable[str] = allowed.intersection(children)
        elif wild < blanks or len(children) < faces:  # a blank may be any child; deep nodes have few children
            candidates = children
        else:
            candidates = hand
        then = following[pos]  # a board tile right after: the word must run on into it
        for letter in candidates:
            child = children.get(letter)
            if child is None or (then is not None and then not in nodes[child]):
                continue
            count = hand.get(letter)
            if count:
                hand[letter] = count - 1
                extend(child, pos + 1, spelled + letter, wild)
                hand[letter] = count
            elif wild < blanks:
                extend(child, pos + 1, spelled + letter, wild + 1)

    for anchor, room in line.anchors:
        cross = crosses[anchor]
        fits = set(ALPHABET) if cross is None else set(cross.allowed)
        if not blanks:
            fits &= held
        if not fits:
            continue
        if room < 0:
            node: int | None = 0
            for letter in letters[_word_start(line, anchor) : anchor]:
                node = nodes[node].get(letter) if node is not None and letter is not None else None
            if node is not None:
                first, hand = anchor, rack
                extend(node, anchor, "", 0)
            continue
        for head in _heads(trie, parts, fits, following[anchor], min(room, in_hand - 1)):
            prefix, hand, spent = parts.spelled[head]
            first = anchor - len(prefix)
            extend(head, anchor, prefix, spent)
    return found


def _blank_choices(letters: str, counts: Mapping[str, int], blanks: int) -> list[tuple[int, ...]]:
    """Which of the laid ``letters`` (by index) the rack's blanks may stand for: every set of at most ``blanks``
    of them that leaves the rack's own tiles enough for the rest. A blank must stand for a letter the rack lacks,
    and may stand for one it has (another play: the blank scores 0 and the tile stays on the rack)."""
    where: dict[str, list[int]] = {}
    for i, letter in enumerate(letters):
        where.setdefault(letter, []).append(i)
    short = [
        (spots, len(spots) - counts.get(letter, 0))
        for letter, spots in where.items()
        if len(spots) > counts.get(letter, 0)
    ]
    need = sum(missing for _spots, missing in short)
    if need == min(blanks, len(letters)):  # every blank stands for a letter the rack lacks: which of its places?
        if len(short) == 1:
            return list(combinations(*short[0]))
        return [tuple(sorted(chain(*picks))) for picks in product(*(combinations(spots, n) for spots, n in short))]
    sizes = range(need, min(blanks, len(letters)) + 1)
    subsets = [chosen for size in sizes for chosen in combinations(range(len(letters)), size)]
    return [chosen for chosen in subsets if all(len(set(spots).intersection(chosen)) >= n for spots, n in short)]


# -- plays ----------------------------------------------------------------------------------------------------------
class _Rack:
    """A rack as the search and the plays use it: the letters in hand, the blanks, each face's tile ids (in
    rack order, the order a play takes them in) and value, and for every letter what laying it from the rack
    is worth over laying a blank for it (0 for a letter the rack lacks, which only a blank can lay)."""

    def __init__(self, tiles: Sequence[RackTile]) -> None:
        self.size = len(tiles)
        self.ids: dict[str, list[int]] = {}
        self.value: dict[str, int] = {}
        for tile in tiles:
            self.ids.setdefault(tile.letter, []).append(tile.id)
            self.value[tile.letter] = tile.value
        self.counts = {face: len(ids) for face, ids in self.ids.items() if face}
        self.blanks = len(self.ids.get("", []))
        self.blank_value = self.value.get("", 0)
        self.over_blank = {letter: self.value.get(letter, self.blank_value) - self.blank_value for letter in ALPHABET}


class _Span(NamedTuple):
    """The squares of a line a play's main word covers, and what scoring any letters laid on its free squares
    takes. A play's base score is, over its words, (the board tiles' values + each laid tile's value times its
    letter factor) times the word factors of the squares laid, as :func:`~games.rules.grabble.board.word_score`
    counts it: linear in each laid tile's value. So it is ``base`` (the score with every tile laid a blank, the
    full-rack bonus included) plus, for each tile laid from the rack, its value over a blank's times its weight
    (its letter factor times the word factors of the words through it: the main word's and its cross word's, if
    any); worked out once per span, for the many plays that lay different letters or blanks on its squares."""

    line: _Line
    start: int  # the main word's first square
    first: int  # the first tile is laid here, the others on the free squares after it
    end: int  # the main word ends before this position of the line
    laid: tuple[int, ...]  # the positions of the tiles laid, in reading order
    rack: _Rack
    bonus: int
    base: int
    weights: tuple[int, ...]


def _letter_at(line: _Line, new: dict[int, str], pos: int) -> str:
    """The letter a play's main word has at ``pos``: the one laid there, or the board's."""
    letter = new.get(pos) or line.letters[pos]
    if letter is None:
        raise ValueError(f"The main word of a play has no letter at {line.names[pos]}.")
    return letter


@dataclass(eq=False, slots=True)
class Play:
    """A legal play: the letters laid on a span's free squares and which of them blanks stand for (by index).
    Its base score (its words' scores plus the full-rack bonus) is counted when it is found, to rank it; its
    tiles and words are spelled out each time they are read, as a rack may have thousands of plays and a hint
    reads one. (Not frozen: a frozen dataclass takes four times as long to make.)"""

    score: int
    span: _Span = field(repr=False)
    letters: str
    blanks: tuple[int, ...]

    @property
    def bonus(self) -> int:
        """The full-rack bonus included in ``score``."""
        return self.span.bonus

    @property
    def placed(self) -> list[tuple[int, str, bool]]:
        """(position, letter, blank) of each tile, in reading order."""
        laid = zip(self.span.laid, self.letters, strict=True)
        return [(pos, letter, i in self.blanks) for i, (pos, letter) in enumerate(laid)]

    @property
    def tiles(self) -> tuple[Placement, ...]:
        """The tiles in reading order; of several tiles with the same face, the first on the rack is used first."""
        ids, names = self.span.rack.ids, self.span.line.names
        taken: dict[str, int] = {}
        tiles = []
        for pos, letter, blank in self.placed:
            face = "" if blank else letter
            taken[face] = taken.get(face, 0) + 1
            tiles.append(Placement(ids[face][taken[face] - 1], names[pos], letter, blank))
        return tuple(tiles)

    @property
    def words(self) -> tuple[Word, ...]:
        """The words formed, main word first, then the cross words in reading order (as the rules list them),
        each scored by :func:`~games.rules.grabble.board.word_score`."""
        line, start, end, value = self.span.line, self.span.start, self.span.end, self.span.rack.value
        new = dict(zip(self.span.laid, self.letters, strict=True))
        blank = value.get("", 0)
        tiles = [(blank if is_blank else value[letter], line.names[pos]) for pos, letter, is_blank in self.placed]
        words = [
            Word(
                "".join(_letter_at(line, new, i) for i in range(start, end)),
                tuple(line.names[start:end]),
                word_score(sum(line.values[start:end]), tiles),  # free squares are worth 0 in ``values``
            )
        ]
        for (pos, letter), tile in zip(new.items(), tiles, strict=True):
            cross = line.crosses[pos]
            if cross is not None:
                words.append(Word(cross.before + letter + cross.after, cross.squares, word_score(cross.old, (tile,))))
        return tuple(words)

    def action_tiles(self) -> list[dict[str, Any]]:
        """The ``tiles`` of the ``play`` action that lays it (a blank says its letter)."""
        return [{"tile": t.tile, "square": t.square} | ({"letter": t.letter} if t.blank else {}) for t in self.tiles]

    def order(self) -> tuple:
        """Best first: the highest score, then the fewest blanks spent (keep them for later), then by squares,
        letters and where the blanks are: a total order, so the best play never depends on the order the search
        met the plays in (two plays may differ only in which of two like letters a blank stands for)."""
        names = self.span.line.names
        return (-self.score, len(self.blanks), [(names[pos], letter, blank) for pos, letter, blank in self.placed])


def _span(line: _Line, first: int, end: int, rack: _Rack) -> _Span:
    """The span of a main word laid from ``first`` to ``end`` on ``line``, and its scoring (see :class:`_Span`)."""
    start = _word_start(line, first)
    laid = tuple(pos for pos in range(first, end) if line.letters[pos] is None)
    factor = 1
    for pos in laid:
        factor *= line.word_factors[pos]
    bonus = play_bonus(rack.size, len(laid))
    base = sum(line.values[start:end]) * factor + bonus  # free squares are worth 0 in ``values``
    weights = []
    for pos in laid:
        cross = line.crosses[pos]
        if cross is None:
            weights.append(line.letter_factors[pos] * factor)
        else:
            base += cross.old * line.word_factors[pos]
            weights.append(line.letter_factors[pos] * (factor + line.word_factors[pos]))
    return _Span(line, start, first, end, laid, rack, bonus, base + rack.blank_value * sum(weights), tuple(weights))


def _plays_of(span: _Span, letters: str, choices: list[tuple[int, ...]]) -> list[Play]:
    """The plays laying ``letters`` on ``span``, one for each way the blanks can stand (see
    :func:`_blank_choices`): scored with every tile from the rack, less what each tile a blank stands for
    gained over a blank (a letter the rack lacks gains nothing: it is a blank in every play)."""
    gains = list(map(mul, map(span.rack.over_blank.__getitem__, letters), span.weights))
    score = span.base + sum(gains)
    plays = []
    for blanks in choices:
        lost = 0
        for i in blanks:
            lost += gains[i]
        plays.append(Play(score - lost, span, letters, blanks))
    return plays


def plays_on(board: Mapping[str, BoardTile], rack: Sequence[RackTile], words: WordList) -> list[Play]:
    """Every legal play of ``rack`` on ``board`` (square -> tile) with the keys of ``words``, each once."""
    if not rack:
        return []
    grid: list[list[BoardTile | None]] = [[None] * SIZE for _ in range(SIZE)]
    for name, tile in board.items():
        r, c = coords(name, SIZE)
        grid[r][c] = tile
    trie = trie_of(words)
    hand = _Rack(rack)
    counts = hand.counts
    lines = {step: _lines(grid, step, words.keys()) for step in (ACROSS, DOWN)}
    longest = max((room for found in lines.values() for line in found for _anchor, room in line.anchors), default=0)
    parts = _left_parts(trie.nodes, counts, hand.blanks, min(longest, hand.size - 1))
    # The ways to place the blanks depend only on which laid letters are alike and how many of each the rack
    # holds (its shape: for each tile, the first of its letter and the rack's count, ``None`` for none); where
    # the rack lacked no letter, only on how many tiles are laid.
    choices: dict[int | tuple[tuple[int, ...], tuple[int | None, ...]], list[tuple[int, ...]]] = {}
    plays: list[Play] = []
    for step, found in lines.items():
        for line in found:
            spans: dict[tuple[int, int], _Span] = {}
            for end, first, letters, lacked in _search(line, trie, parts, counts, hand.blanks):
                # A single tile forming words both ways is found across and down: keep the across one.
                if step == DOWN and len(letters) == 1 and line.crosses[first] is not None:
                    continue
                if lacked:
                    shape: int | tuple[tuple[int, ...], tuple[int | None, ...]] = (
                        tuple(map(letters.index, letters)),
                        tuple(map(counts.get, letters)),
                    )
                else:
                    shape = len(letters)
                if shape not in choices:
                    choices[shape] = _blank_choices(letters, counts, hand.blanks)
                span = spans.get((first, end))
                if span is None:
                    span = spans[first, end] = _span(line, first, end, hand)
                plays += _plays_of(span, letters, choices[shape])
    return plays


def _word_start(line: _Line, first: int) -> int:
    """Where the main word starts: the first tile laid, or the board tiles right before it."""
    while first and line.letters[first - 1] is not None:
        first -= 1
    return first


def best(plays: Iterable[Play]) -> Play | None:
    """The play a hint shows (see :meth:`Play.order`); ``None`` when there is none."""
    plays = list(plays)
    top = max((play.score for play in plays), default=None)
    return min((play for play in plays if play.score == top), key=Play.order, default=None)


def plays_for(state: State, seat: int, words: WordList) -> list[Play]:
    """Every legal play of ``seat``'s rack on the board of a Grabble ``state``."""
    bag = tile_bag(state["bag_size"])
    board = {name: BoardTile(sq["letter"], bag[sq["tile"]]["value"]) for name, sq in state["board"].items()}
    rack = [RackTile(t, bag[t]["letter"], bag[t]["value"]) for t in state["racks"][seat]]
    return plays_on(board, rack, words)
