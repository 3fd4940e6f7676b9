"""One module per game, each exposing ``RULES``; ``GAMES`` maps every slug to its rules.

Add a game by importing its module here and listing its ``RULES``.
"""

from games.engine import Game
from games.rules import grabble, pablo, pala, palabra, palabras_cortas, palabras_cortas_solitario

GAMES: dict[str, Game] = {
    rules.slug: rules
    for rules in (
        grabble.RULES,
        pablo.RULES,
        pala.RULES,
        palabra.RULES,
        palabras_cortas.RULES,
        palabras_cortas_solitario.RULES,
    )
}
