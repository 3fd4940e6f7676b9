"""bench/live/clients.py's pace: tables that start together offer the rate they are said to from the first moment, not
a burst as their first two moves fall together."""

import random
from collections.abc import Callable

from bench.live import clients

TABLES = 20_000


def rates(first: Callable[[float], float], span: float = 3.0) -> list[float]:
    """Moves a second per table in each quarter second of ``span``, every table playing from ``first(1.0)`` on."""
    random.seed(20)
    quarters = [0] * int(span * 4)
    for _ in range(TABLES):
        sent = first(1.0)
        while sent < span:
            quarters[int(sent * 4)] += 1
            sent += clients.gap(1.0)
    return [count / TABLES / 0.25 for count in quarters]


def test_tables_starting_together_offer_their_rate_from_the_first_moment():
    assert all(0.93 < rate < 1.07 for rate in rates(clients.first_delay))


def test_a_first_move_drawn_from_the_first_gap_alone_made_a_burst_at_the_end_of_the_first_second():
    """The pace before: every table's first move within ``think``, the second one a gap later."""
    burst = rates(lambda think: random.uniform(0, think))
    assert burst[3] > 1.25  # 0.75-1.0 s in
    assert burst[4] < 0.75  # and a lull after it
