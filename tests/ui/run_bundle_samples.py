"""A real run bundle of each page on its default data (offline), and the loader each page gives
`ui.run_bundles.run_bundle_controls`: shared by the fuzz test and the bundle size measure."""

from evallib.llm import default_recordings, provider_for_mode
from evallib.triggering.bundle import TriggerRun, trigger_bundle, trigger_report
from evallib.triggering.data import load_queries, load_skills
from evallib.triggering.report import route
from evallib.run_bundle import read_run_bundle
from ui.judge import bundle as judge_page_bundle
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
    from pathlib import Path

    from evallib.judging import cli
    with tempfile.TemporaryDirectory() as out:
        cli.main(["--offline", "--compare", "--probes", "--out", out])
        return read_run_bundle((Path(out) / "judge-report.json").read_bytes(), "judge")


SAMPLES["judge"] = judge_sample
LOADERS["judge"] = judge_page_bundle.load_run
