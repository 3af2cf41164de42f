"""Offline, the persona page replays the recorded source the user picks: authored examples or a live model."""

from evallib import persona
from evallib.llm import ChatResult, Recordings
from evallib.llm.recordings import LOCAL_DIR_VARIABLE, SHIPPED_DIR
from evallib.persona.catalogue import build_requests, load_catalogue

PAGE = "pages/persona.py"
CHOICE = "_persona_recorded_source_fr"
DATE = "2026-11-30"


def _record(local, model, skip=0, extra_body="thinking off"):
    """Record the default grid as ``model`` answered it (a distinctive text per cell), but the last ``skip``."""
    catalogue = load_catalogue()
    cells = build_requests(catalogue, model, disable_reasoning=extra_body == "thinking off")
    store = Recordings(SHIPPED_DIR, local)
    texts = {}
    for cell in cells[:len(cells) - skip]:
        text = f"{model} {cell.assistant} {cell.assistant}-mot{cell.probe_index} question {cell.probe_index}"
        texts[(cell.assistant, cell.probe_index)] = text
        store.add("persona", cell.request, ChatResult(request_key=cell.request.key(), text=text, model=model),
                  {"source": "live", "model": model, "provider": "openai", "date": DATE})
    return catalogue, cells, texts


def test_a_model_recorded_live_is_offered_and_replayed_with_its_figures(open_page, tmp_path, monkeypatch):
    monkeypatch.setenv(LOCAL_DIR_VARIABLE, str(tmp_path))
    catalogue, cells, texts = _record(tmp_path, "qwen-live")
    at = open_page(PAGE)
    choice = at.selectbox(key=CHOICE)
    assert choice.options == [
        "Exemples rédigés à la main · 36/36 réponses",
        f"qwen-live · Compatible OpenAI · enregistré en direct le {DATE} · 36/36 réponses"]
    choice.set_value(1).run()
    assert not at.exception
    expected = persona.discriminability([texts[(c.assistant, c.probe_index)] for c in cells],
                                        [c.assistant for c in cells], [c.probe_index for c in cells],
                                        classes=catalogue.names)
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Exactitude"] == format(expected.accuracy, ".2f").replace(".", ",")
    shown = " ".join(m.value for m in at.markdown)
    assert texts[("style", 0)] in shown and f"enregistré en direct le {DATE}" in shown
    assert any(f"provenance : enregistré en direct le {DATE} 36" in c.value for c in at.caption)
    assert not any("rédigés à la main" in i.value for i in at.info)
    # Exercise 3 no longer claims that the suggested rewrite is recorded: this source may not hold it.
    captions = " ".join(c.value for c in at.caption)
    assert "n'a de réponses que si elle a été enregistrée" in captions
    assert "seul l'exemple de réécriture proposé a des réponses enregistrées" not in captions


def test_a_request_the_source_did_not_record_is_named_never_invented(open_page, tmp_path, monkeypatch):
    monkeypatch.setenv(LOCAL_DIR_VARIABLE, str(tmp_path))
    _record(tmp_path, "partial", skip=2)
    at = open_page(PAGE)
    at.selectbox(key=CHOICE).set_value(1).run()
    assert not at.exception
    assert not at.error and any("2 requêtes sans réponse enregistrée" in i.value for i in at.info)
    problems = [e for e in at.expander if "à examiner" in e.label]
    assert "non enregistrée** (2)" in " ".join(m.value for m in problems[0].markdown)


def test_the_same_model_recorded_with_other_options_is_a_distinct_source(open_page, tmp_path, monkeypatch):
    monkeypatch.setenv(LOCAL_DIR_VARIABLE, str(tmp_path))
    _record(tmp_path, "twin")
    _record(tmp_path, "twin", extra_body=None)
    at = open_page(PAGE)
    names = at.selectbox(key=CHOICE).options
    assert len(names) == 3 and sum("extra_body=null" in n for n in names) == 1
    at.selectbox(key=CHOICE).set_value(2).run()
    assert not at.exception and any(f"provenance : enregistré en direct le {DATE} 36" in c.value for c in at.caption)


def test_the_summary_counts_unrecorded_answers_apart_from_errors(open_page, tmp_path, monkeypatch):
    monkeypatch.setenv(LOCAL_DIR_VARIABLE, str(tmp_path))
    _record(tmp_path, "partial", skip=2)
    at = open_page(PAGE, lang="en")
    at.selectbox(key=CHOICE.replace("_fr", "_en")).set_value(1).run()
    assert not at.exception
    summaries = [c.value for c in at.caption if "answers · source:" in c.value]
    assert any(s.endswith("0 errors · 2 not recorded") for s in summaries), summaries
    problems = [e for e in at.expander if "to look at" in e.label]
    assert "**not recorded** (2)" in " ".join(m.value for m in problems[0].markdown)


def test_after_record_persona_exercise_3_replays_the_rewrite_example(open_page, server, live_env, tmp_path,
                                                                    monkeypatch):
    from evallib.__main__ import main
    assert main(["record", "persona", "--base-url", server.openai_base_url, "--model", "fake-ok",
                 "--recordings-dir", str(tmp_path)]) == 0
    monkeypatch.setenv(LOCAL_DIR_VARIABLE, str(tmp_path))
    at = open_page(PAGE, lang="en")
    choice = at.selectbox(key=CHOICE.replace("_fr", "_en"))
    choice.set_value(next(i for i, o in enumerate(choice.options) if o.startswith("fake-ok"))).run()
    assert not at.exception
    summaries = [c.value for c in at.caption if "answers · source:" in c.value]
    assert len(summaries) == 2 and summaries[0].startswith("36/36 answers")  # the grid, then exercise 3
    assert summaries[1].startswith("6/6 answers") and "not recorded" not in summaries[1], summaries
