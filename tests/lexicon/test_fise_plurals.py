"""The plurals of the FISE rule book (Reglamento de Léxico FISE 2016, section 18), each rule
checked with the rule book's own examples."""

from __future__ import annotations

import pytest

from tablero.lexicon.fise.plurals import plurals, stress_from_end, syllable_count


def folded(words: tuple[str, ...]) -> set[str]:
    """As the game spells them: accents fold, so búes and bues are one play."""
    table = str.maketrans("áéíóú", "aeiou")
    return {w.translate(table) for w in words}


# (word, its plurals) for each ending of section 18.4, the rule's examples and exceptions
EXAMPLES = [
    # 18.4.1 -b: -s; club and its compounds both
    ("baobab", {"baobabs"}), ("esnob", {"esnobs"}), ("club", {"clubs", "clubes"}),
    ("videoclub", {"videoclubs", "videoclubes"}),
    # -c: -s; special plurals
    ("bistec", {"bistecs"}), ("cómic", {"cómics"}), ("zódiac", {"zódiacs"}),
    ("almanac", {"almanaques"}), ("bambuc", {"bambuques"}),
    # -d: -es; some -s; lord
    ("actitud", {"actitudes"}), ("césped", {"céspedes"}), ("yihad", {"yihades"}),
    ("récord", {"récords"}), ("estand", {"estands"}), ("lord", {"lores"}),
    ("milord", {"milores"}),
    # -f: -s; two in -es
    ("chef", {"chefs"}), ("rosbif", {"rosbifs"}), ("almotazaf", {"almotazafes"}),
    # -g, -h, -j
    ("iceberg", {"icebergs"}), ("zigzag", {"zigzags"}), ("sah", {"sahs"}),
    ("maquech", {"maqueches"}), ("reloj", {"relojes"}), ("boj", {"bojes"}),
    # -l: -es; náhuatl -s
    ("dócil", {"dóciles"}), ("píxel", {"píxeles"}), ("nomparell", {"nomparelles"}),
    ("náhuatl", {"náhuatls"}),
    # -m: -s; álbum, imam -es; pénsum
    ("film", {"films"}), ("ítem", {"ítems"}), ("zum", {"zums"}), ("álbum", {"álbumes"}),
    ("imam", {"imames"}), ("pénsum", {"pensa"}),
    # -n: -es unless esdrújula; specials
    ("barman", {"bármanes"}), ("fan", {"fanes"}), ("pemón", {"pemones"}),
    ("zen", {"zenes"}), ("barn", {"barns"}), ("espécimen", {"especímenes"}),
    ("hipérbaton", {"hipérbatos"}), ("oxímoron", {"oxímoros"}), ("régimen", {"regímenes"}),
    # -p, -r
    ("clip", {"clips"}), ("vip", {"vips"}), ("gap", {"gaps"}), ("hándicap", {"hándicaps"}),
    ("bíter", {"bíteres"}), ("máster", {"másteres"}), ("tráiler", {"tráileres"}),
    ("carácter", {"caracteres"}),
    # -s: monosyllables and agudas -es
    ("dos", {"doses"}), ("francés", {"franceses"}), ("gas", {"gases"}),
    ("vals", {"valses"}), ("rais", {"raises"}),
    # -t: -s; two in -es
    ("robot", {"robots"}), ("déficit", {"déficits"}), ("tuit", {"tuits"}),
    ("nolit", {"nolites"}), ("prest", {"prestes"}),
    # -v, -x
    ("lev", {"levs"}), ("fax", {"faxes"}), ("burofax", {"burofaxes"}), ("box", {"boxes"}),
    # -y after a vowel: -es, -is or both
    ("buey", {"bueyes"}), ("ley", {"leyes"}), ("convoy", {"convoyes"}),
    ("jersey", {"jerséis"}), ("gay", {"gais"}), ("espray", {"espráis"}),
    ("samuray", {"samuráis"}), ("estay", {"estáis", "estayes"}), ("coy", {"cois", "coyes"}),
    ("guay", {"guais", "guayes"}),
    # -z: -ces
    ("cáliz", {"cálices"}), ("faz", {"faces"}), ("maíz", {"maíces"}), ("raíz", {"raíces"}),
    # 18.4.2 vowels: unstressed -s
    ("afra", {"afras"}), ("despiporre", {"despiporres"}), ("cui", {"cuis"}),
    ("tribu", {"tribus"}),
    # stressed a, e, o: -s; exceptions
    ("bajá", {"bajás"}), ("café", {"cafés"}), ("dominó", {"dominós"}), ("ple", {"ples"}),
    ("té", {"tés"}), ("a", {"aes"}), ("albalá", {"albaláes"}), ("no", {"noes"}),
    ("o", {"oes"}), ("e", {"es", "ees"}), ("yo", {"yos", "yoes"}), ("ucé", {"ucedes"}),
    # stressed i, u: -es and -s; some -s only; specials
    ("abadí", {"abadíes", "abadís"}), ("bisturí", {"bisturíes", "bisturís"}),
    ("bu", {"búes", "bus"}), ("ñu", {"ñúes", "ñus"}), ("tabú", {"tabúes", "tabús"}),
    ("menú", {"menús"}), ("champú", {"champús"}), ("i", {"íes"}), ("sí", {"síes"}),
    ("u", {"úes"}), ("mambí", {"mambíes", "mambís", "mambises"}),
    # 18.1: articles, pronouns, letters
    ("el", {"los"}), ("un", {"unos"}), ("ella", {"ellas"}), ("quien", {"quienes"}),
    ("cualquiera", {"cualesquiera", "cualquieras"}), ("él", {"ellos"}), ("este", {"estos"}),
    ("cu", {"cus", "cúes"}), ("zeta", {"zetas"}), ("che", {"ches"}), ("erre", {"erres"}),
    ("pi", {"pis", "píes"}), ("sol", {"soles"}), ("flor", {"flores"}), ("pobre", {"pobres"}),
    ("feliz", {"felices"}), ("liña", {"liñas"}), ("dom", {"doms"}), ("ñor", {"ñores"}),
    ("alacaluf", {"alacalufs"}), ("bantú", {"bantúes", "bantús"}), ("chuj", {"chujes"}),
    ("tuareg", {"tuaregs"}), ("mal", {"males"}),
]

