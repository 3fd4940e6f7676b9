"""Each loader on good input, and every kind of bad input with where the problem is."""

import gzip

import pytest

from lexicons.loaders import LexiconImportError, Limits, Progress, check_files, read_records

AFF = "SET UTF-8\nSFX S Y 1\nSFX S 0 s [aeiou]\n"


def write(tmp_path, name: str, content: str | bytes):
    path = tmp_path / name
    path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
    return path


def records(fmt, *paths):
    return list(read_records(fmt, paths))


# --- good input ---------------------------------------------------------------------------------------------------


def test_word_list_reads_words_and_optional_frequencies(tmp_path):
    path = write(tmp_path, "words.txt", "\ufeffgato\n# a comment\n\nperro\t4.5\n")
    found = records("words", path)
    assert [(r.form, r.frequency, r.line) for r in found] == [("gato", None, 1), ("perro", 4.5, 4)]


def test_csv_without_header_uses_column_order(tmp_path):
    path = write(tmp_path, "words.csv", 'λόγος,λόγος,N-,----NSM-,"a word, speech",68\n')
    (record,) = records("csv", path)
    assert record.form == "λόγος"
    assert record.pos == "N"
    assert record.parse == {"case": "N", "number": "S", "gender": "M"}
    assert record.gloss == "a word, speech"
    assert record.frequency == 68


def test_csv_header_names_columns_in_any_order(tmp_path):
    path = write(tmp_path, "words.csv", "gloss,form\ncat,gato\n")
    (record,) = records("csv", path)
    assert (record.form, record.gloss, record.line) == ("gato", "cat", 2)


def test_tsv_parse_as_json_or_pairs(tmp_path):
    path = write(tmp_path, "w.tsv", 'casa\tcasa\tnoun\t{"number": "S"}\nhouses\thouse\tnoun\tnumber=P;case=N\n')
    first, second = records("csv", path)
    assert first.parse == {"number": "S"}
    assert second.parse == {"number": "P", "case": "N"}
    assert first.pos == "noun"


def test_gzip_files_are_read_transparently(tmp_path):
    path = write(tmp_path, "w.txt.gz", gzip.compress(b"gato\nperro\n"))
    assert [r.form for r in records("words", path)] == ["gato", "perro"]


def test_morphgnt_counts_tokens_per_analysis_with_movable_nu_and_elision(tmp_path):
    path = write(
        tmp_path,
        "61-Mt-morphgnt.txt",
        "010101 N- ----NSM- N-NSM λόγος λόγος λόγος λόγος\n"
        "010102 N- ----NSM- N-NSM λόγος, λόγος λόγος λόγος\n"
        "010102 V- 3AAI-S-- V-AAI-3S ἐγέννησεν ἐγέννησεν ἐγέννησε(ν) γεννάω\n"
        "010103 P- -------- PREP Δι’ Δι’ διά διά\n"
        "010104 N- ----NSM- N-NSM Ἰησοῦς Ἰησοῦς Ἰησοῦς Ἰησοῦς\n",
    )
    found = {r.form: r for r in records("morphgnt", path)}
    assert set(found) == {"λόγος", "ἐγέννησε", "ἐγέννησεν", "διά", "δι’"}
    assert found["λόγος"].frequency == 2
    assert found["δι’"].lemma == "διά"
    assert found["ἐγέννησεν"].parse == {"person": "3", "tense": "A", "voice": "A", "mood": "I", "number": "S"}


def test_morphgnt_seven_column_files_are_read_too(tmp_path):
    path = write(tmp_path, "mt.txt", "010101 RA ----NSM- ὁ ὁ ὁ ὁ\n")
    (record,) = records("morphgnt", path)
    assert (record.form, record.pos, record.parse) == ("ὁ", "RA", {"case": "N", "number": "S", "gender": "M"})


def test_hunspell_pair_expands_every_form_with_the_stem_as_lemma(tmp_path):
    dic = write(tmp_path, "es.dic", "2\ncasa/S\nreloj\n")
    aff = write(tmp_path, "es.aff", AFF)
    found = records("hunspell", aff, dic)
    assert {(r.form, r.lemma) for r in found} == {("casa", "casa"), ("casas", "casa"), ("reloj", "reloj")}


