"""Which words count as rare, by the lexicon's own frequencies (``Lexicon.frequency_kind`` says what they mean).

- ``"zipf"`` (Spanish and English, from wordfreq): below 3.0, i.e. fewer than one occurrence per million words of
  running text: words a learner rarely meets outside class.
- ``"count"`` (Koine Greek, MorphGNT token counts of each form and analysis): at most 1, a form that occurs once in
  the New Testament (about 9,900 of its 17,500 forms).
- Lexicons without frequencies, and entries without one, have no rare words: a missing figure is not rarity.

The rarity is decided when an encounter is recorded and stored with it, so a later re-import never changes it.
"""

ZIPF_RARE_BELOW = 3.0
COUNT_RARE_AT_MOST = 1


def is_rare(frequency: float | None, frequency_kind: str) -> bool:
    if frequency is None:
        return False
    if frequency_kind == "zipf":
        return frequency < ZIPF_RARE_BELOW
    if frequency_kind == "count":
        return frequency <= COUNT_RARE_AT_MOST
    return False
