"""Errors a rules module raises when an action is not allowed.

Codes are stable strings: the browser client and tests rely on them, so rename none. A rules module
may add its own codes, but should reuse these where one fits.
"""


class RuleError(Exception):
    """An action the rules do not allow; the state is unchanged and the sender is told why."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"RuleError({self.code!r}, {self.message!r})"


# Shared codes.
NOT_YOUR_TURN = "not_your_turn"
WRONG_PHASE = "wrong_phase"
BAD_ACTION = "bad_action"  # malformed: missing or mistyped fields, unknown action type
NOT_HELD = "not_held"  # cards or tiles the actor does not have
NOT_A_WORD = "not_a_word"
GAME_OVER = "game_over"
NOT_ALLOWED = "not_allowed"  # a legal-looking action the rules or table options forbid
TEACHER_ONLY = "teacher_only"
