"""The plurals of nouns and adjectives, as the FISE lexicon's rule book forms them.

The federation's list of non-verbs gives lemmas without their plurals and without their
grammatical category; the rule book (Reglamento de Léxico FISE 2016, section 18) says how a
plural is made from the spelling: by the last letter, by where the stress falls, and by named
exceptions. :func:`plurals` applies those rules to one word; whether a word takes a plural at
all (an adverb, a preposition, an interjection does not) is decided by the caller
(``build.py``), which knows more than the spelling. The rules, with the rule book's examples,
are written out in ``docs/fise-lexicon.md``.

Words are lowercase and keep their written accents: the accent says where the stress is, and
the stress decides the plural of words in -s, -x and -n. The plural's own accents follow
Spanish spelling where this module writes them (*bu → búes*), but the game folds accents, so
only the letters matter for play.
"""

from __future__ import annotations

__all__ = ["plurals", "stress_from_end", "syllable_count"]

_STRONG = set("aeoáéóíú")
"""Vowels that make a syllable of their own next to another vowel (accented i/u break a
diphthong: *ra-íz*)."""
_VOWELS = set("aeiouáéíóúü")
_ACCENTED = {"á": "a", "é": "e", "í": "i", "ó": "o", "ú": "u"}
_ACCENT = {v: k for k, v in _ACCENTED.items()}


def _nuclei(word: str) -> list[tuple[int, int]]:
    """The vowel groups that carry a syllable, as (start, end) indices.

    The *u* of *que, qui, gue, gui* is written, not spoken, and is no vowel here. Two strong
    vowels (a, e, o, or an accented i/u) are two syllables; a weak unaccented i/u joins its
    neighbour in a diphthong.
    """
    out: list[tuple[int, int]] = []
    i = 0
    n = len(word)
    while i < n:
        ch = word[i]
        if ch not in _VOWELS or (ch == "u" and i > 0 and word[i - 1] in "qg" and i + 1 < n
                                 and word[i + 1] in "eéií"):
            i += 1
            continue
        start = i
        i += 1
        while i < n and word[i] in _VOWELS:
            if word[i - 1] in _STRONG and word[i] in _STRONG:
                break  # hiatus: a new syllable starts here
            i += 1
        out.append((start, i))
    return out


def syllable_count(word: str) -> int:
    """How many syllables a word has, counted by its vowel groups (at least one)."""
    return max(1, len(_nuclei(word)))


def stress_from_end(word: str) -> int:
    """Which syllable is stressed, counted from the end: 1 for *aguda* (*francés*, *reloj*),
    2 for *grave* (*crisis*, *casa*), 3 or more for *esdrújula* (*régimen*).

    A written accent marks it; without one Spanish stresses the last syllable of a word that
    ends in a consonant other than n or s, and the one before otherwise.
    """
    nuclei = _nuclei(word)
    if len(nuclei) <= 1:
        return 1
    for k, (start, end) in enumerate(nuclei):
        if any(c in _ACCENTED for c in word[start:end]):
            return len(nuclei) - k
    last = word[-1]
    if last in _VOWELS or last in "ns":
        return 2
    if last == "y" and word[-2:-1] in _VOWELS:
        return 1  # -ay, -ey, -oy, -uy end in a diphthong that takes the stress (convoy)
    return 1


def _unaccent(word: str) -> str:
    return "".join(_ACCENTED.get(c, c) for c in word)


def _accent_last_vowel(word: str) -> str:
    """*bu → bú*, *jerse → jersé*: the last vowel takes the written accent, unless some
    vowel of the word already has one."""
    if any(c in _ACCENTED for c in word):
        return word
    for i in range(len(word) - 1, -1, -1):
        if word[i] in _ACCENT:
            return word[:i] + _ACCENT[word[i]] + word[i + 1 :]
    return word


# -- the named exceptions of section 18 ---------------------------------------------------------
# Each set or table is one sentence of the rule book, in its order. A word in none of them
# follows the rule of its ending.

