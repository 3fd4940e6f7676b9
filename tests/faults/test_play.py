"""Play across server processes that die: a move committed just before its server was killed is neither lost nor
unseen (the other players' heartbeats bring it; a reconnecting page gets it); and two players matching one card
through two servers at once: exactly one match applies, and the other is told who was first."""

import threading
import time

import pytest

from games.models import Table
from tests.faults.conftest import CATCH_UP, committed, wait_until
from tests.games.rules.pablo_helpers import card

pytestmark = [pytest.mark.faults, pytest.mark.timeout(90)]


def kill_when_committed(server, table_id: int, seq: int) -> None:
    """kill -9 the server the moment the move's row is committed: its broadcast may or may not have gone out."""
    wait_until(lambda: committed(table_id) >= seq, 10, f"seq {seq} to be committed", every=0.005)
    server.kill()


def test_a_move_committed_just_before_its_server_died_reaches_every_player(start_server, players, pablo):
    table_id, users = pablo
    first, second = start_server(), start_server()
    mover = players(users[0], table_id).connect(first.url)
    others = [players(user, table_id).connect(second.url) for user in users[1:]]
    assert mover.seq == 0
    assert all(player.seq == 0 for player in others)

    mover.send({"type": "draw"})
    kill_when_committed(first, table_id, 1)
    for player in others:  # connected to the server that lives: the heartbeat brings what the broadcast may not
        player.wait_for_seq(1, CATCH_UP)
    mover.connect(second.url)  # the page reconnects to a server that lives: its move is there
    assert mover.seq == 1
    assert mover.view["phase"] == "decide"

    # Now the other way round: the server of the players who watch dies right after the move committed there.
    third = start_server()
    mover.send({"type": "discard"})
    kill_when_committed(second, table_id, 2)
    for player in others:
        player.connect(third.url)
        assert player.seq == 2
    mover.connect(third.url)
    assert mover.seq == 2
    assert committed(table_id) == 2


def test_a_player_whose_server_died_mid_game_plays_on_through_another(start_server, players, pablo):
    table_id, users = pablo
    first, second = start_server(), start_server()
    mover = players(users[0], table_id).connect(first.url)
    watcher = players(users[1], table_id).connect(second.url)
    first.kill()
    mover.connect(second.url)
    mover.send({"type": "draw"})
    mover.wait_for_seq(1, CATCH_UP)
    watcher.wait_for_seq(1, CATCH_UP)


def test_simultaneous_matches_through_two_servers_exactly_one_applies(start_server, players, pablo):
    table_id, users = pablo
    first, second = start_server(), start_server()
    one = players(users[1], table_id).connect(first.url)
    two = players(users[2], table_id).connect(second.url)
    go = threading.Barrier(2, timeout=10)

    def match(player, seat: int) -> None:
        go.wait()
        player.send({"type": "match", "owner": seat, "slot": 3, "top": card("5D")})

    threads = [threading.Thread(target=match, args=(p, s)) for p, s in ((one, 1), (two, 2))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=10)

    one.wait_for_seq(1, CATCH_UP)
    two.wait_for_seq(1, CATCH_UP)
    time.sleep(0.5)  # the loser's refusal and its snapshot follow the move
    table = Table.objects.get(pk=table_id)
    assert table.version == 1, "exactly one match applied"
    winner = table.state["matched_by"]
    assert winner in (1, 2)
    loser, late = (two, 2) if winner == 1 else (one, 1)
    errors = [m for m in loser.received if m.get("type") == "error"]
    if not errors:
        errors = [loser.next_of("error", 5)]
    assert [e["code"] for e in errors] == ["too_late"]
    assert table.state["fields"][late][3] is not None, "the second match changed nothing"
    assert loser.view["body"]["match"]["matched_by"] == winner  # told who was first
    assert not [m for m in (one if winner == 1 else two).received if m.get("type") == "error"]
