"""What a client may ask of a server: names people can tell apart, and games that end.

Names. A name is normalised (NFKC, so that full-width and compatibility forms
become the plain letters they look like), needs a letter or digit that can be seen
(no name of blanks, fillers or lone accents), must fit :data:`NAME_WIDTH` columns
(a wide East Asian character takes two), carries at most :data:`MARKS_PER_LETTER`
combining marks on a letter (no "Zalgo" text), keeps each word in one script
(Unicode TR39's single-script rule: «Аnna» with a Cyrillic А is refused), and is
refused when its *skeleton* equals another seat's: the skeleton maps the Cyrillic
and Greek letters that TR39's confusables list draws like Latin ones to those
Latin letters, then case-folds.

Options. Every whole-number option of RULES.md (§1 sheet, §2 «Тысяча», §3 showdown)
has bounds here, so that no table can be created for a game that never ends
(``target=1000000000``) or that takes a server's memory (``rounds=10**9``).

Addresses. The per-address limits count an IPv6 client by its /64 network, and an
IPv4-mapped IPv6 address as the IPv4 address it is (:func:`address_group`).
"""

from __future__ import annotations

import dataclasses
import ipaddress
import re
import unicodedata
from collections.abc import Iterable
from typing import Any

from kosti.rules.presets import Variant
from kosti.server.refusal import Refusal

NAME_WIDTH = 24
"""Columns a name may take on screen."""

MARKS_PER_LETTER = 2
"""Combining marks one letter may carry («й» and «ё» are one letter after NFKC anyway)."""

# From Unicode TR39 confusables.txt: the Cyrillic and Greek letters whose glyphs are
# those of Latin letters (upper and lower case), mapped to those letters.
_LOOKALIKES = str.maketrans(
    "АВЕЅІЈКМНОРСТХУаеіјорсхуѕԁԛԝһӏΑΒΕΖΗΙΚΜΝΟΡΤΥΧαικνορυχ",
    "ABESIJKMHOPCTXYaeijopcxysdqwhlABEZHIKMNOPTYXaikvopux",
)

_BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5\u180e")
"""Characters drawn as nothing that Unicode does not class as space or format: the Hangul
fillers (letters by category), the Braille blank, the Khmer inherent vowels and the Mongolian
vowel separator. NFKC maps the compatibility fillers (U+3164, U+FFA0) to U+1160."""

OPTION_BOUNDS: dict[str, tuple[int, int]] = {
    # common (RULES.md §0)
    "stake": (0, 1_000),
    # the sheet (§1)
    "poker_bonus": (0, 1_000),
    "four_bonus": (0, 1_000),
    "upper_bonus_points": (0, 1_000),
    "upper_penalty_points": (0, 1_000),
    "upper_threshold": (0, 1_000),
    "bank_value": (0, 1_000),
    "extra_yahtzee_bonus": (0, 1_000),
    "throws": (1, 10),
    # «Тысяча» (§2): a turn scores a few hundred at most, so every bound below lets a game end
    "target": (100, 10_000),
    "opening": (0, 500),
    "opening_fail_penalty": (0, 1_000),
    "opening_fail_every": (1, 100),
    "pits": (0, 10_000),
    "overtake_penalty": (0, 1_000),
    "dump_at": (0, 10_000),
    "bolt_limit": (0, 100),
    "bolt_penalty": (0, 1_000),
    "barrel_at": (0, 10_000),
    "barrel_attempts": (0, 100),
    "fall_penalty": (0, 1_000),
    "falls_limit": (0, 100),
    "dots_limit": (0, 100),
    # showdown (§3)
    "ante": (0, 1_000),
    "rounds": (1, 100),
}
"""The least and the most each whole-number option (or each number in it) may be."""


def check_options(rules: Variant) -> None:
    """:class:`Refusal` ``bad_variant`` when an option lies outside :data:`OPTION_BOUNDS`."""
    for field in dataclasses.fields(rules.options):
        value = getattr(rules.options, field.name)
        numbers = list(_numbers(value))
        if not numbers:
            continue
        if field.name not in OPTION_BOUNDS:
            raise Refusal("bad_variant", why="unbounded", option=field.name)
        low, high = OPTION_BOUNDS[field.name]
        for number in numbers:
            if not low <= number <= high:
                raise Refusal(
                    "bad_variant", why="bounds", option=field.name, low=low, high=high, value=number
                )


