"""bench/live/scale.py's line on a window's slowest round trips: a stall (most of them sent together) told apart from
a queue (spread over the window)."""

from bench.live.clients import Trip
from bench.live.scale import tail_line


def test_a_stall_shows_as_the_slowest_sent_within_half_a_second():
    quick = [Trip(sent=i * 0.01, ms=5.0) for i in range(990)]  # 9.9 s of play
    stalled = [Trip(sent=4.0 + i * 0.03, ms=200.0 + i) for i in range(10)]  # all sent 4.0-4.27 s in
    line = tail_line("moves", quick + stalled)
    assert line == "the moves' slowest 1% (10, 200.0 ms or more): 10 sent within 0.5 s, 4.0 s in; all 10 within 0.3 s"


def test_a_queue_shows_as_the_slowest_spread_over_the_window():
    trips = [Trip(sent=i * 0.01, ms=5.0) for i in range(990)]
    trips += [Trip(sent=i * 1.0, ms=50.0) for i in range(10)]  # one a second, 0-9 s in
    line = tail_line("echoes", trips)
    assert line == "the echoes' slowest 1% (10, 50.0 ms or more): 1 sent within 0.5 s, 0.0 s in; all 10 within 9.0 s"


def test_too_few_round_trips_for_a_slowest_one_percent():
    assert tail_line("moves", [Trip(sent=0.0, ms=5.0)] * 99) is None
