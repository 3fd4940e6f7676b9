"""Codes people read aloud and type. The alphabet leaves out 0/O, 1/I/L and 5/S, which are easily
confused on a projector; case, spaces and dashes are ignored when a code is typed."""

import secrets

ALPHABET = "2346789ABCDEFGHJKMNPQRTUVWXYZ"
JOIN_CODE_LENGTH = 6
REJOIN_CODE_LENGTH = 8


def new_code(length: int) -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(length))


def clean_code(typed: str) -> str:
    return "".join(ch for ch in typed.upper() if ch not in " -\t")
