"""Live-play benchmark: move round trips over real Daphne, PostgreSQL and Redis (``run.py``)."""
