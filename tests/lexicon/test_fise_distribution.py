"""Reading the FISE-2 distribution: the zip as published or its folder, in the federation's
format (Latin-1, CRLF, notes before a lone ``#``), and a clear error for anything else."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from tablero.lexicon import LexiconError
from tablero.lexicon.fise.distribution import MAX_FILE_BYTES, read_distribution

from .fise_sample import FILES, file_bytes, write_folder, write_zip


@pytest.mark.parametrize("packed", [False, True])
def test_the_lists_are_read_from_a_folder_or_a_zip(tmp_path: Path, packed: bool) -> None:
    source = write_zip(tmp_path / "LISTAS.zip") if packed else write_folder(tmp_path / "d")
    d = read_distribution(source)
    assert [(c, line) for c, _n, line in d.verb_lines] == [
        (1, "00-1-.-cantar"),
        (1, "00-2-.-bostezar"),
        (1, "00-3-.-dignarse"),
        (1, "88-0-.-acaronar"),
        (1, "99-0-.-atendar"),
        (3, "00-1-P-abrir(abierto)"),
    ]
    assert [(e.forms, e.homograph) for e in d.non_verbs] == [
        (("árbol",), None),
        (("abad", "abadesa"), None),
        (("crisis",), None),
        (("lápiz",), 1),
        (("lápiz",), 2),
        (("rápidamente",), None),
        (("alegro",), None),
        (("chao",), None),
    ]
    assert d.two_tiles == {"ay", "da"}
    assert d.three_tiles == {"cha", "sol"}  # 1a: the CH tile written as a digit
    u = d.non_verb_updates
    assert (u.variable, u.invariable, u.plural_only) == ({"abad"}, {"chao"}, {"víveres"})
    assert (u.removed, u.removed_plurals) == ({"zuzón"}, {"alegros"})
    assert d.removed_verbs == {"abachar"}


def test_a_list_saved_again_as_utf8_with_unix_line_ends_reads_the_same(tmp_path: Path) -> None:
    folder = write_folder(tmp_path / "latin1")
    other = tmp_path / "utf8"
    other.mkdir()
    for name in FILES:
        text = (folder / name).read_bytes().decode("latin-1").replace("\r\n", "\n")
        (other / name).write_text(text, encoding="utf-8")
    assert read_distribution(other).non_verbs == read_distribution(folder).non_verbs


def test_a_zip_that_is_not_the_distribution_says_what_was_expected_and_found(
    tmp_path: Path,
) -> None:
    path = tmp_path / "other.zip"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("readme.txt", "hola")
        z.writestr("palabras.txt", "casa\n")
    with pytest.raises(LexiconError) as info:
        read_distribution(path)
    message = str(info.value)
    assert "not the FISE-2 distribution" in message
    assert "TOTAL DE VERBOS CLASIFICADOS" in message  # what was expected
    assert "readme.txt, palabras.txt" in message  # and what was found


def test_a_file_that_is_not_a_zip_is_named(tmp_path: Path) -> None:
    path = tmp_path / "LISTAS.zip"
    path.write_bytes(b"not a zip at all")
    with pytest.raises(LexiconError, match="not a zip file"):
        read_distribution(path)


def test_a_bad_line_is_named_with_its_file_and_number(tmp_path: Path) -> None:
    folder = write_folder(tmp_path / "d")
    name = "TOTAL DE VERBOS CLASIFICADOS.TXT"
    title, body = FILES[name]
    (folder / name).write_bytes(file_bytes(title, body.replace("00-2-.-bostezar", "bostezar 2")))
    with pytest.raises(LexiconError) as info:
        read_distribution(folder)
    assert f"{name}, line 14: 'bostezar 2' is not a verb line" in str(info.value)


def test_a_list_without_its_header_mark_is_refused(tmp_path: Path) -> None:
    folder = write_folder(tmp_path / "d")
    (folder / "TOTAL DE NO VERBOS SIN PLURALES.txt").write_bytes(b"casa\r\nmesa\r\n")
    with pytest.raises(LexiconError, match="no line holding only '#'"):
        read_distribution(folder)


def test_an_oversized_list_is_refused_with_its_size(tmp_path: Path) -> None:
    folder = write_folder(tmp_path / "d")
    big = folder / "TOTAL DE NO VERBOS SIN PLURALES.txt"
    with big.open("ab") as f:
        f.truncate(MAX_FILE_BYTES + 1)
    with pytest.raises(LexiconError, match=f"{MAX_FILE_BYTES + 1:,} bytes"):
        read_distribution(folder)
