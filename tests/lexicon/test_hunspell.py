"""Tests of the hunspell reader/expander, the word-list filters and the shipped lists.

The parser tests use small hand-written .aff/.dic files, so they need no Debian package;
the filters are imported from ``scripts/build_wordlists.py`` (the build script) and tested
on fixtures too; the last part reads the shipped ``es.txt.xz`` / ``ro.txt.xz``.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import lzma
import re
import sys
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest

from tablero.lexicon.hunspell import (
    Condition,
    Dictionary,
    ExpandOptions,
    HunspellFormatError,
    load_dictionary,
    parse_aff,
    parse_dic,
)

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "tablero" / "data" / "lexicon"


def make(tmp_path: Path, aff: str, dic: Iterable[str], encoding: str = "utf-8") -> Dictionary:
    """Write an .aff/.dic pair and load it through the public API."""
    entries = list(dic)
    (tmp_path / "t.aff").write_bytes(aff.encode(encoding))
    (tmp_path / "t.dic").write_bytes(f"{len(entries)}\n{chr(10).join(entries)}\n".encode(encoding))
    return load_dictionary(tmp_path / "t.aff", tmp_path / "t.dic")


def words(dic: Dictionary, **options: object) -> set[str]:
    """All words of a dictionary as a set."""
    return set(dic.expand(ExpandOptions(**options)))  # type: ignore[arg-type]


def quick(aff: str, *entries: str) -> Dictionary:
    """Parse in memory (no files) for the small cases."""
    parsed = parse_aff(aff.splitlines())
    return Dictionary(parsed, parse_dic([str(len(entries)), *entries], parsed))


# =========================================================================== parser/expander


def test_suffix_strip_and_conditions() -> None:
    dic = quick(
        "SET UTF-8\nSFX A Y 3\nSFX A 0 s [aeiou]\nSFX A z ces z\nSFX A 0 es [^aeiouz]\n",
        "casa/A",
        "lápiz/A",
        "reloj/A",
    )
    assert words(dic) == {"casa", "casas", "lápiz", "lápices", "reloj", "relojes"}


def test_condition_units() -> None:
    cond = Condition.parse("[^aeo]c[ei]")
    assert cond.length == 3
    assert cond.matches_end("hacer") is False
    assert cond.matches_end("lince") is True
    assert cond.matches_start("ice") is True
    assert Condition.parse("ar").literal_tail == "ar"
    assert Condition.parse("[^i]ez").literal_tail == "ez"
    with pytest.raises(HunspellFormatError):
        Condition.parse("[ab")


def test_cross_product_only_between_y_classes() -> None:
    aff = """
PFX P Y 1
PFX P 0 re .
PFX Q N 1
PFX Q 0 des .
SFX S Y 1
SFX S 0 s .
SFX T N 1
SFX T 0 ndo .
"""
    dic = quick(aff, "hace/PQST")
    assert words(dic) == {"hace", "rehace", "deshace", "haces", "rehaces", "hacendo"}


def test_prefix_conditions() -> None:
    dic = quick("PFX I Y 2\nPFX I 0 im [bp]\nPFX I 0 in [^bp]\n", "posible/I", "útil/I")
    assert words(dic) == {"posible", "imposible", "útil", "inútil"}


def test_twofold_suffix_through_continuation_class() -> None:
    aff = """
SFX D Y 1
SFX D ar ación/S ar
SFX S Y 2
SFX S 0 s [aeiou]
SFX S ón ones ón
"""
    dic = quick(aff, "educar/D")
    # S comes only from the continuation class of -ación, not from the stem.
    assert words(dic) == {"educar", "educación", "educaciones"}


def test_prefix_allowed_by_suffix_continuation() -> None:
    aff = "SFX X Y 1\nSFX X ar able/P ar\nPFX P Y 1\nPFX P 0 in .\n"
    dic = quick(aff, "tratar/X")
    assert words(dic) == {"tratar", "tratable", "intratable"}


def test_suffix_allowed_by_prefix_continuation() -> None:
    aff = "PFX P Y 1\nPFX P 0 des/S .\nSFX S Y 1\nSFX S 0 s .\n"
    dic = quick(aff, "orden/P")
    assert words(dic) == {"orden", "desorden", "desordens"}


@pytest.mark.parametrize(
    ("header", "flags", "classes"),
    [
        ("", "AB", ("A", "B")),
        ("FLAG long\n", "AaBb", ("Aa", "Bb")),
        ("FLAG num\n", "101,7", ("101", "7")),
        ("FLAG UTF-8\n", "ÀÁ", ("À", "Á")),
    ],
)
def test_flag_formats(header: str, flags: str, classes: tuple[str, str]) -> None:
    first, second = classes
    aff = f"SET UTF-8\n{header}SFX {first} Y 1\nSFX {first} 0 s .\n"
    aff += f"SFX {second} Y 1\nSFX {second} 0 ito .\n"
    dic = quick(aff, f"gato/{flags}")
    assert words(dic) == {"gato", "gatos", "gatoito"}


def test_flag_aliases() -> None:
    aff = "AF 2\nAF A\nAF AB\nSFX A Y 1\nSFX A 0 s .\nSFX B Y 1\nSFX B 0 zo .\n"
    dic = quick(aff, "perro/2", "gato/1")
    assert words(dic) == {"perro", "perros", "perrozo", "gato", "gatos"}


def test_needaffix_on_stem_and_affix() -> None:
    aff = """
