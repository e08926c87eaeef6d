"""Every simple form of a FISE-2 verb, from its line in the federation's verb list.

A line reads ``MM-V-X-infinitive[ N][(note)]``: the conjugation model ``MM`` (00 regular,
01–28 the irregular models of its conjugation, 88 regional Spanish, 99 obsolete), the valency
``V`` (0 obsolete or regional, 1 transitive, 2 intransitive, 3 pronominal, 4 pronominal in its
current senses only, 5 pronominal and impersonal), the mark ``X`` (``.`` none, ``D``
defective with its valid forms in the note, ``I`` impersonal, ``P`` irregular participles in
the note, ``R`` conjugated also as regular), the dictionary's superscript ``N``.

The rule book of the lexicon (section 17) decides what is played, and
``docs/fise-conjugation.md`` restates each rule with its examples:

* every simple tense and the non-personal forms; the voseo of the present and the imperative
  (*contás*, *contá*); no enclitic pronoun (*dame*, *colarse*) except the *-se* of an
  exclusively pronominal entry, whose infinitive counts with and without it;
* the participle in four forms for a transitive verb, in the masculine singular otherwise;
* no imperative for a pronominal entry (valency 3 and 5), no *vosotros* imperative for one
  pronominal in all its current senses (4), and the forms section 17.12 names refused;
* regional and obsolete verbs (88, 99, valency 0): the infinitive only;
* impersonal verbs: the infinitive, gerund, participle and the third person singular;
* defective verbs: the forms their note gives.

A paradigm is a dict from a *slot* (``"pi.0"`` the present indicative's first person
singular, ``"imp.tu"``, ``"ger"``…) to its forms, lowercase with the written accents; the game
folds the accents when it spells them with tiles.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

__all__ = [
    "ConjugationError",
    "VerbEntry",
    "conjugate",
    "parse_verb_line",
    "verb_forms",
]


class ConjugationError(ValueError):
    """A verb line that cannot be read or conjugated; the message says what is wrong."""


@dataclass(frozen=True)
class VerbEntry:
    """One line of the verb list."""

    infinitive: str
    """As the list writes it: lowercase, accents kept, *-se* kept (``dignarse``)."""
    conjugation: int
    """1, 2 or 3: the section of the list the line is in."""
    model: str
    """The two-digit model: ``"00"`` regular, ``"88"`` regional, ``"99"`` obsolete."""
    valency: int
    mark: str
    """``"."``, ``"D"``, ``"I"``, ``"P"`` or ``"R"``."""
    note: str = ""
    """The text in parentheses: the valid forms (D) or the participles (P)."""
    homograph: int | None = None


_LINE = re.compile(
    r"^(?P<model>\d\d)-(?P<valency>\d)-(?P<mark>[.DIPR])-(?P<infinitive>[a-zñáéíóúü]+)"
    r"(?: (?P<homograph>\d+))?(?:\((?P<note>[^()]*)\))?$"
)


def parse_verb_line(line: str, conjugation: int) -> VerbEntry:
    """The entry a verb-list line describes, or ConjugationError saying what is wrong."""
    text = line.strip()
    m = _LINE.match(text)
    if m is None:
        raise ConjugationError(
            f"expected a verb line MM-V-X-infinitive (as 00-1-.-cantar), found {text!r}"
        )
    infinitive = m["infinitive"]
    ending = _without_se(infinitive)[-2:].replace("í", "i")
    expected = {1: "ar", 2: "er", 3: "ir"}.get(conjugation)
    if expected is None:
        raise ConjugationError(f"the conjugation must be 1, 2 or 3, not {conjugation}")
    if ending != expected:
        raise ConjugationError(
            f"{infinitive!r} is listed in conjugation {conjugation}, whose infinitives end "
            f"in -{expected}"
        )
    mark = m["mark"]
    note = m["note"] or ""
    if mark in "DP" and not note:
        raise ConjugationError(f"{infinitive!r} is marked {mark} but gives no forms in parentheses")
    homograph = int(m["homograph"]) if m["homograph"] else None
    return VerbEntry(infinitive, conjugation, m["model"], int(m["valency"]), mark, note, homograph)


# --- the regular paradigm -----------------------------------------------------------------

TENSES = ("pi", "ii", "pr", "fu", "co", "ps", "sr", "ss", "sf")
"""Present, imperfect, preterite, future, conditional indicative; present, -ra and -se
imperfect, future subjunctive."""

IMPERATIVE = ("imp.tu", "imp.vosotros", "imp.vos")

STRESSED = ("pi.0", "pi.1", "pi.2", "pi.5", "ps.0", "ps.1", "ps.2", "ps.5", "imp.tu")
"""The slots whose stress falls on the stem: where contar says cuento and pedir pido."""

WEAK = (
    "ger",
    "pr.2",
    "pr.5",
    "ps.3",
    "ps.4",
    *tuple(f"{t}.{p}" for t in ("sr", "ss", "sf") for p in range(6)),
)
"""The slots where pedir and sentir close their e to i and dormir its o to u (pidió,
sintiendo, durmamos), the stem being unstressed before an ending without a stressed i."""


def _persons(*endings: str) -> list[str]:
    return list(endings)


_FIRST = {
    "pi": _persons("o", "as", "a", "amos", "áis", "an"),
    "ii": _persons("aba", "abas", "aba", "ábamos", "abais", "aban"),
    "pr": _persons("é", "aste", "ó", "amos", "asteis", "aron"),
    "fu": _persons("aré", "arás", "ará", "aremos", "aréis", "arán"),
    "co": _persons("aría", "arías", "aría", "aríamos", "aríais", "arían"),
    "ps": _persons("e", "es", "e", "emos", "éis", "en"),
    "sr": _persons("ara", "aras", "ara", "áramos", "arais", "aran"),
    "ss": _persons("ase", "ases", "ase", "ásemos", "aseis", "asen"),
    "sf": _persons("are", "ares", "are", "áremos", "areis", "aren"),
}
_SECOND_THIRD_COMMON = {
    "ii": _persons("ía", "ías", "ía", "íamos", "íais", "ían"),
    "pr": _persons("í", "iste", "ió", "imos", "isteis", "ieron"),
    "ps": _persons("a", "as", "a", "amos", "áis", "an"),
    "sr": _persons("iera", "ieras", "iera", "iéramos", "ierais", "ieran"),
    "ss": _persons("iese", "ieses", "iese", "iésemos", "ieseis", "iesen"),
    "sf": _persons("iere", "ieres", "iere", "iéremos", "iereis", "ieren"),
}
_SECOND = {
    **_SECOND_THIRD_COMMON,
    "pi": _persons("o", "es", "e", "emos", "éis", "en"),
    "fu": _persons("eré", "erás", "erá", "eremos", "eréis", "erán"),
    "co": _persons("ería", "erías", "ería", "eríamos", "eríais", "erían"),
}
_THIRD = {
    **_SECOND_THIRD_COMMON,
    "pi": _persons("o", "es", "e", "imos", "ís", "en"),
    "fu": _persons("iré", "irás", "irá", "iremos", "iréis", "irán"),
    "co": _persons("iría", "irías", "iría", "iríamos", "iríais", "irían"),
}
_NON_FINITE = {
    "ar": {
        "inf": "ar",
        "ger": "ando",
        "part": "ado",
        "pi.vos": "ás",
        "imp.tu": "a",
        "imp.vosotros": "ad",
        "imp.vos": "á",
    },
    "er": {
        "inf": "er",
        "ger": "iendo",
        "part": "ido",
        "pi.vos": "és",
        "imp.tu": "e",
        "imp.vosotros": "ed",
        "imp.vos": "é",
    },
    "ir": {
        "inf": "ir",
        "ger": "iendo",
        "part": "ido",
        "pi.vos": "ís",
        "imp.tu": "e",
        "imp.vosotros": "id",
        "imp.vos": "í",
    },
}


def _endings(cls: str) -> dict[str, str]:
    tenses = {"ar": _FIRST, "er": _SECOND, "ir": _THIRD}[cls]
    out = dict(_NON_FINITE[cls])
    for tense, endings in tenses.items():
        for person, ending in enumerate(endings):
            out[f"{tense}.{person}"] = ending
    return out


ENDINGS = {cls: _endings(cls) for cls in ("ar", "er", "ir")}
"""Slot → the regular ending, per conjugation."""

Paradigm = dict[str, list[str]]

_VOWELS = "aeiouáéíóúü"
_ACCENTED = str.maketrans("áéíóú", "aeiou")
_ACCENT = {"a": "á", "e": "é", "i": "í", "o": "ó", "u": "ú"}


def _spelled(stem: str, ending: str, cls: str) -> str:
    """The stem as written before the ending: the spelling keeps the consonant's sound
    (busqué, pagué, averigüé, cacé; venzo, cojo, distingo, delinco)."""
    first = ending[:1]
    if cls == "ar" and first in "eé":
        for old, new in (("gu", "gü"), ("c", "qu"), ("g", "gu"), ("z", "c")):
            if stem.endswith(old):
                return stem[: -len(old)] + new
    if cls != "ar" and first in "aoáó":
        for old, new in (("gu", "g"), ("qu", "c"), ("c", "z"), ("g", "j")):
            if stem.endswith(old):
                return stem[: -len(old)] + new
    return stem


def _vowel_final(stem: str) -> str:
    """``"strong"`` for a stem ending in a, e, o (le-, ca-, o-), ``"u"`` for one ending in a
    sounded u (constru-), ``""`` otherwise (a silent u after g or q is no vowel)."""
    if not stem:
        return ""
    last = stem[-1]
    if last in "aeoáéó":
        return "strong"
    if last in "uü" and stem[-2:-1] not in ("g", "q"):
        return "u"
    if last == "ü":
        return "u"
    return ""


def join(stem: str, ending: str, cls: str, *, spell: bool = True) -> str:
    """Stem and ending as Spanish writes them.

    Besides the spelling of the stem's consonant (``spell``): an unstressed i between vowels
    is written y (leyó, cayendo, construyó); a stressed i after a, e, o takes its accent
    (leímos, oír, caído); after ñ and ll the i of -ió, -iendo, -iera… is not written (tañó,
    mullendo); a form of one syllable drops its accent (fie, fio, rio, vio), except the
    diacritic dé and sé.
    """
    if spell:
        stem = _spelled(stem, ending, cls)
    if cls != "ar" and ending.startswith("i"):
        kind = _vowel_final(stem)
        rest = ending[1:]
        if rest[:1] and rest[0] in _VOWELS:
            if kind:
                if stem.endswith("ü"):
                    stem = stem[:-1] + "u"
                ending = "y" + rest
            elif stem.endswith("ñ") or stem.endswith("ll"):
                ending = rest
        elif kind == "strong" and not (ending.startswith("ir") and len(ending) > 2):
            ending = "í" + rest
    return unstressed_monosyllable(stem + ending)


def syllables(word: str) -> int:
    """The syllables of a word by its written vowels: two strong vowels (a, e, o, or an
    accented i or u) are two syllables, a weak vowel beside another vowel joins it."""
    count = 0
    previous = ""  # "" after a consonant, "weak" or "strong" after a vowel
    for ch in word:
        if ch not in _VOWELS:
            previous = ""
            continue
        strong = ch in "aeoáéóíú"
        if not previous or (strong and previous == "strong"):
            count += 1
        previous = "strong" if strong else "weak"
    return count


def unstressed_monosyllable(word: str) -> str:
    """A one-syllable form written without accent (fie, fio, vio, dais), as the rules of 2010
    have it, but for the diacritic dé and sé."""
    if word in ("dé", "sé") or syllables(word) != 1:
        return word
    return word.translate(_ACCENTED)


def stressed_last(word: str) -> str:
    """The word stressed on its last syllable, with the accent the rules then ask (after a
    prefix: contén, compón, prevé, desdió), none when it ends in another consonant (deshaz)."""
    plain = word.translate(_ACCENTED)
    if not plain or plain[-1] not in "aeiouns":
        return plain
    end = len(plain)
    while end and plain[end - 1] not in "aeiou":
        end -= 1
    start = end
    while start and plain[start - 1] in "aeiou":
        start -= 1
    group = plain[start:end]
    strong = [i for i, ch in enumerate(group) if ch in "aeo"]
    at = start + (strong[-1] if strong else len(group) - 1)
    return plain[:at] + _ACCENT[plain[at]] + plain[at + 1 :]


def prefixed(prefix: str, form: str) -> str:
    """A monosyllabic form of a base verb behind a prefix (ten → contén, di → desdí)."""
    if not prefix or syllables(form) != 1:
        return prefix + form
    return prefix + stressed_last(form)


def conjugate(
    stem: str,
    cls: str,
    stems: Mapping[str, str | Sequence[str]] | None = None,
    raw: Mapping[str, str | Sequence[str]] | None = None,
    forms: Mapping[str, str | Sequence[str]] | None = None,
) -> Paradigm:
    """The paradigm of a stem: regular, but for ``stems`` (slot → another stem, spelled as
    the regular one is), ``raw`` (slot → a stem joined without spelling changes, as the zc of
    conozco) and ``forms`` (slot → the whole form)."""
    out: Paradigm = {}
    for slot, ending in ENDINGS[cls].items():
        if forms and slot in forms:
            out[slot] = _variants(forms[slot])
        elif raw and slot in raw:
            out[slot] = [join(s, ending, cls, spell=False) for s in _variants(raw[slot])]
        else:
            chosen = (stems or {}).get(slot, stem)
            out[slot] = [join(s, ending, cls) for s in _variants(chosen)]
    return out


def _variants(value: str | Sequence[str]) -> list[str]:
    return [value] if isinstance(value, str) else list(value)


def _every(slots: Iterable[str], value: str | Sequence[str]) -> dict[str, str | Sequence[str]]:
    return {slot: value for slot in slots}


def _tense(tense: str) -> tuple[str, ...]:
    return tuple(f"{tense}.{p}" for p in range(6))


def _table(**tenses: str) -> dict[str, str | Sequence[str]]:
    """Whole tenses written out: ``pi="soy eres es somos sois son"``."""
    out: dict[str, str | Sequence[str]] = {}
    for tense, text in tenses.items():
        for person, form in enumerate(text.split()):
            out[f"{tense}.{person}"] = form.split("/")
    return out


def _strong_preterite(stem: str) -> dict[str, str | Sequence[str]]:
    """The preterite of tuve, hice, dije and its subjunctives (tuviera, dijera)."""
    j = stem.endswith("j")
    out: dict[str, str | Sequence[str]] = {}
    endings = ("e", "iste", "o", "imos", "isteis", "eron" if j else "ieron")
    for person, ending in enumerate(endings):
        out[f"pr.{person}"] = stem + ending
    for tense in ("sr", "ss", "sf"):
        for person, ending in enumerate(_SECOND[tense]):
            out[f"{tense}.{person}"] = stem + (ending[1:] if j else ending)
    return out


def _future(stem: str) -> dict[str, str | Sequence[str]]:
    """The future and conditional on another stem (tendré, tendría)."""
    out: dict[str, str | Sequence[str]] = {}
    for person, ending in enumerate(("é", "ás", "á", "emos", "éis", "án")):
        out[f"fu.{person}"] = stem + ending
    for person, ending in enumerate(("ía", "ías", "ía", "íamos", "íais", "ían")):
        out[f"co.{person}"] = stem + ending
    return out


def _subjunctive(stem: str, cls: str) -> dict[str, str | Sequence[str]]:
    """The present subjunctive on the stem of the first person (tenga, quepa)."""
    vowel = "e" if cls == "ar" else "a"
    endings = (vowel, vowel + "s", vowel, vowel + "mos", _ACCENT[vowel] + "is", vowel + "n")
    return {f"ps.{p}": unstressed_monosyllable(stem + e) for p, e in enumerate(endings)}


# --- stem changes ---------------------------------------------------------------------------


def diphthong(stem: str, vowel: str, to: str) -> str:
    """The stem's last ``vowel`` opened to ``to`` (cont → cuent, acert → aciert), written
    hue/ye at the start of the word (huelo, yerro) and güe after g (agüero)."""
    at = stem.rfind(vowel)
    if at < 0:
        raise ConjugationError(f"the stem {stem!r} has no {vowel} to change to {to}")
    if at == 0:
        to = {"ue": "hue", "ie": "ye"}.get(to, to)
    elif to == "ue" and stem[at - 1] == "g":
        to = "üe"
    return stem[:at] + to + stem[at + 1 :]


def closed(stem: str, vowel: str, to: str) -> str:
    """The stem's last ``vowel`` closed to ``to`` (ped → pid, dorm → durm)."""
    at = stem.rfind(vowel)
    if at < 0:
        raise ConjugationError(f"the stem {stem!r} has no {vowel} to change to {to}")
    return stem[:at] + to + stem[at + 1 :]


