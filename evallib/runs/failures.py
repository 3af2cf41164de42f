"""Failed calls of a command-line run, grouped by cause and worded for a terminal, in English.

The page words a failure from its code and values (`evallib.llm.errors.Failure`, kept on each result
as ``error_details``) through its FR/EN catalogue; a command does the same here, with the causes the
page names (missing key, wrong key, unknown model, rate limit, server error, timeout, no server, not a model API...)
and hints that name the command's own options (``--base-url``, ``--model``, ``--timeout``, the key's
environment variable), never the page's sidebar.

A run is *measured* when every call was answered, or when the failed share stays within the share
the user accepted (``--max-failed-share``, 0 by default: every call must be answered). Otherwise the
command exits 2 (`evallib.runs.gate.EXIT_NOT_MEASURED`): a gate never passes or fails on a subset of
the answers without saying so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from evallib.llm.errors import MAX_MODELS_LISTED

#: The cause each failure code belongs to; a code not listed here falls under its result's kind.
CAUSE_OF_CODE = {
    "auth": "auth", "model_not_found": "model_not_found", "rate_limit": "rate_limit",
    "rate_limit_wait_refused": "rate_limit", "server": "server", "timeout": "timeout",
    "timeout_status": "timeout", "connection": "connection", "not_openai_api": "not_api",
    "not_anthropic_api": "not_api", "not_found": "not_found", "not_found_v1": "not_found",
    "prefill_refused": "prefill", "prefill_configured": "prefill",
    "connection_refused": "connection", "gateway": "server", "auth_missing": "missing_key", "bad_request_no_key": "missing_key",
}
#: How the terminal names each cause (the page's groups, in the page's English words).
CAUSE_NAMES = {
    "auth": "wrong key", "model_not_found": "unknown model", "rate_limit": "rate limit",
    "server": "server error", "timeout": "timeout", "connection": "no server", "not_api": "not a model API",
    "not_found": "nothing at this address", "prefill": "prefill refused", "bad_request": "request refused",
    "malformed": "unreadable answer", "missing_recording": "not recorded", "unexpected": "unexpected error",
    "missing_key": "missing key",
}
#: How many request labels a cause names before "and N more".
LABELS_SHOWN = 3


@dataclass(frozen=True)
class CommandOptions:
    """What a hint may name: the command's own options and the values they had.

    Attributes:
        key_variable: where the key was read (OPENAI_API_KEY or ANTHROPIC_API_KEY).
        model_options: the options naming models (``--model``; the judge has ``--generator``/``--judge``).
        timeout_s: ``--timeout`` (seconds per attempt); concurrency: ``--concurrency``.
        prefill_option: the option that turns an Anthropic prefill off ("" when the command has none).
    """

    key_variable: str = "OPENAI_API_KEY"
    model_options: tuple[str, ...] = ("--model",)
    timeout_s: float = 60.0
    concurrency: int = 8
    prefill_option: str = ""


@dataclass(frozen=True)
class FailureGroup:
    """The failed calls of one cause: how many, the first one's message and values, a hint, and which
    requests (``labels``, in input order)."""

    cause: str
    count: int
    message: str
    hint: str
    details: dict
    labels: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        return CAUSE_NAMES.get(self.cause, self.cause.replace("_", " "))

    def to_dict(self) -> dict:
        return {"cause": self.cause, "name": self.name, "count": self.count, "message": self.message,
                "hint": self.hint, "details": self.details, "requests": list(self.labels)}


@dataclass(frozen=True)
class CallFailures:
    """Every call of a run seen as answered or failed, the failures grouped by cause (largest first)."""

    calls: int
    groups: tuple[FailureGroup, ...]
    max_failed_share: float = 0.0

    @property
    def failed(self) -> int:
        return sum(group.count for group in self.groups)

    @property
    def failed_share(self) -> float | None:
        """failed / calls, None for a run without calls."""
        return self.failed / self.calls if self.calls else None

    @property
    def measured(self) -> bool:
        """True when some call was answered and the failed share is within ``max_failed_share``."""
        return self.calls > self.failed and self.failed_share <= self.max_failed_share

    def to_dict(self) -> dict:
        """The report's ``failures`` field."""
        return {"calls": self.calls, "failed": self.failed, "failed_share": self.failed_share,
                "max_failed_share": self.max_failed_share, "measured": self.measured,
                "causes": [group.to_dict() for group in self.groups]}

    def lines(self) -> list[str]:
        """The terminal's account: one paragraph per cause, then what it means for the gate."""
        out = []
        for group in self.groups:
            shown = ", ".join(group.labels[:LABELS_SHOWN])
            more = f" and {len(group.labels) - LABELS_SHOWN} more" if len(group.labels) > LABELS_SHOWN else ""
            out.append(f"{group.name}: {group.count} of {self.calls} calls ({shown}{more})")
            said = group.details.get("server_text", "")
            out.append(f"  {group.message}" + (f' The server says: "{said}"' if said and said not in group.message
                                               else ""))
            if group.hint:
                out.append(f"  hint: {group.hint}")
        if not self.failed:
            return out
        if self.measured:
            out.append(f"measured on the {self.calls - self.failed} answered calls: {self.failed} failed, "
                       f"within --max-failed-share {self.max_failed_share:g}")
        else:
            out.append(f"not measured: {self.failed} of {self.calls} calls failed "
                       + ("(none answered)" if self.failed == self.calls
                          else f"(more than --max-failed-share {self.max_failed_share:g})"))
        return out


