"""The persona page offline: every figure shown equals what evallib computes on the recordings."""

import json
from pathlib import Path

from evallib import persona
from evallib.llm import ChatResult, Recordings
from evallib.persona.catalogue import AUTHORED_MODEL, build_requests, load_catalogue
from ui.collection import OFFLINE_FINGERPRINT

PAGE = "pages/persona.py"


def fr(value: float, spec: str = ".2f") -> str:
    """How the French page writes a number (decimal comma)."""
    return format(value, spec).replace(".", ",")

RECORDINGS = Path(__file__).resolve().parents[2] / "packs" / "fr" / "recordings"


def _recorded_grid(catalogue):
    store = Recordings(RECORDINGS)
    cells = build_requests(catalogue, AUTHORED_MODEL)
    return cells, [store.get(c.request.key()) for c in cells]


def test_every_cell_of_the_default_grid_and_the_rewrite_example_is_recorded_and_authored():
    catalogue = load_catalogue()
    cells, found = _recorded_grid(catalogue)
    assert len(cells) == 36 and all(f is not None for f in found)
    assert {f.provenance["source"] for f in found} == {"authored"}
    name, prompt = catalogue.rewrite_example
    _, rewritten = _recorded_grid(catalogue.with_prompt(name, prompt))
    assert all(f is not None for f in rewritten)
    assert Recordings(RECORDINGS).problems == []


def _expected():
    catalogue = load_catalogue()
    cells, found = _recorded_grid(catalogue)
    return catalogue, persona.discriminability([f.result.text for f in found], [c.assistant for c in cells],
                                               [c.probe_index for c in cells], classes=catalogue.names)


def _audit():
    catalogue = load_catalogue()
    cells, found = _recorded_grid(catalogue)
    return persona.audit([f.result.text for f in found], [c.assistant for c in cells], [c.probe_index for c in cells],
                         [catalogue.prompt_of(n) for n in catalogue.names], classes=catalogue.names)


def test_page_shows_the_figures_evallib_computes_on_the_recordings(open_page):
    catalogue, expected = _expected()
    at = open_page(PAGE)
    assert not at.exception and not at.error
    assert at.title[0].value.startswith("Audit de personas")
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Exactitude"] == fr(expected.accuracy)
    assert metrics["Hasard (1/k)"] == fr(1 / len(catalogue.names))
    low, high = expected.accuracy_interval
    assert metrics["Intervalle à 95 % (sondes)"] == f"[{fr(low)} ; {fr(high)}]"
    assert metrics["Attendu sans signal"] == fr(expected.null_mean_accuracy)
    [(a, b, count)] = expected.most_confused_pairs
    assert any(f"**{a} / {b}** avec **{count}** confusions" in m.value for m in at.markdown)
    assert any(f"{expected.n_correct} réponses sur {expected.n_responses}" in m.value for m in at.markdown)
    mutual = expected.mutual_confusions[0]
    assert any(f"{mutual.a} ↔ {mutual.b}" in w.value for w in at.warning)
    assert any("rédigés à la main" in i.value for i in at.info)
    mantel = _audit().ranks.mantel
    assert mantel.exact and mantel.n_permutations == 720
    assert any("Test de Mantel exact" in m.value and f"ρ = {fr(mantel.rho)}".replace("-", "\u2212") in m.value
               and f"p = {fr(mantel.p_value, '.3f')}" in m.value for m in at.markdown)
    # Parameters read from the requests, the number of probes from the catalogue.
    request = build_requests(catalogue, AUTHORED_MODEL)[0].request
    assert any(f"température {fr(request.temperature, '.1f')}, seed {request.seed}, {request.max_tokens} tokens"
               in c.value for c in at.caption)
    assert any(f"avec {len(catalogue.probes)} sondes" in c.value for c in at.caption)


def test_exercise_3_offline_example_compares_before_and_after(open_page):
    catalogue, before = _expected()
    name, prompt = catalogue.rewrite_example
    cells, found = _recorded_grid(catalogue.with_prompt(name, prompt))
    after = persona.discriminability([f.result.text for f in found], [c.assistant for c in cells],
                                     [c.probe_index for c in cells], classes=catalogue.names)
    at = open_page(PAGE)
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Exactitude · avant"] == fr(before.accuracy)
    assert metrics["Exactitude · après"] == fr(after.accuracy)
    assert after.accuracy > before.accuracy


