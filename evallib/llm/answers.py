"""Turning raw model output into a usable answer: reasoning blocks removed, empty and cut answers flagged.

Reasoning models served behind OpenAI-compatible endpoints may put their thoughts in ``<think>``
blocks before the answer, return an empty ``content`` with the text in ``reasoning_content``, or spend
the whole token budget thinking and stop with ``finish_reason="length"`` (docs/README.md#models).
Downstream metrics must only ever see the answer itself.
"""

from __future__ import annotations

import re

#: A closed think block, or an unclosed one running to the end (the model was cut while thinking).
THINK_BLOCK = re.compile(r"<think>.*?(?:</think>|\Z)", flags=re.DOTALL | re.IGNORECASE)

#: finish/stop reasons that mean "the answer was cut by the token limit" (OpenAI, Anthropic).
TRUNCATION_REASONS = frozenset({"length", "max_tokens"})

HINT_EMPTY_REASONING = (
    "The model spent its answer on reasoning and returned no text: disable thinking "
    "(e.g. extra_body chat_template_kwargs enable_thinking=false) or raise max_tokens."
)
HINT_EMPTY = "The model returned no text: check the prompt, or raise max_tokens."
HINT_CUT_BEFORE_TEXT = ("The answer was cut at max_tokens before any text (the budget went to reasoning or "
                        "to a tool call): raise max_tokens, or disable thinking.")
HINT_TRUNCATED = "The answer was cut at max_tokens: raise max_tokens (or disable thinking)."


def split_reasoning(content: str) -> tuple[str, str]:
    """Split ``content`` into (answer, reasoning): every ``<think>`` block is moved to reasoning.

    >>> split_reasoning("<think>hmm</think> Paris.")
    ('Paris.', 'hmm')
    """
    thoughts = [m.group(0) for m in THINK_BLOCK.finditer(content)]
    answer = THINK_BLOCK.sub("", content).strip()
    reasoning = "\n".join(re.sub(r"</?think>", "", t, flags=re.IGNORECASE).strip() for t in thoughts)
    return answer, reasoning


def answer_status(text: str, finish_reason: str | None, reasoning: str,
                  has_tool_calls: bool) -> tuple[str, str]:
    """Classify an answer: returns (status, hint) with status "ok", "empty" or "truncated".

    An answer stopped by the token limit (`TRUNCATION_REASONS`) is "truncated", with or without
    text: a model that spent the whole budget on reasoning or on a tool call it never finished was
    cut, and a run where every answer was cut must say so, not count them empty. "empty" is an
    answer the model ended itself without any text (nor tool call).
    """
    blank = not text.strip() and not has_tool_calls
    if finish_reason in TRUNCATION_REASONS:
        return "truncated", HINT_CUT_BEFORE_TEXT if blank else HINT_TRUNCATED
    if blank:
        return "empty", HINT_EMPTY_REASONING if reasoning else HINT_EMPTY
    return "ok", ""


#: What may come right after an opening brace in JSON: a key's quote, the closing brace.
_AFTER_BRACE = ('"', "}")


def join_prefill(prefill: str, reply: str) -> str:
    """The text of a reply to a request that imposed ``prefill`` as the start of the answer.

    A model that honours the prefill sends only the continuation, and the text is prefill + reply.
    Servers that do not (a proxy in front of a model without prefill support, a model that starts
    over) send a reply of their own: it is then read as it is, never glued behind the prefill. The
    reply continues the prefill unless it repeats it (whitespace aside) or, after a prefill ending in
    an opening brace, begins with something JSON cannot put there (another brace, a tag, prose).

    >>> join_prefill('<grade>\\n{', ' "total": 7}')
    '<grade>\\n{ "total": 7}'
    >>> join_prefill('<grade>\\n{', '<grade>{"total": 7}')
    '<grade>{"total": 7}'
    >>> join_prefill('<grade>\\n{', '{"total": 7}')
    '{"total": 7}'
    >>> join_prefill('<grade>\\n{', 'Voici ma note : 7/10')
    'Voici ma note : 7/10'
    """
    head = prefill.rstrip()
    if not head:
        return reply
    start = reply.lstrip()
    if "".join(start.split()).startswith("".join(head.split())):
        return reply  # the model wrote the prefill again itself
    if head.endswith("{") and start and not start.startswith(_AFTER_BRACE):
        return reply  # not the inside of the object the prefill opened
    return head + reply
