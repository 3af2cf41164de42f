"""Turning raw model output into a usable answer: reasoning blocks removed, empty and cut answers flagged.

Reasoning models served behind OpenAI-compatible endpoints may put their thoughts in ``<think>``
blocks before the answer, return an empty ``content`` with the text in ``reasoning_content``, or spend
the whole token budget thinking and stop with ``finish_reason="length"`` (notes/evaluation.md).
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

    Empty wins over truncated: no text at all is unusable whatever the reason.
    """
    if not text.strip() and not has_tool_calls:
        return "empty", HINT_EMPTY_REASONING if reasoning or finish_reason in TRUNCATION_REASONS else HINT_EMPTY
    if finish_reason in TRUNCATION_REASONS:
        return "truncated", HINT_TRUNCATED
    return "ok", ""
