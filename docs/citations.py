"""Write docs/citations.tsv: each place the code cites what a reader of the repository cannot open.

    python docs/citations.py      (from the repository's root, or anywhere: it finds the root itself)

A citation is "issue N", "seed 00N", or a path under the notes or shared folders, in any tracked file
but this one and its table (code first; configuration, data and the docs' example workflow too).
Each row gives the site (file:line, as `git grep` finds it now: run it again after a merge moves
lines), the cited text (the short parenthesis holding it, else the citation itself) and the docs
anchor, or paper, that should replace it: chosen by the cited line's text (`BY_TEXT`), else by the
file (`BY_FILE`). A site matched by neither is printed, with "?" as its replacement.
"""

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: The pattern of the brief's grep; "[/]" keeps this file from matching it.
PAT = re.compile(r"[Ii]ssue [0-9]+|seed 00[0-9]|notes[/]|shared[/]")
NOTES = "notes" + "/evaluation.md"
# Default target by file (first match of prefix wins), then overrides by file:line.
BY_FILE = [
    (".streamlit/config.toml", "docs/README.md#rerun-cost"),
    ("data/gnss_recorded_runs.json", "docs/gnss.md#repeated"),
    ("docs/trigger-gate-workflow.yml", "docs/trigger.md#gate"),
    ("pytest.ini", "docs/README.md#tests"),
    ("ui/room/liveness.py", "docs/README.md#room-serving"),
    ("ui/room/", "docs/room.md"),
    ("ui/secrets.py", "docs/README.md#streamlit"),
    ("ui/settings.py", "docs/README.md#streamlit"),
    ("ui/models.py", "docs/README.md#streamlit"),
    ("ui/run_bundles.py", "docs/README.md#take-home"),
    ("ui/downloads.py", "docs/README.md#take-home"),
    ("ui/presentation.py", "docs/README.md#presentation"),
    ("ui/figures.py", "docs/README.md#presentation"),
    ("ui/shell.py", "docs/README.md#streamlit"),
    ("ui/widgets.py", "docs/README.md#streamlit"),
    ("ui/persona/editor.py", "docs/persona.md#protocol"),
    ("ui/persona/view.py", "docs/README.md#rerun-cost"),
    ("ui/texts/gnss.py", "docs/gnss.md"),
    ("evallib/room/", "docs/room.md"),
    ("evallib/triggering/cli.py", "docs/trigger.md#gate"),
    ("evallib/triggering/gate.py", "docs/trigger.md#gate"),
    ("evallib/triggering/routing.py", "docs/trigger.md#routing"),
    ("evallib/triggering/__init__.py", "docs/trigger.md"),
    ("evallib/triggering/metrics.py", "docs/trigger.md#metrics"),
    ("evallib/triggering/data.py", "docs/trigger.md#question"),
    ("evallib/triggering/decisions.py", "docs/README.md#peers"),
    ("evallib/triggering/readings.py", "docs/trigger.md#perfect-score"),
    ("evallib/judging/requests.py", "docs/judge.md#rubric"),
    ("evallib/judging/__init__.py", "docs/judge.md"),
    ("evallib/judging/rubric.py", "docs/judge.md#rubric"),
    ("evallib/judging/grades.py", "docs/judge.md#grades"),
    ("evallib/judging/data.py", "docs/judge.md#question"),
    ("evallib/judging/code_graders.py", "docs/judge.md#code-graders"),
    ("evallib/llm/modes.py", "docs/README.md#modes"),
    ("evallib/llm/collect.py", "docs/README.md#peers"),
    ("evallib/llm/answers.py", "docs/README.md#models"),
    ("evallib/llm/scheduler.py", "docs/room.md#fair-scheduler"),
    ("evallib/llm/request.py", "docs/README.md#peers"),
    ("evallib/cluster_rates.py", "docs/stats.md#cluster-interval"),
    ("evallib/gnss/cli.py", "docs/gnss.md#tolerances"),
    ("evallib/gnss/evaluation.py", "docs/gnss.md#failures"),
    ("evallib/gnss/synthetic.py", "docs/gnss.md#synthetic"),
    ("evallib/gnss/__init__.py", "docs/gnss.md"),
    ("evallib/gnss/agents.py", "docs/gnss.md#agents"),
    ("evallib/gnss/spec.py", "docs/gnss.md#spec"),
    ("evallib/gnss/live.py", "docs/gnss.md#live"),
    ("evallib/gnss/tolerances.py", "docs/gnss.md#tolerances"),
    ("evallib/gnss/repeated.py", "docs/gnss.md#repeated"),
    ("evallib/gnss/readers.py", "docs/gnss.md#stations"),
    ("evallib/gnss/cases.py", "docs/gnss.md#cases"),
    ("evallib/text.py", "docs/persona.md#tokens"),
    ("evallib/persona/protocol.py", "docs/persona.md#protocol"),
    ("evallib/persona/distances.py", "docs/persona.md#ranks"),
    ("evallib/persona/readings.py", "docs/persona.md#readings"),
    ("evallib/persona/catalogue.py", "docs/persona.md#protocol"),
    ("evallib/persona/classifier.py", "docs/persona.md#loo"),
    ("tests/ui/test_presentation.py", "docs/README.md#presentation"),
    ("tests/test_browser_present.py", "docs/README.md#presentation"),
    ("tests/ui/test_widgets.py", "docs/README.md#streamlit"),
    ("tests/ui/test_shell.py", "docs/README.md#streamlit"),
    ("tests/ui/test_room_board_once.py", "docs/README.md#room-serving"),
    ("tests/test_browser_board_liveness.py", "docs/README.md#room-serving"),
    ("tests/test_browser_room_flow.py", "docs/room.md"),
    ("tests/test_browser_sequences.py", "docs/README.md#robustness"),
    ("tests/browser_walk.py", "docs/README.md#robustness"),
    ("tests/test_random_walk.py", "docs/README.md#robustness"),
    ("tests/test_sessions_first_visitors.py", "docs/README.md#room-serving"),
    ("tests/test_browser_restart.py", "docs/README.md#room-serving"),
    ("tests/test_sessions_restart.py", "docs/README.md#room-serving"),
    ("tests/test_browser_figures.py", "docs/README.md#presentation"),
    ("tests/test_browser_run_bundles", "docs/README.md#take-home"),
    ("tests/pages/test_see_the_code.py", "docs/README.md#take-home"),
    ("tests/pages/test_french.py", "docs/README.md#readings"),
    ("tests/pages/test_kappa_rerun_cost.py", "docs/README.md#rerun-cost"),
    ("tests/pages/test_kappa_page.py", "docs/kappa.md#readings"),
    ("tests/evallib/test_agreement_readings.py", "docs/kappa.md#readings"),
    ("tests/evallib/test_agreement.py", "docs/kappa.md#figures"),
    ("tests/evallib/gnss/test_midas.py", "docs/gnss.md#synthetic"),
    ("tests/evallib/gnss/test_agents.py", "docs/gnss.md#agents"),
    ("tests/evallib/gnss/test_false_alarm_threshold.py", "docs/gnss.md#threshold"),
    ("tests/evallib/gnss/test_station_readings.py", "docs/gnss.md#stations"),
    ("tests/evallib/gnss/test_tolerance_bounds.py", "docs/gnss.md#tolerances"),
    ("tests/evallib/persona/test_audit.py", "docs/persona.md#figures"),
    ("tests/evallib/persona/test_distances.py", "docs/persona.md#figures"),
    ("pages/persona.py", "docs/persona.md"),
    ("pages/trigger.py", "docs/trigger.md"),
    ("pages/gnss.py", "docs/gnss.md"),
    ("pages/judge.py", "docs/judge.md"),
    ("bench/room_attempts.py", "docs/README.md#performance"),
    ("bench/room_sessions.py", "docs/README.md#performance"),
    ("bench/room.py", "docs/README.md#performance"),
    ("bench/agreement.py", "docs/README.md#performance"),
    ("bench/sessions.py", "docs/README.md#performance"),
    ("bench/pages.py", "docs/README.md#performance"),
    ("bench/persona.py", "docs/README.md#performance"),
    ("bench/gnss.py", "docs/README.md#performance"),
    ("bench/judge.py", "docs/README.md#performance"),
    ("bench/cluster_coverage.py", "docs/stats.md#cluster-interval"),
]
# Overrides by the cited text found on the line (file prefix, substring of line) -> target.
BY_TEXT = [
    ("bench/gnss.py", "largest_jump_loop", "docs/gnss.md#agents"),
    ("ui/texts/gnss.py", "pass rates over several cases", "docs/gnss.md#repeated"),
    ("ui/texts/gnss.py", "real stations", "docs/gnss.md#stations"),
    ("ui/texts/gnss.py", "order statistics", "docs/gnss.md#tolerances"),
    ("ui/texts/gnss.py", "MIDAS's published sigma", "docs/gnss.md#midas-sigma"),
    ("evallib/gnss/evaluation.py", "switches tolerance at 5 years", "docs/gnss.md#tolerances"),
    ("evallib/gnss/evaluation.py", "jump threshold", "docs/gnss.md#threshold"),
    ("evallib/gnss/synthetic.py", "Hector convention", "docs/gnss.md#synthetic (and Williams 2003, J. Geodesy 76:483)"),
    ("evallib/text.py", "smooth_idf", "docs/persona.md#tfidf"),
    ("evallib/persona/classifier.py", "discriminabilite", "docs/persona.md#loo"),
    ("evallib/persona/distances.py", "rank table", "docs/persona.md#ranks (and Mantel 1967, Spearman 1904)"),
    ("evallib/persona/protocol.py", "three measures", "docs/persona.md#protocol"),
    ("evallib/judging/grades.py", NOTES, "docs/README.md#peers"),
    ("evallib/judging/requests.py", NOTES, "docs/README.md#models"),
    ("evallib/llm/collect.py", "worker threads", "docs/README.md#streamlit"),
    ("evallib/triggering/routing.py", "runs per query", "docs/trigger.md#routing"),
    ("evallib/triggering/metrics.py", "Definitions", "docs/trigger.md#metrics"),
    ("evallib/gnss/readers.py", NOTES, "docs/gnss.md#stations"),
    ("evallib/gnss/cli.py", "'s table: v1/spec v1", "docs/gnss.md#tolerances"),
    ("tests/evallib/test_agreement.py", "bootstrap from sufficient", "docs/kappa.md#interval"),
    ("tests/evallib/test_agreement.py", "CSV reading", "docs/kappa.md#question"),
    ("tests/evallib/test_agreement.py", "weighted", "docs/kappa.md#figures"),
    ("tests/evallib/gnss/test_midas.py", "Record lengths", "docs/gnss.md#synthetic"),
    ("evallib/gnss/agents.py", "per-candidate loop", "docs/gnss.md#agents"),
    ("evallib/gnss/agents.py", "step 5", "docs/gnss.md#agents"),
    ("evallib/gnss/tolerances.py", "offset-free design", "docs/gnss.md#tolerances"),
    ("evallib/gnss/cases.py", "four cases", "docs/gnss.md#cases"),
    ("evallib/gnss/cases.py", "disjoint", "docs/gnss.md#cases"),
    ("evallib/triggering/readings.py", "too easy", "docs/trigger.md#perfect-score"),
]
TOKEN = re.compile(r"[Ii]ssue [0-9]+(?:'s)?(?:, (?:item|section|sections) [0-9]+(?: and [0-9]+)?)?"
                   r"|seed 00[0-9](?:'s)?(?:, steps? [0-9]+(?:-[0-9]+)?)?|(?:\S*/)?notes[/][\w.]+|\S*shared[/][\w./]+")