INVARIABLE_EXAMPLES = [
    # 18.4: by ending
    "abc", "algund", "quid", "catapum", "súmmum", "asíndeton", "bádminton", "cárdigan",
    "dóberman", "ínterin", "polisíndeton", "tetragrámaton", "algún", "buen", "gran",
    "confíteor", "primer", "bonus", "crisis", "éxtasis", "fórceps", "lapsus", "miércoles",
    "síntesis", "antiestrés", "ciempiés", "demás", "compost", "test", "trust", "molotov",
    "ápex", "bótox", "cérvix", "códex", "fénix", "látex", "tórax", "tríplex", "ex", "dux",
    "relax", "siux", "unisex", "fray", "hoy", "troy", "pómez", "rodríguez", "capararoch",
    "crómlech", "mach", "pech", "zarévich", "val",
    # 18.4.2 and 18.1: named ones
    "abanda", "hervite", "hi", "sabelotodo", "premamá", "seó", "así", "lo", "al", "del",
    "equis", "épsilon", "ómicron", "híper", "súper", "antiaborto", "multiplataforma",
    "agujita", "pollito", "alguien", "conmigo", "nadie", "nosotros", "tú", "vos",
]


@pytest.mark.parametrize(("word", "expected"), EXAMPLES)
def test_the_rule_books_plural(word: str, expected: set[str]) -> None:
    assert folded(plurals(word)) == folded(tuple(expected))


@pytest.mark.parametrize("word", INVARIABLE_EXAMPLES)
def test_the_rule_books_invariable_words(word: str) -> None:
    assert plurals(word) == ()


def test_the_written_accent_follows_the_stress() -> None:
    # The letters are what the game plays, but the plurals are written as Spanish writes them.
    assert plurals("camión") == ("camiones",)
    assert plurals("joven") == ("jóvenes",)
    assert plurals("examen") == ("exámenes",)
    assert plurals("baúl") == ("baúles",)  # the accent of a hiatus stays
    assert plurals("tabú") == ("tabúes", "tabús")


@pytest.mark.parametrize(
    ("word", "syllables", "stress"),
    [
        ("francés", 2, 1), ("crisis", 2, 2), ("régimen", 3, 3), ("reloj", 2, 1),
        ("raíz", 2, 1), ("guerra", 2, 2), ("quiosco", 2, 2), ("pingüino", 3, 2),
        ("convoy", 2, 1), ("ley", 1, 1), ("tórax", 2, 2), ("fax", 1, 1),
    ],
)
def test_syllables_and_stress(word: str, syllables: int, stress: int) -> None:
    assert syllable_count(word) == syllables
    assert stress_from_end(word) == stress


def test_a_consonant_then_y_has_no_plural() -> None:
    # rule book 18.4.1, -y: after a consonant the word is unadapted (in italics) and has none
    assert plurals("dandy") == ()
    assert plurals("rugby") == ()
