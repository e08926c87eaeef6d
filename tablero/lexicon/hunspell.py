"""A small reader of hunspell dictionaries and an expander of their affix rules.

The games need *complete* word lists (every plural, every verb form), while hunspell
dictionaries store stems plus affix rules.  Debian's ``unmunch`` is known to mis-expand
RLA-ES (it leaks flags and mixes flag classes), so this module re-implements the parts of
hunspell(5) that generation needs, following what ``hunspell`` itself accepts when it
checks a word:

* ``SET`` (file encoding) and ``FLAG`` (default one-character, ``long``, ``num``,
  ``UTF-8``), ``AF`` flag aliases, ``IGNORE`` characters, ``FULLSTRIP``;
* ``PFX`` / ``SFX`` classes: strip strings, appended strings, conditions, the cross-product
  switch (a prefix and a suffix combine only if both classes say ``Y``);
* continuation classes on affixes: twofold suffixes (root + suffix + suffix), prefixes
  allowed by a suffix's continuation class and suffixes allowed by a prefix's;
* ``NEEDAFFIX`` (``PSEUDOROOT``) on stems and on affixes, ``FORBIDDENWORD``,
  ``ONLYINCOMPOUND`` (such stems/affixes produce no stand-alone word), ``CIRCUMFIX``.

Compounding is *not* generated: compounds are an open set, and the Spanish and Romanian
dictionaries this is written for do not use it.  ``COMPLEXPREFIXES`` (two prefixes) is not
supported either; :func:`load_dictionary` refuses such files rather than expanding them
wrongly.

Every produced word can be traced back to the dictionary entry and the rules that made it
(:class:`Derivation`), so callers can filter by rule (e.g. Spanish enclitic pronouns,
Romanian vocatives) instead of guessing from the spelling.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

__all__ = [
    "AffixClass",
    "AffixFile",
    "AffixRule",
    "Condition",
    "Derivation",
    "DicEntry",
    "Dictionary",
    "ExpandOptions",
    "HunspellFormatError",
    "load_dictionary",
    "parse_aff",
    "parse_dic",
]

AffixKind = Literal["PFX", "SFX"]
FlagMode = Literal["char", "long", "num", "UTF-8"]

#: hunspell's names for encodings mapped to Python codec names (hunspell's default is 8859-1).
_ENCODINGS = {
    "UTF-8": "utf-8",
    "KOI8-R": "koi8_r",
    "KOI8-U": "koi8_u",
    "CP1251": "cp1251",
    "MICROSOFT-CP1251": "cp1251",
    "ISCII-DEVANAGARI": "iso8859_1",
}


class HunspellFormatError(ValueError):
    """Raised for .aff/.dic content this reader cannot interpret faithfully."""


# --------------------------------------------------------------------------- conditions


@dataclass(frozen=True, slots=True)
class Condition:
    """An affix condition: a fixed-length pattern tested at one end of the stem.

    hunspell conditions are a sequence of units, each a literal character, ``.`` (any
    character) or a bracket class ``[abc]`` / ``[^abc]``.  Because every unit matches exactly
    one character, the pattern is tested on the last (suffix) or first (prefix) ``length``
    characters only, which is both what hunspell does and fast.
    """

    text: str
    length: int
    regex: re.Pattern[str]

    @classmethod
    def parse(cls, text: str) -> Condition:
        """Compile hunspell condition syntax into an anchored regular expression."""
        parts: list[str] = []
        i = 0
        while i < len(text):
            char = text[i]
            if char == "[":
                end = text.find("]", i + 1)
                if end < 0:
                    raise HunspellFormatError(f"unterminated [ in condition {text!r}")
                body = text[i + 1 : end]
                negate = body.startswith("^")
                chars = body[1:] if negate else body
                escaped = "".join(re.escape(c) for c in chars)
                parts.append(f"[{'^' if negate else ''}{escaped}]" if chars else ".")
                i = end + 1
            else:
                parts.append("." if char == "." else re.escape(char))
                i += 1
        return cls(text, len(parts), re.compile("".join(parts), re.DOTALL))

    def matches_end(self, word: str) -> bool:
        """True if the last characters of ``word`` satisfy the condition (suffixes)."""
        start = len(word) - self.length
        return start >= 0 and self.regex.fullmatch(word, start) is not None

    def matches_start(self, word: str) -> bool:
        """True if the first characters of ``word`` satisfy the condition (prefixes)."""
        return len(word) >= self.length and self.regex.fullmatch(word, 0, self.length) is not None

    @property
    def literal_tail(self) -> str:
        """The condition's trailing run of literal characters (used to reason about endings)."""
        out: list[str] = []
        for char in reversed(self.text):
            if char in ".[]^":
                break
            out.append(char)
        return "".join(reversed(out))


