"""What one browser finds again after a restart of the server: its plain settings and edits, its live answers.

Keyed by the browser key (`evallib.room.browser_cookie.browser_key`: the SHA-256 hex of the cookie the
server set, 64 characters; never the cookie itself). Two tables on the room's `metadata`, in the room's
database (SQLite file or PostgreSQL), so that they survive the process and several processes share them:

- ``browser_values``: one row per browser, a JSON object of plain values (str, int, float, bool, None,
  lists and objects of them) by session-state key, replaced as a whole. `plain_values` decides what may go there:
  nothing whose key or value looks like a secret.
- ``browser_answers``: one row per (browser, request key, endpoint fingerprint), the answer as its
  ``to_dict()`` JSON and its kind (``chat`` or ``embedding``). A unique constraint makes a second write of
  the same answer (two tabs of one browser, a retry) replace the first instead of doubling it.

Every database failure is `RoomStorageError` ``unavailable`` (nothing stored), as in
`evallib.room.storage`. Pure Python: no Streamlit here.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterable, Mapping

from sqlalchemy import Column, Float, String, Table, Text, UniqueConstraint, delete, select, tuple_
from sqlalchemy.engine import Connection, Engine

from evallib.llm.request import ChatResult, EmbeddingResult
from evallib.room.storage import engine_transaction, make_engine, metadata

browser_values = Table(
    "browser_values", metadata,
    Column("browser", String(64), primary_key=True),
    Column("data", Text, nullable=False),
    Column("updated_at", Float, nullable=False))
browser_answers = Table(
    "browser_answers", metadata,
    Column("browser", String(64), nullable=False, index=True),
    Column("request_key", String(128), nullable=False),
    Column("fingerprint", String(128), nullable=False),
    Column("kind", String(16), nullable=False),
    Column("result", Text, nullable=False),
    Column("stored_at", Float, nullable=False),
    UniqueConstraint("browser", "request_key", "fingerprint"))

RESULT_KINDS = {"chat": ChatResult, "embedding": EmbeddingResult}
#: A session-state key that names a secret (never stored, whatever its value).
SECRET_NAME = re.compile(r"key|token|secret|passw|credential|auth", re.IGNORECASE)
#: A value shaped like an API key or a token (OpenAI/Anthropic "sk-", Hugging Face "hf_", GitHub, bearer).
SECRET_VALUE = re.compile(r"\b(sk-|hf_|ghp_|gho_|xox[bp]-|Bearer\s)\S+|://[^/\s]*@", re.IGNORECASE)
#: The longest text value kept, in characters (a pasted book is not a setting).
MAX_VALUE_CHARS = 20_000
#: A browser key as `browser_key` gives it.
BROWSER_KEY = re.compile(r"[0-9a-f]{64}")
_PLAIN = (str, int, float, bool, type(None))


#: How deep a kept value may nest lists and objects (an edited table: a list of rows of cells).
MAX_DEPTH = 4


def _texts(value: object, depth: int = 0) -> list[str] | None:
    """Every string inside ``value`` (keys of objects included), or None when ``value`` is not plain."""
    if isinstance(value, str):
        return [value] if len(value) <= MAX_VALUE_CHARS else None
    if isinstance(value, _PLAIN):
        return []
    if depth >= MAX_DEPTH or not isinstance(value, (list, tuple, dict)):
        return None
    items = list(value.values()) if isinstance(value, dict) else list(value)
    if isinstance(value, dict) and not all(isinstance(k, str) for k in value):
        return None
    found = list(value) if isinstance(value, dict) else []
    for item in items:
        inner = _texts(item, depth + 1)
        if inner is None:
            return None
        found += inner
    return found


def _as_json(value: object) -> object:
    if isinstance(value, dict):
        return {k: _as_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_as_json(v) for v in value]
    return value


def plain_values(values: Mapping[str, object], secrets: Iterable[str] = ()) -> dict[str, object]:
    """The entries of ``values`` that may be written down: plain, and nothing like a secret.

    Plain: str (at most `MAX_VALUE_CHARS`), int, float, bool, None, and lists (tuples) or objects with
    str keys of plain values, nested at most `MAX_DEPTH` deep. Dropped: keys that name a secret
    (`SECRET_NAME`), values that are not plain, values holding text shaped like a key or a URL with
    credentials (`SECRET_VALUE`), and values holding any of ``secrets`` (the session's API key, say:
    given, so that a key typed in the wrong box is not written either). Tuples become lists.

    >>> plain_values({"llm_api_key": "sk-1", "llm_model": "m", "n": (3,), "t": "key is abcd"}, ["abcd"])
    {'llm_model': 'm', 'n': [3]}
    """
    secrets = [s for s in secrets if s and len(s) >= 4]
    kept: dict[str, object] = {}
    for key, value in values.items():
        texts = _texts(value)
        if not isinstance(key, str) or SECRET_NAME.search(key) or texts is None:
            continue
        if any(SECRET_VALUE.search(text) or any(s in text for s in secrets) for text in texts):
            continue
        kept[key] = _as_json(value)
    return kept


def _check_browser(browser: str) -> None:
    if not isinstance(browser, str) or not BROWSER_KEY.fullmatch(browser):
        raise ValueError("a browser key is 64 lower-case hex characters (evallib.room.browser_cookie)")


def _upsert(conn: Connection, table: Table, row: dict, keys: tuple[str, ...]) -> None:
    """Insert ``row``, or replace the row with the same ``keys`` (one statement, safe with several writers)."""
    if conn.dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert
    else:
        from sqlalchemy.dialects.sqlite import insert
    statement = insert(table).values(**row)
    conn.execute(statement.on_conflict_do_update(
        index_elements=list(keys), set_={k: statement.excluded[k] for k in row if k not in keys}))


class BrowserStateStore:
    """Per-browser values and live answers in one database (module docstring); thread-safe.

    Args:
        engine: an engine (the room's: `RoomStore.engine`) or a URL (`evallib.room.storage.make_engine`).
    Raises:
        RoomStorageError: ``unavailable`` when the tables cannot be created.
    """

    def __init__(self, engine: Engine | str | None = None) -> None:
        self.engine = engine if isinstance(engine, Engine) else make_engine(engine)
        with self._transaction() as conn:
            metadata.create_all(conn, tables=[browser_values, browser_answers])

    def _transaction(self, *, read_only: bool = False):
        return engine_transaction(self.engine, read_only=read_only)

    # ---------------------------------------------------------------- values
    def values(self, browser: str) -> dict[str, object]:
        """The values last saved for ``browser`` ({} when none); raises ValueError on a malformed key."""
        _check_browser(browser)
        with self._transaction(read_only=True) as conn:
            data = conn.execute(select(browser_values.c.data).where(browser_values.c.browser == browser)).scalar()
        try:
            loaded = json.loads(data) if data else {}
        except ValueError:
            return {}
        return plain_values(loaded) if isinstance(loaded, dict) else {}

    def save_values(self, browser: str, values: Mapping[str, object], secrets: Iterable[str] = ()) -> dict:
        """Replace what ``browser`` keeps by `plain_values(values, secrets)`; return what was written."""
        _check_browser(browser)
        kept = plain_values(values, secrets)
        with self._transaction() as conn:
            _upsert(conn, browser_values, {"browser": browser, "data": json.dumps(kept, sort_keys=True),
                                           "updated_at": time.time()}, ("browser",))
        return kept

    # ---------------------------------------------------------------- answers
    def add_answers(self, browser: str, answers: Iterable[tuple[str, str, object]]) -> int:
        """Store ``(request key, fingerprint, result)`` triples for ``browser`` in one transaction; return how many.

        ``result`` is a `ChatResult` or an `EmbeddingResult`; a later answer to the same slot replaces it.
        """
        _check_browser(browser)
        rows = []
        for request_key, fingerprint, result in answers:
            kind = next((k for k, cls in RESULT_KINDS.items() if isinstance(result, cls)), None)
            if kind is None:
                raise TypeError(f"not an answer: {type(result).__name__}")
            rows.append({"browser": browser, "request_key": request_key, "fingerprint": fingerprint, "kind": kind,
                         "result": json.dumps(result.to_dict()), "stored_at": time.time()})
        with self._transaction() as conn:
            for row in rows:
                _upsert(conn, browser_answers, row, ("browser", "request_key", "fingerprint"))
        return len(rows)

    def answers(self, browser: str) -> dict[tuple[str, str], object]:
        """Every answer stored for ``browser`` by (request key, fingerprint); unreadable rows are skipped."""
        _check_browser(browser)
        with self._transaction(read_only=True) as conn:
            rows = conn.execute(select(browser_answers.c.request_key, browser_answers.c.fingerprint,
                                       browser_answers.c.kind, browser_answers.c.result)
                                .where(browser_answers.c.browser == browser)).all()
        found = {}
        for request_key, fingerprint, kind, text in rows:
            try:
                found[(request_key, fingerprint)] = RESULT_KINDS[kind].from_dict(json.loads(text))
            except (KeyError, TypeError, ValueError):
                continue
        return found

    def forget_answers(self, browser: str, slots: Iterable[tuple[str, str]]) -> None:
        """Delete ``browser``'s answers in ``slots`` ((request key, fingerprint) pairs)."""
        _check_browser(browser)
        slots = list(slots)
        if not slots:
            return
        with self._transaction() as conn:
            conn.execute(delete(browser_answers).where(
                browser_answers.c.browser == browser,
                tuple_(browser_answers.c.request_key, browser_answers.c.fingerprint).in_(slots)))