NEEDAFFIX X
SFX E Y 2
SFX E 0 ar .
SFX E 0 o/X .
SFX S Y 1
SFX S 0 s .
"""
    dic = quick(aff, "cant/XE")
    # the stem needs an affix; -o carries NEEDAFFIX itself, so "canto" alone is invalid
    assert words(dic) == {"cantar"}


def test_forbidden_and_onlyincompound() -> None:
    aff = "FORBIDDENWORD F\nONLYINCOMPOUND C\nSFX S Y 1\nSFX S 0 s .\n"
    dic = quick(aff, "gato/S", "gatos/F", "fuge/CS")
    assert words(dic) == {"gato"}


def test_circumfix_needs_both_halves() -> None:
    aff = "CIRCUMFIX X\nPFX A Y 1\nPFX A 0 ge/X .\nSFX B Y 1\nSFX B 0 t/X .\n"
    dic = quick(aff, "sag/AB")
    assert words(dic) == {"sag", "gesagt"}


def test_fullstrip() -> None:
    aff = "SFX I Y 1\nSFX I errar ierra errar\n"
    # hunspell never strips a whole stem unless FULLSTRIP is set (RLA-ES "errar" → "ierra")
    assert words(quick(aff, "errar/I")) == {"errar"}
    assert words(quick("FULLSTRIP\n" + aff, "errar/I")) == {"errar", "ierra"}


def test_dic_line_details() -> None:
    aff = "SFX S Y 1\nSFX S 0 s .\n"
    dic = quick(aff, "1\\/2/S", "perro/S po:noun", "libro\tpo:noun", "  ", "árbol/S   ")
    assert words(dic) == {"1/2", "1/2s", "perro", "perros", "libro", "árbol", "árbols"}


def test_rule_lines_with_comments_and_extra_fields() -> None:
    aff = "SFX I Y 2\nSFX I esc ești esc    #prezent\nSFX I esc ește esc # imperativ\n"
    dic = quick(aff, "citesc/I")
    assert words(dic) == {"citesc", "citești", "citește"}


def test_encoding_from_set(tmp_path: Path) -> None:
    aff = "SET ISO8859-1\nSFX S Y 1\nSFX S ón ones ón\n"
    dic = make(tmp_path, aff, ["camión/S"], encoding="latin-1")
    assert dic.aff.encoding == "iso8859_1"
    assert words(dic) == {"camión", "camiones"}


def test_options_skip_prefixes_flags_and_rules() -> None:
    aff = """