# --------------------------------------------------------------------------- affix rules


@dataclass(frozen=True, slots=True)
class AffixRule:
    """One ``PFX``/``SFX`` rule line.

    ``strip`` is removed from the stem, ``affix`` appended (suffix) or prepended (prefix) if
    ``condition`` holds on the stem.  ``cont`` holds the continuation classes written after
    ``/`` in the affix field: flags that the affixed word carries in turn.  ``index`` is the
    rule's position within its class, so a rule can be named as ``SFX R #12``.
    """

    kind: AffixKind
    flag: str
    strip: str
    affix: str
    condition: Condition
    cont: frozenset[str]
    cross: bool
    index: int
    morph: str = ""

    def applies_to(self, word: str, fullstrip: bool = False) -> bool:
        """True if the rule may be applied to ``word`` (strip present, condition holds).

        Like hunspell, a rule may not strip the whole stem unless ``FULLSTRIP`` is set.
        """
        if len(word) - len(self.strip) <= 0 and not (fullstrip and len(word) == len(self.strip)):
            return False
        if self.kind == "SFX":
            return word.endswith(self.strip) and self.condition.matches_end(word)
        return word.startswith(self.strip) and self.condition.matches_start(word)

    def apply(self, word: str) -> str:
        """Return ``word`` with this rule applied (call :meth:`applies_to` first)."""
        if self.kind == "SFX":
            stem = word[: len(word) - len(self.strip)] if self.strip else word
            return stem + self.affix
        return self.affix + word[len(self.strip) :]

    @property
    def name(self) -> str:
        """A stable human-readable identifier, e.g. ``SFX R #12 (r→se /ar)``."""
        strip = self.strip or "0"
        affix = self.affix or "0"
        return f"{self.kind} {self.flag} #{self.index} ({strip}→{affix} /{self.condition.text})"


@dataclass(slots=True)
class AffixClass:
    """All rules sharing one flag and kind, grouped by condition for speed."""

    kind: AffixKind
    flag: str
    cross: bool
    rules: list[AffixRule] = field(default_factory=list)


# --------------------------------------------------------------------------- .aff file


@dataclass(slots=True)
class AffixFile:
    """The parts of an .aff file that matter for generating words."""

    encoding: str = "iso8859_1"
    flag_mode: FlagMode = "char"
    aliases: list[frozenset[str]] = field(default_factory=list)
    alias_count: int | None = None
    prefixes: dict[str, AffixClass] = field(default_factory=dict)
    suffixes: dict[str, AffixClass] = field(default_factory=dict)
    needaffix: str | None = None
    forbiddenword: str | None = None
    onlyincompound: str | None = None
    circumfix: str | None = None
    ignore: str = ""
    fullstrip: bool = False
    complexprefixes: bool = False

    def parse_flags(self, text: str) -> frozenset[str]:
        """Decode a flag field (dictionary entry or continuation class) into flag names."""
        if self.aliases and text.isdigit():
            index = int(text)
            if not 1 <= index <= len(self.aliases):
                raise HunspellFormatError(f"flag alias {index} out of range")
            return self.aliases[index - 1]
        return frozenset(split_flags(text, self.flag_mode))

    def strip_ignored(self, text: str) -> str:
        """Remove ``IGNORE`` characters, as hunspell does for words and affixes."""
        if not self.ignore:
            return text
        return text.translate({ord(c): None for c in self.ignore})


def split_flags(text: str, mode: FlagMode) -> list[str]:
    """Split a raw flag string according to the ``FLAG`` type of the file."""
    if mode == "long":
        if len(text) % 2:
            raise HunspellFormatError(f"odd-length long flag field {text!r}")
        return [text[i : i + 2] for i in range(0, len(text), 2)]
    if mode == "num":
        return [str(int(part)) for part in text.split(",") if part.strip()]
    return list(text)


def _detect_encoding(raw: bytes) -> str:
    """Find ``SET`` in the raw .aff bytes (hunspell defaults to ISO 8859-1)."""
    match = re.search(rb"^[ \t]*SET[ \t]+(\S+)", raw, re.MULTILINE)
    if not match:
        return "iso8859_1"
    name = match.group(1).decode("ascii", "replace").upper()
    if name in _ENCODINGS:
        return _ENCODINGS[name]
    iso = re.fullmatch(r"ISO-?8859-(\d+)", name)
    if iso:
        return f"iso8859_{iso.group(1)}"
    raise HunspellFormatError(f"unsupported SET {name}")


