"""A club's own words over a dictionary: added and banned words in the library, rule files,
the command line and the GCG; every bad list refused with a clear error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from tablero.alphabet import SPANISH
from tablero.cli import main
from tablero.formats.gcg import gcg_variant, read_gcg, replay_gcg, write_gcg
from tablero.game import Game
from tablero.lexicon import AnyWordLexicon, LexiconError, WordListLexicon, load_lexicon
from tablero.lexicon.amend import WordChanges, amended_lexicon
from tablero.lexicon.graph import GraphLexicon
from tablero.variant import VariantError, load_variant, variant_from_toml

BASE = ["CASA", "CASAS", "PERRO", "LLAVE", "CHILLAR", "SACO", "COSA", "OCA", "OCAS", "ASA"]
FISE = Path(__file__).parents[2] / "tablero" / "variants" / "fise.toml"


@pytest.fixture
def base() -> WordListLexicon:
    return WordListLexicon.from_words(BASE, SPANISH, name="club-base")


def test_changes_are_spelled_with_tiles_and_accents_folded() -> None:
    changes = WordChanges.of(["wifi", "Tuit", "chat"], ["ñandú"], SPANISH)
    assert changes.added == {"WIFI", "TUIT", "CHAT"}
    assert changes.removed == {"ÑANDU"}
    assert changes.describe() == "+3 −1 words"
    assert WordChanges.of(["TUIT", "WIFI"], [], SPANISH).digest == (
        WordChanges.of(["wifi", "tuit"], [], SPANISH).digest
    )


@pytest.mark.parametrize(
    ("added", "removed", "problem"),
    [
        (["CASA", "CA5A"], [], r"words added, #2: 'CA5A': '5' is not a letter"),
        ([], ["A"], r"words removed, #1: 'A' has fewer than 2 tiles"),
        (["wifi"], ["WIFI"], r"WIFI: both added and removed"),
    ],
)
def test_bad_changes_say_what_is_wrong(added: list[str], removed: list[str], problem: str) -> None:
    with pytest.raises(LexiconError, match=problem):
        WordChanges.of(added, removed, SPANISH)


def test_the_amended_dictionary_is_a_searchable_graph_with_the_changes(
    base: WordListLexicon,
) -> None:
    changes = WordChanges.of(["ocasa", "wifi"], ["casas", "perro"], SPANISH)
    amended = amended_lexicon(base, changes, show_progress=False)
    assert isinstance(amended, GraphLexicon) and amended.can_search
    assert "OCASA" in amended and "WIFI" in amended and "CASA" in amended
    assert "CASAS" not in amended and "PERRO" not in amended
    assert amended.info().word_count == len(BASE) + 2 - 2
    assert amended.info().name == f"club-base+{changes.digest[:8]}"
    assert "CASAS" in base  # the base is left as it was
    # Applied once: the same changes again, or a part of them, give the same dictionary.
    assert amended_lexicon(amended, changes) is amended
    assert amended_lexicon(amended, WordChanges.of(["wifi"], [], SPANISH)) is amended
    assert amended_lexicon(base, WordChanges()) is base


def test_a_game_without_a_dictionary_has_nothing_to_change() -> None:
    with pytest.raises(LexiconError, match="cannot add or ban words"):
        amended_lexicon(AnyWordLexicon(SPANISH), WordChanges.of(["wifi"], [], SPANISH))


def _club_rules(words: str) -> str:
    return FISE.read_text("utf-8").replace('[words]\ncheck = "immediate"', words)


def test_a_rule_file_carries_the_changes_and_the_game_judges_by_them(
    base: WordListLexicon,
) -> None:
    rules = _club_rules('[words]\ncheck = "immediate"\nadd = ["ocasa"]\nremove = ["casa"]')
    variant = variant_from_toml(rules, source="club.toml")
    assert variant.word_changes == WordChanges(frozenset({"OCASA"}), frozenset({"CASA"}))
    game = Game(variant, ["Ana", "Luis"], base, seed=3)
    assert "OCASA" in game.lexicon and "CASA" not in game.lexicon
    assert game.lexicon.applied_changes == variant.word_changes
    # The lexicon given already has them: a replay does not build another.
    again = Game(variant, ["Ana", "Luis"], game.lexicon, seed=3)
    assert again.lexicon is game.lexicon


def test_a_removed_word_costs_the_turn_as_any_word_not_in_the_dictionary(
    base: WordListLexicon,
) -> None:
    rules = _club_rules('[words]\ncheck = "immediate"\nremove = ["casa"]')
    variant = variant_from_toml(rules, source="club.toml")
    game = Game(variant, ["Ana", "Luis"], base, seed=3)
    game.players[game.to_move].rack[:4] = ["C", "A", "S", "A"]
    result = game.play("8G CASA")  # FISE: a word not in the dictionary loses the turn
    assert result.kind == "lost_turn" and result.reason == "not in the dictionary: CASA"
    assert game.board.is_empty()
    game.players[game.to_move].rack[:4] = ["S", "A", "C", "O"]
    assert game.play("8G SACO").score > 0


@pytest.mark.parametrize(
    ("words", "problem"),
    [
        ('[words]\nadd = ["ca5a"]', r"club.toml: words: words added, #1: 'ca5a'"),
        ('[words]\nremove = "casa"', r"club.toml: words.remove: expected a list, got 'casa'"),
        ('[words]\nadd = ["casa", 3]', r"club.toml: words.add: expected a list of words"),
    ],
)
def test_a_rule_file_with_bad_changes_is_refused(words: str, problem: str) -> None:
    with pytest.raises(VariantError, match=problem):
        variant_from_toml(_club_rules(words), source="club.toml")


def test_changes_need_a_dictionary_in_the_rule_file() -> None:
    rules = _club_rules('[words]\nadd = ["wifi"]').replace('lexicon = "es"', 'lexicon = "none"')
    with pytest.raises(VariantError, match=r"words: lexicon = \"none\" checks no words"):
        variant_from_toml(rules, source="club.toml")


def test_the_gcg_records_the_changes_and_replays_under_them(base: WordListLexicon) -> None:
    """The club adds a word made of the first player's first three tiles and plays it."""
    dealt = Game(load_variant(FISE), ["Ana", "Luis"], base, seed=3)
    tiles = [t for t in dealt.current.rack if t != "?"][:3]
    word = "".join(tiles)
    rules = _club_rules(f'[words]\ncheck = "immediate"\nadd = ["{word}"]\nremove = ["casa"]')
    variant = variant_from_toml(rules, source="club.toml")
    game = Game(variant, ["Ana", "Luis"], base, seed=3)
    assert game.play("8G " + "".join(f"[{t}]" if len(t) > 1 else t for t in tiles)).score > 0
    text = write_gcg(game)
    assert f"#words-added {word}\n" in text and "#words-removed CASA\n" in text
    assert f"#lexicon club-base+{variant.word_changes.digest[:8]}\n" in text
    record = read_gcg(text)
    assert gcg_variant(record, load_variant("fise")).word_changes == variant.word_changes
    assert replay_gcg(record, load_variant("fise")) == [p.score for p in game.players]