SPECIAL: dict[str, tuple[str, ...]] = {
    # 18.1.1.2 articles, 18.1.1.3 contractions, 18.1.1.4 pronouns with a plural of their own
    "el": ("los",), "un": ("unos",), "una": ("unas",),
    "dél": ("dellos",), "dese": ("desos",), "deste": ("destos",),
    "aquel": ("aquellos",), "aquele": ("aquelos",), "aquese": ("aquesos",),
    "aqueste": ("aquestos",), "cualquier": ("cualesquier",),
    "cualquiera": ("cualesquiera", "cualquieras"), "él": ("ellos",), "ese": ("esos",),
    "este": ("estos",), "quequier": ("quesquier",), "quienquier": ("quienesquier",),
    "quienquiera": ("quienesquiera",), "voacé": ("voacedes",), "yo": ("yoes", "yos"),
    # 18.1.2.3 letters, 18.1.2.4 Greek letters: the forms the rule book names
    "a": ("aes",), "e": ("es", "ees"), "i": ("íes",), "o": ("oes",), "u": ("úes",),
    "cu": ("cus", "cúes"), "fi": ("fis", "fíes"), "ji": ("jis", "jíes"),
    "mi": ("mis", "míes"), "ni": ("nis", "níes"), "pi": ("pis", "píes"),
    "psi": ("psis", "psíes"), "xi": ("xis", "xíes"),
    # 18.2.2 apocopes with a plural
    "mal": ("males",), "tu": ("tus",), "usarcé": ("usarcedes",),
    # 18.4.1 special plurals by ending
    "almanac": ("almanaques",), "bambuc": ("bambuques",), "baurac": ("bauraques",),
    "lord": ("lores",), "milord": ("milores",), "pénsum": ("pensa",),
    "espécimen": ("especímenes",), "hipérbaton": ("hipérbatos",),
    "oxímoron": ("oxímoros",), "régimen": ("regímenes",),
    "carácter": ("caracteres",), "maquech": ("maqueches",),
    "aeroclub": ("aeroclubs", "aeroclubes"), "cineclub": ("cineclubs", "cineclubes"),
    "club": ("clubs", "clubes"), "puticlub": ("puticlubs", "puticlubes"),
    "teleclub": ("teleclubs", "teleclubes"), "videoclub": ("videoclubs", "videoclubes"),
    "náhuatl": ("náhuatls",),
    # 18.4.2 special plurals of words ending in a vowel
    "gentilhombre": ("gentilhombres", "gentileshombres"), "fijadalgo": ("fijasdalgo",),
    "fijodalgo": ("fijosdalgo",), "hijadalgo": ("hijasdalgo",), "hijodalgo": ("hijosdalgo",),
    "ricadueña": ("ricadueñas", "ricasdueñas"), "ricahembra": ("ricahembras", "ricashembras"),
    "ricohombre": ("ricohombres", "ricoshombres"),
    "albalá": ("albaláes",), "faralá": ("faralaes",), "no": ("noes",),
    "ucé": ("ucedes",), "mambí": ("mambíes", "mambís", "mambises"),
    "maravedí": ("maravedíes", "maravedís", "maravedises"), "sí": ("síes",),
}

_S_ONLY = {
    # -d and -f words that add -s, -i/-u tónicas that add only -s
    "estand", "mod", "racord", "rácord", "rand", "récord", "barn",
    "benjuí", "cañí", "champú", "cucú", "gachí", "gilí", "interviú", "menjuí", "menú",
    "pirulí", "popurrí", "recibí", "taichí", "tutú", "vermú",
}
_ES_ONLY = {
    "almotazaf", "almutazaf", "álbum", "imam", "nolit", "prest",
}