PFX N Y 1
PFX N 0 ne .
SFX A Y 2
SFX A 0 i .
SFX A 0 ule .
SFX B Y 1
SFX B 0 uri .
"""
    dic = quick(aff, "domn/NAB")
    assert "nedomni" in words(dic)
    assert words(dic, prefixes=False) == {"domn", "domni", "domnule", "domnuri"}
    assert words(dic, prefixes=False, skip_flags=frozenset("B")) == {"domn", "domni", "domnule"}
    no_ule = ExpandOptions(prefixes=False, rule_filter=lambda r: not r.affix.endswith("ule"))
    assert set(dic.expand(no_ule)) == {"domn", "domni", "domnuri"}


def test_derivations_record_rules() -> None:
    dic = quick("SFX D Y 1\nSFX D ar ación/S ar\nSFX S Y 1\nSFX S ón ones ón\n", "educar/D")
    by_word = {d.word: d for d in dic.derivations()}
    assert [r.flag for r in by_word["educaciones"].suffixes] == ["D", "S"]
    assert by_word["educar"].rules == ()
    assert "SFX D #0" in by_word["educación"].suffixes[0].name


def test_complexprefixes_is_refused() -> None:
    with pytest.raises(HunspellFormatError):
        parse_aff(["COMPLEXPREFIXES"])


# =========================================================================== word-list filters


@cache
def build_script() -> ModuleType:
    """Import scripts/build_wordlists.py (not a package module) once."""
    path = REPO / "scripts" / "build_wordlists.py"
    spec = importlib.util.spec_from_file_location("build_wordlists", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


SPANISH_AFF = """
SET UTF-8
FLAG UTF-8
SFX R Y 8
SFX R ar o ar
SFX R r 0 ar
SFX R r se ar
SFX R r ste ar
SFX R 0 se ar
SFX R ar ando ar
SFX R ar ándose ar
SFX R ar e ar
SFX À Y 2
SFX À 0 lo ar
SFX À 0 la ar
SFX N Y 2
SFX N o illo o
SFX N a illa a
SFX T Y 1
SFX T r ble ar
"""


def test_spanish_enclitic_classes_and_rules_found() -> None:
    bw = build_script()
    dic = quick(SPANISH_AFF, "cantar/RÀT", "tomar/RÀT", "perro/N", "casa/N")
    found = bw.classify_enclitics(dic)
    assert found.classes == frozenset("À")  # -illo/-illa and -ble only look like pronouns
    assert {dic.aff.suffixes["R"].rules[i].affix for _, _, i in found.rules} == {"se", "ándose"}
    kept = set(dic.expand(bw.spanish_options(found)))
    assert {"cantase", "cantaste", "canta", "cantando", "tome", "perrillo", "cantable"} <= kept
    assert {"cantarse", "cantándose", "cantarlo", "cantarla"}.isdisjoint(kept)


def test_enclitic_of_root() -> None:
    bw = build_script()
    others = {"canta", "cantando", "cantad", "cantemos", "cantase"}
    for word in ("cantarse", "cantándose", "cántalo", "cantémonos", "cantárselo"):
        assert bw.is_enclitic_of_root(word, "cantar", others), word
    for word in ("cantase", "cantaste", "cantemos"):
        assert not bw.is_enclitic_of_root(word, "cantar", others), word


def test_enclitic_words_without_affix_history() -> None:
    bw = build_script()
    # what counts as a verb form decides: "fue" is not one here (in RLA-ES it is an
    # unclassed entry without an enclitic series), so fuese stays a subjunctive
    verbs = {"da", "di", "haz", "dar", "ir", "habiendo", "dad", "canta"}
    for word in ("dame", "dámelo", "hazlo", "dile", "darle", "irse", "habiéndose", "antojarse"):
        assert bw.is_enclitic_word(word, verbs), word
    for word in ("palo", "menos", "fuese", "dados", "cantase", "tome", "case", "perla"):
        assert not bw.is_enclitic_word(word, verbs), word


def test_paradigm_bases_need_a_listed_base() -> None:
    bw = build_script()
    listed = ["da", "dame", "dale", "dalo", "huela", "huele", "huelo", "huelas"]
    assert bw.paradigm_bases(listed) == {"da"}


def test_spanish_tiles_and_normalisation() -> None:
    bw = build_script()
    assert bw.es_tiles("CHILLAR") == 5
    assert bw.es_tiles("PERRO") == 4
    assert bw.es_tiles("LLUVIA") == 5
    assert bw.es_tiles("CHURRO") == 4
    assert bw.es_normalise("ñandú") == "ÑANDU"
    assert bw.es_normalise("pingüino") == "PINGUINO"
    assert bw.es_normalise("façade") is None
    assert bw.es_is_abbreviation("km") and bw.es_is_abbreviation("etc.")
    assert not bw.es_is_abbreviation("hoy")
    assert [bw.syllables(w) for w in ("da", "cread", "fue", "río", "canta")] == [1, 2, 1, 2, 2]


def test_analogy_choice() -> None:
    bw = build_script()
    model = bw.AnalogyModel
    models = [
        model("cantar", "verb", frozenset("RE")),
        model("saltar", "verb", frozenset("RE")),
        model("asaltar", "none", frozenset()),
        model("doquier", "none", frozenset()),
        model("brigadier", "plural", frozenset("S")),
        model("mesa", "plural", frozenset("S")),
        model("claramente", "none", frozenset()),
    ]
    index = bw.EndingIndex(models)
    # an unclassed verb sharing a longer ending does not stop the conjugation
    assert bw.choose_flags("desasaltar", index) == frozenset("RE")
    assert bw.choose_flags("siquier", index) == frozenset()
    assert bw.choose_flags("remesa", index) == frozenset("S")
    assert bw.choose_flags("oscuramente", index) == frozenset()
    assert not bw.looks_like_infinitive("bóer")
    assert not bw.looks_like_infinitive("czar")
    assert bw.looks_like_infinitive("oír")


ROMANIAN_AFF = """
SET UTF-8
PFX N Y 1
PFX N 0 ne .
SFX L Y 6
SFX L 0 ul [^eu]
SFX L 0 ului [^eu]
SFX L 0 ule [^eu]
SFX L 0 i [^eu]
SFX L 0 u [^eu]
SFX L 0 le u
SFX A Y 3
SFX A ă a ă
SFX A ă e ă
SFX A ă o ă
"""


def test_romanian_vocatives_short_forms_and_prefixes() -> None:
    bw = build_script()
    dic = quick(ROMANIAN_AFF, "domn/L", "socru/L", "casă/A", "reparat/NL")
    options, vocative, short = bw.romanian_options(dic)
    assert {(r.flag, r.affix) for r in vocative} == {("L", "ule"), ("L", "le"), ("A", "o")}
    assert {(r.flag, r.affix) for r in short} == {("L", "u")}
    entries = {e.word for e in dic.entries}
    got = {d.word for d in dic.derivations(options) if bw.ro_keeps_prefix(d, entries)}
    assert {"domn", "domnul", "domnului", "domni", "casa", "case", "reparati"} <= got
    assert {"domnule", "domnu", "socrule", "caso", "nereparati", "nenereparati"}.isdisjoint(got)


ROMANIAN_ADJECTIVE_AFF = """
SET UTF-8
PFX Q Y 1
PFX Q 0 ne .
PFX K Y 1
PFX K 0 re .
SFX Q Y 1
SFX Q 0 ă [^ă]
SFX L Y 1
SFX L 0 ul [^eu]
SFX K Y 1
SFX K a ăm a
"""


def test_romanian_ne_only_on_adjectives() -> None:
    bw = build_script()
    dic = quick(ROMANIAN_ADJECTIVE_AFF, "reparat/QL", "nereparat/Q", "cânta/K")
    options, _, _ = bw.romanian_options(dic)
    entries = {e.word for e in dic.entries}
    got = {d.word for d in dic.derivations(options) if bw.ro_keeps_prefix(d, entries)}
    assert {"nereparat", "nereparată", "reparatul", "cântăm"} <= got
    assert {"nereparatul", "nenereparat", "recânta", "recântăm"}.isdisjoint(got)


def test_valency_and_abbreviation_data() -> None:
    bw = build_script()
    valency = {"bostezar": {"VerbosIntransitivos"}, "cantar": {"VerbosTransitivos"}}
    valency["quejar"] = {"VerbosPronominales"}
    valency["hervir"] = {"VerbosIntransitivos", "VerbosTransitivosIntransitivos"}
    assert bw.intransitive_or_pronominal_only(valency) == {"bostezar", "quejar"}
    real = bw.read_valency()
    assert "VerbosIntransitivos" in real["bostezar"] and "bostezar" in (
        bw.intransitive_or_pronominal_only(real)
    )
    abbreviations = bw.read_abbreviations()
    assert {"izq", "apdo", "etc", "sr/GS"} <= abbreviations
    dic = quick("SET UTF-8\nSFX D Y 2\nSFX D r do r\nSFX D r da r\n", "cantar/D")
    rules = dic.aff.suffixes["D"].rules
    assert [bw.is_inflected_participle_rule(r) for r in rules] == [False, True]


def test_romanian_word_level_checks() -> None:
    bw = build_script()
    assert bw.ro_is_vocative_word("copilule", {"copil", "copilului"})
    assert bw.ro_is_vocative_word("socrule", {"socru", "socrului"})
    assert bw.ro_is_vocative_word("fato", {"fată", "fata"})
    assert not bw.ro_is_vocative_word("destule", {"destul", "destulă"})
    assert not bw.ro_is_vocative_word("colo", {"colă", "cola"})
    assert bw.ro_is_gerund_host("cântându") and not bw.ro_is_gerund_host("nandu")
    assert bw.ro_normalise("știință") == bw.ro_normalise("ştiinţă") == "STIINTA"
    assert bw.ro_normalise("müller") is None


# =========================================================================== shipped lists


@cache
def shipped(code: str) -> frozenset[str]:
    """The shipped list as a set (decompressed once per test session)."""
    return frozenset(lzma.decompress((DATA / f"{code}.txt.xz").read_bytes()).decode().split())


def _split(text: str) -> tuple[str, ...]:
    return tuple(text.split())


CANTAR = _split(
    """