def cause_of(result) -> str:
    """The cause of a failed result: from its failure code, else its error kind."""
    code = (result.error_details or {}).get("code", "")
    return CAUSE_OF_CODE.get(code) or result.error_kind or "unexpected"


def call_failures(results: Sequence, labels: Sequence[str], options: CommandOptions,
                  max_failed_share: float = 0.0) -> CallFailures:
    """Group the failed ``results`` (``labels[i]`` names ``results[i]``) by cause, largest group first.

    Only failed calls count (``result.failed``: the endpoint gave no usable answer); an empty or cut
    answer is the model's own and is measured by the page's metrics.

    Raises ValueError when ``results`` and ``labels`` differ in length.
    """
    if len(results) != len(labels):
        raise ValueError(f"{len(results)} results but {len(labels)} labels")
    by_cause: dict[str, list] = {}
    for result, label in zip(results, labels):
        if result.failed:
            by_cause.setdefault(cause_of(result), []).append((result, label))
    groups = []
    for cause, members in by_cause.items():
        first = members[0][0]
        groups.append(FailureGroup(cause, len(members), first.error, cli_hint(cause, first.error_details or {},
                                                                             first.hint, options),
                                   dict(first.error_details or {}), tuple(label for _, label in members)))
    groups.sort(key=lambda group: -group.count)
    return CallFailures(len(results), tuple(groups), max_failed_share)


def cli_hint(cause: str, details: dict, default: str, options: CommandOptions) -> str:
    """What to do about ``cause``, naming the command's options (``default``: the library's own hint)."""
    models = " or ".join(options.model_options)
    if cause == "auth":
        return f"Set {options.key_variable} to a key this endpoint accepts (the key is read from there only)."
    if cause == "missing_key":
        return f"Set {options.key_variable}: it is empty or unset, and this endpoint asks for a key."
    if cause == "model_not_found":
        offered = details.get("models") or []
        if offered:
            total = details.get("models_total", len(offered))
            more = f" (and {total - len(offered)} more)" if total > len(offered) else ""
            return f"Pass one of the models it offers with {models}: {', '.join(offered[:MAX_MODELS_LISTED])}{more}."
        return f"Check the name given with {models} (Ollama: `ollama list`, then `ollama pull <model>`)."
    if cause == "connection":
        return ("Start the server, or check --base-url (Ollama: http://localhost:11434/v1, "
                "vLLM: http://localhost:8000/v1, llama.cpp: http://localhost:8080/v1).")
    if cause == "timeout":
        return (f"Raise --timeout (now {options.timeout_s:g} s per attempt) or lower --concurrency "
                f"(now {options.concurrency}); the model may be loading or overloaded.")
    if cause == "rate_limit":
        return f"Lower --concurrency (now {options.concurrency}), wait a minute, then run the command again."
    if cause == "server":
        return "The server failed, not the request: run the command again in a moment."
    if cause == "not_api":
        return ("Check --base-url and --provider: an OpenAI-compatible server usually ends in /v1, and the "
                "address must be the model server's, not a web page's.")
    if cause == "not_found":
        suggestion = details.get("suggestion")
        return f"Try --base-url {suggestion}." if suggestion else "Check --base-url."
    if cause == "prefill":
        return (f"Pass {options.prefill_option}: the forced-tool path is used instead." if options.prefill_option
                else "This model refuses an assistant prefill.")
    if cause == "bad_request":
        return (f"Possible causes, most likely first: the key in {options.key_variable} is refused by a proxy "
                f"(some answer 400, not 401); the model given with {models} is unknown; the model refuses a "
                "parameter (temperature, tools, response format).")
    if cause == "malformed":
        return "Check --base-url and --provider: is this endpoint of the kind given?"
    return default
