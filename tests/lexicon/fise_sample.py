"""A small FISE-2 distribution of the project's own making, in the federation's format.

The same files as the real "LEXICÓN FISE 2 - LISTAS" (names, Latin-1, CRLF line ends, a header
of notes closed by a lone ``#``, numbered section titles, digraphs as 1/2/3 in the short
lists), with a handful of entries chosen so that each rule of the build has something to do:
a regular transitive verb, an intransitive one with a spelling change, a pronominal one, a
regional one (infinitive only), one with an irregular participle; nouns and adjectives with
and without a feminine, words invariable by their ending, an adverb in -mente, a superscript;
the updates' sections; the short lists. ``EXPECTED`` is every word it must give, by hand.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

HEADER = (
    "LEXICÓN FISE 2: {title}\r\n\r\nPor el equipo de tablero\r\n\r\n"
    "Notas:\r\n\r\n{notes}\r\n\r\n#\r\n\r\n"
)

VERBS = """1. PRIMERA CONJUGACIÓN

00-1-.-cantar
00-2-.-bostezar
00-3-.-dignarse
88-0-.-acaronar
99-0-.-atendar

3. TERCERA CONJUGACIÓN

00-1-P-abrir(abierto)

#

El equipo de tablero
"""

NON_VERBS = """árbol
abad abadesa
crisis
lápiz 1
lápiz 2
rápidamente
alegro
chao
"""

NON_VERB_UPDATES = """1. ALTAS VARIABLES EN NÚMERO

abad

2. ALTAS INVARIABLES EN NÚMERO

chao ("chaos" no es plural)

3. ALTAS EN PLURAL PERO NO EN SINGULAR

víveres

4. BAJAS VARIABLES E INVARIABLES EN NÚMERO

zuzón

5. BAJAS EN PLURAL PERO NO EN SINGULAR

alegros
"""

VERB_UPDATES = """1. NUEVOS

Primera conjugación

cantar

2. SUPRIMIDOS

Primera conjugación

abachar
"""

SHORT = """1. ACTUALIZACIÓN DE PALABRAS DE DOS FICHAS

Altas:

ay

2. ACTUALIZACIÓN DE PALABRAS DE TRES FICHAS

Altas:

1a

3. TOTAL DE PALABRAS DE DOS FICHAS

ay
da

4. TOTAL DE PALABRAS DE TRES FICHAS

1a
sol
"""

FILES = {
    "TOTAL DE VERBOS CLASIFICADOS.TXT": ("TOTAL DE VERBOS CLASIFICADOS", VERBS),
    "TOTAL DE NO VERBOS SIN PLURALES.txt": ("TOTAL DE NO VERBOS SIN PLURALES", NON_VERBS),
    "ACTUALIZACIÓN DE NO VERBOS.txt": ("ACTUALIZACIÓN DE NO VERBOS", NON_VERB_UPDATES),
    "ACTUALIZACIÓN DE VERBOS.txt": ("ACTUALIZACIÓN DE VERBOS", VERB_UPDATES),
    "ACTUALIZACIÓN Y TOTAL DE DOS Y TRES FICHAS.txt": (
        "ACTUALIZACIÓN Y TOTAL DE DOS Y TRES FICHAS",
        SHORT,
    ),
}


def file_bytes(title: str, body: str) -> bytes:
    text = HEADER.format(title=title, notes="Una lista de prueba.") + body.replace("\n", "\r\n")
    return text.encode("latin-1")


def write_folder(folder: Path) -> Path:
    """The distribution unpacked into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, (title, body) in FILES.items():
        (folder / name).write_bytes(file_bytes(title, body))
    return folder


def write_zip(path: Path) -> Path:
    """The distribution as a zip, its names in the old code page as the published one has."""
    with zipfile.ZipFile(path, "w") as z:
        for name, (title, body) in FILES.items():
            info = zipfile.ZipInfo(name.encode("cp437", "replace").decode("cp437"))
            z.writestr(info, file_bytes(title, body))
    return path


