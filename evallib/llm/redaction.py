"""What must never leave the machine in a file a user shares or a text a page shows: provider keys,
credentials in a URL, secret header values, local paths.

One function hides secrets wherever a URL or an error text goes out (a printed line, a page, a
recording, a run bundle, a room attempt): `redact` for a JSON-like value, `redact_text` for one
text, `redact_url` for one URL. What it hides, each replaced by `REDACTED`:

- a URL's userinfo of any shape: ``token@``, ``user:pass@``, ``:pass@`` (``http://***@host/v1``);
- the value of a key-like query parameter or fragment parameter (`is_secret_name`: ``key``,
  ``api_key``, ``apikey``, ``token``, ``access_token``, ``secret``, ``password``, ``sig``..., any case);
- the value of a secret header written in a text (``Authorization: Bearer ...``, ``x-api-key: ...``,
  ``api-key=...``), keeping the scheme word (``Bearer ***``); `redact_headers` does a mapping;
- a provider key standing alone (`KEY_LIKE`: ``sk-...``, ``hf_...``, ``Bearer ...``).

URLs are taken apart with the standard library (`urllib.parse.urlsplit`); only the parts above are
rewritten, the rest of the URL stays as typed. `leak` says whether a value still holds one of them
(or a local path): the run bundles and the room's attempts refuse such values.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from urllib.parse import unquote_plus, urlsplit, urlunsplit

#: What replaces a secret.
REDACTED = "***"
#: Text that looks like a provider key or an authorisation header (OpenAI/Anthropic style keys,
#: Hugging Face tokens, "Bearer ..."), whatever field it hides in.
KEY_LIKE = re.compile(r"\b(sk-[A-Za-z0-9_\-]{16,}|hf_[A-Za-z0-9]{16,}|Bearer\s+[A-Za-z0-9._\-]{16,})")
#: A URL in a text, from its scheme to the next blank or quote, less a closing punctuation mark. The scheme starts where a word starts
#: (the look-behind): otherwise every letter of a long run of letters, such as a ratings file's cell,
#: would start a scan to the end of the run, and a 130 kB cell took minutes.
URL_IN_TEXT = re.compile(r"(?<![a-z0-9+.\-])[a-z][a-z0-9+.\-]*://[^\s<>\"'`]*[^\s<>\"'`.,;:!?)\]]",
                         re.IGNORECASE)
#: Parameter and header names that are secrets themselves (compared lower-cased, "-" read as "_").
SECRET_NAMES = frozenset({
    "key", "api_key", "apikey", "x_api_key", "token", "access_token", "refresh_token", "id_token", "auth",
    "auth_token", "x_auth_token", "authorization", "proxy_authorization", "secret", "client_secret",
    "password", "passwd", "pwd", "pass", "sig", "signature", "x_amz_signature", "x_amz_security_token",
    "credential", "credentials", "session", "sessionid", "cookie", "set_cookie", "code"})
#: Words that make any name a secret's (``x-goog-api-key``, ``subscription-key``, ``hf_token``).
SECRET_WORDS = ("key", "token", "secret", "passw", "auth", "signature", "credential")
#: A secret header written in a text: its name, the separator, an optional scheme word, the value.
HEADER_IN_TEXT = re.compile(
    r"(?<![A-Za-z0-9_\-])((?:proxy-)?authorization|x-api-key|api-key|x-goog-api-key|anthropic-api-key"
    r"|ocp-apim-subscription-key|x-auth-token|set-cookie|cookie)"
    r"([\"']?\s*[:=]\s*[\"']?)((?:bearer|basic|token|digest)\s+)?([^\s\"',;}()\[\]]+)", re.IGNORECASE)
ROOT = Path(__file__).resolve().parent.parent


def is_secret_name(name: str) -> bool:
    """Whether a query parameter or header called ``name`` carries a secret (`SECRET_NAMES`, `SECRET_WORDS`).

    >>> [is_secret_name(n) for n in ("API-Key", "sig", "x-goog-api-key", "model", "page")]
    [True, True, True, False, False]
    """
    norm = unquote_plus(name).strip().lower().replace("-", "_")
    return norm in SECRET_NAMES or any(word in norm for word in SECRET_WORDS)


def _redact_parameters(text: str) -> str:
    """``a=1&key=x`` with the values of secret names replaced; other parameters kept as typed."""
    if "=" not in text:
        return text
    parts = []
    for part in re.split(r"([&;])", text):
        name, equal, value = part.partition("=")
        parts.append(f"{name}={REDACTED}" if equal and value and value != REDACTED and is_secret_name(name) else part)
    return "".join(parts)


def redact_url(url: str) -> str:
    """``url`` without its userinfo nor the values of its secret parameters (module docstring).

    >>> redact_url("http://hf_abc@127.0.0.1:8000/v1?api_key=k&model=m")
    'http://***@127.0.0.1:8000/v1?api_key=***&model=m'
    >>> redact_url("https://user:pw@host/v1"), redact_url("http://:pw@host"), redact_url("http://host/v1")
    ('https://***@host/v1', 'http://***@host', 'http://host/v1')

    A text that does not parse as a URL (an unclosed ``[`` of an IPv6 host) loses everything
    between ``://`` and the last ``@`` of its address part. Never raises.
    """
    try:
        parts = urlsplit(url)
    except ValueError:
        return re.sub(r"://[^/?#\s]*@", f"://{REDACTED}@", url)
    netloc = parts.netloc
    userinfo, at, host = netloc.rpartition("@")
    if at and userinfo != REDACTED:
        netloc = f"{REDACTED}@{host}"
    rebuilt = (parts.scheme, netloc, parts.path, _redact_parameters(parts.query), _redact_parameters(parts.fragment))
    if rebuilt == tuple(parts):
        return url
    return urlunsplit(rebuilt)


def _redact_header(match: re.Match) -> str:
    name, separator, scheme, value = match.groups()
    return match.group(0) if value == REDACTED else f"{name}{separator}{scheme or ''}{REDACTED}"


def redact_text(text: str) -> str:
    """``text`` with every URL in it passed through `redact_url`, secret header values and stand-alone
    keys replaced by `REDACTED`.

    >>> redact_text("No server answered at http://tok@host/v1 (Authorization: Bearer abc).")
    'No server answered at http://***@host/v1 (Authorization: Bearer ***).'
    """
    if "://" in text:
        text = URL_IN_TEXT.sub(lambda m: redact_url(m.group(0)), text)
    text = HEADER_IN_TEXT.sub(_redact_header, text)
    return KEY_LIKE.sub(REDACTED, text)


def redact_headers(headers: Mapping[str, object]) -> dict:
    """A copy of ``headers`` with the value of each secret-named header (`is_secret_name`) replaced."""
    return {name: REDACTED if is_secret_name(str(name)) else redact(value) for name, value in headers.items()}


def redact(value: object) -> object:
    """A copy of a JSON-like value (dicts, lists, tuples, strings, numbers) with `redact_text` applied
    to every string in it, keys of mappings included; other values are returned as they are."""
    if isinstance(value, str):
        return redact_text(value)
    if isinstance(value, Mapping):
        return {redact(k) if isinstance(k, str) else k: redact(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [redact(v) for v in value] if isinstance(value, list) else tuple(redact(v) for v in value)
    return value


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
    """The kind of the first secret found in ``value`` ("key", "url_credentials", "local_path") or None.

    "key": a stand-alone key or a secret header value; "url_credentials": a URL's userinfo or a
    secret query parameter. What `redact` left (`REDACTED`) is not a leak.
    """
    prefixes = local_prefixes()
    for text in strings(value):
        if KEY_LIKE.search(text) or HEADER_IN_TEXT.sub(_redact_header, text) != text:
            return "key"
        if "://" in text and any(redact_url(m.group(0)) != m.group(0) for m in URL_IN_TEXT.finditer(text)):
            return "url_credentials"
        if any(prefix in text for prefix in prefixes):
            return "local_path"
    return None
