"""Usernames people cannot mistake for one another.

A name is stored as NFKC normalises it (fullwidth "ａｎｎａ" is "anna"). A name may not mix Latin letters
with Cyrillic or Greek ones (a Cyrillic "а" inside "anna" is the classic look-alike), and it is taken
when its *skeleton* — lower case, every Cyrillic and Greek letter that looks like a Latin one replaced
by that letter (Unicode's confusables for these scripts) — equals the skeleton of an existing name: so
"аnna", "АNNA" and "ａｎｎａ" are all "anna". Names in one script stay free ("Анна" is not "Anna";
"Jānis" is not "Janis": a macron is seen).
"""
from __future__ import annotations

import unicodedata

from django.contrib.auth import get_user_model
from django.db.models.functions import Length

# Cyrillic and Greek letters that look like Latin ones (lower case; Unicode's confusables.txt, the
# letters that matter for names in these scripts)
LOOKALIKES = str.maketrans({
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c",
    "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ї": "i", "ј": "j", "һ": "h", "ԁ": "d", "ԛ": "q",
    "ԝ": "w", "ӏ": "l", "ɡ": "g",
    "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t",
    "υ": "u", "χ": "x", "ϲ": "c", "ϳ": "j", "ѵ": "v",
})


def normalised(name: str) -> str:
    """The name as it is stored: NFKC (compatibility forms such as fullwidth letters become plain)."""
    return unicodedata.normalize("NFKC", name)


def skeleton(name: str) -> str:
    """What the name looks like: NFKC, lower case, look-alike letters as the Latin ones."""
    return normalised(name).casefold().translate(LOOKALIKES)


def _script(ch: str) -> str | None:
    if not ch.isalpha():
        return None
    try:
        word = unicodedata.name(ch).split(" ")[0]
    except ValueError:
        return None
    return {"LATIN": "latin", "CYRILLIC": "cyrillic", "GREEK": "greek"}.get(word, "other")


def mixes_scripts(name: str) -> bool:
    """Whether the name has Latin letters together with Cyrillic or Greek ones."""
    scripts = {s for s in map(_script, normalised(name)) if s in ("latin", "cyrillic", "greek")}
    return "latin" in scripts and len(scripts) > 1


def look_alike_taken(name: str) -> bool:
    """Whether an existing username looks like ``name`` (the same skeleton), itself included. Only names
    as long can look alike (the skeleton keeps the length of a name in these scripts)."""
    target = skeleton(name)
    others = (get_user_model().objects.annotate(chars=Length("username")).filter(chars=len(target))
              .values_list("username", flat=True))
    return any(skeleton(other) == target for other in others)