CANTAR = """
cantar cantando cantado cantada cantados cantadas
canto cantas cantás canta cantamos cantáis cantan
cantaba cantabas cantábamos cantabais cantaban
canté cantaste cantó cantasteis cantaron
cantaré cantarás cantará cantaremos cantaréis cantarán
cantaría cantarías cantaríamos cantaríais cantarían
cante cantes cantemos cantéis canten
cantara cantaras cantáramos cantarais cantaran
cantase cantases cantásemos cantaseis cantasen
cantare cantares cantáremos cantareis cantaren
cantad cantá
"""
"""Every form of a regular transitive -ar verb (the participle in four forms; voseo cantás,
cantá; no enclitics)."""

BOSTEZAR = """
bostezar bostezando bostezado
bostezo bostezas bostezás bosteza bostezamos bostezáis bostezan
bostezaba bostezabas bostezábamos bostezabais bostezaban
bostecé bostezaste bostezó bostezasteis bostezaron
bostezaré bostezarás bostezará bostezaremos bostezaréis bostezarán
bostezaría bostezarías bostezaríamos bostezaríais bostezarían
bostece boste ces bostecemos bostecéis bostecen
bostezara bostezaras bostezáramos bostezarais bostezaran
bostezase bostezases bostezásemos bostezaseis bostezasen
bostezare bostezares bostezáremos bostezareis bostezaren
bostezad bostezá
""".replace("boste ces", "bosteces")
"""An intransitive verb: the participle in the masculine singular only; z becomes c before
e."""

DIGNARSE = """
dignar dignarse dignando dignado
digno dignas dignás digna dignamos dignáis dignan
dignaba dignabas dignábamos dignabais dignaban
digné dignaste dignó dignasteis dignaron
dignaré dignarás dignará dignaremos dignaréis dignarán
dignaría dignarías dignaríamos dignaríais dignarían
digne dignes dignemos dignéis dignen
dignara dignaras dignáramos dignarais dignaran
dignase dignases dignásemos dignaseis dignasen
dignare dignares dignáremos dignareis dignaren
"""
"""A pronominal verb: both infinitives, no imperative, the participle masculine singular."""

ABRIR = """
abrir abriendo abierto abierta abiertos abiertas
abro abres abrís abre abrimos abren
abría abrías abríamos abríais abrían
abrí abriste abrió abristeis abrieron
abriré abrirás abrirá abriremos abriréis abrirán
abriría abrirías abriríamos abriríais abrirían
abra abras abramos abráis abran
abriera abrieras abriéramos abrierais abrieran
abriese abrieses abriésemos abrieseis abriesen
abriere abrieres abriéremos abriereis abrieren
abrid abrí
"""
"""A transitive -ir verb with an irregular participle, which replaces the regular one."""

NON_VERB_FORMS = """
árbol árboles abad abades abadesa abadesas crisis lápiz lápices rápidamente
alegro chao víveres
"""
"""The non-verbs: plurals by the rules; crisis (grave in -s) and the adverb invariable; chao
invariable by the update; víveres only in the plural; alegros removed by the update."""

OFFICIAL_SHORT = "ay da cha sol"
"""The two- and three-tile words: exactly the official lists, whatever the rules made."""

REGIONAL_AND_OBSOLETE = "acaronar atendar"
"""Regional and obsolete verbs: the infinitive only."""


def expected_words() -> set[str]:
    """Every word the sample gives, as the game spells them (accents folded, uppercase,
    words of up to three tiles replaced by the official lists)."""
    from tablero.alphabet import alphabet_by_name

    es = alphabet_by_name("es")
    words = set()
    for block in (CANTAR, BOSTEZAR, DIGNARSE, ABRIR, NON_VERB_FORMS, REGIONAL_AND_OBSOLETE):
        for word in block.split():
            tiles = es.tokenize(word)
            if len(tiles) > 3:
                words.add("".join(tiles))
    return words | {"".join(es.tokenize(w)) for w in OFFICIAL_SHORT.split()}