def test_page_in_english(open_page):
    at = open_page(PAGE, "en")
    assert not at.exception
    assert at.title[0].value.startswith("Persona audit")
    catalogue, expected = _expected()
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Accuracy"] == f"{expected.accuracy:.2f}"
    assert any(f"{expected.n_correct} of {expected.n_responses} answers find their author" in m.value
               for m in at.markdown)


def test_an_invalid_catalogue_upload_and_a_broken_table_give_messages_not_exceptions(open_page):
    at = open_page(PAGE, persona_source={"assistants": [{"name": "seul", "system_prompt": "x", "role": ""}],
                                         "probes": ["q"]}, persona_editor_version=1)
    assert not at.exception
    assert any("il faut au moins deux assistants" in e.value for e in at.error)


def test_duplicate_names_are_named(open_page):
    source = load_catalogue().to_dict()
    source["assistants"][1]["name"] = source["assistants"][0]["name"]
    at = open_page(PAGE, persona_source=source, persona_editor_version=1)
    assert not at.exception
    assert any("en double" in e.value and source["assistants"][0]["name"] in e.value for e in at.error)


def test_an_edited_prompt_offline_keeps_measuring_the_others_and_names_the_edited_one(open_page):
    catalogue = load_catalogue()
    source = catalogue.to_dict()
    source["assistants"][0]["system_prompt"] = "Un prompt réécrit que personne n'a enregistré."
    first = source["assistants"][0]["name"]
    at = open_page(PAGE, persona_source=source, persona_editor_version=1)
    assert not at.exception
    problems = [e for e in at.expander if "à examiner" in e.label]
    assert problems, "the missing recordings must be listed"
    text = " ".join(m.value for m in problems[0].markdown)
    assert f"non enregistrée** ({len(source['probes'])})" in text
    assert any("provenance : rédigé 30" in c.value for c in at.caption), "missing answers are not 'recorded'"
    # The page's own verdict is not a second red box: it says which assistant needs live mode.
    assert not at.error  # nothing failed: six requests have no recording, said in a blue box
    assert any("6 requêtes sans réponse enregistrée" in i.value for i in at.info)
    assert any(f"« {first} » n'est pas mesuré" in i.value and "mode en direct" in i.value for i in at.info)
    # The others are still measured, on the five remaining assistants only.
    others = [n for n in catalogue.names if n != first]
    cells, found = _recorded_grid(catalogue)
    kept = [(f.result.text, c.assistant, c.probe_index) for c, f in zip(cells, found) if c.assistant != first]
    expected = persona.discriminability(*zip(*kept), classes=others, n_probes=len(catalogue.probes))
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Exactitude"] == fr(expected.accuracy) and metrics["Hasard (1/k)"] == fr(1 / 5)
    # One click restores the shipped prompt, and the six assistants are measured again.
    restore = [b for b in at.button if b.label == f"Reprendre le prompt d'origine de « {first} »"]
    restore[0].click().run()
    assert not at.exception
    assert {m.label: m.value for m in at.metric}["Hasard (1/k)"] == fr(1 / 6)


def _identical_answers(text: str) -> dict:
    cells = build_requests(load_catalogue(), AUTHORED_MODEL)
    return {(c.request.key(), OFFLINE_FINGERPRINT): ChatResult(request_key=c.request.key(), text=text,
                                                               source="recording", provenance="live") for c in cells}


def test_identical_answers_give_a_banner_and_no_finding_from_tie_breaking(open_page):
    at = open_page(PAGE, answers=_identical_answers("Écrivez un peu chaque matin, relisez le soir."))
    assert not at.exception
    assert any("36 réponses collectées sont toutes identiques" in w.value for w in at.warning)
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Exactitude"] == fr(0.0)
    markdown = " ".join(m.value for m in at.markdown)
    assert "La paire la plus proche" not in markdown and "ont toutes le même indice" in markdown
    assert "changent de rang" not in markdown and "ne dit rien de l'ordre des paires" in markdown
    assert "Aucune des 36 réponses n'a pu être attribuée" in markdown
    assert "Aucune des 36 réponses n'a été attribuée" in markdown  # no pair to merge
    assert "paire la plus confondue" not in markdown
    assert not at.success, "no green 'no mutual confusion' when nothing was predicted"
    assert "Les réponses les plus proches sont celles de" not in markdown


