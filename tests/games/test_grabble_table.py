"""Grabble at a live table: the table page loads the Grabble renderer and links the score sheet; a hint reaches
the player who asked and nobody else, and is a move of the log; the score sheet page shows each turn's words,
base score, learning and teaching points and totals exactly as the rules count them, escapes what players and the
teacher typed, and is for the table's players and the class's teacher only.

Games are played through ``games.services`` with racks arranged by the rules tests' own helper."""

import json
import re
from pathlib import Path

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from django.test import Client
from django.urls import reverse

from games.models import Move, Table
from games.rules import GAMES
from games.services import lessons, moves
from learning import services as learning_services
from lexicons import morphology
from lexicons.models import Entry, Lexicon
from lexicons.normalise import normalise
from tests.games.conftest import seated
from tests.games.rules.test_grabble import give
from tests.games.rules.test_grabble_preview import BETA_CODE
from tests.games.test_consumers import join

RULES = GAMES["grabble"]
NOUN_NSM = {"case": "N", "number": "S", "gender": "M"}
RELATIVE_NSM = {"case": "N", "number": "S", "gender": "M"}

# (form, lemma, pos, parse, gloss)
WORDS = [
    ("λόγος", "λόγος", "N", NOUN_NSM, "word"),
    ("ὅς", "ὅς", "RR", RELATIVE_NSM, "who, which"),
    ("ἀρχή", "ἀρχή", "N", {"case": "N", "number": "S", "gender": "F"}, "beginning"),
    ("ἦν", "εἰμί", "V", {"person": "3", "tense": "I", "voice": "A", "mood": "I", "number": "S"}, "I am"),
    ("ἥν", "ὅς", "RR", {"case": "A", "number": "S", "gender": "F"}, "who, which"),
]


def greek_lexicon() -> Lexicon:
    """A tiny ready Greek lexicon with analyses: λόγος, ὅς, ἀρχή."""
    lexicon = Lexicon.objects.create(name="Tiny Greek", language="grc", version=1, last_version=1, status="ready")
    Entry.objects.bulk_create(
        Entry(
            lexicon=lexicon,
            version=1,
            form=form,
            key=normalise(form, "grc"),
            lemma=lemma,
            pos=pos,
            parse=parse,
            gloss=gloss,
        )
        for form, lemma, pos, parse, gloss in WORDS
    )
    return lexicon


def start_grabble(teacher, classroom, names=("Ἀλέξανδρος", "Βίκη"), options=None) -> Table:
    students = [learning_services.join_classroom(classroom.join_code, name) for name in names]
    lesson = lessons.start_lesson(
        teacher, classroom, "grabble", greek_lexicon(), options or {}, [[s.id for s in students]]
    )
    return lesson.tables.get()


def arrange_racks(table: Table, racks: dict[int, str], turn: int = 0) -> dict[int, list[int]]:
    """Put exactly these letters on the seats' racks (seat ``turn`` on turn); returns the tile ids per seat."""
    state = table.state
    ids = {seat: give(state, seat, list(letters)) for seat, letters in racks.items()}
    state["turn"] = turn
    table.state = state
    table.save(update_fields=["state"])
    return ids


def act(table: Table, user, action: dict) -> Table:
    moves.apply_action(table.id, user, action)
    table.refresh_from_db()
    return table


def parse(word, lemma, pos, fields):
    return {"word": word, "lemma": lemma, "pos": pos, "parse": dict(fields)}


def lay(ids, squares):
    return [{"tile": t, "square": s} for t, s in zip(ids, squares, strict=True)]


def play_two_turns(table: Table) -> Table:
    """Seat 0 lays ΛΟΓΟΣ on H8–L8 (lemma in Beta Code); seat 1 lays Ο on L7 for ΟΣ down L7–L8."""
    ids = arrange_racks(table, {0: "ΛΟΓΟΣ", 1: "Ο"})
    first, second = seated(table)
    act(
        table,
        first,
        {
            "type": "play",
            "tiles": lay(ids[0], ["H8", "I8", "J8", "K8", "L8"]),
            "parses": [parse("ΛΟΓΟΣ", "lo/gos", "N", NOUN_NSM)],
        },
    )
    return act(
        table,
        second,
        {"type": "play", "tiles": lay(ids[1], ["L7"]), "parses": [parse("ΟΣ", "ὅς", "RR", RELATIVE_NSM)]},
    )


