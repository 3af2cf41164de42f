"""The persona and kappa commands' bundles load into their pages and set the pages' inputs (the catalogue
editors; the kappa source, file, pair and options), and an edited figure is refused whole."""

import json

import pytest
import streamlit

from evallib.__main__ import main
from evallib.persona.catalogue import load_catalogue
from tests.ui.run_bundle_samples import LOADERS
from ui import run_bundles
from ui.persona.editor import SOURCE_KEY


def _load(page: str, raw: bytes, state: dict) -> bool:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(streamlit, "session_state", state)
        return run_bundles.load_file(page, "run.json", raw, LOADERS[page])


def test_the_persona_command_bundle_sets_the_catalogue(tmp_path):
    assert main(["persona", "--out", str(tmp_path)]) == 0
    state = {"lang": "fr"}
    assert _load("persona", next(tmp_path.glob("persona-*.json")).read_bytes(), state)
    assert state[SOURCE_KEY] == load_catalogue().to_dict()
    assert state[run_bundles.LOADED_KEY]["persona"]["bundle"]["made_by"] == "cli"


def test_the_kappa_command_bundle_sets_the_file_the_pair_and_the_options(tmp_path, capsys):
    (tmp_path / "r.csv").write_text("a;b;c\n1;1;0\n0;0;0\n1;0;1\n1;1;1\n", encoding="utf-8")
    assert main(["kappa", str(tmp_path / "r.csv"), "--pair", "1,3", "--weights", "linear", "--level", "ordinal",
                 "--out", str(tmp_path)]) == 0
    state = {"lang": "en", "_kappa_weights_en": 0, "kappa_source": "typed"}
    assert _load("kappa", next(tmp_path.glob("kappa-*.json")).read_bytes(), state)
    assert (state["kappa_source"], state["kappa_weights"], state["kappa_level"], state["kappa_ci"]) == \
        ("csv", "linear", "ordinal", "small_sample")
    assert (state["kappa_col_a"], state["kappa_col_b"]) == (0, 2) and "_kappa_weights_en" not in state
    assert state["kappa_csv_data"].name == "r.csv" and b"1;1;0" in state["kappa_csv_data"].data


def test_an_edited_figure_is_refused_and_nothing_changes(tmp_path):
    assert main(["kappa", str(tmp_path / "missing.csv")]) == 2
    (tmp_path / "r.csv").write_text("a,b\n1,1\n0,1\n1,1\n0,0\n", encoding="utf-8")
    assert main(["kappa", str(tmp_path / "r.csv"), "--out", str(tmp_path)]) == 0
    bundle = json.loads(next(tmp_path.glob("kappa-*.json")).read_text(encoding="utf-8"))
    bundle["report"]["fleiss"]["kappa"] = 0.9
    state = {"lang": "fr", "kappa_r1": "1, 0"}
    assert not _load("kappa", json.dumps(bundle).encode(), state)
    assert "modifié à la main" in state.pop(run_bundles.ERROR_KEY)["kappa"]
    assert state == {"lang": "fr", "kappa_r1": "1, 0"}