def _read_text(path: Path, encoding: str) -> list[str]:
    """Read a file as lines in the dictionary's encoding, dropping a UTF-8 BOM."""
    text = path.read_bytes().decode(encoding, errors="strict")
    return text.removeprefix("\ufeff").splitlines()


_SIMPLE_FLAG_OPTIONS = {
    "NEEDAFFIX": "needaffix",
    "PSEUDOROOT": "needaffix",
    "FORBIDDENWORD": "forbiddenword",
    "ONLYINCOMPOUND": "onlyincompound",
    "CIRCUMFIX": "circumfix",
}


def parse_aff(lines: Iterable[str], encoding: str = "utf-8") -> AffixFile:
    """Parse the lines of an .aff file (already decoded)."""
    aff = AffixFile(encoding=encoding)
    pending: tuple[AffixClass, int] | None = None  # class being filled, rules still expected
    for raw_line in lines:
        line = raw_line.strip()
        if not line or line.startswith("#"):
            continue
        fields = line.split()
        if pending is not None:
            cls, remaining = pending
            if fields[0] == cls.kind and len(fields) >= 4 and fields[1] == cls.flag:
                cls.rules.append(_parse_rule(aff, cls, fields))
                pending = (cls, remaining - 1) if remaining > 1 else None
                continue
            pending = None  # short block: hunspell would complain; we just stop reading it
        pending = _parse_directive(aff, fields, pending)
    if aff.complexprefixes:
        raise HunspellFormatError("COMPLEXPREFIXES (two prefixes) is not supported")
    return aff


def _parse_directive(
    aff: AffixFile, fields: list[str], pending: tuple[AffixClass, int] | None
) -> tuple[AffixClass, int] | None:
    """Handle one non-rule line; return the affix class opened by a PFX/SFX header."""
    key = fields[0]
    if key == "FLAG" and len(fields) > 1:
        aff.flag_mode = _parse_flag_mode(fields[1])
    elif key == "AF" and len(fields) > 1:
        if aff.alias_count is None and fields[1].isdigit():
            aff.alias_count = int(fields[1])  # the header line: number of aliases
        else:
            aff.aliases.append(frozenset(split_flags(fields[1], aff.flag_mode)))
    elif key in _SIMPLE_FLAG_OPTIONS and len(fields) > 1:
        setattr(aff, _SIMPLE_FLAG_OPTIONS[key], split_flags(fields[1], aff.flag_mode)[0])
    elif key == "IGNORE" and len(fields) > 1:
        aff.ignore = fields[1]
    elif key == "FULLSTRIP":
        aff.fullstrip = True
    elif key == "COMPLEXPREFIXES":
        aff.complexprefixes = True
    elif key in ("PFX", "SFX") and len(fields) >= 4:
        return _open_class(aff, key, fields)
    return pending


def _parse_flag_mode(value: str) -> FlagMode:
    """Map the ``FLAG`` directive's argument to a flag mode."""
    lowered = value.lower()
    if lowered == "long":
        return "long"
    if lowered == "num":
        return "num"
    if lowered in ("utf-8", "utf8"):
        return "UTF-8"
    raise HunspellFormatError(f"unknown FLAG type {value!r}")


def _open_class(aff: AffixFile, kind: str, fields: list[str]) -> tuple[AffixClass, int] | None:
    """Register the class announced by a ``PFX``/``SFX`` header line."""
    if fields[2] not in ("Y", "N") or not fields[3].isdigit():
        raise HunspellFormatError(f"malformed affix header: {' '.join(fields)}")
    affix_kind: AffixKind = "PFX" if kind == "PFX" else "SFX"
    table = aff.prefixes if affix_kind == "PFX" else aff.suffixes
    flag = fields[1]
    cls = table.get(flag)
    if cls is None:
        cls = table[flag] = AffixClass(affix_kind, flag, fields[2] == "Y")
    count = int(fields[3])
    return (cls, count) if count > 0 else None


def _parse_rule(aff: AffixFile, cls: AffixClass, fields: list[str]) -> AffixRule:
    """Build one rule from its fields: kind flag strip affix[/cont] [condition [morph...]]."""
    strip = "" if fields[2] == "0" else aff.strip_ignored(fields[2])
    affix_field, _, cont_text = fields[3].partition("/")
    affix = "" if affix_field == "0" else aff.strip_ignored(affix_field)
    condition = fields[4] if len(fields) > 4 and not fields[4].startswith("#") else "."
    morph = " ".join(fields[5:]) if len(fields) > 5 else ""
    return AffixRule(
        kind=cls.kind,
        flag=cls.flag,
        strip=strip,
        affix=affix,
        condition=Condition.parse(condition),
        cont=aff.parse_flags(cont_text) if cont_text else frozenset(),
        cross=cls.cross,
        index=len(cls.rules),
        morph=morph,
    )


