"""Expansion of .dic + .aff pairs (lexicons.hunspell)."""

import pytest

from lexicons.hunspell import HunspellError, iter_stems, read_affixes

AFF = """SET UTF-8
FLAG UTF-8
SFX S Y 1
SFX S 0 s [aeiou]

SFX R Y 2
SFX R ar o ar
SFX R ar amos/T ar

SFX T Y 1
SFX T 0 lo .

PFX D Y 1
PFX D 0 des .

SFX N N 1
SFX N 0 es [^aeiou]
"""


def expand(dic: str, aff: str = AFF) -> set[str]:
    affixes = read_affixes(aff.encode())
    lines = enumerate(dic.splitlines(), 1)
    return {form for stem in iter_stems(affixes, lines) for form in affixes.forms(stem)}


def test_suffixes_apply_only_where_their_condition_holds():
    assert expand("2\ncasa/S\nreloj/SN\n") == {"casa", "casas", "reloj", "relojes"}


def test_stripping_suffix_replaces_the_ending():
    assert {"hablar", "hablo", "hablamos"} <= expand("1\nhablar/R\n")


def test_continuation_flag_adds_a_second_suffix():
    assert "hablamoslo" in expand("1\nhablar/R\n")


def test_cross_product_combines_prefix_and_suffix():
    assert expand("1\nhacer/D\n") == {"hacer", "deshacer"}
    assert "deshablamos" in expand("1\nhablar/RD\n")


def test_non_cross_product_suffix_takes_no_prefix():
    assert "desrelojes" not in expand("1\nreloj/ND\n")


def test_first_line_must_be_the_word_count():
    with pytest.raises(HunspellError) as error:
        expand("casa/S\n")
    assert error.value.line == 1


def test_a_dic_from_another_affix_file_is_refused_with_its_line():
    with pytest.raises(HunspellError) as error:
        expand("4\ncasa/S\nperro/XY\ngato/XZ\nmesa/QX\n")
    assert error.value.line == 3
    assert "belongs with this .dic" in error.value.message


def test_a_stray_undefined_flag_is_ignored_as_hunspell_does():
    dic = "40\n" + "".join(f"casa{i}a/S\n" for i in range(39)) + "rosar/S/\n"
    assert "rosar" in expand(dic)


def test_latin1_affix_file_is_decoded_as_declared():
    aff = "SET ISO8859-1\nSFX S Y 1\nSFX S 0 ñas .\n".encode("latin-1")
    affixes = read_affixes(aff)
    assert affixes.aff.SFX["S"][0].add == "ñas"


def test_affix_file_that_lies_about_its_encoding_is_refused():
    with pytest.raises(HunspellError) as error:
        read_affixes("SET UTF-8\nSFX S Y 1\nSFX S 0 ñas .\n".encode("latin-1"))
    assert error.value.line == 3
    assert "UTF-8" in error.value.message


def test_empty_affix_file_is_refused():
    with pytest.raises(HunspellError):
        read_affixes(b"  \n")