def hiatus(stem: str, vowels: str) -> str:
    """The last i or u after a vowel (h between them or not) stressed with its accent:
    aísl, ahíj, aún, reún, prohíb."""
    for at in range(len(stem) - 1, 0, -1):
        if stem[at] not in vowels:
            continue
        before = stem[at - 1]
        if before == "h" and at >= 2:
            before = stem[at - 2]
        if before in "aeiou" and before != stem[at]:
            return stem[:at] + _ACCENT[stem[at]] + stem[at + 1 :]
    raise ConjugationError(f"the stem {stem!r} has no {vowels} in hiatus to stress")


def final_stressed(stem: str) -> str:
    """The stem's last letter, i or u, stressed (envi → enví, actu → actú)."""
    if not stem or stem[-1] not in "iu":
        raise ConjugationError(f"the stem {stem!r} does not end in i or u")
    return stem[:-1] + _ACCENT[stem[-1]]


def _base_prefix(stem: str, base: str, infinitive: str) -> str:
    """What stands before the base verb (con- of contener); ConjugationError if absent."""
    if not stem.endswith(base):
        raise ConjugationError(f"{infinitive!r} does not end like its model's verb -{base}r")
    return stem[: -len(base)]


# --- the models -------------------------------------------------------------------------------

Model = Callable[[str, str, str], Paradigm]
"""(stem, conjugation ending, infinitive) → paradigm."""