def test_a_long_list_takes_several_gcg_lines(base: WordListLexicon) -> None:
    added = [f"CASA{'S' * n}O" for n in range(45)]
    rules = _club_rules(f'[words]\ncheck = "immediate"\nadd = {json.dumps(added)}')
    game = Game(variant_from_toml(rules, source="club.toml"), ["Ana", "Luis"], base, seed=3)
    lines = [line for line in write_gcg(game).splitlines() if line.startswith("#words-added")]
    assert [len(line.split()) - 1 for line in lines] == [20, 20, 5]
    assert set(read_gcg(write_gcg(game)).words_added) == set(added)


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def test_the_command_line_adds_and_bans_words(tmp_path: Path) -> None:
    words = tmp_path / "words.txt"
    words.write_text("\n".join(BASE) + "\n", "utf-8")
    added = tmp_path / "added.txt"
    added.write_text("# the club's words\nocasa\n", "utf-8")
    banned = tmp_path / "banned.txt"
    banned.write_text("CASA\n", "utf-8")
    common = ["--lexicon", str(words), "--add-words", str(added), "--remove-words", str(banned)]
    code, out = _run("word", "--json", *common, "OCASA", "CASA", "COSA")
    assert code == 1
    assert {r["word"]: r["valid"] for r in json.loads(out)} == {
        "OCASA": True,
        "CASA": False,
        "COSA": True,
    }
    cgp = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 ACSAOEE/ 0/0 0 var fise;"
    code, out = _run("moves", "--json", "--all", *common, cgp)
    assert code == 0
    played = {m["move"].split()[1] for m in json.loads(out) if m["kind"] == "place"}
    assert "OCASA" in played and "CASA" not in played and "COSA" in played


def test_the_command_line_names_a_bad_list(tmp_path: Path) -> None:
    added = tmp_path / "added.txt"
    added.write_text("ocasa\nca-sa\n", "utf-8")
    code, out = _run("word", "--lexicon", "none", "--add-words", str(added), "OCASA")
    assert code == 2 and "added.txt, line 2: 'ca-sa'" in out
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing yet\n", "utf-8")
    code, out = _run("word", "--remove-words", str(empty), "CASA")
    assert code == 2 and "empty.txt: no words in it" in out


def test_the_shipped_dictionary_with_changes_is_loaded_once(tmp_path: Path) -> None:
    """The same changes over the same list give the same graph, built once into the cache."""
    words = tmp_path / "words.txt"
    words.write_text("\n".join(BASE) + "\n", "utf-8")
    base = load_lexicon(str(words), SPANISH)
    changes = WordChanges.of(["ocasa"], [], SPANISH)
    first = amended_lexicon(base, changes, show_progress=False)
    assert amended_lexicon(base, changes, show_progress=False) is first
