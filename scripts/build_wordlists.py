#!/usr/bin/env python3
"""Regenerate the shipped Spanish and Romanian word lists from Debian's dictionaries.

The lists in ``tablero/data/lexicon/`` are derived data: this script is their source.
It needs Debian 12 (bookworm) packages::

    apt-get install hunspell-es hunspell-ro wspanish hunspell

``hunspell-es`` and ``hunspell-ro`` give the RLA-ES and rospell dictionaries, ``wspanish``
the public-domain Spanish word list, and ``hunspell`` (the program) is used to verify that
every expanded form is a word hunspell itself accepts (``hunspell -G``).  Then, from the
repository root::

    python scripts/build_wordlists.py            # build, verify, write everything
    python scripts/build_wordlists.py --compare-es other_list.txt.xz   # also diff a list

It writes ``es.txt.xz``, ``ro.txt.xz``, ``es.json``, ``ro.json``, ``README.md`` and
``LICENSES/`` under ``tablero/data/lexicon/`` and refreshes the generated figures section of
``docs/wordlists.md``.  Same input packages give byte-identical output (sorted lists, fixed
xz settings, no timestamps).  See ``docs/wordlists.md`` for what is dropped and why.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import lzma
import re
import shutil
import subprocess
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tablero.lexicon.hunspell import (  # noqa: E402
    AffixRule,
    Derivation,
    DicEntry,
    Dictionary,
    ExpandOptions,
    load_dictionary,
)

HUNSPELL_DIR = Path("/usr/share/hunspell")
WSPANISH = Path("/usr/share/dict/spanish")
OUT_DIR = REPO / "tablero" / "data" / "lexicon"
DOCS = REPO / "docs" / "wordlists.md"
FIGURES_BEGIN = "<!-- BEGIN GENERATED FIGURES (scripts/build_wordlists.py) -->"
FIGURES_END = "<!-- END GENERATED FIGURES -->"
DATA_DIR = REPO / "scripts" / "data"
ES_VALENCY = DATA_DIR / "rla-es-verb-valency.tsv"
ES_ABBREVIATIONS = DATA_DIR / "rla-es-abbreviations.txt"
ES_ADDITIONS = DATA_DIR / "es-additions.txt"
ES_NOT_WORDS = DATA_DIR / "es-not-words.txt"
#: simplemma lemmas with at least this many distinct forms are taken as verbs to add.
SIMPLEMMA_MIN_FORMS = 10

RuleKey = tuple[str, str, int]  # (kind, flag, index): identifies one affix rule


def rule_key(rule: AffixRule) -> RuleKey:
    """A hashable, cheap identifier of a rule."""
    return (rule.kind, rule.flag, rule.index)


# =========================================================================== common helpers


@dataclass
class LanguageReport:
    """Figures gathered while building one list (written to JSON and the docs)."""

    code: str
    name: str
    words: list[str] = field(default_factory=list)
    notes: dict[str, object] = field(default_factory=dict)
    checked: int = 0
    accepted: int = 0
    rejected_sample: list[str] = field(default_factory=list)


def deaccent(text: str) -> str:
    """Remove acute accents (á→a …) but keep ü and ñ: the accent marks stress only."""
    return text.translate(_ACUTE)


_ACUTE = str.maketrans("áéíóú", "aeiou")


def is_lowercase_entry(word: str) -> bool:
    """Proper nouns and acronyms have capitals somewhere (Madrid, ADSL, iPad)."""
    return word == word.lower()


def xz_bytes(words: Sequence[str]) -> bytes:
    """Deterministic xz of a word list (xz has no timestamp; settings are fixed)."""
    data = "".join(w + "\n" for w in words).encode("utf-8")
    return lzma.compress(data, format=lzma.FORMAT_XZ, check=lzma.CHECK_CRC64, preset=9)


def sha256_of(words: Sequence[str]) -> str:
    """sha256 of the uncompressed list (one word per line, trailing newline)."""
    return hashlib.sha256("".join(w + "\n" for w in words).encode("utf-8")).hexdigest()


def package_version(package: str) -> str:
    """The installed Debian version of a package (recorded for attribution)."""
    result = subprocess.run(
        ["dpkg-query", "-W", "-f=${Version}", package],
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0 or not result.stdout:
        raise SystemExit(f"package {package} is not installed: apt-get install {package}")
    return result.stdout.strip()


def hunspell_accepts(words: Iterable[str], dictionary: str) -> set[str]:
    """Words that ``hunspell -d DICT -G`` accepts (the program checks each line's word)."""
    if shutil.which("hunspell") is None:
        raise SystemExit("hunspell not found: apt-get install hunspell (or use --no-verify)")
    text = "".join(w + "\n" for w in words)
    result = subprocess.run(
        ["hunspell", "-d", dictionary, "-G", "-i", "utf-8"],
        input=text.encode("utf-8"),
        capture_output=True,
        check=True,
    )
    return set(result.stdout.decode("utf-8").split())


def verify(report: LanguageReport, surfaces: Iterable[str], dictionary: str) -> None:
    """Run every surface form through hunspell and record the acceptance rate."""
    unique = sorted(set(surfaces))
    accepted = hunspell_accepts(unique, dictionary)
    rejected = [w for w in unique if w not in accepted]
    report.checked = len(unique)
    report.accepted = len(unique) - len(rejected)
    report.rejected_sample = rejected[:20]


# =========================================================================== Spanish

ES_ALPHABET = re.compile(r"[A-ZÑ]+")
ES_FOLD = str.maketrans("ÁÉÍÓÚÜ", "AEIOUU")
ES_DIGRAPHS = ("CH", "LL", "RR")
ES_MIN_TILES, ES_MAX_TILES = 2, 15

#: RLA-ES classes that inflect: S is the plural; R, E, I, X and D conjugate verbs
#: (regular -ar/-er/-ir endings, present-tense stems, irregular stems, participles).
#: Derivational classes (-ción, -dura, -ísimo, diminutives...) are not used for analogy.
ES_PLURAL_CLASSES = frozenset("S")
ES_VERB_CLASSES = frozenset("REIXD")

PRONOUNS_FIRST = ("", "se", "te", "os")
PRONOUNS_SECOND = ("", "me", "nos")
PRONOUNS_THIRD = ("", "lo", "la", "los", "las", "le", "les")
#: Enclitic pronoun clusters in their only valid order (se/te/os, me/nos, lo/la/le...):
#: longest first so that the most complete analysis is tried first.
CLITIC_CLUSTERS: tuple[tuple[str, ...], ...] = tuple(
    sorted(
        (
            tuple(p for p in (a, b, c) if p)
            for a in PRONOUNS_FIRST
            for b in PRONOUNS_SECOND
            for c in PRONOUNS_THIRD
            if a or b or c
        ),
        key=lambda ps: (-len("".join(ps)), ps),
    )
)
CLITIC_ENDING = re.compile(r"(?:me|te|se|nos|os|lo|la|los|las|le|les)$")
SPANISH_VOWELS = re.compile(r"[aeiouáéíóúüy]")
ES_VOWELS = frozenset("aeiouáéíóúü")
ES_STRONG = frozenset("aeoáéó")
ES_STRESSED_WEAK = frozenset("íú")


def es_normalise(word: str) -> str | None:
    """Uppercase, fold accents (Ñ kept); None if other characters remain."""
    folded = word.upper().translate(ES_FOLD)
    return folded if ES_ALPHABET.fullmatch(folded) else None


def es_tiles(word: str) -> int:
    """Tiles needed for a normalised Spanish word: CH, LL and RR are one tile each.

    Greedy left to right, as the Spanish sets spell words (PERRO = P E RR O).
    """
    count = i = 0
    while i < len(word):
        i += 2 if word[i : i + 2] in ES_DIGRAPHS else 1
        count += 1
    return count


def es_is_abbreviation(word: str) -> bool:
    """Abbreviations and symbols: a dot, or no vowel at all (km, cm, pchs)."""
    return "." in word or SPANISH_VOWELS.search(word) is None


def syllables(word: str) -> int:
    """Syllable count by vowel nuclei: diphthongs count once, hiatus twice (cre-ad, rí-o).

    Enough to tell monosyllabic verb forms (da, haz, dad, fue) from longer ones.
    """
    count = 0
    previous = ""
    for char in word:
        if char not in ES_VOWELS:
            previous = ""
            continue
        hiatus = bool(previous) and (
            (char in ES_STRONG and previous in ES_STRONG)
            or char in ES_STRESSED_WEAK
            or previous in ES_STRESSED_WEAK
        )
        if not previous or hiatus:
            count += 1
        previous = char
    return count


def clitic_splits(word: str) -> Iterator[tuple[str, tuple[str, ...]]]:
    """Every way to read ``word`` as base + a valid enclitic cluster."""
    for cluster in CLITIC_CLUSTERS:
        ending = "".join(cluster)
        if word.endswith(ending) and len(word) > len(ending):
            yield word[: -len(ending)], cluster


def base_candidates(base: str, cluster: tuple[str, ...]) -> set[str]:
    """Verb forms a base may come from, undoing the spelling changes of enclisis.

    The written accent that enclisis adds is removed (cántalo → canta); -d of the vosotros
    imperative is lost before os (cantad + os → cantaos); -s of the nosotros form is lost
    before nos (cantemos + nos → cantémonos).
    """
    plain = deaccent(base)
    out = {plain}
    if cluster[0] == "os":
        out.add(plain + "d")
    if cluster[0] == "nos" and plain.endswith("mo"):
        out.add(plain + "s")
    return out


def is_enclitic_of_root(word: str, root: str, others: set[str] | frozenset[str]) -> bool:
    """Is ``word`` a form of the verb ``root`` with enclitic pronouns attached?

    ``others`` are the other forms generated from the same dictionary entry.  Yes if the
    word is the infinitive + pronouns (cantarse, oírlo), or another form of the same verb +
    pronouns where enclisis added a written accent (cantándose, cántame, cantémonos).  A
    form without the added accent is a genuine inflection even when it looks like one
    (cantase = canta + se is the imperfect subjunctive; cantaste, comiese, tome, case).
    """
    for base, cluster in clitic_splits(word):
        candidates = base_candidates(base, cluster)
        if root.endswith("r") and (base == root or (root in candidates and base != root)):
            return True
        if deaccent(base) != base and candidates & (others | {root}):
            return True
    return False


@dataclass
class EncliticClassification:
    """Which RLA-ES affix classes and rules produce enclitic forms, with the evidence."""

    classes: frozenset[str]
    rules: frozenset[RuleKey]
    evidence: dict[RuleKey, tuple[int, int]]  # rule → (enclitic applications, applications)

    def keep(self, rule: AffixRule) -> bool:
        """Rule filter for :class:`ExpandOptions`."""
        return rule_key(rule) not in self.rules


def classify_enclitics(dic: Dictionary) -> EncliticClassification:
    """Find the enclitic classes and rules of the dictionary from its own expansions.

    For every suffix rule, count over all entries it applies to how often the produced
    word is :func:`is_enclitic_of_root` of that entry.  A whole class is enclitic when every
    rule of it appends a pronoun ending and at least one rule is confirmed enclitic for most
    of the words it applies to (this keeps -illo/-illa and -ble classes, whose endings merely
    look like pronouns).  In the remaining classes a single rule is enclitic when it is
    confirmed for most of the words it applies to (gerund + se, infinitive + se).
    """
    evidence = _enclitic_evidence(dic)
    confirmed = {key for key, (hits, total) in evidence.items() if 2 * hits > total}
    classes = set()
    for flag, cls in dic.aff.suffixes.items():
        all_pronoun_endings = all(CLITIC_ENDING.search(r.affix) for r in cls.rules)
        if all_pronoun_endings and any(rule_key(r) in confirmed for r in cls.rules):
            classes.add(flag)
    rules = {key for key in confirmed if key[1] not in classes}
    rules |= _untested_like_confirmed(dic, evidence, rules)
    return EncliticClassification(frozenset(classes), frozenset(rules), evidence)


def _untested_like_confirmed(
    dic: Dictionary, evidence: dict[RuleKey, tuple[int, int]], confirmed: set[RuleKey]
) -> set[RuleKey]:
    """Rules no entry exercises, judged by a confirmed rule of their class with the same
    appended string (R: -ñer → -ñéndose, like the confirmed -ñir → -ñéndose).  They matter
    for the lemmas inflected by analogy."""
    out = set()
    for cls in dic.aff.suffixes.values():
        enclitic_affixes = {r.affix for r in cls.rules if rule_key(r) in confirmed}
        for rule in cls.rules:
            key = rule_key(rule)
            if key not in evidence and rule.affix in enclitic_affixes:
                out.add(key)
    return out


def _enclitic_evidence(dic: Dictionary) -> dict[RuleKey, tuple[int, int]]:
    """Per suffix rule: (applications judged enclitic, all applications), no prefixes."""
    counts: dict[RuleKey, list[int]] = defaultdict(lambda: [0, 0])
    options = ExpandOptions(prefixes=False)
    for entry in dic.entries:
        if not entry.flags:
            continue
        derivations = [d for d in dic.derive(entry, options) if d.suffixes]
        words = {d.word for d in derivations}
        for derivation in derivations:
            tally = counts[rule_key(derivation.suffixes[-1])]
            tally[1] += 1
            if is_enclitic_of_root(derivation.word, entry.word, words - {derivation.word}):
                tally[0] += 1
    return {key: (hits, total) for key, (hits, total) in counts.items()}


def spanish_options(classification: EncliticClassification) -> ExpandOptions:
    """Expansion options for Spanish: all rules but the enclitic ones."""
    return ExpandOptions(
        prefixes=True, skip_flags=classification.classes, rule_filter=classification.keep
    )


@dataclass
class SpanishSources:
    """Surface forms (accented, lowercase) by where they come from."""

    rla_forms: set[str]
    verb_forms: set[str]
    unflagged: list[str]
    all_forms: set[str]  # every form RLA-ES accepts, enclitics included
    #: Forms made only from RLA-ES abbreviation entries (apdo, izq, sr/GS...), step 5.
    abbreviation_forms: set[str] = field(default_factory=set)
    #: -da/-dos/-das participles of verbs RLA-ES lists only as intransitive or
    #: pronominal and that no other derivation gives (step 4).
    restricted_participles: set[str] = field(default_factory=set)


def is_inflected_participle_rule(rule: AffixRule) -> bool:
    """RLA-ES class D rules that make the feminine or plural participle (-da, -dos, -das)."""
    return rule.flag == "D" and rule.affix.endswith(("da", "dos", "das"))


def expand_spanish(
    dic: Dictionary,
    classification: EncliticClassification,
    abbreviations: frozenset[str] = frozenset(),
    masculine_only: frozenset[str] = frozenset(),
) -> SpanishSources:
    """Expand RLA-ES without enclitic rules; unflagged entries are kept apart for checking.

    ``abbreviations`` are RLA-ES abbreviation entries (``word`` or ``word/flags``): their
    forms are collected apart.  For the verbs in ``masculine_only`` the feminine and plural
    participles are collected apart too; both sets only keep forms no other entry gives.
    """
    options = spanish_options(classification)
    rla: set[str] = set()
    verbs: set[str] = set()
    unflagged: list[str] = []
    abbreviation: set[str] = set()
    participles: set[str] = set()
    for entry in dic.entries:
        if not is_lowercase_entry(entry.word) or es_is_abbreviation(entry.word):
            continue
        if entry_key(entry) in abbreviations:
            abbreviation.update(d.word for d in dic.derive(entry, options))
            continue
        if not entry.flags:
            unflagged.append(entry.word)
            continue
        is_verb = bool(entry.flags & ES_VERB_CLASSES)
        restricted = entry.word in masculine_only
        for derivation in dic.derive(entry, options):
            if restricted and any(map(is_inflected_participle_rule, derivation.suffixes)):
                participles.add(derivation.word)
                continue
            rla.add(derivation.word)
            if is_verb and any(r.flag in ES_VERB_CLASSES for r in derivation.rules):
                verbs.add(derivation.word)
    all_forms = set(dic.expand(ExpandOptions()))
    others = rla | set(unflagged)
    return SpanishSources(
        rla,
        verbs,
        sorted(set(unflagged)),
        all_forms,
        abbreviation - others,
        participles - others,
    )


def entry_key(entry: DicEntry) -> str:
    """``word/FLAGS`` (flags sorted) or ``word``: how the abbreviation data names entries."""
    return entry.word + ("/" + "".join(sorted(entry.flags)) if entry.flags else "")


def paradigm_bases(words: Iterable[str], minimum: int = 3) -> set[str]:
    """Words that occur with at least ``minimum`` different pronoun clusters among ``words``.

    RLA-ES lists the forms of a few irregular verbs (dar, estar, haber, ir...) one by one,
    enclitic forms included (da, dame, dale, dalo, dámelo...).  Such a series is the
    evidence that the base is a verb form, where no affix class says so.  The base must be
    a listed word itself (huela, huele, huelo are not hue + pronoun).
    """
    listed = set(words)
    clusters: dict[str, set[tuple[str, ...]]] = defaultdict(set)
    for word in listed:
        for base, cluster in clitic_splits(word):
            for candidate in base_candidates(base, cluster):
                clusters[candidate].add(cluster)
    return {
        b for b, seen in clusters.items() if len(seen) >= minimum and b in listed and len(b) > 1
    }


def is_enclitic_word(word: str, verb_forms: set[str] | frozenset[str]) -> bool:
    """Is a stand-alone word (no affix history) a verb form + enclitic pronouns?

    Yes if it is an infinitive + pronouns (darle, irse, antojarse), a verb form + pronouns
    with the accent enclisis requires (dámelo, habiéndose, ábrela), or a one-syllable verb
    form + pronouns (dame, hazlo, dile).  ``verb_forms`` decides what is a verb form, so
    ordinary words that merely end in -lo/-la/-se/-te/-nos (palo, pétalo, menos, fuese)
    are not touched.
    """
    for base, cluster in clitic_splits(word):
        plain = deaccent(base)
        infinitive = re.search(r"(ar|er|ir)$", plain) is not None and len(plain) > 2
        if infinitive and (cluster == ("se",) or base in verb_forms or plain in verb_forms):
            return True
        candidates = base_candidates(base, cluster)
        accent_needed = syllables(plain) >= 2 or len(cluster) >= 2
        if plain != base and accent_needed and candidates & verb_forms:
            return True
        lost_d = cluster[0] == "os" and base.endswith("d")  # cantad + os is spelt cantaos
        if plain == base and syllables(base) == 1 and base in verb_forms and not lost_d:
            return True
    return False


def pronominal_infinitive(word: str) -> str | None:
    """The infinitive of a pronominal lemma (ababillarse → ababillar), else None."""
    if word.endswith("se") and re.search(r"(ar|er|ir|ír)$", word[:-2]):
        return word[:-2]
    return None


# --------------------------------------------------------------------------- analogy


@dataclass(frozen=True)
class AnalogyModel:
    """What a dictionary entry says about inflecting words with its ending."""

    word: str
    category: str  # "verb", "plural" or "none"
    flags: frozenset[str]


def analogy_models(dic: Dictionary, enclitics: set[str]) -> list[AnalogyModel]:
    """Common-word entries usable as models, reduced to their inflectional classes."""
    models = []
    for entry in dic.entries:
        word = entry.word
        if not is_lowercase_entry(word) or es_is_abbreviation(word) or word in enclitics:
            continue
        verb = entry.flags & ES_VERB_CLASSES
        if verb:
            models.append(AnalogyModel(word, "verb", frozenset(verb)))
        elif entry.flags & ES_PLURAL_CLASSES:
            models.append(AnalogyModel(word, "plural", frozenset(ES_PLURAL_CLASSES)))
        else:
            models.append(AnalogyModel(word, "none", frozenset()))
    return models


class EndingIndex:
    """Models indexed by word ending, to find those sharing the longest ending quickly."""

    def __init__(self, models: Iterable[AnalogyModel], max_len: int = 8) -> None:
        self.max_len = max_len
        self.by_ending: dict[str, list[AnalogyModel]] = defaultdict(list)
        for model in models:
            for k in range(2, min(max_len, len(model.word)) + 1):
                self.by_ending[model.word[-k:]].append(model)

    def longest(self, word: str, accept: Callable[[AnalogyModel], bool]) -> list[AnalogyModel]:
        """Accepted models sharing the longest ending (≥ 2 letters) with ``word``."""
        for k in range(min(self.max_len, len(word) - 1), 1, -1):
            found = [m for m in self.by_ending.get(word[-k:], []) if m.word != word and accept(m)]
            if found:
                return found
        return []


def choose_flags(word: str, index: EndingIndex) -> frozenset[str]:
    """Inflectional classes for a new lemma, by majority among the closest models.

    First the category (verb / noun-adjective with plural / uninflected) is voted among the
    entries sharing the longest ending; then, within it, the most common class set.  Ties
    are broken by sorted order, so the result is deterministic.

    Only infinitive-shaped words may be conjugated.  For them the closest entries *with
    classes* are consulted first: if those are verbs, the word is conjugated like them even
    when an unclassed entry shares a longer ending, because RLA-ES lists some rare verbs
    without any class (derromper, recabdar), which says nothing about how they inflect.
    Otherwise the longest ending decides between a plural and no inflection (so siquier
    and anteanteayer follow doquier and anteayer, not brigadier).  Other words follow nouns,
    adjectives and uninflected words (adverbs in -mente stay uninflected).
    """
    models: list[AnalogyModel]
    if looks_like_infinitive(word):
        models = index.longest(word, lambda m: m.category != "none")
        if not models or _vote(m.category for m in models) != "verb":
            models = index.longest(word, lambda m: True)
    else:
        models = index.longest(word, _nominal_model)
    if not models:
        return frozenset()
    category = _vote(m.category for m in models)
    flag_sets = ("".join(sorted(m.flags)) for m in models if m.category == category)
    return frozenset(_vote(flag_sets))


def _nominal_model(model: AnalogyModel) -> bool:
    """Models for a word that is not an infinitive: nouns, adjectives, uninflected words.

    Unclassed infinitives are left out: they are verbs RLA-ES did not conjugate.
    """
    return model.category == "plural" or (
        model.category == "none" and not looks_like_infinitive(model.word)
    )


def looks_like_infinitive(word: str) -> bool:
    """-ar, -er, -ir with an unaccented stem that has a vowel, or -aír/-eír/-oír.

    Spanish infinitives never carry a written accent in the stem, so bóer, púber, esfínter
    and mergánsar are nouns; czar (no vowel before -ar) is one too.
    """
    stem = word[:-2]
    if word.endswith("ír"):
        return bool(stem) and stem[-1] in "aeo" and deaccent(stem) == stem
    return (
        word.endswith(("ar", "er", "ir"))
        and SPANISH_VOWELS.search(stem) is not None
        and deaccent(stem) == stem
    )


def _vote(values: Iterable[str]) -> str:
    """Most common value; ties go to the smallest value."""
    counts = Counter(values)
    return min(counts, key=lambda v: (-counts[v], v))


@dataclass
class AnalogyResult:
    """The wspanish (and pronominal-only) lemmas RLA-ES lacks, and what they produced."""

    lemmas: dict[str, frozenset[str]]  # lemma → classes applied
    forms: dict[str, set[str]]  # lemma → surface forms produced (lemma included)
    #: lemma → its -da/-dos/-das participles (made by class D), for step 4
    participles: dict[str, set[str]] = field(default_factory=dict)


def inflect_by_analogy(
    dic: Dictionary,
    lemmas: Iterable[str],
    classification: EncliticClassification,
    index: EndingIndex,
) -> AnalogyResult:
    """Apply to each lemma the inflectional classes of its closest RLA-ES models.

    The affix rules themselves decide which forms come out (their conditions must match the
    new lemma); enclitic rules stay excluded, and any form that is still the lemma plus
    pronouns is dropped.
    """
    options = spanish_options(classification)
    result = AnalogyResult({}, {}, {})
    for lemma in sorted(set(lemmas)):
        flags = choose_flags(lemma, index)
        derivations = list(dic.derive(DicEntry(lemma, flags, 0), options))
        words = {d.word for d in derivations}
        kept = {w for w in words if w == lemma or not is_enclitic_of_root(w, lemma, words)}
        result.lemmas[lemma] = flags
        result.forms[lemma] = kept
        result.participles[lemma] = {
            d.word for d in derivations if any(map(is_inflected_participle_rule, d.suffixes))
        } & kept
    return result


# --------------------------------------------------------------------------- extra sources


def read_annotated_words(path: Path) -> list[str]:
    """Words of a data file: one per line, ``#`` starts a comment (the reason or source)."""
    words = []
    for line in path.read_text("utf-8").splitlines():
        word = line.split("#", 1)[0].strip()
        if word:
            words.append(word)
    return words


def read_abbreviations(path: Path = ES_ABBREVIATIONS) -> frozenset[str]:
    """RLA-ES abbreviation entries as :func:`entry_key` names them (flags sorted)."""
    out = set()
    for item in read_annotated_words(path):
        word, _, flags = item.partition("/")
        out.add(word + ("/" + "".join(sorted(flags)) if flags else ""))
    return frozenset(out)


def read_valency(path: Path = ES_VALENCY) -> dict[str, set[str]]:
    """RLA-ES source files listing each verb (VerbosIntransitivos, VerbosPronominales...)."""
    classes: dict[str, set[str]] = defaultdict(set)
    for line in path.read_text("utf-8").splitlines():
        if line and not line.startswith("#"):
            lemma, category = line.split("\t")
            classes[lemma].add(category.split("/")[-1])
    return classes


def intransitive_or_pronominal_only(valency: dict[str, set[str]]) -> frozenset[str]:
    """Verbs no RLA-ES file lists as transitive: their participle is only masculine
    singular in the games (an intransitive participle does not agree with an object)."""
    return frozenset(
        v for v, files in valency.items() if not any("Transitivos" in f for f in files)
    )


def simplemma_verbs(minimum: int = SIMPLEMMA_MIN_FORMS) -> tuple[str, list[str]]:
    """simplemma's Spanish lemmas shaped like infinitives with ``minimum`` distinct forms.

    Read through the installed package (its lzma-compressed form → lemma table); the version
    is returned for the record.  Many forms pointing to one infinitive mean its source
    (Wiktionary, lemmatization lists) conjugates it: a verb, not a noun in -ar/-er.
    """
    from importlib.metadata import version

    from simplemma.strategies.dictionaries.dictionary_factory import DefaultDictionaryFactory

    table = DefaultDictionaryFactory().get_dictionary("es")
    forms: dict[str, set[str]] = defaultdict(set)
    for form, lemma in table.items():
        forms[lemma].add(form)
    verbs = [
        lemma
        for lemma, seen in forms.items()
        if len(seen) >= minimum and is_lowercase_entry(lemma) and looks_like_infinitive(lemma)
    ]
    return version("simplemma"), sorted(v for v in verbs if es_normalise(v) is not None)


# --------------------------------------------------------------------------- Spanish build


#: The Spanish build steps of issue 15, in order; step 0 is the build before them.
ES_STEPS = (
    "0. previous build (RLA-ES + wspanish, analogy)",
    "1. -rse infinitives of pronominal-only verbs kept",
    "2. simplemma infinitives (>= 10 forms) added and conjugated",
    "3. verbs found only in wspanish no longer conjugated",
    "4. intransitive/pronominal-only verbs: masculine singular participle only",
    "5. abbreviations and symbols dropped; letter plurals and loanwords added",
)


@dataclass
class SpanishParts:
    """The pieces the Spanish list is assembled from, so each step can be counted."""

    rla: set[str]  # RLA-ES forms, abbreviations and restricted participles excluded
    abbreviations: set[str]  # forms only RLA-ES abbreviation entries give
    participles: set[str]  # -da/-dos/-das of RLA-ES intransitive/pronominal-only verbs
    wspanish: set[str]  # wspanish words kept as they are
    pronominal: set[str]  # -rse infinitives (wspanish, RLA-ES pronominal-only entries)
    analogy: AnalogyResult
    old_lemmas: frozenset[str]  # lemmas the previous build inflected by analogy
    wspanish_only_verbs: frozenset[str]  # step 3: only the infinitive is kept
    masculine_only: frozenset[str]  # step 4: analogy verbs without -da/-dos/-das
    not_words: frozenset[str]  # step 5, normalised
    additions: frozenset[str]  # step 5, normalised

    def surfaces(self, step: int) -> set[str]:
        """The surface forms after ``step`` (0 = the previous build)."""
        out = self.rla | self.wspanish
        if step < 5:
            out |= self.abbreviations
        if step < 4:
            out |= self.participles
        if step >= 1:
            out |= self.pronominal
        lemmas = self.analogy.forms if step >= 2 else self.old_lemmas
        for lemma in lemmas:
            out |= self._analogy_forms(lemma, step)
        return out

    def _analogy_forms(self, lemma: str, step: int) -> set[str]:
        """What one analogy lemma contributes at ``step``."""
        if step >= 3 and lemma in self.wspanish_only_verbs:
            return {lemma}
        forms = self.analogy.forms[lemma]
        if step >= 4 and lemma in self.masculine_only:
            return forms - self.analogy.participles[lemma]
        return forms

    def words(self, step: int) -> list[str]:
        """The finished list after ``step``."""
        words = set(finish_spanish(self.surfaces(step)))
        if step >= 5:
            words = (words - self.not_words) | self.additions
        return sorted(words)


@dataclass
class SpanishBuild:
    """Everything the Spanish build produced, for output and reporting."""

    report: LanguageReport
    classification: EncliticClassification
    rla_surfaces: set[str]
    analogy: AnalogyResult
    dropped_unflagged: list[str]
    wspanish: WspanishSelection
    parts: SpanishParts
    step_counts: list[tuple[str, int, int, int]]  # (step, added, removed, total)
    rla_pronominal: list[str]
    simplemma_version: str
    simplemma_lemmas: list[str]  # simplemma infinitives RLA-ES does not generate


def read_wspanish(path: Path = WSPANISH) -> list[str]:
    """The wspanish word list (lowercase lemmas, UTF-8)."""
    return [w.strip() for w in path.read_text("utf-8").splitlines() if w.strip()]


def normalised_set(words: Iterable[str]) -> frozenset[str]:
    """Data-file words as list entries."""
    return frozenset(n for n in map(es_normalise, words) if n is not None)


def build_spanish(
    dic: Dictionary,
    wspanish: list[str],
    simplemma: tuple[str, list[str]] = ("none", []),
    valency: dict[str, set[str]] | None = None,
    abbreviations: frozenset[str] | None = None,
) -> SpanishBuild:
    """RLA-ES expanded without enclitics + wspanish + simplemma verbs, built step by step."""
    valency = read_valency() if valency is None else valency
    abbreviations = read_abbreviations() if abbreviations is None else abbreviations
    restricted = intransitive_or_pronominal_only(valency)
    classification = classify_enclitics(dic)
    sources = expand_spanish(dic, classification, abbreviations, restricted)
    verbish = sources.verb_forms | paradigm_bases(sources.unflagged)
    dropped = [w for w in sources.unflagged if is_enclitic_word(w, verbish)]
    dropped_set = set(dropped)
    rla_surfaces = sources.rla_forms | {w for w in sources.unflagged if w not in dropped_set}

    selection = select_wspanish(wspanish, dic, sources.all_forms)
    old_lemmas = selection.missing(sources.all_forms, dropped)
    rla_pronominal = pronominal_only_entries(dropped, sources.all_forms)
    version, sm_verbs = simplemma
    sm_lemmas = sorted(v for v in sm_verbs if v not in sources.all_forms)
    models = analogy_models(dic, dropped_set)
    lemmas = sorted(set(old_lemmas) | set(sm_lemmas))
    analogy = inflect_by_analogy(dic, lemmas, classification, EndingIndex(models))

    verbs = {lemma for lemma, flags in analogy.lemmas.items() if flags & ES_VERB_CLASSES}
    rla_infinitives = {w[:-2] for w in rla_pronominal}
    pronominal_infinitives = rla_infinitives | {w[:-2] for w in selection.pronominal}
    parts = SpanishParts(
        rla=rla_surfaces,
        abbreviations=sources.abbreviation_forms,
        participles=sources.restricted_participles,
        wspanish=set(selection.plain),
        pronominal=set(selection.pronominal) | set(rla_pronominal),
        analogy=analogy,
        old_lemmas=frozenset(old_lemmas),
        wspanish_only_verbs=frozenset(verbs - rla_infinitives - set(sm_lemmas)),
        masculine_only=frozenset(verbs & (pronominal_infinitives | restricted)),
        not_words=normalised_set(read_annotated_words(ES_NOT_WORDS)),
        additions=normalised_set(read_annotated_words(ES_ADDITIONS)),
    )
    report = LanguageReport("es", "Spanish")
    step_counts = count_steps(parts)
    report.words = parts.words(len(ES_STEPS) - 1)
    return SpanishBuild(
        report,
        classification,
        rla_surfaces,
        analogy,
        dropped,
        selection,
        parts,
        step_counts,
        rla_pronominal,
        version,
        sm_lemmas,
    )


def pronominal_only_entries(dropped: Iterable[str], known: set[str]) -> list[str]:
    """RLA-ES's plain -rse entries whose bare infinitive RLA-ES does not have (antojarse):
    verbs used only pronominally, unlike andarse or darse, which sit beside andar, dar."""
    out = []
    for word in dropped:
        infinitive = pronominal_infinitive(word)
        if infinitive is not None and infinitive not in known:
            out.append(word)
    return sorted(out)


def count_steps(parts: SpanishParts) -> list[tuple[str, int, int, int]]:
    """Words each step adds and removes, against the list after the step before."""
    counts = []
    previous: set[str] = set()
    for step, name in enumerate(ES_STEPS):
        words = set(parts.words(step))
        added, removed = (
            (len(words), 0) if step == 0 else (len(words - previous), len(previous - words))
        )
        counts.append((name, added, removed, len(words)))
        previous = words
    return counts


@dataclass
class WspanishSelection:
    """The wspanish words sorted out: kept as they are, pronominal, proper nouns, abbreviations."""

    plain: list[str]
    pronominal: list[str]  # ababillarse: kept as the infinitive ababillar
    abbreviations: list[str]
    #: Kept, but RLA-ES lists them capitalised only (barcelona, tamarindo, carlota): about
    #: half are common nouns, so they cannot be dropped as proper nouns automatically.
    capitalised_in_rla: list[str]

    def missing(self, known: set[str], rla_dropped: Iterable[str]) -> list[str]:
        """Lemmas to inflect by analogy: words (pronominal verbs as infinitives) that RLA-ES
        does not generate at all, plus RLA-ES's own pronominal-only verbs (antojarse)."""
        infinitives = [w[:-2] for w in self.pronominal]
        own = (pronominal_infinitive(w) for w in rla_dropped)
        candidates = [*self.plain, *infinitives, *(w for w in own if w is not None)]
        return sorted({w for w in candidates if w not in known})


def select_wspanish(words: Iterable[str], dic: Dictionary, known: set[str]) -> WspanishSelection:
    """Sort wspanish's words: a lemma list, but with pronominal verbs written with their
    enclitic pronoun (ababillarse) and one vowel-less abbreviation (pchs)."""
    capitalised = {e.word.lower() for e in dic.entries if not is_lowercase_entry(e.word)}
    selection = WspanishSelection([], [], [], [])
    for word in words:
        if es_is_abbreviation(word):
            selection.abbreviations.append(word)
        elif pronominal_infinitive(word) is not None:
            selection.pronominal.append(word)
        else:
            selection.plain.append(word)
            if word in capitalised and word not in known:
                selection.capitalised_in_rla.append(word)
    return selection


def finish_spanish(surfaces: Iterable[str]) -> list[str]:
    """Normalise, keep 2..15 tiles, deduplicate, sort."""
    out = set()
    for surface in surfaces:
        word = es_normalise(surface)
        if word is not None and ES_MIN_TILES <= es_tiles(word) <= ES_MAX_TILES:
            out.add(word)
    return sorted(out)


# =========================================================================== Romanian

RO_FOLD = str.maketrans("ĂÂÎȘŞȚŢ", "AAISSTT")
RO_ALPHABET = re.compile(r"[A-Z]+")
RO_MIN_LETTERS, RO_MAX_LETTERS = 2, 17
RO_VOWELS = re.compile(r"[aeiouăâîy]")

#: rospell's noun and adjective classes, as its .aff header lists them ("Substantive:
#: AFfRrsu feminine, C c M P z neuter, L l masculine; Adjective: D Q S T q e t; proper
#: names: U T; neologisms: n").  Vocatives and short-article forms are looked for only here:
#: the verb classes legitimately end in -u (ținu, petrecu) and contain no vocatives.
RO_NOMINAL_CLASSES = frozenset("AFfRrsuaCcMPzLlDQSTqetnU")

#: Genuine words that look like a feminine vocative in -o (stem + ă, stem + a both exist)
#: but are adverbs, verb forms or loanwords; found by reviewing every unflagged entry the
#: vocative test matched.
RO_NOT_VOCATIVES = frozenset(
    {
        "colo",
        "comando",
        "devino",
        "modulo",
        "precomando",
        "presto",
        "pro",
        "radiocomando",
        "servocomando",
        "solo",
        "vino",
    }
)


def ro_normalise(word: str) -> str | None:
    """Uppercase, fold diacritics (both comma and cedilla Ș/Ț); None if not plain A–Z."""
    folded = word.upper().translate(RO_FOLD)
    return folded if RO_ALPHABET.fullmatch(folded) else None


def ro_known_ending(rule: AffixRule) -> str:
    """The end of every word a suffix rule produces, as far as its condition fixes it.

    E.g. ``SFX L 0 le u`` always yields …u + le = …ule; ``SFX A ă e [^s]ă`` only …e.
    """
    tail = rule.condition.literal_tail
    if rule.strip:
        tail = tail[: -len(rule.strip)] if tail.endswith(rule.strip) else ""
    return tail + rule.affix


def ro_is_vocative_rule(rule: AffixRule) -> bool:
    """Nominal suffix rules whose output ends in -ule (masc./neuter) or -o (feminine).

    Romanian vocatives: domn → domnule, socru → socrule, fată → fato, bunică → bunico.
    No other noun or adjective inflection ends in -ule or -o.
    """
    if rule.kind != "SFX" or rule.flag not in RO_NOMINAL_CLASSES or "-" in rule.affix:
        return False
    return ro_known_ending(rule).endswith("ule") or rule.affix.endswith("o")


def ro_is_short_article_rule(rule: AffixRule) -> bool:
    """Nominal rules that only append -u (bărbat → bărbatu, băiat → băiatu).

    These are the short articulated forms written before a hyphenated clitic (bărbatu-său,
    omu-i); hunspell splits at hyphens, so rospell needs them as separate words, but they
    are not words on their own (the hyphenated forms themselves are dropped with the hyphen).
    """
    return rule.kind == "SFX" and rule.flag in RO_NOMINAL_CLASSES and rule.affix == rule.strip + "u"


def ro_is_vocative_word(word: str, words: set[str] | frozenset[str]) -> bool:
    """Is an unflagged dictionary word a vocative of some noun in ``words``?

    rospell also lists many inflected forms one by one, vocatives included (copilule, omule,
    fato, aripo).  A word is taken as a vocative if it is stem + -ule where the noun's
    articulated dative (stem + -ului, or …u + -lui) exists, or stem + -o where the
    feminine noun exists as stem + -ă (or stem, for -e/-ie nouns) with its article stem + -a.
    """
    if word in RO_NOT_VOCATIVES:
        return False
    if word.endswith("ule"):
        if word[:-3] + "ului" in words:
            return True
        if word[:-2].endswith("u") and word[:-2] + "lui" in words:
            return True
    if word.endswith("o") and len(word) > 2:
        stem = word[:-1]
        return stem + "a" in words and (stem + "ă" in words or stem in words)
    return False


#: Words ending like a gerund + -u that are nouns.
RO_NOT_GERUND_HOSTS = frozenset({"hindu", "nandu"})


def ro_is_gerund_host(word: str) -> bool:
    """Gerund + -u (cântându, venindu): only ever written before a hyphenated clitic.

    rospell lists thousands of them, one by one, so that hunspell, which splits words at
    hyphens, accepts cântându-mi or venindu-i; on their own they are not words.  Only the
    gerund ends in -ând/-ind in Romanian, so the ending is enough (nandu, a bird, excepted).
    """
    return word.endswith(("ându", "indu")) and word not in RO_NOT_GERUND_HOSTS


@dataclass
class RomanianBuild:
    """Everything the Romanian build produced."""

    report: LanguageReport
    vocative_rules: list[AffixRule]
    short_rules: list[AffixRule]
    surfaces: set[str]
    dropped_unflagged: list[str]
    gerund_hosts: list[str]
    prefix_only_forms: int  # words the kept ne- derivations add
    #: words each prefix class would add to the list without prefixes (kept or not)
    prefix_counts: dict[str, int] = field(default_factory=dict)


#: rospell's adjective classes (its .aff header: "Adjective DQST, e, t, q ... automatic
#: prefix ne"); participles are entered with them (cântat/Q, reparat/Q).  The ne- prefix
#: classes share these letters (PFX D, S, Q, q, e).
RO_ADJECTIVE_CLASSES = frozenset("DQSTqet")


def romanian_options(dic: Dictionary) -> tuple[ExpandOptions, list[AffixRule], list[AffixRule]]:
    """No vocative rules, no short-article rules; prefixes are filtered per derivation."""
    rules = [r for cls in dic.aff.suffixes.values() for r in cls.rules]
    vocative = [r for r in rules if ro_is_vocative_rule(r)]
    short = [r for r in rules if ro_is_short_article_rule(r)]
    dropped = {rule_key(r) for r in vocative + short}
    options = ExpandOptions(prefixes=True, rule_filter=lambda r: rule_key(r) not in dropped)
    return options, vocative, short


def ro_keeps_prefix(derivation: Derivation, entries: set[str] | frozenset[str]) -> bool:
    """Only ne- on adjectives and participles: the prefix class and every suffix class of the
    derivation are adjective classes, and the stem is not itself a ne- word of a listed
    stem (nereparat → nenereparat).  re- and auto- (verbs) and ne- with noun suffixes
    invent non-words; prefixed words rospell lists as entries of their own stay anyway.
    """
    prefix = derivation.prefix
    if prefix is None:
        return True
    if prefix.affix != "ne" or prefix.flag not in RO_ADJECTIVE_CLASSES:
        return False
    if any(rule.flag not in RO_ADJECTIVE_CLASSES for rule in derivation.suffixes):
        return False
    stem = derivation.entry.word
    return not (stem.startswith("ne") and stem[2:] in entries)


def build_romanian(dic: Dictionary) -> RomanianBuild:
    """rospell expanded without vocatives and short-article forms; of the prefixes only ne-
    on adjectives and participles."""
    options, vocative, short = romanian_options(dic)
    entries = {e.word for e in dic.entries}
    plain: set[str] = set()
    unflagged: set[str] = set()
    by_prefix: dict[str, set[str]] = defaultdict(set)  # "ne- (PFX D), kept" → words
    kept_prefixed: set[str] = set()
    for entry in dic.entries:
        word = entry.word
        if not is_lowercase_entry(word) or "." in word or RO_VOWELS.search(word) is None:
            continue
        if not entry.flags:
            unflagged.add(word)
            continue
        for derivation in dic.derive(entry, options):
            prefix = derivation.prefix
            if prefix is None:
                plain.add(derivation.word)
                continue
            kept = ro_keeps_prefix(derivation, entries)
            label = f"{prefix.affix}- (PFX {prefix.flag}), {'kept' if kept else 'dropped'}"
            by_prefix[label].add(derivation.word)
            if kept:
                kept_prefixed.add(derivation.word)
    known = plain | unflagged
    candidates = unflagged - plain
    dropped = sorted(w for w in candidates if ro_is_vocative_word(w, known))
    hosts = sorted(w for w in candidates if ro_is_gerund_host(w))
    without_prefixes = known - set(dropped) - set(hosts)
    base = set(finish_romanian(without_prefixes))
    report = LanguageReport("ro", "Romanian")
    report.words = finish_romanian(without_prefixes | kept_prefixed)
    counts = {
        label: len(set(finish_romanian(words)) - base) for label, words in sorted(by_prefix.items())
    }
    return RomanianBuild(
        report,
        vocative,
        short,
        without_prefixes | kept_prefixed,
        dropped,
        hosts,
        len(set(report.words) - base),
        counts,
    )


def finish_romanian(surfaces: Iterable[str]) -> list[str]:
    """Normalise, keep 2..17 letters, deduplicate, sort."""
    out = set()
    for surface in surfaces:
        word = ro_normalise(surface)
        if word is not None and RO_MIN_LETTERS <= len(word) <= RO_MAX_LETTERS:
            out.add(word)
    return sorted(out)


# =========================================================================== outputs


def length_table(words: Sequence[str], measure: Callable[[str], int]) -> dict[int, int]:
    """Word counts by length (tiles for Spanish, letters for Romanian)."""
    counts = Counter(measure(w) for w in words)
    return dict(sorted(counts.items()))


def write_list(report: LanguageReport, meta: dict[str, object]) -> None:
    """Write the .txt.xz list and its JSON description."""
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    (OUT_DIR / f"{report.code}.txt.xz").write_bytes(xz_bytes(report.words))
    info = {
        "name": report.code,
        "language": report.name,
        **meta,
        "word_count": len(report.words),
        "sha256": sha256_of(report.words),
    }
    text = json.dumps(info, ensure_ascii=False, indent=2) + "\n"
    (OUT_DIR / f"{report.code}.json").write_text(text, "utf-8")


LICENSE_FILES = {
    "libreoffice-dictionaries.copyright": Path("/usr/share/doc/hunspell-es/copyright"),
    "wspanish.copyright": Path("/usr/share/doc/wspanish/copyright"),
    "GPL-2": Path("/usr/share/common-licenses/GPL-2"),
    "GPL-3": Path("/usr/share/common-licenses/GPL-3"),
    "LGPL-2.1": Path("/usr/share/common-licenses/LGPL-2.1"),
    "LGPL-3": Path("/usr/share/common-licenses/LGPL-3"),
    "MPL-1.1": Path("/usr/share/common-licenses/MPL-1.1"),
}


def write_licenses() -> None:
    """Copy the upstream copyright files and licence texts next to the lists."""
    target = OUT_DIR / "LICENSES"
    target.mkdir(parents=True, exist_ok=True)
    for name, source in LICENSE_FILES.items():
        (target / name).write_bytes(source.read_bytes())
    ro_header = _rospell_header(HUNSPELL_DIR / "ro_RO.aff")
    (target / "rospell-AUTHORS").write_text(ro_header, "utf-8")
    (target / "simplemma-LICENSE").write_text(_simplemma_file("LICENSE"), "utf-8")
    (target / "simplemma-DATA").write_text(_simplemma_credits(), "utf-8")


def _simplemma_file(name: str) -> str:
    """A licence file of the installed simplemma distribution (MIT, its code)."""
    from importlib.metadata import distribution

    files = distribution("simplemma").files or []
    path = next(f for f in files if f.name == name)
    return path.read_text("utf-8")


def _simplemma_credits() -> str:
    """Attribution of simplemma's lemma data: its own credits section, with the licences."""
    from importlib.metadata import metadata

    text = str(metadata("simplemma").get_payload())  # type: ignore[attr-defined]
    start = text.index("<!-- include:credits:start -->")
    end = text.index("<!-- include:credits:end -->")
    return SIMPLEMMA_DATA_NOTE + text[start:end].split("-->", 1)[1].strip() + "\n"


SIMPLEMMA_DATA_NOTE = """\
simplemma (Adrien Barbaresi, https://github.com/adbar/simplemma), Spanish data file
simplemma/strategies/dictionaries/data/es.plzma, read by scripts/build_wordlists.py to
select verbs (infinitives with at least 10 forms); only those infinitives are used, their
forms are generated from RLA-ES's rules.  The credits of the data, as simplemma states them:

"""


def _rospell_header(path: Path) -> str:
    """The authors and licence comment block at the top of rospell's .aff file."""
    lines = path.read_text("utf-8").splitlines()
    block = []
    for line in lines[:40]:
        if line.startswith("# Cuprins"):
            break
        if line.startswith("#"):
            block.append(line)
    return "Copied from the header of ro_RO.aff (Debian hunspell-ro):\n\n" + "\n".join(block) + "\n"


def write_readme(versions: dict[str, str]) -> None:
    """Attribution for the shipped lists."""
    text = README_TEMPLATE.format(**{k.replace("-", "_"): v for k, v in versions.items()})
    (OUT_DIR / "README.md").write_text(text, "utf-8")


README_TEMPLATE = """\
# Word lists

Generated by `scripts/build_wordlists.py` from Debian 12 packages; do not edit by hand.
How they are made (what is expanded, what is dropped and why): `docs/wordlists.md`.

| File | Language | Sources |
|------|----------|---------|
| `es.txt.xz`, `es.json` | Spanish | RLA-ES {hunspell_es}, wspanish, simplemma {simplemma} |
| `ro.txt.xz`, `ro.json` | Romanian | rospell (hunspell-ro {hunspell_ro}) |

Both lists are xz-compressed UTF-8, one word per line, uppercase, sorted; the JSON files
give the word count and the sha256 of the uncompressed list.

## Spanish: RLA-ES

*Diccionario de ortografía para el español* of the RLA-ES project (Recursos Lingüísticos
Abiertos del Español), by Santiago Bosio and the RLA-ES contributors,
<https://github.com/sbosio/rla-es>; version 2.6 as shipped in LibreOffice 7.5 and
Debian's `hunspell-es` {hunspell_es} (source package libreoffice-dictionaries; Debian ships
one `es_ES` file, every other `es_*` name is a symlink to it).

Licence: tri-licensed **GPL-3.0-or-later OR LGPL-3.0-or-later OR MPL-1.1-or-later** (Debian
copyright file: `Files: dictionaries/es/*`).

## Spanish: wspanish

The Spanish word list of Debian's `wspanish` package {wspanish} (`/usr/share/dict/spanish`),
collected by various authors, Debian packaging by Enrique Zanardi and Agustín Martín
Domingo.  Licence of the word list: **public domain**.

## Spanish: simplemma (verbs)

The infinitives added from simplemma {simplemma} (Adrien Barbaresi,
<https://github.com/adbar/simplemma>): the build reads its Spanish lemma table and keeps the
infinitives with at least 10 forms; their forms are generated from RLA-ES's rules.
Licence of simplemma: **MIT** (`LICENSES/simplemma-LICENSE`).  Its lemma data come from
lemmatization-lists by Michal Měchura (**ODbL**), Wiktionary entries packaged by Kaikki
(**CC BY-SA**), FreeLing, spaCy lookups data, UniMorph and the Wikinflection corpus
(**CC BY 4.0**); the attribution as simplemma states it is in `LICENSES/simplemma-DATA`.

## Spanish: RLA-ES source lists and hand-reviewed data

The verb valency classes and the abbreviation list of RLA-ES v2.6's source
(`scripts/data/`, same licence as RLA-ES), and two short hand-reviewed files (letter-name
plurals, one loanword, six two-letter non-words), described in `docs/wordlists.md`.

## Romanian: rospell

The Romanian hunspell dictionary of the rospell project (word list version 3.3.8), © 2005–2009
Rospell Team (<http://rospell.sourceforge.net>): Lucian Constantin, Andrei Cipu, Sorin
Sbarnea, Alexandru Szasz, Ionuț Păduraru, Adrian Stoica, Nicu Buculei, Cătălin Frâncu,
Ionel Mugurel Ciobică, Mihai Budiu; as shipped in Debian's `hunspell-ro` {hunspell_ro}
(source package libreoffice-dictionaries).

Licence: tri-licensed **GPL-2.0 OR LGPL-2.1 OR MPL-1.1** (Debian copyright file:
`Files: dictionaries/ro/*`; the .aff header says "GPL 2.0/LGPL 2.1/MPL 1.1 tri-license").

## Licence texts

`LICENSES/` holds Debian's copyright file of libreoffice-dictionaries (the same file ships
with hunspell-es and hunspell-ro), the wspanish copyright file, the rospell author block
from `ro_RO.aff`, simplemma's licence and data attribution, and the texts of the GPL-2,
GPL-3, LGPL-2.1, LGPL-3 and MPL-1.1.

The lists are derived works (affix rules expanded, words filtered and normalised) and are
distributed under the same terms as their sources.
"""


# =========================================================================== reporting


def spanish_figures(build: SpanishBuild, compare: CompareResult | None) -> list[str]:
    """Markdown lines describing the Spanish build."""
    report = build.report
    classes = "".join(sorted(build.classification.classes))
    rules = sorted(build.classification.rules)
    analogy = build.analogy
    inflected = [lemma for lemma, flags in analogy.lemmas.items() if flags]
    verbs = [lemma for lemma, flags in analogy.lemmas.items() if flags & ES_VERB_CLASSES]
    new_forms = sum(len(f) for f in analogy.forms.values())
    ws = build.wspanish
    lines = [
        "### Spanish",
        "",
        f"- Words: **{len(report.words):,}** (2–{ES_MAX_TILES} tiles, CH/LL/RR one tile).",
        f"- Enclitic affix classes dropped whole: {len(build.classification.classes)} "
        f"(`{classes}`).",
        f"- Enclitic rules dropped inside other classes: {len(rules)} ({_rule_summary(rules)}).",
        f"- Unflagged RLA-ES entries dropped as enclitic forms: {len(build.dropped_unflagged)} "
        f"(e.g. {', '.join(_sample(build.dropped_unflagged, 12))}).",
        f"- wspanish: {len(ws.plain) + len(ws.pronominal):,} words kept, of which "
        f"{len(ws.pronominal)} pronominal verbs (-rse) taken as the bare infinitive; "
        f"dropped {len(ws.abbreviations)} vowel-less abbreviation(s) "
        f"({', '.join(ws.abbreviations)}); {len(ws.capitalised_in_rla)} kept words are "
        f"capitalised-only entries in RLA-ES (see the limitations below).",
        f"- Lemmas inflected by analogy (wspanish + RLA-ES pronominal-only verbs): "
        f"{len(analogy.lemmas):,}, of which {len(inflected):,} received classes "
        f"({len(verbs):,} verbs, {len(inflected) - len(verbs):,} plurals); "
        f"{new_forms:,} surface forms produced (lemmas included).",
        _acceptance_line(report, "es_ES", "RLA-ES-derived forms"),
        "",
        *step_lines(build),
        "",
        *_length_lines(report.words, es_tiles, "tiles"),
    ]
    if compare is not None:
        lines += ["", *compare.lines()]
    return lines


def step_lines(build: SpanishBuild) -> list[str]:
    """The counts per step (issue 15) as a table, with what each step concerned."""
    parts = build.parts
    lines = [
        "Counts per step (each against the list after the step before):",
        "",
        "| step | words added | words removed | words |",
        "|---|---:|---:|---:|",
    ]
    for name, added, removed, total in build.step_counts:
        lines.append(f"| {name} | {added:,} | {removed:,} | {total:,} |")
    lines += [
        "",
        f"- Step 1: {len(build.wspanish.pronominal)} wspanish -rse entries and "
        f"{len(build.rla_pronominal)} RLA-ES pronominal-only entries "
        f"(e.g. {', '.join(_sample(build.rla_pronominal, 6))}).",
        f"- Step 2: simplemma {build.simplemma_version}: {len(build.simplemma_lemmas):,} "
        f"infinitives with >= {SIMPLEMMA_MIN_FORMS} forms that RLA-ES does not generate "
        f"(e.g. {', '.join(_sample(build.simplemma_lemmas, 6))}).",
        f"- Step 3: {len(parts.wspanish_only_verbs):,} wspanish-only verbs keep the "
        f"infinitive only.",
        f"- Step 4: {len(parts.participles):,} RLA-ES participle forms and the -da/-dos/-das "
        f"of {len(parts.masculine_only):,} analogy verbs dropped.",
        f"- Step 5: {len(parts.abbreviations):,} forms of RLA-ES abbreviation entries "
        f"(e.g. {', '.join(_sample(sorted(parts.abbreviations), 8))}); "
        f"{len(parts.not_words)} two-letter non-words; {len(parts.additions)} additions.",
    ]
    return lines


def _sample(items: Sequence[str], count: int) -> list[str]:
    """Evenly spaced examples from a sorted list (deterministic)."""
    step = max(1, len(items) // count)
    return list(items[::step][:count])


def _rule_summary(rules: Sequence[RuleKey]) -> str:
    """E.g. ``R×10, X×26``."""
    counts = Counter(flag for _, flag, _ in rules)
    return ", ".join(f"{flag}×{n}" for flag, n in sorted(counts.items()))


def _acceptance_line(report: LanguageReport, dictionary: str, what: str) -> str:
    """One line with the ``hunspell -G`` result."""
    if not report.checked:
        return "- hunspell -G check: not run."
    rate = 100.0 * report.accepted / report.checked
    return (
        f"- `hunspell -d {dictionary} -G` accepts {report.accepted:,} of {report.checked:,} "
        f"{what} ({rate:.3f} %)."
    )


def _length_lines(words: Sequence[str], measure: Callable[[str], int], unit: str) -> list[str]:
    """A markdown table of counts by length."""
    table = length_table(words, measure)
    lines = [f"| {unit} | words |", "|---:|---:|"]
    lines += [f"| {length} | {count:,} |" for length, count in table.items()]
    lines.append(f"| total | {len(words):,} |")
    return lines


def romanian_figures(build: RomanianBuild) -> list[str]:
    """Markdown lines describing the Romanian build."""
    report = build.report
    return [
        "### Romanian",
        "",
        f"- Words: **{len(report.words):,}** (2–{RO_MAX_LETTERS} letters).",
        f"- Vocative rules dropped: {len(build.vocative_rules)}; short-article (-u) rules "
        f"dropped: {len(build.short_rules)}.",
        f"- Unflagged rospell entries dropped as vocatives: {len(build.dropped_unflagged)} "
        f"(e.g. {', '.join(_sample(build.dropped_unflagged, 10))}).",
        f"- Unflagged gerund + -u forms dropped (cântându, written only before a hyphen): "
        f"{len(build.gerund_hosts):,}.",
        f"- Words added by ne- on adjectives and participles: {build.prefix_only_forms:,}. "
        "Words each prefix class adds to the list without prefixes (kept ones shipped): "
        + "; ".join(f"{label}: {n:,}" for label, n in build.prefix_counts.items())
        + ".",
        _acceptance_line(report, "ro_RO", "shipped surface forms"),
        "",
        *_length_lines(report.words, len, "letters"),
    ]


@dataclass
class CompareResult:
    """Differences between the built Spanish list and another list."""

    path: str
    other_count: int
    only_ours: list[str]
    only_theirs: list[str]

    def lines(self) -> list[str]:
        """Markdown summary."""
        return [
            f"Compared with `{self.path}` ({self.other_count:,} words, no K/W): "
            f"{len(self.only_ours):,} words only here, {len(self.only_theirs):,} only there.",
        ]


def compare_spanish(words: Sequence[str], path: Path) -> CompareResult:
    """Diff against another list (digraphs as letters); K and W words are left out of ours."""
    raw = path.read_bytes()
    text = (lzma.decompress(raw) if path.suffix == ".xz" else raw).decode("utf-8")
    theirs = {w.strip() for w in text.splitlines() if w.strip()}
    ours = {w for w in words if "K" not in w and "W" not in w}
    return CompareResult(str(path), len(theirs), sorted(ours - theirs), sorted(theirs - ours))


def update_docs(lines: Sequence[str]) -> None:
    """Replace the generated-figures section of docs/wordlists.md (if the markers exist)."""
    if not DOCS.exists():
        return
    text = DOCS.read_text("utf-8")
    start, end = text.find(FIGURES_BEGIN), text.find(FIGURES_END)
    if start < 0 or end < start:
        return
    body = "\n".join([FIGURES_BEGIN, "", *lines, "", FIGURES_END])
    DOCS.write_text(text[:start] + body + text[end + len(FIGURES_END) :], "utf-8")


# =========================================================================== main


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """Command-line options."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--no-verify", action="store_true", help="skip the hunspell -G check")
    parser.add_argument("--compare-es", type=Path, help="a Spanish list to diff against")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    """Build both lists, verify them with hunspell, write outputs and figures."""
    args = parse_args(argv)
    started = time.monotonic()
    versions = {p: package_version(p) for p in ("hunspell-es", "hunspell-ro", "wspanish")}

    es_dic = load_dictionary(HUNSPELL_DIR / "es_ES.aff", HUNSPELL_DIR / "es_ES.dic")
    sm_version, sm_verbs = simplemma_verbs()
    versions["simplemma"] = sm_version
    spanish = build_spanish(es_dic, read_wspanish(), (sm_version, sm_verbs))
    ro_dic = load_dictionary(HUNSPELL_DIR / "ro_RO.aff", HUNSPELL_DIR / "ro_RO.dic")
    romanian = build_romanian(ro_dic)
    if not args.no_verify:
        verify(spanish.report, _shipped_surfaces(spanish.rla_surfaces, es_normalise), "es_ES")
        verify(romanian.report, _shipped_surfaces(romanian.surfaces, ro_normalise), "ro_RO")

    es_source = (
        f"RLA-ES (hunspell-es {versions['hunspell-es']}) + wspanish {versions['wspanish']}"
        f" + simplemma {sm_version} (verbs)"
    )
    write_list(spanish.report, {"version": versions["hunspell-es"], "source": es_source})
    ro_source = f"rospell (hunspell-ro {versions['hunspell-ro']})"
    write_list(romanian.report, {"version": versions["hunspell-ro"], "source": ro_source})
    write_licenses()
    write_readme(versions)

    compare = compare_spanish(spanish.report.words, args.compare_es) if args.compare_es else None
    figures = [*spanish_figures(spanish, compare), "", *romanian_figures(romanian)]
    update_docs(figures)
    print("\n".join(figures))
    print(f"\nbuilt in {time.monotonic() - started:.1f} s")
    return 0


def _shipped_surfaces(
    surfaces: Iterable[str], normalise: Callable[[str], str | None]
) -> Iterator[str]:
    """Surface forms that end up in the list (those the alphabet can spell)."""
    return (s for s in surfaces if normalise(s) is not None)


if __name__ == "__main__":
    raise SystemExit(main())