def _regular(stem: str, cls: str, _inf: str) -> Paradigm:
    return conjugate(stem, cls)


def _stressed_change(change: Callable[[str], str]) -> Model:
    def model(stem: str, cls: str, _inf: str) -> Paradigm:
        return conjugate(stem, cls, stems=_every(STRESSED, change(stem)))

    return model


def _stressed_and_weak(strong: Callable[[str], str], weak: Callable[[str], str]) -> Model:
    """Sentir and dormir: ie/ue where stressed, i/u in the weak slots (sintió, durmiendo)."""

    def model(stem: str, cls: str, _inf: str) -> Paradigm:
        stems: dict[str, str | Sequence[str]] = _every(WEAK, weak(stem))
        stems.update(_every(STRESSED, strong(stem)))
        return conjugate(stem, cls, stems=stems)

    return model


def _zc(stem: str, cls: str, _inf: str) -> Paradigm:
    """conozco, conozca: c becomes zc before a and o (and sc of -escer too)."""
    root = stem[:-2] if stem.endswith("sc") else stem[:-1]
    if not stem.endswith("c"):
        raise ConjugationError(f"the stem {stem!r} does not end in c")
    raw = _every(("pi.0", *_tense("ps")), root + "zc")
    return conjugate(stem, cls, raw=raw)