def quiz_both_turns(table: Table, teacher) -> Table:
    """Seat 0 parses both turns perfectly; seat 1 gets ΛΟΓΟΣ's case wrong and ΟΣ right; the teacher gives
    seat 1 partial credit of 5 on the first turn and finishes."""
    first, second = seated(table)
    act(table, teacher, {"type": "end_play"})
    act(table, first, {"type": "answer", "parses": [parse("ΛΟΓΟΣ", "λογος", "N", NOUN_NSM)]})
    act(table, second, {"type": "answer", "parses": [parse("ΛΟΓΟΣ", "λόγος", "N", NOUN_NSM | {"case": "G"})]})
    for user in (first, second):
        act(table, user, {"type": "answer", "parses": [parse("ΟΣ", "o(/s", "RR", RELATIVE_NSM)]})
    act(table, teacher, {"type": "credit", "play": 0, "seat": 1, "points": 5})
    return act(table, teacher, {"type": "finish"})


def sheet_page(user, table: Table):
    client = Client()
    client.force_login(user)
    return client.get(reverse("games:grabble_sheet", args=[table.id]))


def cells(html: str, testid: str) -> list[int]:
    row = re.search(rf'data-testid="{testid}">(.*?)</tr>', html, re.S).group(1)
    return [int(n) for n in re.findall(r'<td class="num">(\d+)</td>', row)]


@pytest.fixture
def table(teacher, classroom) -> Table:
    return start_grabble(teacher, classroom)


# -- the table page ----------------------------------------------------------------------------------------------
@pytest.mark.django_db
def test_the_table_page_loads_the_grabble_renderer_styles_and_links_the_score_sheet(table):
    client = Client()
    client.force_login(seated(table)[0])
    page = client.get(reverse("games:table", args=[table.id])).content.decode()
    assert "games/renderers/grabble.js" in page
    assert "games/grabble.css" in page
    assert reverse("games:grabble_sheet", args=[table.id]) in page


@pytest.mark.django_db
def test_other_games_neither_load_the_grabble_styles_nor_link_a_score_sheet(teacher):
    spanish = learning_services.create_classroom(teacher, "Español", "spa")
    for name in ("Lucía", "Mateo"):
        learning_services.join_classroom(spanish.join_code, name)
    other = lessons.start_lesson(teacher, spanish, "palabras_cortas", None, {}, 2).tables.get()
    client = Client()
    client.force_login(teacher)
    page = client.get(reverse("games:table", args=[other.id])).content.decode()
    assert "games/grabble.css" not in page
    assert "/sheet/" not in page
    assert sheet_page(teacher, other).status_code == 404


def test_the_renderer_takes_the_parse_vocabulary_scores_and_beta_code_from_the_server():
    """The server is the only referee: the page keeps no Beta Code, word finding, scoring or parse vocabulary of its
    own (the body carries the vocabulary; previews give the words, scores and lemmas)."""
    script = (Path(settings.BASE_DIR) / "static/games/renderers/grabble.js").read_text()
    for own in ("betaToGreek", "looksLikeBetaCode", "wordsFormed", "wordScore", "LETTER_FACTOR", "WORD_FACTOR"):
        assert own not in script
    for code, name in [
        *morphology.POS.items(),
        *(pair for values in morphology.VALUES.values() for pair in values.items()),
    ]:
        assert not re.search(rf'\b{code}: "{re.escape(name)}"', script), (code, name)
    assert "vocabulary" in script
    assert "ctx.preview(" in script


# -- hints -------------------------------------------------------------------------------------------------------
@pytest.mark.usefixtures("disconnect_communicators")
@pytest.mark.django_db(transaction=True)
async def test_a_hint_reaches_the_player_who_asked_only_and_is_logged_as_a_move(teacher, classroom):
    db = database_sync_to_async
    table = await db(start_grabble)(teacher, classroom)
    await db(arrange_racks)(table, {0: "ΛΟΓΟΣ"})
    users = await db(seated)(table)
    sockets = [(await join(table, user))[0] for user in [*users, teacher]]
    await sockets[0].send_json_to({"type": "action", "action": {"type": "hint"}, "client_id": "h1"})
    asker, other, spectator = [await ws.receive_json_from(timeout=3) for ws in sockets]
    hint = asker["view"]["body"]["hint"]
    assert asker["events"] == [{"type": "hinted", "seat": 0, "left": 2, "hint": hint}]
    assert hint["words"] == [{"word": "ΛΟΓΟΣ", "squares": ["D8", "E8", "F8", "G8", "H8"], "score": 26}]
    for message in (other, spectator):
        assert message["events"] == [{"type": "hinted", "seat": 0, "left": 2}]
        assert message["view"]["body"]["hint"] is None
        assert "ΛΟΓΟΣ" not in str(message)
    move = await db(Move.objects.get)(table=table, seq=asker["seq"])
    assert move.action == {"type": "hint"}
    assert move.seat == 0
    for ws in sockets:
        await ws.disconnect()