INVARIABLE = frozenset(
    {
        # 18.1.1.2–4: lo, contractions, pronouns that stay as they are
        "lo", "al", "del", "dentrambas", "dentrambos", "dello", "desdel", "deso", "desto",
        "dí", "ál", "alguien", "aquello", "aquelo", "aqueso", "aquesto", "comigo",
        "conmigo", "connosco", "consigo", "contigo", "convusco", "cualque", "ello", "eso",
        "esto", "ge", "ídem", "me", "mí", "nadi", "nadie", "nos", "nosotras", "nosotros",
        "os", "que", "qui", "se", "ti", "tú", "vos", "vosotras", "vosotros", "vusco",
        # 18.1.2.1 shortenings, 18.1.2.2 prefix + noun, 18.1.2.3–4 letters
        "híper", "minisúper", "súper", "antiaborto", "anticorrosión", "anticorrupción",
        "antidopaje", "antiestrés", "antigás", "antimafia", "antipolio", "antisistema",
        "antitabaco", "antitrust", "antiviolencia", "multiplataforma", "premamá", "equis",
        "épsilon", "ípsilon", "ómicron",
        # 18.1.2.6 a noun that modifies a noun, 18.1.2.7 forms of address, 18.1.2.8 tribes
        "agujita", "pollito", "fray", "frey", "seó", "siux",
        # 18.2.2 apocopes (those with a plural are in SPECIAL)
        "algún", "germán", "hi", "ningún", "rabicán", "veintiún",
        # 18.3 words in cross-references that stay as they are
        "abanda", "jimén", "molotov", "pómez", "troy", "atrás", "cutio", "recién",
        "hervite", "recodán", "recotán", "sacamuertos", "añafea", "aparadura", "artifara",
        "cagalar", "cap", "estampita", "funerala", "gibao", "mamante", "marquilla",
        "monteleva", "nanita", "oc", "oíl", "pereciendo", "piquillo", "retrovendendo",
        # 18.4.1 by ending
        "abc", "algund", "quid", "catapum", "gram", "súmmum", "buen", "catapún", "gran",
        "man", "merchán", "mostén", "parisién", "perojimén", "recodín", "recotín", "san",
        "vivalavirgen", "confíteor", "execuátur", "fástener", "fuer", "imprimátur",
        "malhumor", "mánager", "paternóster", "postrer", "postrimer", "primer", "ter",
        "tercer", "arrastrapiés", "avampiés", "beis", "buscapiés", "calientapiés",
        "ciempiés", "cientopiés", "cortapiés", "demás", "guardapiés", "milpiés",
        "pasapurés", "pesabebés", "portabebés", "prensapurés", "rapapiés", "reposapiés",
        "reps", "tapapiés", "carst", "compost", "grant", "permafrost", "sant", "test",
        "trust", "ex", "dux", "relax", "unisex", "hoy", "pedrojiménez", "perojiménez",
        "rodríguez", "val",
        # 18.4.2 by ending
        "carbonara", "cochite", "curalotodo", "metomentodo", "percápita", "sabelotodo",
        "sanalotodo", "así",
    }
)
"""Words the rule book names as having no plural, or keeping one form for both numbers."""

_Y_TO_IS = {
    "aguay", "bacaray", "boy", "candray", "cay", "chancay", "chuflay", "corderoy", "escay",
    "espay", "espray", "gay", "giley", "gray", "jersey", "lay", "muimuy", "órsay", "paipay",
    "póney", "samuray", "timboy", "tubey", "vacaray", "voley", "yérsey", "yóquey",
}
"""Words in -y whose plural changes the y to i and adds -s (*jersey → jerséis*)."""
_Y_BOTH = {
    "acroy", "aguaribay", "barangay", "cambray", "choroy", "contraestay", "contray", "coy",
    "estay", "guay", "guirigay", "guanay", "margay", "noray", "ñandubay", "ocrey", "quilmay",
    "sinamay", "taray", "tipoy", "ubajay", "urunday", "urundey", "verdegay", "yatay",
}
"""Words in -y with both plurals (*estay → estáis, estayes*)."""

_ES_ENDINGS = set("djlrz")
"""Consonants after which the plural adds -es (d, j, l, r; z becomes c)."""
_S_ENDINGS = set("bcfgmptv")
"""Consonants after which the plural adds -s."""