def cited_text(line: str, match: re.Match) -> str:
    """The parenthesis holding the citation when it is short, else the citation itself."""
    start, end = line.rfind("(", 0, match.start()), line.find(")", match.end())
    if start >= 0 and end > 0 and ")" not in line[start + 1:match.start()] and "(" not in line[match.end():end] \
            and end - start < 90:
        return line[start:end + 1]
    return match.group(0)


def rows() -> tuple[list[str], list[str]]:
    """The table's lines (header first) and the grep lines no rule gives a target."""
    out = subprocess.run(["git", "grep", "-nE", PAT.pattern, "--", ".", ":!docs/citations.*"], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    table, missing = ["site\tcited\treplacement"], []
    for line in out.splitlines():
        path, lineno, text = line.split(":", 2)
        cited = "; ".join(dict.fromkeys(cited_text(text, m) for m in TOKEN.finditer(text)))
        target = next((t for f, s, t in BY_TEXT if path.startswith(f) and s in text), None)
        target = target or next((t for f, t in BY_FILE if path.startswith(f)), None)
        if target is None:
            missing.append(line)
        table.append(f"{path}:{lineno}\t{cited}\t{target or '?'}")
    return table, missing


if __name__ == "__main__":
    table, missing = rows()
    (ROOT / "docs" / "citations.tsv").write_text("\n".join(table) + "\n", encoding="utf-8")
    print(len(table) - 1, "sites;", len(missing), "without a target")
    for line in missing:
        print("  ", line[:160])