# --------------------------------------------------------------------------- .dic file


@dataclass(frozen=True, slots=True)
class DicEntry:
    """One line of the .dic file: a stem and its flags (homonyms are separate entries)."""

    word: str
    flags: frozenset[str]
    line: int


_MORPH_FIELD = re.compile(r"\s+[a-z][a-z]:")


def _split_dic_line(line: str) -> tuple[str, str]:
    """Split ``word[/flags][ morph...]`` honouring ``\\/`` escapes; return (word, flags)."""
    body = line.split("\t", 1)[0]
    morph = _MORPH_FIELD.search(body)
    if morph:
        body = body[: morph.start()]
    body = body.rstrip()
    slash = -1
    i = 0
    while i < len(body):
        if body[i] == "\\":
            i += 2
            continue
        if body[i] == "/" and i > 0:
            slash = i
            break
        i += 1
    word, flags = (body, "") if slash < 0 else (body[:slash], body[slash + 1 :])
    return word.replace("\\/", "/"), flags


def parse_dic(lines: Sequence[str], aff: AffixFile) -> list[DicEntry]:
    """Parse .dic lines (the first, the approximate entry count, is skipped)."""
    entries: list[DicEntry] = []
    start = 1 if lines and lines[0].strip().isdigit() else 0
    for number, line in enumerate(lines[start:], start=start + 1):
        if not line.strip() or line.startswith("\t"):
            continue
        word, flag_text = _split_dic_line(line)
        word = aff.strip_ignored(word)
        if word:
            entries.append(DicEntry(word, aff.parse_flags(flag_text), number))
    return entries


# --------------------------------------------------------------------------- expansion


@dataclass(frozen=True, slots=True)
class Derivation:
    """A generated word together with how it was made.

    ``suffixes`` lists the suffix rules innermost first (at most two: hunspell's twofold
    suffix stripping); ``prefix`` is the prefix rule, if any.
    """

    word: str
    entry: DicEntry
    prefix: AffixRule | None = None
    suffixes: tuple[AffixRule, ...] = ()

    @property
    def rules(self) -> tuple[AffixRule, ...]:
        """All rules used, prefix first."""
        return ((self.prefix,) if self.prefix else ()) + self.suffixes


RuleFilter = Callable[[AffixRule], bool]


@dataclass(frozen=True)
class ExpandOptions:
    """What to generate.

    ``prefixes=False`` skips every prefix rule (Romanian: they invent non-words).
    ``skip_flags`` drops whole affix classes; ``rule_filter`` returns False for individual
    rules to drop (e.g. the enclitic-pronoun rules inside Spanish verb classes).  Skipped
    rules are treated as if absent from the .aff file.
    """

    prefixes: bool = True
    skip_flags: frozenset[str] = frozenset()
    rule_filter: RuleFilter | None = None