def _andar(stem: str, cls: str, inf: str) -> Paradigm:
    return conjugate(stem, cls, forms=_strong_preterite(stem + "uv"))


def _dar(stem: str, cls: str, inf: str) -> Paradigm:
    p = _base_prefix(stem, "d", inf)
    forms = _table(
        pi="doy das da damos dais dan",
        pr="di diste dio dimos disteis dieron",
        ps="dé des dé demos deis den",
    )
    forms = {slot: [prefixed(p, f) for f in _variants(v)] for slot, v in forms.items()}
    forms["imp.tu"] = prefixed(p, "da")
    for tense in ("sr", "ss", "sf"):
        for person, ending in enumerate(_SECOND[tense]):
            forms[f"{tense}.{person}"] = p + "d" + ending
    return conjugate(stem, cls, forms=forms)


def _estar(stem: str, cls: str, inf: str) -> Paradigm:
    p = _base_prefix(stem, "est", inf)
    forms = _table(
        pi="estoy estás está estamos estáis están",
        ps="esté estés esté estemos estéis estén",
    )
    forms = {slot: [p + f for f in _variants(v)] for slot, v in forms.items()}
    forms.update(_strong_preterite(p + "estuv"))
    forms["imp.tu"] = p + "está"
    return conjugate(stem, cls, forms=forms)


def _errar(stem: str, cls: str, _inf: str) -> Paradigm:
    return conjugate(stem, cls, stems=_every(STRESSED, "y" + stem))


def _caber(stem: str, cls: str, inf: str) -> Paradigm:
    p = _base_prefix(stem, "cab", inf)
    forms = {"pi.0": p + "quepo", **_subjunctive(p + "quep", cls)}
    forms.update(_strong_preterite(p + "cup"))
    forms.update(_future(p + "cabr"))
    return conjugate(stem, cls, forms=forms)


def _igo(*suffixes: str) -> Model:
    """caer → caigo, asir → asgo, raer → raigo and rayo: the first person and the present
    subjunctive on a longer stem."""

    def model(stem: str, cls: str, _inf: str) -> Paradigm:
        variants = [stem + suffix for suffix in suffixes]
        return conjugate(stem, cls, raw=_every(("pi.0", *_tense("ps")), variants))

    return model


def _haber(stem: str, cls: str, inf: str) -> Paradigm:
    p = _base_prefix(stem, "hab", inf)
    forms = _table(pi="he has ha/hay hemos/habemos habéis han")
    forms = {slot: [p + f for f in _variants(v)] for slot, v in forms.items()}
    forms.update(_subjunctive(p + "hay", cls))
    forms.update(_strong_preterite(p + "hub"))
    forms.update(_future(p + "habr"))
    forms["pi.vos"] = p + "has"
    forms["imp.tu"] = p + "he"
    forms["imp.vos"] = []
    return conjugate(stem, cls, forms=forms)