def _numbers(value: Any) -> list[int]:
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return []
    if isinstance(value, int):
        return [value]
    if isinstance(value, tuple | list):
        return [n for item in value for n in _numbers(item)]
    return []


def normalize_name(name: str) -> str:
    """The name as it will be shown (NFKC, trimmed), or :class:`Refusal` ``bad_name`` saying why."""
    name = unicodedata.normalize("NFKC", name).strip()
    if not name:
        raise Refusal("bad_name", why="letter")
    width = 0
    marks = 0
    for ch in name:
        category = unicodedata.category(ch)
        if category in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"):
            raise Refusal("bad_name", why="printable")
        if ch in _BLANKS:
            raise Refusal("bad_name", why="visible")
        if category in ("Mn", "Me"):
            marks += 1
            if marks > MARKS_PER_LETTER:
                raise Refusal("bad_name", why="marks", n=MARKS_PER_LETTER)
            continue
        marks = 0
        width += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    if not any(_visible_letter_or_digit(ch) for ch in name):
        raise Refusal("bad_name", why="visible_letter")
    if width > NAME_WIDTH:
        raise Refusal("bad_name", why="width", n=NAME_WIDTH)
    for word in re.findall(r"[^\W\d_]+", name):
        scripts = {_script(ch) for ch in word}
        if len(scripts) > 1:
            raise Refusal("bad_name", why="alphabet", word=word)
    return name


def _visible_letter_or_digit(ch: str) -> bool:
    return unicodedata.category(ch)[0] in "LN" and ch not in _BLANKS


def skeleton(name: str) -> str:
    """What a name looks like: two names with one skeleton cannot be told apart at a glance."""
    # upper case first, so that a word reads the same in either case («УМНИК» and «Умник»: the
    # Cyrillic capitals М, Н, К are drawn as Latin ones, their small letters are not); then the
    # small letters that only look Latin in small form (һ, ԁ)
    shown = unicodedata.normalize("NFKC", name).upper().translate(_LOOKALIKES)
    return " ".join(shown.casefold().translate(_LOOKALIKES).split())


def distinct_name(name: str, shown: Iterable[str]) -> str:
    """``name`` normalised (:func:`normalize_name`), unless it looks like (same :func:`skeleton`)
    one of the names ``shown`` at the table: then :class:`Refusal` ``name_taken`` naming that one.

    >>> distinct_name("  Вера ", ["Умник"])
    'Вера'
    >>> distinct_name("умник", ["Умник"])
    Traceback (most recent call last):
    ...
    kosti.server.refusal.Refusal: someone at this table is called Умник already
    """
    name = normalize_name(name)
    mine = skeleton(name)
    for other in shown:
        if skeleton(other) == mine:
            raise Refusal("name_taken", why="player", name=other)
    return name


def _script(ch: str) -> str:
    """The script of a letter, from its Unicode name (``LATIN``, ``CYRILLIC``, ``GREEK`` …)."""
    return unicodedata.name(ch, "UNKNOWN").split(" ", 1)[0]


IPV6_GROUP = 64
"""The prefix length of the IPv6 networks whose addresses count as one client (:func:`address_group`)."""


def address_group(address: str) -> str:
    """What the per-address limits (requests, live tables) count ``address`` as: an IPv4 address
    itself; an IPv6 address its /64 network (``2001:db8:1:2::/64``), for one line or host is
    given a whole /64 and can take any address in it; an IPv4-mapped IPv6 address
    (``::ffff:192.0.2.1``) its IPv4 address. Anything else (not an IP address) is its own group."""
    try:
        ip = ipaddress.ip_address(address.strip().strip("[]"))
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        # by its number: the scope of a link-local address (fe80::1%eth0) is no part of its network
        return str(ipaddress.IPv6Network((int(ip), IPV6_GROUP), strict=False))
    return str(ip)
