"""The README says what the repository does: `make bench` lists every benchmark the Makefile runs."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _bench_recipe() -> list[str]:
    """The scripts `make bench` runs, in order, read from the Makefile's recipe."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = re.search(r"^bench:.*\n((?:\t.*\n)+)", makefile, re.M).group(1)
    return re.findall(r"(bench/\w+\.py)", recipe)


def test_make_bench_lists_every_benchmark_the_makefile_runs_in_its_order():
    scripts = _bench_recipe()
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    paragraph = readme[readme.index("`make bench`"):readme.index("## Going live")]
    assert re.findall(r"`(bench/\w+\.py)`", paragraph) == scripts
    assert {str(p.relative_to(ROOT)) for p in (ROOT / "bench").glob("*.py")} == set(scripts)


def test_the_readme_says_streamlits_own_widget_texts_stay_in_english():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "Streamlit's own widget texts stay in English" in " ".join(readme.split())