def _hacer_like(stem: str, cls: str, inf: str) -> Paradigm:
    """hacer, deshacer, rehacer, desfacer (with f), satisfacer (satisfago, satisfizo)."""
    if stem.endswith("hac"):
        h = "h"
    elif stem.endswith("fac"):
        h = "f"
    else:
        raise ConjugationError(f"{inf!r} does not end like its model's verb -hacer")
    p = stem[:-3]
    forms: dict[str, str | Sequence[str]] = {"pi.0": p + h + "ago"}
    forms.update(_subjunctive(p + h + "ag", cls))
    preterite = _strong_preterite(p + h + "ic")
    preterite["pr.2"] = p + h + "izo"
    forms.update(preterite)
    forms.update(_future(p + h + "ar"))
    tu = prefixed(p, h + "az")
    forms["imp.tu"] = [tu, p + h + "ace"] if p.endswith("satis") else tu
    return conjugate(stem, cls, forms=forms)


def _poder(stem: str, cls: str, inf: str) -> Paradigm:
    p = _base_prefix(stem, "pod", inf)
    forms: dict[str, str | Sequence[str]] = _strong_preterite(p + "pud")
    forms.update(_future(p + "podr"))
    return conjugate(
        stem, cls, stems={**_every(STRESSED, p + "pued"), "ger": p + "pud"}, forms=forms
    )


def _go_future(base: str, go: str, strong: str | None, future: str, tu: str) -> Model:
    """poner, tener, venir, salir, valer: -go in the first person (pongo), the future on
    another stem (pondré), a short imperative (pon) and maybe a strong preterite (puse)."""

    def model(stem: str, cls: str, inf: str) -> Paradigm:
        p = _base_prefix(stem, base, inf)
        forms: dict[str, str | Sequence[str]] = {"pi.0": p + go + "o"}
        forms.update(_subjunctive(p + go, cls))
        if strong:
            forms.update(_strong_preterite(p + strong))
        forms.update(_future(p + future))
        forms["imp.tu"] = prefixed(p, tu)
        stems: dict[str, str | Sequence[str]] = {}
        if base in ("ten", "ven"):  # tienes, vienes
            stems = _every(("pi.1", "pi.2", "pi.5"), p + diphthong(base, "e", "ie"))
        if base == "ven":
            stems["ger"] = p + "vin"
        return conjugate(stem, cls, stems=stems, forms=forms)

    return model


def _querer(stem: str, cls: str, inf: str) -> Paradigm:
    p = _base_prefix(stem, "quer", inf)
    forms = _strong_preterite(p + "quis")
    forms.update(_future(p + "querr"))
    return conjugate(stem, cls, stems=_every(STRESSED, p + "quier"), forms=forms)


def _roer(stem: str, cls: str, _inf: str) -> Paradigm:
    variants = [stem, stem + "ig", stem + "y"]
    return conjugate(stem, cls, raw=_every(("pi.0", *_tense("ps")), variants))


def _saber(stem: str, cls: str, inf: str) -> Paradigm:
    p = _base_prefix(stem, "sab", inf)
    forms: dict[str, str | Sequence[str]] = {"pi.0": prefixed(p, "sé")}
    forms.update(_subjunctive(p + "sep", cls))
    forms.update(_strong_preterite(p + "sup"))
    forms.update(_future(p + "sabr"))
    return conjugate(stem, cls, forms=forms)


_IR_PRETERITE = "fui fuiste fue fuimos fuisteis fueron"


def _ser(stem: str, cls: str, inf: str) -> Paradigm:
    if inf != "ser":
        raise ConjugationError(f"{inf!r} cannot follow the model of ser")
    forms = _table(
        pi="soy eres es somos sois son",
        ii="era eras era éramos erais eran",
        pr=_IR_PRETERITE,
        ps="sea seas sea seamos seáis sean",
        sr="fuera fueras fuera fuéramos fuerais fueran",
        ss="fuese fueses fuese fuésemos fueseis fuesen",
        sf="fuere fueres fuere fuéremos fuereis fueren",
    )
    forms.update({"pi.vos": "sos", "imp.tu": "sé", "imp.vos": "sé", "ger": "siendo"})
    return conjugate("s", cls, forms=forms)


def _ir(stem: str, cls: str, inf: str) -> Paradigm:
    if inf != "ir":
        raise ConjugationError(f"{inf!r} cannot follow the model of ir")
    forms = _table(
        pi="voy vas va vamos vais van",
        ii="iba ibas iba íbamos ibais iban",
        pr=_IR_PRETERITE,
        ps="vaya vayas vaya vayamos vayáis vayan",
        sr="fuera fueras fuera fuéramos fuerais fueran",
        ss="fuese fueses fuese fuésemos fueseis fuesen",
        sf="fuere fueres fuere fuéremos fuereis fueren",
    )
    forms.update({"pi.vos": "vas", "imp.tu": "ve", "imp.vos": [], "ger": "yendo"})
    return conjugate("", cls, forms=forms)


def _traer(stem: str, cls: str, inf: str) -> Paradigm:
    p = _base_prefix(stem, "tra", inf)
    forms: dict[str, str | Sequence[str]] = {"pi.0": p + "traigo"}
    forms.update(_subjunctive(p + "traig", cls))
    forms.update(_strong_preterite(p + "traj"))
    return conjugate(stem, cls, forms=forms)


def _ver(stem: str, cls: str, inf: str) -> Paradigm:
    p = _base_prefix(stem, "v", inf)
    forms = _table(pi="veo ves ve vemos veis ven", pr="vi viste vio vimos visteis vieron")
    forms = {slot: [prefixed(p, f) for f in _variants(v)] for slot, v in forms.items()}
    forms["imp.tu"] = prefixed(p, "ve")
    raw = _every(_tense("ii") + _tense("ps"), p + "ve")
    return conjugate(stem, cls, raw=raw, forms=forms)