CANTAR CANTANDO CANTADO CANTADA CANTADOS CANTADAS
CANTO CANTAS CANTA CANTAMOS CANTAIS CANTAN
CANTABA CANTABAS CANTABAMOS CANTABAIS CANTABAN
CANTE CANTASTE CANTO CANTASTEIS CANTARON
CANTARE CANTARAS CANTARA CANTAREMOS CANTAREIS CANTARAN
CANTARIA CANTARIAS CANTARIAMOS CANTARIAIS CANTARIAN
CANTES CANTEMOS CANTEIS CANTEN
CANTARAMOS CANTARAIS CANTASE CANTASES CANTASEMOS CANTASEIS CANTASEN
CANTARES CANTAREN CANTAD
"""
)

CABER = _split(
    """
CABER CABIENDO CABIDO
QUEPO CABES CABE CABEMOS CABEIS CABEN
CABIA CABIAS CABIAMOS CABIAIS CABIAN
CUPE CUPISTE CUPO CUPIMOS CUPISTEIS CUPIERON
CABRE CABRAS CABRA CABREMOS CABREIS CABRAN
CABRIA CABRIAS CABRIAMOS CABRIAIS CABRIAN
QUEPA QUEPAS QUEPAMOS QUEPAIS QUEPAN
CUPIERA CUPIERAS CUPIERAMOS CUPIERAIS CUPIERAN
CUPIESE CUPIESES CUPIESEMOS CUPIESEIS CUPIESEN
CUPIERE CUPIERES CUPIEREMOS CUPIEREIS CUPIEREN CABED
"""
)

SPANISH_IN = _split(
    """
