"""The judge page's runs: which generator and judge, and every case's chain kept as it arrives.

The judging pipeline is chained per case (generate -> code graders -> judge, `evallib.judging.pipeline`),
so `ui.collection.collection_panel` (one request per answer) does not fit it. It gets the same
guarantee here: each chain's `CaseResult` is stored in ``st.session_state`` from the pipeline's
progress callback, on the script thread, keyed by (case, run configuration, endpoint fingerprint);
a click during a run keeps every case already graded, and only the missing ones are run again.
Offline, missing cases are replayed from the recordings at once; live, the user starts the run.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import streamlit as st

from evallib.judging.authored import JUDGE_SET
from evallib.judging.judge_prompt import blind
from evallib.judging.pipeline import (JudgeConfig, PaddedGrade, PairwiseComparison, pairwise_candidates, run_case,
                                      run_chains, run_pairwise, run_verbosity, verbosity_candidates)
from evallib.judging.requests import ModelSettings, generation_request, judge_request, settings_from_options
from evallib.judging.rubric import Rubric
from evallib.judging.wording import FRENCH_WORDING, JudgeWording
from ui.collection import endpoint_fingerprint, queued_note
from ui.i18n import plural, t
from ui.models import page_provider, recordings, session_lane
from ui.settings import config_problem, current_settings
from ui.sources import recorded_source_choice

RESULTS_KEY = "judge_results"
#: Requests built only to ask which recorded sources answer them: what they ask is all that matters.
_ANY_MODEL = ModelSettings("any")
#: A judge's request differs by how its answer is steered (plain or JSON mode, prefill, forced tool).
_ANY_JUDGE = (_ANY_MODEL, ModelSettings("any", "anthropic"), ModelSettings("any", "anthropic", prefill=False))


def recorded_templates(cases, templates: dict[str, str]) -> tuple[dict[str, str], list[str]]:
    """(the templates some recorded source answers for these cases, the names of those none answers).

    Offline, an edited template has no recording until someone runs it live: it is left out, like a
    broken one, so that the other template's results still show.
    """
    kept, unrecorded = {}, []
    for name, template in templates.items():
        if recordings().sources([generation_request(c, template, _ANY_MODEL) for c in cases]):
            kept[name] = template
        else:
            unrecorded.append(name)
    return kept, unrecorded


def offline_models(cases, template: str, rubric: Rubric,
                   wording: JudgeWording = FRENCH_WORDING) -> tuple[ModelSettings, ModelSettings] | None:
    """The recorded generator, then the recorded judge of its responses (asked in ``wording``), chosen by
    the user."""
    source = recorded_source_choice([generation_request(c, template, _ANY_MODEL) for c in cases], set_name=JUDGE_SET,
                                    key="judge_generator", role="generator", label=t("judge.source_generator"))
    if source is None:
        return None
    generator = settings_from_options(source.model, source.provider, source.options)
    provider = page_provider(JUDGE_SET)
    responses = [provider.chat(generation_request(c, template, generator)) for c in cases]
    graded = [judge_request(c, blind(r.text)[0], rubric, steering, wording) for steering in _ANY_JUDGE
              for c, r in zip(cases, responses) if not r.failed and r.text.strip()]
    source = recorded_source_choice(graded, set_name=JUDGE_SET, key="judge_judge", role="judge",
                                    label=t("judge.source_judge"), forms=len(_ANY_JUDGE))
    if source is None:
        return None
    return generator, settings_from_options(source.model, source.provider, source.options)


def live_models() -> tuple[ModelSettings, ModelSettings]:
    """The sidebar's model as generator; the judge model typed here (default: the same model)."""
    settings = current_settings()
    kind = settings.config.kind
    columns = st.columns(2)
    judge_model = columns[0].text_input(t("judge.judge_model"), persist_state="session", key="judge_judge_model",
                                        placeholder=settings.model, help=t("judge.judge_model_help")).strip()
    json_mode = kind == "openai" and columns[1].toggle(t("judge.json_mode"),
                                                       persist_state="session", key="judge_json_mode",
                                                       help=t("judge.json_mode_help"))
    generator = ModelSettings(settings.model, kind)
    judge = ModelSettings(judge_model or settings.model, kind, prefill=settings.config.prefill, json_mode=json_mode)
    return generator, judge


def _stored() -> dict:
    return st.session_state.setdefault(RESULTS_KEY, {})