def _y_to_is(word: str) -> str:
    """*jersey → jerséis*: the y becomes i and the vowel before it takes the stress."""
    stem = _unaccent(word[:-1])
    return _accent_last_vowel(stem) + "is" if syllable_count(word) > 1 else stem + "is"


def plurals(word: str) -> tuple[str, ...]:
    """The plural forms of a noun or adjective, by section 18 of the rule book; () when the
    word stays the same in the plural or has none (the rule's exceptions included)."""
    if word in SPECIAL:
        return SPECIAL[word]
    if word in INVARIABLE or not word:
        return ()
    last = word[-1]
    if word in _S_ONLY:
        return (word + "s",)
    if word in _ES_ONLY:
        return (_plain_es(word),)
    if last in _VOWELS:
        return _vowel_plural(word)
    if last == "y":
        if len(word) < 2 or word[-2] not in _VOWELS:
            return ()  # -y after a consonant: unadapted, no plural (18.4.1, -y)
        if word in _Y_TO_IS:
            return (_y_to_is(word),)
        if word in _Y_BOTH:
            return (_y_to_is(word), word + "es")
        return (word + "es",)
    if last == "h":
        return () if word.endswith("ch") else (word + "s",)
    if last in _S_ENDINGS:
        return (word + "s",)
    if last in _ES_ENDINGS:
        return (_plain_es(word),)
    if last == "n":
        if stress_from_end(word) >= 3:
            return ()  # esdrújula in -n: invariable (asíndeton, cárdigan)
        return (_plain_es(word),)
    if last in "sx":
        if syllable_count(word) == 1 or stress_from_end(word) == 1:
            return (_plain_es(word),)
        return ()  # grave or esdrújula in -s/-x: invariable (crisis, tórax)
    return ()  # -k, -w (not playable), -ñ and -q (no such word), anything else


def _plain_es(word: str) -> str:
    """Add -es: z becomes c (*raíz → raíces*); an aguda's accent goes (*camión → camiones*);
    a grave's last syllable becomes an esdrújula's (*joven → jóvenes*, *barman → bármanes*)."""
    stem = word[:-1] + "c" if word.endswith("z") else word
    plural = stem + "es"
    nuclei = _nuclei(word)
    if len(nuclei) >= 2:
        stress = stress_from_end(word)
        if stress == 1:
            last_start, last_end = nuclei[-1]
            accented = [i for i in range(last_start, last_end) if word[i] in _ACCENTED]
            # the accent goes unless it marks a hiatus (maíz → maíces, baúl → baúles)
            if accented and not _marks_hiatus(word, accented[0]):
                i = accented[0]
                plural = plural[:i] + _ACCENTED[plural[i]] + plural[i + 1 :]
        elif stress == 2 and not any(c in _ACCENTED for c in word):
            start, end = nuclei[-2]
            # the stressed vowel of the group: a strong one, else the last weak one
            group = word[start:end]
            k = next((j for j, c in enumerate(group) if c in "aeo"), len(group) - 1)
            i = start + k
            plural = plural[:i] + _ACCENT.get(plural[i], plural[i]) + plural[i + 1 :]
    return plural


def _marks_hiatus(word: str, i: int) -> bool:
    """Whether the accent at ``i`` is on an i or u next to another vowel (*ra-íz*, *ba-úl*)."""
    if word[i] not in "íú":
        return False
    return (i > 0 and word[i - 1] in _VOWELS) or (i + 1 < len(word) and word[i + 1] in _VOWELS)


def _vowel_plural(word: str) -> tuple[str, ...]:
    """Words ending in a vowel: -s after an unstressed one and after a stressed a, e, o;
    -es and -s after a stressed i or u (*tabú → tabúes, tabús*)."""
    last = word[-1]
    stressed_last = last in _ACCENTED or syllable_count(word) == 1
    if stressed_last and _unaccent(last) in "iu":
        if len(word) >= 2 and word[-2] in _VOWELS and last not in _ACCENTED:
            return (word + "s",)  # a diphthong in -ui, -ai…: cui → cuis
        return (_accent_last_vowel(word) + "es", word + "s")
    return (word + "s",)
