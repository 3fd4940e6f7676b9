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


# --- hostile affix files ------------------------------------------------------------------------------------------


def test_conditions_are_hunspell_brackets_not_regular_expressions():
    aff = "SET UTF-8\nSFX A Y 1\nSFX A 0 s (a+)+b\n"
    with pytest.raises(HunspellError) as error:
        read_affixes(aff.encode())
    assert (error.value.file, error.value.line) == (".aff", 3)
    assert "'(a+)+b'" in error.value.message


def test_a_catastrophic_condition_never_runs():
    """Matched as a regular expression, this stem took seconds, four times longer for every two letters."""
    aff = "SET UTF-8\nSFX A Y 1\nSFX A 0 s aaa.\n"
    assert expand("1\n" + "a" * 40 + "x/A\n", aff) == {"a" * 40 + "x", "a" * 40 + "xs"}


@pytest.mark.parametrize("condition", ["[abc", "a]", "a*", "[a+]", "^a", "a$", "a|b", "[]", "a{2}"])
def test_every_non_hunspell_condition_is_refused(condition):
    with pytest.raises(HunspellError, match="not a Hunspell condition"):
        read_affixes(f"SET UTF-8\nSFX A Y 1\nSFX A 0 s {condition}\n".encode())


def test_bracket_conditions_match_like_hunspell():
    aff = "SET UTF-8\nSFX A Y 2\nSFX A 0 s [^c]a\nSFX A 0 x c[ao].\nPFX P Y 1\nPFX P 0 re [^r]\n"
    assert expand("4\nmesa/AP\nvaca/A\ncamión/A\nsacos/A\n", aff) == {
        "mesa", "mesas", "remesa", "remesas", "vaca", "camión", "sacos", "sacosx",
    }  # fmt: skip


def test_a_stem_with_too_many_forms_is_refused_with_its_line():
    """1,500 suffixes each carrying the same 1,500: one ten-byte stem would expand to 2,250,000 forms."""
    rules = "".join(f"SFX A 0 {i:04d}/B .\n" for i in range(200)) + "".join(f"SFX B 0 x{i:04d} .\n" for i in range(200))
    aff = f"SET UTF-8\nSFX A Y 200\n{rules}".replace("SFX B 0 x0000", "SFX B Y 200\nSFX B 0 x0000", 1)
    affixes = read_affixes(aff.encode(), max_forms=1000)
    stems = list(iter_stems(affixes, iter([(1, "2"), (2, "gato"), (3, "casa/A")])))
    assert affixes.forms(stems[0]) == {"gato"}
    with pytest.raises(HunspellError, match="more than 1,000 forms") as error:
        affixes.forms(stems[1])
    assert error.value.line == 3


@pytest.mark.parametrize("encoding", ["rot13", "idna", "base64", "utf-16", "ISCII-DEVANAGARI", "nonsense"])
def test_unsupported_set_encoding_is_refused_with_its_line(encoding):
    with pytest.raises(HunspellError, match="not supported") as error:
        read_affixes(f"# Spanish\nSET {encoding}\nSFX S Y 1\nSFX S 0 s .\n".encode())
    assert (error.value.file, error.value.line) == (".aff", 2)
    assert repr(encoding) in error.value.message


def test_hunspell_encodings_are_accepted():
    for name in ("ISO8859-15", "KOI8-R", "microsoft-cp1251", "TIS620-2533", "UTF-8"):
        assert read_affixes(f"SET {name}\nSFX S Y 1\nSFX S 0 s .\n".encode()).aff.SFX["S"][0].add == "s"