# -- previews ----------------------------------------------------------------------------------------------------
@pytest.mark.usefixtures("disconnect_communicators")
@pytest.mark.django_db(transaction=True)
async def test_a_play_preview_over_the_websocket_scores_the_tiles_and_reads_every_beta_code_lemma(teacher, classroom):
    """The page's own path: a ``preview`` message with the tiles laid so far and the lemmas typed."""
    db = database_sync_to_async
    table = await db(start_grabble)(teacher, classroom)
    ids = await db(arrange_racks)(table, {0: "ΛΟΓΟΣ"})
    users = await db(seated)(table)
    ws, _ = await join(table, users[0])
    moves = await db(Move.objects.filter(table=table).count)()
    parses = [{"word": "ΛΟΓΟΣ", "lemma": typed} for typed, _greek in BETA_CODE]
    action = {"type": "play", "tiles": lay(ids[0], ["H8", "I8", "J8", "K8", "L8"]), "parses": parses}
    await ws.send_json_to({"type": "preview", "action": action, "client_id": "p1"})
    answer = await ws.receive_json_from(timeout=3)
    assert (answer["type"], answer["client_id"], answer["ok"]) == ("preview", "p1", True)
    result = answer["result"]
    assert result["words"] == [{"word": "ΛΟΓΟΣ", "squares": ["H8", "I8", "J8", "K8", "L8"], "score": 22}]
    assert (result["bonus"], result["total"]) == (0, 22)
    assert [lemma["greek"] for lemma in result["lemmas"]] == [greek for _typed, greek in BETA_CODE]
    await ws.send_json_to({"type": "preview", "action": {**action, "tiles": action["tiles"][::2]}, "client_id": "p2"})
    refused = await ws.receive_json_from(timeout=3)
    assert (refused["ok"], refused["code"]) == (False, "bad_placement")
    assert (await db(Move.objects.filter(table=table).count)()) == moves  # nothing stored
    await ws.disconnect()


# -- the score sheet ---------------------------------------------------------------------------------------------
@pytest.mark.django_db
def test_score_sheet_figures_are_the_rules_numbers_after_the_quiz(table, teacher):
    table = quiz_both_turns(play_two_turns(table), teacher)
    state = table.state
    html = sheet_page(seated(table)[0], table).content.decode()
    view = RULES.view(state, None)
    assert cells(html, "final-totals") == RULES.scores(state).total
    assert cells(html, "learning-totals") == view["scores"]["parts"]["learning"]
    assert cells(html, "teaching-totals") == view["scores"]["parts"]["teaching"]
    bases = [int(b) for b in re.findall(r'data-testid="base">(\d+)</td>', html)]
    assert bases == [play["base"] for play in state["plays"]]
    # The figures follow the rulebook: seat 1 got 5 partial credit on turn 1 and both parsed ΟΣ.
    logos, os_ = state["plays"]
    assert RULES.scores(state).total == [
        logos["base"] + logos["base"] + 5 + os_["base"],
        5 + os_["base"] + 2 * os_["base"],
    ]


@pytest.mark.django_db
def test_score_sheet_lists_each_turns_words_with_their_analysis_and_gloss_once_quizzed(table, teacher):
    table = quiz_both_turns(play_two_turns(table), teacher)
    html = sheet_page(teacher, table).content.decode()
    assert html.count('data-testid="sheet-turn"') == 2
    assert "ΛΟΓΟΣ" in html
    assert "ΟΣ" in html
    assert "noun, nominative singular masculine" in html
    assert "“word”" in html
    assert "“who, which”" in html
    assert "Ἀλέξανδρος" in html
    assert "Βίκη" in html