def _yacer(stem: str, cls: str, inf: str) -> Paradigm:
    p = _base_prefix(stem, "yac", inf)
    variants = [p + "yazc", p + "yazg", p + "yag"]
    forms: dict[str, str | Sequence[str]] = {"imp.tu": [p + "yace", p + "yaz"]}
    return conjugate(stem, cls, raw=_every(("pi.0", *_tense("ps")), variants), forms=forms)


def _placer(stem: str, cls: str, inf: str) -> Paradigm:
    """placer and its compounds conjugate as conocer; placer itself also has the old plugo,
    plegue, pluguiera of the third person."""
    paradigm = _zc(stem, cls, inf)
    if inf == "placer":
        for slot, form in (
            ("pr.2", "plugo"),
            ("pr.5", "pluguieron"),
            ("ps.2", "plegue"),
            ("sr.2", "pluguiera"),
            ("ss.2", "pluguiese"),
            ("sf.2", "pluguiere"),
        ):
            paradigm[slot] = paradigm[slot] + [form]
        paradigm["ps.2"].append("plega")
    return paradigm


def _adquirir(stem: str, cls: str, _inf: str) -> Paradigm:
    return conjugate(stem, cls, stems=_every(STRESSED, diphthong(stem, "i", "ie")))


def _construir(stem: str, cls: str, _inf: str) -> Paradigm:
    """construyo, construya: y after the stem's u where the ending is stressed on it."""
    y = (stem[:-1] + "u" if stem.endswith("ü") else stem) + "y"
    return conjugate(stem, cls, raw=_every((*STRESSED, "ps.3", "ps.4"), y))


def _rehuir(stem: str, cls: str, _inf: str) -> Paradigm:
    """rehúyo: construir with the u stressed."""
    paradigm = _construir(stem, cls, _inf)
    stressed = hiatus(stem, "u") + "y"
    for slot in STRESSED:
        paradigm[slot] = [join(stressed, ENDINGS[cls][slot], cls, spell=False)]
    return paradigm


def _ducir(stem: str, cls: str, inf: str) -> Paradigm:
    """conducir: conduzco and the preterite conduje, condujeron."""
    if not stem.endswith("c"):
        raise ConjugationError(f"the stem {stem!r} does not end in c")
    root = stem[:-1]
    forms: dict[str, str | Sequence[str]] = _strong_preterite(root + "j")
    return conjugate(stem, cls, raw=_every(("pi.0", *_tense("ps")), root + "zc"), forms=forms)


def _decir_like(future_regular: bool, future_short: bool, tu_short: bool) -> Model:
    """decir and its compounds: digo, dije, diré; predecir also prediceré and predice;
    bendecir bendeciré and bendice."""

    def model(stem: str, cls: str, inf: str) -> Paradigm:
        p = _base_prefix(stem, "dec", inf)
        forms: dict[str, str | Sequence[str]] = {"pi.0": p + "digo"}
        forms.update(_subjunctive(p + "dig", cls))
        forms.update(_strong_preterite(p + "dij"))
        fut: dict[str, list[str]] = {}
        if future_short:
            for slot, form in _future(p + "dir").items():
                fut.setdefault(slot, []).append(str(form))
        if future_regular:
            for slot in _tense("fu") + _tense("co"):
                fut.setdefault(slot, []).append(join(stem, ENDINGS[cls][slot], cls))
        forms.update(fut)
        forms["imp.tu"] = prefixed(p, "di") if tu_short else p + "dice"
        stems = {**_every(("pi.1", "pi.2", "pi.5"), p + "dic"), "ger": p + "dic"}
        return conjugate(stem, cls, stems=stems, forms=forms)

    return model


def _erguir(stem: str, cls: str, _inf: str) -> Paradigm:
    stems: dict[str, str | Sequence[str]] = _every(WEAK, "irgu")
    stems.update(_every(STRESSED, ["irgu", "yergu"]))
    if stem != "ergu":
        raise ConjugationError("only erguir follows the model of erguir")
    return conjugate(stem, cls, stems=stems)


def _oir(stem: str, cls: str, _inf: str) -> Paradigm:
    """oír: oigo, oyes, oye, oyen (the y of the stressed stem)."""
    forms: dict[str, str | Sequence[str]] = {"pi.0": stem + "igo"}
    forms.update(_subjunctive(stem + "ig", cls))
    raw = _every(("pi.1", "pi.2", "pi.5", "imp.tu"), stem + "y")
    return conjugate(stem, cls, raw=raw, forms=forms)


def _salir(stem: str, cls: str, inf: str) -> Paradigm:
    p = _base_prefix(stem, "sal", inf)
    forms: dict[str, str | Sequence[str]] = {"pi.0": p + "salgo"}
    forms.update(_subjunctive(p + "salg", cls))
    forms.update(_future(p + "saldr"))
    forms["imp.tu"] = p + "sal"
    return conjugate(stem, cls, forms=forms)


def _reir(stem: str, cls: str, _inf: str) -> Paradigm:
    """reír: río, ríe, riamos, rio, riendo (the stem's e becomes a stressed or glided i)."""
    if not stem.endswith("e"):
        raise ConjugationError(f"the stem {stem!r} does not end in e")
    root = stem[:-1]
    raw: dict[str, str | Sequence[str]] = _every(STRESSED, root + "í")
    raw.update(_every(WEAK, root))
    raw.update(_every(("ps.3", "ps.4"), root + "i"))  # riamos, riais
    return conjugate(stem, cls, raw=raw)


def _pudrir(stem: str, cls: str, _inf: str) -> Paradigm:
    """pudrir and podrir: every form on pudr-, the participle podrido, both infinitives."""
    paradigm = conjugate("pudr", cls)
    paradigm["part"] = ["podrido"]
    paradigm["inf"] = ["pudrir", "podrir"]
    return paradigm