def test_progress_reaches_the_whole_file(tmp_path):
    path = write(tmp_path, "words.txt", "gato\nperro\n" * 100)
    progress = Progress(path.stat().st_size)
    list(read_records("words", [path], progress))
    assert progress.fraction == 1.0


# --- bad input ----------------------------------------------------------------------------------------------------


def error_of(fmt, *paths) -> LexiconImportError:
    with pytest.raises(LexiconImportError) as error:
        records(fmt, *paths)
    return error.value


def test_latin1_file_is_named_as_such_with_its_line(tmp_path):
    path = write(tmp_path, "words.txt", "gato\nca\u00f1on\n".encode("latin-1"))
    error = error_of("words", path)
    assert error.line == 2
    assert "Latin-1" in error.message
    assert "words.txt, line 2" in str(error)


def test_utf16_file_is_named_as_such(tmp_path):
    path = write(tmp_path, "words.txt", "gato\nperro\n".encode("utf-16"))
    assert "UTF-16" in error_of("words", path).message


def test_malformed_word_list_line_gives_its_number(tmp_path):
    path = write(tmp_path, "words.txt", "gato\nperro\t4.5\tx\n")
    assert error_of("words", path).line == 2


def test_bad_frequency_gives_its_line(tmp_path):
    path = write(tmp_path, "words.txt", "gato\nperro\tmany\n")
    error = error_of("words", path)
    assert (error.line, "not a number" in error.message) == (2, True)


def test_csv_with_too_many_columns_gives_its_line(tmp_path):
    path = write(tmp_path, "w.csv", "form,lemma\ngato,gato\nperro,perro,extra\n")
    assert error_of("csv", path).line == 3


def test_csv_unknown_header_column_is_named(tmp_path):
    path = write(tmp_path, "w.csv", "form,meaning\ngato,cat\n")
    assert "meaning" in error_of("csv", path).message


def test_csv_bad_parse_gives_its_line(tmp_path):
    path = write(tmp_path, "w.csv", "λόγος,λόγος,N-,----XSM-,word\n")
    error = error_of("csv", path)
    assert error.line == 1
    assert "parse" in error.message


def test_morphgnt_line_with_wrong_columns_gives_its_line(tmp_path):
    path = write(tmp_path, "mt.txt", "010101 RA ----NSM- ὁ ὁ ὁ ὁ\n010101 RA ὁ ὁ\n")
    assert error_of("morphgnt", path).line == 2


def test_morphgnt_unknown_part_of_speech_gives_its_line(tmp_path):
    path = write(tmp_path, "mt.txt", "010101 QQ ----NSM- ὁ ὁ ὁ ὁ\n")
    assert error_of("morphgnt", path).line == 1


def test_empty_file_is_refused_before_reading(tmp_path):
    path = write(tmp_path, "words.txt", "")
    with pytest.raises(LexiconImportError, match="empty"):
        check_files([path])


def test_file_over_the_size_limit_is_refused(tmp_path):
    path = write(tmp_path, "words.txt", "gato\n" * 100)
    with pytest.raises(LexiconImportError, match="over the limit"):
        check_files([path], max_bytes=100)


def test_affix_file_that_does_not_match_the_dic_is_refused(tmp_path):
    dic = write(tmp_path, "es.dic", "3\ncasa/XY\nperro/ZQ\ngato/QX\n")
    aff = write(tmp_path, "es.aff", AFF)
    error = error_of("hunspell", dic, aff)
    assert (error.file, error.line) == ("es.dic", 2)


def test_hunspell_needs_a_dic_and_an_aff(tmp_path):
    dic = write(tmp_path, "es.dic", "1\ncasa/S\n")
    assert "one .dic file and one .aff file" in error_of("hunspell", dic).message


def test_dic_not_in_the_declared_encoding_gives_its_line(tmp_path):
    dic = write(tmp_path, "es.dic", "2\ncasa/S\nca\u00f1a\n".encode("latin-1"))
    aff = write(tmp_path, "es.aff", AFF)
    error = error_of("hunspell", dic, aff)
    assert (error.file, error.line) == ("es.dic", 3)


def test_unknown_format_is_refused(tmp_path):
    path = write(tmp_path, "words.txt", "gato\n")
    assert "unknown format" in error_of("xml", path).message


