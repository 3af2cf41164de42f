"""A real run bundle of each page on its default data (offline), and the loader each page gives
`ui.run_bundles.run_bundle_controls`: shared by the fuzz test and the bundle size measure."""

from pathlib import Path

from evallib.runs.gnss.bundle import AGENT_NAMES, GnssRun, Station, TextModelRun, gnss_bundle, gnss_report
from evallib.gnss.live import case_requests
from evallib.gnss.spec import SPEC_V1
from evallib.llm import default_recordings, provider_for_mode
from evallib.runs.trigger.bundle import TriggerRun, trigger_bundle, trigger_report
from evallib.triggering.data import load_queries, load_skills
from evallib.triggering.report import route
from evallib.runs.bundle import read_run_bundle
from ui.gnss import bundle as gnss_page_bundle
from ui.judge import bundle as judge_page_bundle
from ui.kappa import bundle as kappa_page_bundle
from ui.persona import bundle as persona_page_bundle
from ui.trigger import bundle as trigger_page_bundle

TRIGGER_MODEL = "authored-example-light-router"


def trigger_sample() -> dict:
    catalogue = load_skills()
    queries = load_queries(catalogue)
    cells, results = route(catalogue, queries, provider_for_mode("offline", default_recordings()), TRIGGER_MODEL, 2)
    run = TriggerRun(catalogue, queries, 2, "tools", "openai", TRIGGER_MODEL, tuple(c.request for c in cells),
                     tuple(results))
    return trigger_bundle(run, trigger_report(run))


SAMPLES = {"trigger": trigger_sample}
LOADERS = {"trigger": lambda bundle: trigger_page_bundle.load_run(bundle, 5)}


def judge_sample() -> dict:
    """The judge command's offline run on its default data, both templates and the probes."""
    import tempfile

    from evallib.runs.judge import cli
    with tempfile.TemporaryDirectory() as out:
        cli.main(["--offline", "--compare", "--probes", "--out", out])
        return read_run_bundle((Path(out) / "judge-report.json").read_bytes(), "judge")


SAMPLES["judge"] = judge_sample
LOADERS["judge"] = judge_page_bundle.load_run


def persona_sample() -> dict:
    """The persona page's default grid replayed from the authored examples."""
    from evallib.llm import collect
    from evallib.persona.catalogue import AUTHORED_MODEL, build_requests, load_catalogue
    from evallib.runs.persona.bundle import PersonaRun, make_bundle
    catalogue = load_catalogue()
    cells = build_requests(catalogue, AUTHORED_MODEL)
    results = collect([c.request for c in cells], provider_for_mode("offline", default_recordings()), 4)
    return make_bundle(PersonaRun(catalogue, tuple(cells), tuple(results)))


def kappa_sample() -> dict:
    """The kappa page's default run: the course's 12-check rubric typed, as the page opens."""
    from evallib.agreement import SEED_RUBRIC_PAIR
    from evallib.runs.kappa.bundle import KappaInputs, make_bundle
    from ui.ratings_input import preset_text
    return make_bundle(KappaInputs("typed", tuple(preset_text(r) for r in SEED_RUBRIC_PAIR.ratings)))


SAMPLES["persona"] = persona_sample
SAMPLES["kappa"] = kappa_sample
LOADERS["persona"] = persona_page_bundle.load_run
LOADERS["kappa"] = kappa_page_bundle.load_run


GNSS_MODEL = "authored-example-gnss-text-model"
STATION = Path(__file__).resolve().parents[1] / "data" / "gnss" / "STA4.csv"


def gnss_run() -> GnssRun:
    """The page's default run: default sliders, the recorded text model (2 runs per case), an upload."""
    store = default_recordings()
    requests = tuple(request for _, _, request in case_requests(GNSS_MODEL, 2))
    model = TextModelRun(GNSS_MODEL, 2, requests, tuple(store.get(r.key()).result for r in requests))
    return GnssRun(SPEC_V1, 12.0, 6.0, AGENT_NAMES, text_model=model,
                   station=Station(STATION.name, "up", STATION.read_text(encoding="utf-8")))


def gnss_sample() -> dict:
    run = gnss_run()
    return gnss_bundle(run, gnss_report(run))


SAMPLES["gnss"] = gnss_sample
LOADERS["gnss"] = gnss_page_bundle.load_run
