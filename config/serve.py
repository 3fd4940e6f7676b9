"""The production server: Daphne, with its event loop from uvloop.

    python -m config.serve [Daphne's options] config.asgi:application

Takes Daphne's own command line. Daphne makes its event loop when ``daphne.server`` is first imported, so
:func:`use_uvloop` must run before that. That is why this is an entry point of its own, and not a line in
``config/asgi.py``, which Daphne imports only after it has made its loop.

Why: a live server spends most of its CPU in the event loop: its sockets (websockets, Redis, PostgreSQL), its
callbacks and its futures. uvloop does that work in C. Alternating with asyncio's own loop, bench/live measured 3–18%
less of the app's CPU per move at 200 moves/s (bench/README.md, "Continued (2026-11-28)").

``make run`` keeps Django's development server, which runs Daphne on asyncio's own loop.
"""

import asyncio

import uvloop


def use_uvloop() -> None:
    """Make every new event loop of this process a uvloop loop (Daphne's own, and in tests a forked server's)."""
    asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())


def main() -> None:
    use_uvloop()
    from daphne.cli import CommandLineInterface  # only now: importing it makes Daphne's loop

    CommandLineInterface.entrypoint()


if __name__ == "__main__":
    main()