@pytest.mark.django_db
def test_score_sheet_hides_analyses_of_turns_not_yet_quizzed(table, teacher):
    table = play_two_turns(table)
    act(table, teacher, {"type": "end_play"})
    html = sheet_page(teacher, table).content.decode()
    assert "nominative" not in html
    assert "“word”" not in html
    assert cells(html, "final-totals") == [0, 0]


@pytest.mark.django_db
def test_before_the_quiz_only_the_placer_and_the_teacher_see_a_turns_analysis(table, teacher):
    """The analyses are the quiz's answers: the other players' sheet and snapshot carry none of them."""
    from games import selectors

    table = play_two_turns(table)  # seat 0: ΛΟΓΟΣ ("word"); seat 1: ΟΣ ("who, which")
    first, second = seated(table)
    for user, own, other in ((first, "“word”", "“who, which”"), (second, "“who, which”", "“word”")):
        html = sheet_page(user, table).content.decode()
        assert own in html
        assert other not in html
    teachers = sheet_page(teacher, table).content.decode()
    assert "“word”" in teachers
    assert "“who, which”" in teachers
    for seat, other in ((0, "who, which"), (1, "λόγος")):
        snapshot = json.dumps(selectors.snapshot(table, seat), ensure_ascii=False)
        assert other not in snapshot


@pytest.mark.django_db
def test_score_sheet_says_which_reading_was_taught_and_which_the_quiz_accepted(table, teacher):
    ids = arrange_racks(table, {0: "ΗΝ"})
    first, second = seated(table)
    taught = parse("ΗΝ", "εἰμί", "V", WORDS[3][3])
    act(table, first, {"type": "play", "tiles": lay(ids[0], ["H8", "I8"]), "parses": [taught]})
    act(table, teacher, {"type": "end_play"})
    act(table, first, {"type": "answer", "parses": [taught]})
    table = act(table, second, {"type": "answer", "parses": [parse("ΗΝ", "ὅς", "RR", WORDS[4][3])]})
    assert table.state["plays"][0]["learning"] == {"0": 4, "1": 4}
    html = sheet_page(second, table).content.decode()
    assert "taught: " in html
    assert "also accepted" in html


@pytest.mark.django_db
def test_score_sheet_before_any_word_says_so(table):
    html = sheet_page(seated(table)[1], table).content.decode()
    assert "No words have been played yet." in html


@pytest.mark.django_db
def test_score_sheet_escapes_names_and_the_teachers_gloss(teacher, classroom):
    table = start_grabble(teacher, classroom, names=("<b>Bold</b>", "Βίκη"))
    ids = arrange_racks(table, {0: "ΑΒΓ"})
    first, second = seated(table)
    act(
        table,
        first,
        {
            "type": "play",
            "tiles": lay(ids[0], ["H8", "I8", "J8"]),
            "parses": [parse("ΑΒΓ", "αβγ", "N", NOUN_NSM)],
        },
    )
    assert table.state["phase"] == "approval"
    act(table, teacher, {"type": "approve", "gloss": "<script>alert(1)</script>"})
    act(table, teacher, {"type": "end_play"})
    for user in (first, second):
        act(table, user, {"type": "answer", "parses": [parse("ΑΒΓ", "αβγ", "N", NOUN_NSM)]})
    html = sheet_page(teacher, table).content.decode()
    assert "<script>alert(1)" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<b>Bold</b>" not in html
    assert "&lt;b&gt;Bold&lt;/b&gt;" in html


@pytest.mark.django_db
def test_score_sheet_is_for_the_tables_players_and_the_class_teacher_only(table, teacher, other_teacher, classroom):
    for user in [*seated(table), teacher]:
        assert sheet_page(user, table).status_code == 200
    stranger = learning_services.join_classroom(classroom.join_code, "Χλόη").user  # in the class, not at the table
    assert sheet_page(stranger, table).status_code == 403
    assert sheet_page(other_teacher, table).status_code == 403
    anonymous = Client().get(reverse("games:grabble_sheet", args=[table.id]))
    assert anonymous.status_code == 302
    assert "login" in anonymous["Location"]


@pytest.mark.django_db
def test_score_sheet_of_a_table_that_does_not_exist_is_not_found(teacher):
    client = Client()
    client.force_login(teacher)
    assert client.get(reverse("games:grabble_sheet", args=[999999])).status_code == 404