CANTABAMOS CUPIERAN HUYERAIS LAPICES REGIMENES CHILLAR LLUVIA PERRO ÑANDU CASAS
CANTARIAMOS PALO CASE TOME PETALO MENOS FUESE DADOS ANTOJA ABABILLAR KILO
ANTOJARSE ARREPENTIRSE ANTOJADO BOSTEZADO FAN OES ID DEL VID
"""
)

SPANISH_OUT = _split(
    """
CANTALO DAMELO DAME HAZLO HACIENDOSE CANTANDOSE CANTARSE QUEJARSE IRSE
MADRID ADSL KM CM SRA IERRA IZQ ETC APDO AVDA TFNO ADMON UNIV EJ NA BI BOSTEZADA BOSTEZADOS
"""
)


def test_spanish_list_contents() -> None:
    es = shipped("es")
    missing = [w for w in [*SPANISH_IN, *CANTAR, *CABER] if w not in es]
    assert not missing
    assert [w for w in SPANISH_OUT if w in es] == []


def test_romanian_list_contents() -> None:
    ro = shipped("ro")
    present = "CASA CASE CASELE CASEI CASELOR CANTA CANTAM CANTATI CANTAI CANTAU CANTAND"
    present += " CANTASEM CANTARA OM OMUL OAMENI FATA FETELE BUN BUNA BUNI STIINTA KILOGRAM"
    assert [w for w in present.split() if w not in ro] == []
    absent = "NENEREPARATII OMULE COPILULE DOMNULE FATO CASO SOCRULE BARBATU CANTANDU BUCURESTI"
    assert [w for w in absent.split() if w in ro] == []


def _tiles(word: str) -> int:
    return len(re.findall(r"CH|LL|RR|.", word))


@pytest.mark.parametrize("code", ["es", "ro"])
def test_list_format_and_metadata(code: str) -> None:
    raw = lzma.decompress((DATA / f"{code}.txt.xz").read_bytes())
    lines = raw.decode("utf-8").split("\n")
    assert lines[-1] == ""
    listed = lines[:-1]
    assert listed == sorted(set(listed))
    meta = json.loads((DATA / f"{code}.json").read_text("utf-8"))
    assert meta["word_count"] == len(listed)
    assert meta["sha256"] == hashlib.sha256(raw).hexdigest()
    if code == "es":
        assert all(re.fullmatch(r"[A-ZÑ]+", w) and 2 <= _tiles(w) <= 15 for w in listed)
    else:
        assert all(re.fullmatch(r"[A-Z]{2,17}", w) for w in listed)
