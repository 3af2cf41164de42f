"""The README is the front door: at most 150 lines, the two set-up commands as `make` and the CI run them, a
workshop in five steps, each longer story in a guide it links to; `make bench` is listed in the development guide."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
#: The two set-up commands, exactly as the README gives them (the CI runs `make test`: .ci/run).
SET_UP = ("make run    # the app on http://localhost:8501, offline (recorded answers) by default",
          "make test   # the test suite on two workers (installs dev requirements, and Debian's chromium, postgresql "
          "and nginx when run as root)")
MAX_LINES = 150


def _readme() -> str:
    return README.read_text(encoding="utf-8")


def _section(text: str, title: str) -> str:
    return text.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]


def _bench_recipe() -> list[str]:
    """The scripts `make bench` runs, in order, read from the Makefile's recipe."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = re.search(r"^bench:.*\n((?:\t.*\n)+)", makefile, re.M).group(1)
    return re.findall(r"(bench/\w+\.py)", recipe)


def test_the_readme_is_read_in_two_minutes():
    assert len(_readme().splitlines()) <= MAX_LINES


def test_the_two_set_up_commands_are_the_makefile_s_and_the_ci_s():
    lines = _readme().splitlines()
    assert [line for line in lines if line.startswith(("make run ", "make test "))] == list(SET_UP)
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^run: ", makefile, re.M) and re.search(r"^test: ", makefile, re.M)
    assert "make test" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_a_workshop_runs_in_five_steps():
    steps = re.findall(r"^(\d)\. \*\*(.+?)\*\*", _section(_readme(), "Run a workshop in five steps"), re.M)
    assert [number for number, _ in steps] == ["1", "2", "3", "4", "5"]
    assert [what.split()[0].lower() for _, what in steps] == ["start", "get", "open", "show", "set"]


def test_each_longer_story_points_to_its_guide_and_every_link_resolves():
    text = _readme()
    for title, guide in (("Run a workshop in five steps", "docs/instructor.md"), ("Going live", "docs/live.md"),
                         ("Command line and CI", "docs/cli.md"), ("Several app processes", "docs/deployment.md")):
        assert f"]({guide})" in _section(text, title), title
    links = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text)
    assert links and [link for link in links if not (ROOT / link).exists()] == []
    assert re.search(r"^!\[.+\]\(docs/img/board-present-en\.png\)$", text, re.M), "the board on the projector"


def test_make_bench_lists_every_benchmark_the_makefile_runs_in_its_order():
    scripts = _bench_recipe()
    guide = (ROOT / "docs" / "development.md").read_text(encoding="utf-8")
    paragraph = guide[guide.index("`make bench`"):guide.index("## How it is built")]
    assert re.findall(r"`(bench/\w+\.py)`", paragraph) == scripts
    # every script that runs (a __main__ block); a module only imported by one (bench/kappa_grid.py) is not
    runnable = {str(p.relative_to(ROOT)) for p in (ROOT / "bench").glob("*.py")
                if "if __name__ == \"__main__\":" in p.read_text(encoding="utf-8")}
    assert runnable == set(scripts)


def test_the_docs_say_streamlits_own_widget_texts_stay_in_english():
    pages = (ROOT / "docs" / "pages.md").read_text(encoding="utf-8")
    assert "Streamlit's own widget texts stay in English" in " ".join(pages.split())


def test_the_readme_s_gate_example_exits_as_its_comment_says(capsys):
    """The command-line example's comment gives its exit code: the command, run offline, returns it."""
    from evallib.__main__ import main

    line = next(l for l in _section(_readme(), "Command line and CI").splitlines() if "--offline" in l)
    command, comment = line.split("#", 1)
    expected = int(re.search(r"exit (\d)", comment).group(1))
    assert main(command.split()[3:]) == expected