def _desvair(stem: str, cls: str, _inf: str) -> Paradigm:
    """desvaír: the list gives it a model of its own (28) whose paradigm it does not show;
    only the forms whose ending begins with i are certain (desvaímos, desvaído, desvayó, as
    embaír), so only those are played."""
    paradigm = _regular(stem, cls, _inf)
    return {slot: forms for slot, forms in paradigm.items() if slot in I_ENDING_SLOTS}


def _fixed(paradigm: Model, base_infinitive: str) -> Model:
    """A model whose verbs must be compounds of one base (andar, desandar)."""

    def model(stem: str, cls: str, inf: str) -> Paradigm:
        if not inf.endswith(base_infinitive):
            raise ConjugationError(f"{inf!r} does not end like its model's verb {base_infinitive}")
        return paradigm(stem, cls, inf)

    return model


def _pedir_accented(stem: str, cls: str, _inf: str) -> Paradigm:
    """rehenchir: pedir with the closed i stressed (rehínche, rehinchió)."""
    weak = closed(stem, "e", "i")
    stems: dict[str, str | Sequence[str]] = _every(WEAK, weak)
    stems.update(_every(STRESSED, hiatus(weak, "i")))
    return conjugate(stem, cls, stems=stems)


def _ui(stem: str) -> str:
    return hiatus(stem, "iu")


MODELS: dict[tuple[int, str], Model] = {
    (1, "00"): _regular,
    (1, "01"): _stressed_change(lambda s: diphthong(s, "o", "ue")),
    (1, "02"): _stressed_change(lambda s: diphthong(s, "e", "ie")),
    (1, "03"): _fixed(_andar, "andar"),
    (1, "04"): _fixed(_dar, "dar"),
    (1, "05"): _fixed(_estar, "estar"),
    (1, "06"): _errar,
    (1, "07"): _stressed_change(lambda s: diphthong(s, "u", "ue")),
    (1, "08"): _stressed_change(_ui),
    (1, "09"): _stressed_change(final_stressed),
    (1, "10"): _stressed_change(_ui),
    (1, "11"): _stressed_change(final_stressed),
    (1, "12"): _stressed_change(_ui),
    (1, "13"): _stressed_change(_ui),
    (1, "14"): _stressed_change(_ui),
    (1, "15"): _stressed_change(lambda s: closed(s, "o", "hue")),
    (2, "00"): _regular,
    (2, "01"): _zc,
    (2, "02"): _caber,
    (2, "03"): _fixed(_igo("ig"), "caer"),
    (2, "04"): _stressed_change(lambda s: diphthong(s, "e", "ie")),
    (2, "05"): _haber,
    (2, "06"): _hacer_like,
    (2, "07"): _regular,  # leer: leyó, leído come from the vowel-final stem
    (2, "08"): _stressed_change(lambda s: diphthong(s, "o", "ue")),
    (2, "09"): _stressed_change(lambda s: diphthong(s, "o", "ue")),  # oler: huelo
    (2, "10"): _poder,
    (2, "11"): _go_future("pon", "pong", "pus", "pondr", "pon"),
    (2, "12"): _querer,
    (2, "13"): _roer,
    (2, "14"): _saber,
    (2, "15"): _ser,
    (2, "16"): _regular,  # tañer: tañó, tañendo come from the ñ of the stem
    (2, "17"): _go_future("ten", "teng", "tuv", "tendr", "ten"),
    (2, "18"): _traer,
    (2, "19"): _go_future("val", "valg", None, "valdr", "vale"),
    (2, "20"): _ver,
    (2, "21"): _yacer,
    (2, "22"): _zc,
    (2, "23"): _zc,
    (2, "24"): _hacer_like,
    (2, "25"): _hacer_like,
    (2, "26"): _placer,
    (2, "27"): _fixed(_igo("ig", "y"), "raer"),
    (3, "00"): _regular,
    (3, "01"): _adquirir,
    (3, "02"): _rehuir,
    (3, "03"): _fixed(_igo("g"), "asir"),
    (3, "04"): _stressed_and_weak(lambda s: closed(s, "e", "i"), lambda s: closed(s, "e", "i")),
    (3, "05"): _ducir,
    (3, "06"): _construir,
    (3, "07"): _decir_like(future_regular=True, future_short=True, tu_short=False),
    (3, "08"): _stressed_change(lambda s: diphthong(s, "e", "ie")),
    (3, "09"): _stressed_and_weak(lambda s: diphthong(s, "o", "ue"), lambda s: closed(s, "o", "u")),
    (3, "10"): _erguir,
    (3, "11"): _ir,
    (3, "12"): _zc,
    (3, "13"): _regular,  # mullir, bruñir: mulló, bruñendo from ll and ñ
    (3, "14"): _oir,
    (3, "15"): _stressed_and_weak(lambda s: closed(s, "e", "i"), lambda s: closed(s, "e", "i")),
    (3, "16"): _stressed_change(_ui),
    (3, "17"): _stressed_change(_ui),
    (3, "18"): _salir,
    (3, "19"): _stressed_and_weak(lambda s: diphthong(s, "e", "ie"), lambda s: closed(s, "e", "i")),
    (3, "20"): _reir,
    (3, "21"): _go_future("ven", "veng", "vin", "vendr", "ven"),
    (3, "22"): _pudrir,
    (3, "23"): _regular,  # embaír: embaímos, embayó from the vowel-final stem
    (3, "24"): _pedir_accented,
    (3, "25"): _decir_like(future_regular=True, future_short=False, tu_short=False),
    (3, "26"): _decir_like(future_regular=False, future_short=True, tu_short=True),
    (3, "27"): _decir_like(future_regular=False, future_short=True, tu_short=False),
    (3, "28"): _desvair,
}
"""(conjugation, model) → how the model conjugates a stem."""


