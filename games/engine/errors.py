"""The application's one error type, and the codes the rules share.

:class:`AppError` is what the rules raise when an action is not allowed, and what the services raise when
something cannot be done at a table, a lesson or a class: a stable ``code`` and a ``message`` in plain words for
the person who asked. It lives here, in the pure engine, so that the rules can raise it without importing Django.

Codes are stable strings: the browser client and tests rely on them, so rename none. A rules module
may add its own codes, but should reuse these where one fits.
"""


class AppError(Exception):
    """Something the application refuses to do; nothing has changed and the sender is told why."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"AppError({self.code!r}, {self.message!r})"


# Shared codes.
NOT_YOUR_TURN = "not_your_turn"
WRONG_PHASE = "wrong_phase"
BAD_ACTION = "bad_action"  # malformed: missing or mistyped fields, unknown action type
NOT_HELD = "not_held"  # cards or tiles the actor does not have
NOT_A_WORD = "not_a_word"
GAME_OVER = "game_over"
NOT_ALLOWED = "not_allowed"  # a legal-looking action the rules or table options forbid
TEACHER_ONLY = "teacher_only"
CANNOT_TIME_OUT = "cannot_time_out"  # a turn's time ran out where the rules have no pass: the teacher decides
CANNOT_SEAT = "cannot_seat"  # the rules cannot seat a new player there now