# --- hostile input: bounded while it is read -------------------------------------------------------------------------


def test_a_decompression_bomb_stops_at_the_text_limit(tmp_path):
    """A few KB of gzip that would expand to millions of rows."""
    path = write(tmp_path, "bomb.txt.gz", gzip.compress(b"gato\n" * 400_000))
    assert path.stat().st_size < 20_000
    with pytest.raises(LexiconImportError, match="more than 1 MB of text once decompressed") as error:
        list(read_records("words", [path], limits=Limits(text_bytes=1_000_000)))
    assert error.value.file == "bomb.txt.gz"
    assert error.value.line < 210_000  # stopped as soon as the limit was passed


def test_a_huge_line_is_refused_without_reading_it_whole(tmp_path):
    path = write(tmp_path, "one.txt.gz", gzip.compress(b"gato\n" + b"a" * 2_000_000 + b"\n"))
    with pytest.raises(LexiconImportError, match="longer than the limit of 16,384 bytes") as error:
        list(read_records("words", [path]))
    assert (error.value.file, error.value.line) == ("one.txt.gz", 2)


def test_a_line_just_at_the_limit_is_read(tmp_path):
    path = write(tmp_path, "w.txt", "gato\n" + "a" * 100 + "\n")
    assert [r.form for r in read_records("words", [path], limits=Limits(line_bytes=100))] == ["gato", "a" * 100]


def test_a_csv_field_over_the_csv_limit_names_its_line(tmp_path):
    """A quoted field left open runs over many lines: 200 KB in one field."""
    path = write(tmp_path, "big.csv", 'gato,gato\nperro,"' + "xx\n" * 100_000 + '"\n')
    error = error_of("csv", path)
    assert error.file == "big.csv"
    assert "a field is longer than the limit" in error.message


def test_a_200_kb_csv_line_names_its_line(tmp_path):
    path = write(tmp_path, "big.csv", "gato,gato\nperro,perro,N,," + "x" * 200_000 + "\n")
    error = error_of("csv", path)
    assert (error.file, error.line) == ("big.csv", 2)


def test_deeply_nested_json_parse_names_its_line(tmp_path):
    path = write(tmp_path, "deep.tsv", "form\tparse\ngato\t" + '{"":' * 3000 + "1" + "}" * 3000 + "\n")
    error = error_of("csv", path)
    assert (error.file, error.line) == ("deep.tsv", 2)
    assert "nested too deeply" in error.message


def test_regex_condition_in_an_upload_names_the_aff_file_and_line(tmp_path):
    dic = write(tmp_path, "es.dic", "1\n" + "a" * 27 + "x/A\n")
    aff = write(tmp_path, "es.aff", "SET UTF-8\nSFX A Y 1\nSFX A 0 s (a+)+b\n")
    error = error_of("hunspell", dic, aff)
    assert (error.file, error.line) == ("es.aff", 3)
    assert "(a+)+b" in error.message


def test_unsupported_set_encoding_names_the_aff_file(tmp_path):
    dic = write(tmp_path, "es.dic", "1\ngato/S\n")
    aff = write(tmp_path, "es.aff", "SET rot13\nSFX S Y 1\nSFX S 0 s .\n")
    error = error_of("hunspell", dic, aff)
    assert (error.file, error.line) == ("es.aff", 1)
    assert "not supported" in error.message


def test_forms_per_stem_limit_names_the_dic_line(tmp_path):
    rules = "".join(f"SFX A 0 a{i:03d}/B .\n" for i in range(60))
    rules += "SFX B Y 60\n" + "".join(f"SFX B 0 b{i:03d} .\n" for i in range(60))
    dic = write(tmp_path, "es.dic", "2\ngato\ncasa/A\n")
    aff = write(tmp_path, "es.aff", f"SET UTF-8\nSFX A Y 60\n{rules}")
    assert len(records("hunspell", dic, aff)) == 1 + 60 + 60 * 60 + 1
    with pytest.raises(LexiconImportError, match="more than 1,000 forms") as error:
        list(read_records("hunspell", [dic, aff], limits=Limits(forms_per_stem=1000)))
    assert (error.value.file, error.value.line) == ("es.dic", 3)
