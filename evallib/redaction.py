"""What must never leave the machine in a file a user shares: provider keys, credentials in a URL,
local paths. Used by the room's attempts and by the run bundles before anything is written."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from pathlib import Path

#: Text that looks like a provider key or an authorisation header (OpenAI/Anthropic style keys,
#: "Bearer ..."), whatever field it hides in.
KEY_LIKE = re.compile(r"\b(sk-[A-Za-z0-9_\-]{16,}|Bearer\s+[A-Za-z0-9._\-]{16,})")
#: A URL carrying a user name and password (``https://user:secret@host``). The scheme starts where a
#: word starts (the look-behind): otherwise every letter of a long run of letters, such as a ratings
#: file's cell, would start a scan to the end of the run, and a 130 kB cell took minutes.
URL_CREDENTIALS = re.compile(r"(?<![a-z0-9+.\-])[a-z][a-z0-9+.\-]*://[^/\s:@]+:[^/\s@]+@", re.IGNORECASE)
ROOT = Path(__file__).resolve().parent.parent


def strings(value: object) -> Iterator[str]:
    """Every string in a JSON-like value, keys included, depth first."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for k, v in value.items():
            yield str(k)
            yield from strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from strings(v)


def local_prefixes() -> tuple[str, ...]:
    """The folders whose path would tell where this machine keeps things: the project and the home folder."""
    return tuple(p for p in {str(ROOT), str(Path.home())} if len(p) > 1)


def leak(value: object) -> str | None:
    """The kind of the first secret found in ``value`` ("key", "url_credentials", "local_path") or None."""
    prefixes = local_prefixes()
    for text in strings(value):
        if KEY_LIKE.search(text):
            return "key"
        if URL_CREDENTIALS.search(text):
            return "url_credentials"
        if any(prefix in text for prefix in prefixes):
            return "local_path"
    return None