def test_edited_catalogue_is_not_described_as_the_default_pair(open_page):
    source = load_catalogue().to_dict()
    for assistant in source["assistants"]:
        if assistant["name"] == "expression":
            assistant["system_prompt"] = "Un prompt qui n'est plus une paraphrase."
    at = open_page(PAGE, persona_source=source, persona_editor_version=1)
    markdown = " ".join(m.value for m in at.markdown)
    assert "sa paraphrase" not in markdown and "choisissez deux assistants" in markdown
    default = open_page(PAGE)
    assert any("« style » et « expression », sa paraphrase" in m.value for m in default.markdown)


def test_exercise_3_offline_edit_offers_to_restore_the_suggested_rewrite(open_page):
    catalogue = load_catalogue()
    name, prompt = catalogue.rewrite_example
    at = open_page(PAGE, **{f"persona_ex3_prompt_{name}": "Une réécriture que personne n'a enregistrée."})
    assert not at.exception
    assert "Exactitude · après" not in {m.label for m in at.metric}
    [restore] = [b for b in at.button if b.label == "Reprendre la réécriture proposée"]
    restore.click().run()
    assert at.text_area(key=f"persona_ex3_prompt_{name}").value == prompt
    assert "Exactitude · après" in {m.label for m in at.metric}


def test_live_anthropic_says_the_seed_is_not_sent(open_page):
    at = open_page(PAGE, "en", llm_mode="live", llm_kind="anthropic", llm_model="claude-x")
    assert not at.exception
    assert any("Anthropic's API takes no seed" in c.value for c in at.caption)
    offline = open_page(PAGE, "en")
    assert not any("takes no seed" in c.value for c in offline.caption)


def test_all_empty_answers_give_a_translated_message_not_an_exception(open_page):
    at = open_page(PAGE, answers=_identical_answers(""))
    assert not at.exception
    assert any("toutes les réponses sont vides" in w.value for w in at.warning)
    assert not at.metric


def test_every_persona_figure_sets_its_axis_text_large_and_dark(open_page):
    # Streamlit's chart theme otherwise draws ticks and axis titles in about 11 px grey.
    at = open_page(PAGE)
    charts = at.get("plotly_chart")
    assert len(charts) >= 6
    for chart in charts:
        layout = json.loads(chart.proto.spec)["layout"]
        for axis in ("xaxis", "yaxis"):
            assert layout[axis]["tickfont"]["size"] >= 16 and layout[axis]["tickfont"]["color"] == "#31333f"


def test_the_prompts_are_shown_by_what_tells_them_apart(open_page):
    """At 1280 px the editor's cut column showed the same opening sentence six times: each prompt's own part is
    now shown whole, the shared opening once."""
    from evallib.text import common_opening
    catalogue = load_catalogue()
    prompts = [catalogue.prompt_of(n) for n in catalogue.names]
    opening = common_opening(prompts)
    for lang in ("fr", "en"):
        at = open_page(PAGE, lang)
        shown = [m.value.replace("\\", "") for m in at.markdown]
        for prompt in prompts:
            own = prompt[len(opening):].strip()
            assert own in shown and not own.startswith(opening.strip())
        assert any(opening.strip() in c.value.replace("\\", "") for c in at.caption)
    [intro] = [m.value for m in open_page(PAGE, "en").markdown if m.value.startswith("Before any figure")]
    assert "almost no words" not in intro and "overlap at 0.00" in intro


def test_three_assistants_are_too_few_for_the_mantel_test_and_the_page_says_so(open_page):
    """3 assistants: 3 pairs, 3! = 6 relabellings, p >= 1/6; the page never says the prompts foretell."""
    source = load_catalogue().to_dict()
    source["assistants"] = source["assistants"][:3]
    at = open_page(PAGE, persona_source=source, persona_editor_version=1)
    assert not at.exception
    markdown = " ".join(m.value for m in at.markdown)
    assert "(3!)" in markdown and "1/6" in markdown and "3 assistants" in markdown
    assert "annoncent bien" not in markdown
