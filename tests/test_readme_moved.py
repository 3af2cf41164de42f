"""What the README said before it became a front door is still said: each section's key facts, commands and
names, found in the README or in a page of docs/ (text compared with its line breaks and runs of spaces made one
space). A fact that changes is changed here and in the guide; a fact dropped from both fails this test.
"""

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: The README's sections as they were (title -> facts), in their order.
FACTS = {
    "Introduction, the pages": [
        "works offline from recorded answers", "OpenAI-compatible server (Ollama, vLLM, llama.cpp, hosted APIs) or Anthropic",
        "Jaccard", "leave-one-out discriminability", "Spearman's rho with an exact Mantel permutation test",
        "PABAK, Gwet's AC1", "Fleiss' kappa and Krippendorff's alpha", "how many items a precise estimate needs",
        "flicker noise", "MIDAS beside v2", "`.tenv3`, `.pos`, `.neu`", "38 labelled queries",
        "`evallib/cluster_rates.py`", "1 − 0.05^(1/n)", "McNemar's exact test", "code graders first (JSON, Python, regex)",
        "`scored`, `unparseable`, `out_of_range`, `inconsistent`, `truncated`, `empty`, `error`",
        "then `overall`, never under another name", "below six cases the page says that no test can conclude",
        "**CSV** and **JSON** buttons", "UTF-8 with a byte-order mark", "**See the code**",
        "the code cites those files by anchor (`docs/gnss.md#midas`)",
    ],
    "Set-up on a fresh machine": [
        "make run # the app on http://localhost:8501, offline (recorded answers) by default",
        "make test # the test suite on two workers", "(Python 3.11+)", "`tests/test_random_walk.py`",
        "French with seed 1, English with seed 2", "40 clicks",
        "RANDOM_WALK_SEEDS=0-19 RANDOM_WALK_STEPS=120 .venv/bin/python -m pytest tests/test_random_walk.py",
        "`make run PORT=8600`", "`make dev` reloads the app when a file is saved",
        "Streamlit's own widget texts stay in English", "Drag and drop a file here",
    ],
    "Running a room": [
        "at most 40 characters: a longer one is shortened", "`EVALLIB_ROOM_REFRESH_SECONDS`", "within ±10 %",
        "95 % rank set (marginal, per attempt", "those whose set holds rank 1",
        "the winner's curse quantified", "within two refreshes", "`/_stcore/health`",
        "the SHA-256 of its cookie, never the cookie", "table `room_endpoints`, not encrypted",
        "**Use the room's model**", "`tests/test_browser_room_endpoint.py`",
        "an empty OpenAI base URL is asked for instead of sending to the hosted API",
    ],
    "Who is who, across reloads and restarts": [
        "`[room]`, key `instructor_token`", "`EVALLIB_ROOM_INSTRUCTOR_TOKEN`", "python -m evallib room token",
        "`evallib_browser`", "`HttpOnly`", "`SameSite=Strict`", "`X-Forwarded-Proto: https`", "12 hours",
        "leaving then joining again takes the same participant back", "until \"Sign out\" or a new token",
        "it may join again under a new name, as a new participant", "tests/test_browser_room_restart.py",
    ],
    "What each browser finds again after a restart": [
        "`evallib/room/browser_state.py`", "never the API key, nor any value that looks like one",
        "asks only the answers still missing", "the sidebar says why the key is asked again",
        "`tests/test_browser_restart.py`",
    ],
    "What a copied cookie still allows": [
        "12 hours after the last page load", "an injected script cannot steal it",
        "a copy of the database gives no cookie", "cookies ignore ports",
        "a request that carries the cookie twice trusts neither copy", "`evallib/room/browser_cookie.py`",
    ],
    "Submitting to the room": [
        "idempotency key", "already submitted as #N", "one attempt per page every 10 s",
        "your submission of HH:MM was not received: submit again", "tests/test_browser_room_submit.py",
        "`evallib.room.figures.attempt_figure`", "Compare attempts of different models together",
        "`tests/test_browser_page_equals_board.py`", "(`inputs.variant`)", "(kind `judge_code`)",
        "`tests/test_browser_room_flow.py`",
    ],
    "Presentation mode, offline serving": [
        "`?present=1`", "`?present=0` turns it off", "enlarges the text (20 px)", "(22 px, a high-contrast template)",
        "`static/favicon.svg`", "`/trigger/_stcore/...`",
    ],
    "make bench": [
        "`make bench` runs the benchmarks one after the other", "exits 1 when a target is missed",
        "`--participants 8` for a quick run", "`--setups one-process two-behind-nginx`", "`--baseline DIR`",
        "`--cprofile FILE`", "`bench/sampling/sitecustomize.py`",
    ],
    "Going live": [
        "| Ollama (`ollama serve`, `ollama pull llama3.2`) | OpenAI-compatible | `http://localhost:11434/v1` | none |",
        "`http://localhost:8000/v1`", "`http://localhost:8080/v1`", "`evallib/llm/redaction.py`",
        "`.streamlit/secrets.toml`, section `[llm]`", "`openai_api_key`, `openai_base_url`, `anthropic_api_key`",
        "`.streamlit/secrets.toml.example`", "`OPENAI_API_KEY`, `OPENAI_BASE_URL`, `ANTHROPIC_API_KEY`",
        "No model is chosen for you", "an HMAC of the key", "30 s in total for one request",
        "`EVALLIB_ENDPOINT_CONCURRENCY`", "`evallib/llm/scheduler.py`",
        "answers, but not as an OpenAI-compatible API", "Le modèle accepte un début de réponse imposé",
        "(`answered 36, failed 0, recorded 36`)", "record judge --base-url http://localhost:11434/v1 --model qwen3:8b --judge-model llama3.2",
        "record gnss --model llama3.2 --runs 3", "evallib authored --pack packs/fr", "(`flock`)",
        "its last line in the file is the one replayed", "`record all`", "after Ctrl-C (exit 130)",
        "record all --kind anthropic --model claude-sonnet-4-5 --concurrency 4 --timeout 120",
    ],
    "Several app processes": [
        "about thirty people", "`deploy/nginx.conf`", "nginx 1.22", "hash $cookie_evallib_browser consistent",
        "(`ip_hash`)", "read timeout of 12 h", "`$http_host`", "`server.enableXsrfProtection`",
        "`server.baseUrlPath`", "`server.cookieSecret`", "`X-Evallib-Upstream`", "`evallib/llm/shared_slots.py`",
        "advisory lock", "falls back to its own limit", "tests/evallib/llm/test_shared_slots.py",
        "tests/test_browser_multi_process.py", "nginx -p /var/lib/evallib-nginx -c \"$PWD/deploy/nginx.conf\"",
    ],
    "Command line and CI": [
        "trigger --offline --model authored-example-light-router", "kappa ratings.csv --pair 1,3 --min-kappa 0.6",
        "gnss --live llama3.2 --runs 3 --base-url http://localhost:11434/v1 --min-passes 18",
        "the gate failed **on measured answers**", "`--max-failed-share 0.05`",
        "measured on the 72 answered calls: 4 failed, within --max-failed-share 0.05",
        "(retries + 1) x timeout", "a silent model is not counted as a correct \"no skill\"",
        "unknown model: 76 of 76 calls", "`data/schemas/run_bundle.schema.json`", "(\"Load a run\")",
        "`gnss --file` keeps the file's name only", "`failed_share`", "`max_failed_share`", "`not_measured`",
        "`exit_code`", "a line every 10 s in a log", "trigger-gate-workflow.yml",
    ],
    "How it is built": [
        "ui/<page>/ (persona, trigger, judge, gnss)", "Domains never import from runs/.",
        "A request's key is the sha256 of its canonical JSON, repeat index included",
        "git-ignored `.rooms/` folder", "loads back in one transaction", "`recordings/<set>.jsonl`",
        "`EVALLIB_LOCAL_RECORDINGS`", "the local recording wins", "\"recorded live on DATE\"",
        "cp recordings/local/persona.jsonl recordings/persona-llama3.2.jsonl",
    ],
}


def _texts() -> str:
    files = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    return " ".join(" ".join(path.read_text(encoding="utf-8").split()) for path in files)


@pytest.mark.parametrize("section", list(FACTS))
def test_each_fact_of_the_old_readme_is_still_said(section):
    text = _texts()
    missing = [fact for fact in FACTS[section] if " ".join(fact.split()) not in text]
    assert not missing, f"{section}: no longer in README.md or docs/: {missing}"


def test_a_fact_nowhere_is_caught():
    assert "the board shows a winner by luck" not in _texts()
