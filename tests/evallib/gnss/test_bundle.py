"""The GNSS run bundle: the agents' evaluation, the text model's grades and the station estimates come back
equal from a bundle, computed again; a command's bundle loads; a bundle edited out of shape is refused."""

import json

import pytest

from evallib.runs.gnss.bundle import read_gnss_bundle
from evallib.runs.gnss.cli import main
from evallib.runs.bundle import RunBundleError, dumps
from tests.ui.run_bundle_samples import gnss_run, gnss_sample


def test_every_part_of_a_page_run_comes_back_equal():
    bundle = gnss_sample()
    _, run, report = read_gnss_bundle(dumps(bundle))
    assert report == bundle["report"] and run == gnss_run()
    assert set(report) == {"evaluation", "text_model", "station"}
    assert report["text_model"]["passes"] > 0 and report["station"]["file"] == "STA4.csv"


@pytest.mark.parametrize("argv, part", [
    (["--json"], "evaluation"), (["--json", "--agents", "v2,midas", "--spec", "v3", "--trials", "59"], "evaluation"),
    (["--json", "--recorded", "authored-example-gnss-text-model"], "text_model"),
])
def test_a_command_bundle_loads_with_the_same_figures(capsys, argv, part):
    main(argv)
    bundle, _, report = read_gnss_bundle(capsys.readouterr().out)
    assert bundle["made_by"] == "cli" and report == bundle["report"] and set(report) == {part}


@pytest.mark.parametrize("edit, code", [
    (lambda b: b["inputs"]["spec"].update(velocity_tol_bands=[[2, 1.5]]), "inputs"),
    (lambda b: b["inputs"]["spec"].update(day_tol="30"), "inputs"),
    (lambda b: b["inputs"]["thresholds"].update(v1=-1), "inputs"),
    (lambda b: b["inputs"].update(agents=["v9"]), "inputs"),
    (lambda b: b["inputs"]["station"].update(file="/home/x/STA4.csv"), "inputs"),
    (lambda b: b["inputs"]["station"].update(text="not a series"), "inputs"),
    (lambda b: b["inputs"]["text_model"].update(runs=3), "requests"),
    (lambda b: b["inputs"]["text_model"]["spec"].update(day_tol=99), "requests"),
])
def test_an_edited_bundle_is_refused_with_its_code(edit, code):
    bundle = json.loads(dumps(gnss_sample()))
    edit(bundle)
    with pytest.raises(RunBundleError) as error:
        read_gnss_bundle(json.dumps(bundle))
    assert error.value.code == code


def test_a_station_run_keeps_its_reference_step_source_and_steps_file():
    from pathlib import Path

    from evallib.runs.gnss.bundle import AGENT_NAMES, GnssRun, Station, gnss_bundle, gnss_report
    from evallib.gnss.spec import SPEC_V1
    real = Path(__file__).resolve().parents[2] / "data" / "gnss" / "real" / "USUD.tohoku2011.neu"
    station = Station(real.name, "east", real.read_text(encoding="utf-8"), "file", "2011-03-11 east\n")
    run = GnssRun(SPEC_V1, 12.0, 6.0, AGENT_NAMES[:0], station=station)
    bundle = gnss_bundle(run, gnss_report(run))
    _, loaded, report = read_gnss_bundle(dumps(bundle))
    assert loaded.station == station and report == bundle["report"]
    assert report["station"]["reference"]["step_source"] == "file"
    edited = json.loads(dumps(bundle))
    edited["inputs"]["station"]["step_source"] = "v2"
    with pytest.raises(RunBundleError) as error:
        read_gnss_bundle(json.dumps(edited))
    assert error.value.code == "inputs"
    edited["inputs"]["station"].update(step_source="file", steps_text="2011-13-01\n")
    with pytest.raises(RunBundleError) as error:
        read_gnss_bundle(json.dumps(edited))
    assert error.value.code == "inputs"