def chained(items: Sequence[tuple], chain: Callable, *, key: str, label: str, unscored=lambda _: False) -> list:
    """Outcomes of ``chain(item)`` for every ``(slot, item)``, from the session where already obtained.

    Missing ones run at once offline, and on the user's click live (with progress); each outcome is
    stored under its slot the moment its chain ends, and live, the chains with a failed call can be
    run again. Returns outcomes in order (None where missing).
    """
    settings = current_settings()
    stored = _stored()
    missing = [(slot, item) for slot, item in items if slot not in stored]
    if missing and not settings.live:
        with st.spinner(t("judge.replaying")):
            _run(missing, chain, settings, unscored)
    elif settings.live:
        problem = config_problem(settings)
        if problem:
            st.warning(t(problem))
        else:
            failed = [(slot, item) for slot, item in items if slot in stored and _failed(stored[slot])]
            # Clicks are noted by callbacks (a rerun before these lines would lose a button's value).
            run, retry = st.columns(2)
            run.button(label.format(n=len(missing)), key=key, disabled=not missing, type="primary",
                       on_click=st.session_state.__setitem__, args=(f"{key}_requested", "run"))
            retry.button(plural("collect.retry", len(failed)), key=f"{key}_retry", disabled=not failed,
                         on_click=st.session_state.__setitem__, args=(f"{key}_requested", "retry"))
            chosen = {"run": missing, "retry": failed}.get(st.session_state.pop(f"{key}_requested", ""))
            if chosen:
                _run(chosen, chain, settings, unscored)
                st.rerun()
    return [stored.get(slot) for slot, _ in items]


def _failed(outcome) -> bool:
    """A chain with a failed call (not a grade the judge wrote badly: that one is the judge's answer)."""
    return any(call.failed for call in outcome.calls)


def _run(missing: Sequence[tuple], chain: Callable, settings, unscored) -> None:
    stored = _stored()
    # One lane per run, given to the provider and to the chains: the bar says when calls wait behind other
    # participants', and a click that stops the run drops those still queued (as `ui.collection` does).
    lane = session_lane(settings) if settings.live else None
    provider = page_provider(JUDGE_SET, settings, lane)
    bar = st.progress(0.0, text=t("judge.progress_start", total=len(missing))) if settings.live else None

    def run(pair: tuple) -> tuple:
        slot, item = pair
        return slot, chain(item, provider)

    def show(progress) -> None:
        if progress.last is not None:  # None on the periodic reports while calls wait
            slot, outcome = progress.last
            stored[slot] = outcome  # kept first: drawing the bar is where Streamlit stops a run on a click
        if bar is not None:
            bar.progress(progress.done / progress.total,
                         text=t("judge.progress", done=progress.done, total=progress.total,
                                unscored=progress.unscored, elapsed=progress.elapsed_s)
                         + queued_note(progress.queued_behind_others))

    run_chains(missing, run, settings.concurrency, show, lambda pair: unscored(pair[1]), lane=lane)
    if bar is not None:
        bar.empty()


def run_templates(cases, configs: dict[str, JudgeConfig]) -> dict[str, list]:
    """Every case under each template's configuration (results None where not run yet)."""
    fingerprint = endpoint_fingerprint(current_settings())
    items = [((case, config, fingerprint), (case, config)) for config in configs.values() for case in cases]
    outcomes = chained(items, lambda item, provider: run_case(item[0], item[1], provider), key="judge_run",
                       label=t("judge.run"), unscored=lambda result: not result.grade.scored)
    return {name: outcomes[i * len(cases):(i + 1) * len(cases)] for i, name in enumerate(configs)}


def _recorded(outcome) -> bool:
    """False for a probe whose answers the recordings do not hold (offline, a source without probes)."""
    return outcome is not None and not any(call.error_kind == "missing_recording" for call in outcome.calls)


def run_probes(results_a: Sequence, results_b: Sequence, config: JudgeConfig) -> tuple[list, list]:
    """(padded grades, pairwise comparisons in both orders) of the judged cases; offline, those recorded."""
    fingerprint = endpoint_fingerprint(current_settings())
    items = [(("pad", r.case, config, fingerprint), ("pad", r)) for r in verbosity_candidates(results_a)]
    items += [(("pair", a.case, config, fingerprint), ("pair", (a, b))) for a, b in pairwise_candidates(results_a, results_b)]

    def probe(item, provider):
        kind, data = item
        if kind == "pad":
            return run_verbosity([data], config, provider, 1)[0]
        return run_pairwise([data[0]], [data[1]], config, provider, 1)[0]
    outcomes = [o for o in chained(items, probe, key="judge_probes", label=t("judge.run_probes")) if _recorded(o)]
    return ([o for o in outcomes if isinstance(o, PaddedGrade)],
            [o for o in outcomes if isinstance(o, PairwiseComparison)])
