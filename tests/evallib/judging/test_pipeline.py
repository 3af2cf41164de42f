"""The pipeline's chaining, without timing: a case is graded as soon as its answer arrives."""

import threading

from dataclasses import replace

from evallib.judging.judge_prompt import RESPONSE_TAG, SYSTEM_PROMPT
from evallib.judging.pipeline import JudgeConfig, pairwise_candidates, run_case, run_pipeline, verbosity_candidates
from evallib.judging.requests import ModelSettings
from evallib.llm import ChatResult

GRADE = ('<grade>{"strengths": "s", "weaknesses": "w", "reasoning": "r", '
         '"scores": {"FORMAT": 3, "VALIDITY": 3, "ADEQUACY": 2}, "total": 8}</grade>')


class GatedProvider:
    """Case 1's generation waits until case 0 has been graded: a two-phase run would wait forever."""

    def __init__(self, slow_input: str, quick_input: str) -> None:
        self.slow_input, self.quick_input = slow_input, quick_input
        self.quick_graded = threading.Event()
        self.prompts = []

    def fingerprint(self) -> str:
        return "gated"

    def chat(self, request):
        user = request.messages[-1][1]
        self.prompts.append((request.system, user))
        if request.system == SYSTEM_PROMPT:
            if self.quick_input in user:
                self.quick_graded.set()
            return ChatResult(request_key=request.key(), text=GRADE)
        if self.slow_input in user and not self.quick_graded.wait(timeout=5):
            return ChatResult(request_key=request.key(), status="error", error_kind="timeout", error="never graded")
        text = "En tant que Claude, voici :\nx = 1" if self.slow_input in user else "x = 2"
        return ChatResult(request_key=request.key(), text=text)


def test_a_quick_case_is_graded_while_a_slow_generation_still_runs(rubric, cases):
    slow, quick = cases[0], cases[1]
    provider = GatedProvider(slow.input, quick.input)
    config = JudgeConfig(ModelSettings("gen"), ModelSettings("judge"), rubric, "{context}\n{type}\n{input}")
    results = run_pipeline([slow, quick], config, provider, max_concurrency=2)
    assert [r.generation.error for r in results] == ["", ""]
    assert [r.grade.status for r in results] == ["scored", "scored"]
    assert [r.grade.score for r in results] == [8, 8]
    # Blinding: the judge saw the slow case's code without its self-identifying first line.
    assert results[0].removed_lines == ("En tant que Claude, voici :",)
    graded = [user for system, user in provider.prompts if system == SYSTEM_PROMPT and slow.input in user]
    assert "En tant que Claude" not in graded[0] and "x = 1" in graded[0]


class OneLineProvider:
    """Generates one line that only names its model; records what the judge is sent."""

    def __init__(self):
        self.graded = []

    def fingerprint(self) -> str:
        return "one-line"

    def chat(self, request):
        if request.system == SYSTEM_PROMPT:
            self.graded.append(request.messages[-1][1])
            return ChatResult(request_key=request.key(), text=GRADE)
        return ChatResult(request_key=request.key(), text=ONE_LINE)


ONE_LINE = "As GPT-4o, the answer is x = 1"


def test_blinding_never_sends_the_judge_an_empty_answer_and_the_case_leaves_the_probes(rubric, cases):
    provider = OneLineProvider()
    config = JudgeConfig(ModelSettings("gen"), ModelSettings("judge"), rubric, "{context}\n{type}\n{input}")
    [erased, kept] = [run_case(cases[0], config, provider),
                      replace(run_case(cases[1], config, provider), blinding_erased=False)]
    fenced = provider.graded[0].split(f"<{RESPONSE_TAG}>")[1].split(f"</{RESPONSE_TAG}>")[0]
    assert fenced.strip() == ONE_LINE
    assert erased.blinding_erased and erased.graded_text == ONE_LINE and erased.grade.scored
    assert verbosity_candidates([erased, kept]) == [kept]
    assert pairwise_candidates([erased], [erased]) == [] and pairwise_candidates([kept], [kept]) == [(kept, kept)]
    unblinded = run_case(cases[0], replace(config, blinding=False), provider)
    assert not unblinded.blinding_erased