class Dictionary:
    """A loaded hunspell dictionary that can enumerate the words it accepts."""

    def __init__(self, aff: AffixFile, entries: list[DicEntry]) -> None:
        self.aff = aff
        self.entries = entries

    # -- public API ------------------------------------------------------------------

    def expand(self, options: ExpandOptions | None = None) -> Iterator[str]:
        """Yield every distinct word the dictionary accepts (no compounds), in entry order."""
        seen: set[str] = set()
        forbidden = self.forbidden_words()
        for derivation in self.derivations(options):
            word = derivation.word
            if word not in seen and word not in forbidden:
                seen.add(word)
                yield word

    def derivations(self, options: ExpandOptions | None = None) -> Iterator[Derivation]:
        """Yield every derivation of every entry (duplicates possible across entries)."""
        opts = options or ExpandOptions()
        for entry in self.entries:
            yield from self.derive(entry, opts)

    def forbidden_words(self) -> frozenset[str]:
        """Stems marked ``FORBIDDENWORD``: hunspell rejects them even if generated elsewhere."""
        flag = self.aff.forbiddenword
        if flag is None:
            return frozenset()
        return frozenset(e.word for e in self.entries if flag in e.flags)

    def derive(self, entry: DicEntry, options: ExpandOptions) -> Iterator[Derivation]:
        """Yield all derivations of one entry (the bare stem included when valid)."""
        if self._excluded(entry.flags):
            return
        bases = [Derivation(entry.word, entry), *self._suffixed(entry, entry.flags, options)]
        for base in bases:
            if self._valid(base):
                yield base
        if options.prefixes:
            yield from self._prefixed(entry, bases, options)

    # -- helpers -----------------------------------------------------------------------

    def _excluded(self, flags: frozenset[str]) -> bool:
        """Stems/affixes that can never form a stand-alone word."""
        aff = self.aff
        return (aff.forbiddenword is not None and aff.forbiddenword in flags) or (
            aff.onlyincompound is not None and aff.onlyincompound in flags
        )

    def _rules(
        self, table: dict[str, AffixClass], flags: Iterable[str], options: ExpandOptions
    ) -> Iterator[AffixRule]:
        """Rules of the given flags in ``table`` that the options keep."""
        keep = options.rule_filter
        for flag in sorted(flags):
            cls = table.get(flag)
            if cls is None or flag in options.skip_flags:
                continue
            for rule in cls.rules:
                if keep is None or keep(rule):
                    yield rule

    def _suffixed(
        self, entry: DicEntry, flags: frozenset[str], options: ExpandOptions
    ) -> Iterator[Derivation]:
        """Root + suffix, and root + suffix + suffix (twofold) derivations."""
        fullstrip = self.aff.fullstrip
        for rule in self._rules(self.aff.suffixes, flags, options):
            if not rule.applies_to(entry.word, fullstrip) or self._excluded(rule.cont):
                continue
            once = Derivation(rule.apply(entry.word), entry, None, (rule,))
            yield once
            for outer in self._rules(self.aff.suffixes, rule.cont, options):
                if outer.applies_to(once.word, fullstrip) and not self._excluded(outer.cont):
                    yield Derivation(outer.apply(once.word), entry, None, (rule, outer))

    def _prefixed(
        self, entry: DicEntry, bases: list[Derivation], options: ExpandOptions
    ) -> Iterator[Derivation]:
        """Prefix applied to the stem or to a suffixed form (cross-product permitting)."""
        fullstrip = self.aff.fullstrip
        for base in bases:
            allowed = set(entry.flags)
            for sfx in base.suffixes:
                allowed |= sfx.cont
            for rule in self._rules(self.aff.prefixes, allowed, options):
                if base.suffixes and not (rule.cross and all(s.cross for s in base.suffixes)):
                    continue
                if rule.applies_to(base.word, fullstrip) and not self._excluded(rule.cont):
                    derivation = Derivation(rule.apply(base.word), entry, rule, base.suffixes)
                    if self._valid(derivation):
                        yield derivation
        yield from self._prefix_enabled_suffixes(entry, options)

    def _prefix_enabled_suffixes(
        self, entry: DicEntry, options: ExpandOptions
    ) -> Iterator[Derivation]:
        """prefix + stem + suffix where the suffix flag comes from the prefix's continuation."""
        fullstrip = self.aff.fullstrip
        for prefix in self._rules(self.aff.prefixes, entry.flags, options):
            extra = prefix.cont - entry.flags
            if not extra or not prefix.cross:
                continue
            for base in self._suffixed(entry, frozenset(extra), options):
                if not all(s.cross for s in base.suffixes):
                    continue
                if prefix.applies_to(base.word, fullstrip):
                    derivation = Derivation(prefix.apply(base.word), entry, prefix, base.suffixes)
                    if self._valid(derivation):
                        yield derivation

    def _valid(self, derivation: Derivation) -> bool:
        """Apply NEEDAFFIX and CIRCUMFIX to a complete derivation."""
        aff = self.aff
        rules = derivation.rules
        if aff.needaffix is not None:
            if not rules and aff.needaffix in derivation.entry.flags:
                return False
            if len(rules) == 1 and aff.needaffix in rules[0].cont:
                return False
            if rules and aff.needaffix in rules[-1].cont and derivation.prefix is None:
                return False
        if aff.circumfix is not None:
            in_prefix = derivation.prefix is not None and aff.circumfix in derivation.prefix.cont
            in_suffix = any(aff.circumfix in s.cont for s in derivation.suffixes)
            if in_prefix != in_suffix:
                return False
        return True


def load_dictionary(aff_path: str | Path, dic_path: str | Path) -> Dictionary:
    """Read an .aff/.dic pair (encoding taken from the .aff ``SET`` line)."""
    aff_file = Path(aff_path)
    encoding = _detect_encoding(aff_file.read_bytes())
    aff = parse_aff(_read_text(aff_file, encoding), encoding)
    entries = parse_dic(_read_text(Path(dic_path), encoding), aff)
    return Dictionary(aff, entries)