SPECIAL_MODELS = {"podrir": (3, "22"), "balbucir": (3, "12")}
"""Verbs conjugated by another model than the list's number: podrir is pudrir's other
spelling (rule 17.12: each spelling as indicated for it; the dictionary conjugates podrir as
pudrir); balbucir, defective in the forms with z, follows lucir (balbuzco is the form the
note refuses), not conducir's preterite in -uje."""

def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


REFUSED_IMPERATIVES = _words(
    "abromad abstén abstené abstened adrezad afeccionad afrancad alampad alobad amulad "
    "apensionad apegad atené atened atreved caneced comedid condolé condoled confabulad "
    "conjuramentad deshonestad desmanad despereced despizcad encerrizad enmontad ensayalad "
    "esguilad finchad fugad jactad macad opilad percatad refriad reguardad lloviznad"
)
"""Section 17.12: imperatives refused for verbs pronominal in every current sense."""

INFINITIVE_ONLY = _words(
    "afogar aforcar añedir añidir arrempujar atorgar blincar embabucar erutar escurecer "
    "estajar fuercear jorrar pablar refanfinflar"
)
"""Section 17.12: obsolete verbs marked vulgar or dialectal, and verbs found only in set
phrases: the infinitive only, whatever their line says."""


def conjugate_entry(entry: VerbEntry) -> Paradigm:
    """The full paradigm of an entry's model (before the rule book's restrictions)."""
    infinitive = _without_se(entry.infinitive)
    stem, cls = infinitive[:-2], infinitive[-2:].replace("í", "i")
    key = SPECIAL_MODELS.get(infinitive, (entry.conjugation, entry.model))
    model = MODELS.get(key)
    if model is None:
        raise ConjugationError(
            f"{entry.infinitive!r}: conjugation {entry.conjugation} has no model "
            f"{entry.model} (models 00–{_last_model(entry.conjugation)}, 88, 99)"
        )
    paradigm = model(stem, cls, infinitive)
    if entry.mark == "R" and entry.model != "00":
        for slot, forms in _regular(stem, cls, infinitive).items():
            paradigm[slot] = list(dict.fromkeys(paradigm[slot] + forms))
    return paradigm


def _last_model(conjugation: int) -> str:
    return max(m for c, m in MODELS if c == conjugation)


THIRD_PERSONS = tuple(f"{t}.{p}" for t in TENSES for p in (2, 5))
THIRD_SINGULAR = tuple(f"{t}.2" for t in TENSES)
I_ENDING_SLOTS = (
    "inf",
    "ger",
    "part",
    "pi.3",
    "pi.4",
    "pi.vos",
    "imp.vosotros",
    "imp.vos",
    *tuple(f"{t}.{p}" for t in ("ii", "pr", "fu", "co", "sr", "ss", "sf") for p in range(6)),
)
"""The -ir slots whose ending begins with i (aterimos, aterí, ateriendo, aterido)."""

_DEFECTIVE_NOTES = {
    "infinitivo, gerundio, participio y terceras personas": ("inf", "ger", "part", *THIRD_PERSONS),
    "infinitivo y terceras personas": ("inf", *THIRD_PERSONS),
    "infinitivo, participio y terceras personas": ("inf", "part", *THIRD_PERSONS),
    "solo las formas cuya desinencia empieza por -i": I_ENDING_SLOTS,
}


def verb_forms(entry: VerbEntry) -> set[str]:
    """Every form the rule book accepts for the entry, lowercase with accents."""
    infinitive = _without_se(entry.infinitive)
    infinitives = {entry.infinitive, infinitive}
    if entry.model in ("88", "99") or entry.valency == 0 or infinitive in INFINITIVE_ONLY:
        return infinitives  # 17.2, 17.7, 17.11: the infinitive, with and without -se
    if entry.mark == "D" and entry.note not in _DEFECTIVE_NOTES and "zeta" not in entry.note:
        return set(entry.note.split())  # the note lists the forms themselves (adir, usucapir)
    paradigm = conjugate_entry(entry)
    if entry.mark == "P":
        paradigm["part"] = entry.note.split()
    slots = set(paradigm)
    if entry.mark == "I":
        slots = {"inf", "ger", "part", *THIRD_SINGULAR}
    elif entry.mark == "D" and entry.note in _DEFECTIVE_NOTES:
        slots = set(_DEFECTIVE_NOTES[entry.note])
    if entry.valency in (3, 5):
        slots -= set(IMPERATIVE)
    elif entry.valency == 4:
        slots.discard("imp.vosotros")
    forms: set[str] = set()
    for slot in slots:
        for form in paradigm.get(slot, ()):
            if slot in IMPERATIVE and form in REFUSED_IMPERATIVES:
                continue
            if slot == "part" and entry.valency == 1:
                forms.update(participle_forms(form))
            else:
                forms.add(form)
    if "zeta" in entry.note:  # balbucir: no form with z
        forms = {f for f in forms if "z" not in f}
    if entry.infinitive.endswith("se"):
        forms.add(entry.infinitive)
    return forms


def participle_forms(masculine: str) -> list[str]:
    """A transitive verb's participle in gender and number (cantado, cantada, cantados,
    cantadas; impreso, impresa…)."""
    if not masculine.endswith("o"):
        return [masculine]
    root = masculine[:-1]
    return [masculine, root + "a", root + "os", root + "as"]


def _without_se(infinitive: str) -> str:
    """The infinitive without the -se of a pronominal entry (dignarse → dignar)."""
    if infinitive.endswith(("arse", "erse", "irse", "írse")):
        return infinitive[:-2]
    return infinitive
