"""Every evaluation command prints its readings as the English sentences the page shows (read from the
page's English catalogue, `evallib.runs.sentences`): never a reading's id (``persona.disc.signal``), a
raw code (``out_of_range``), a Python or JSON dict, nor a ``{placeholder}`` left unfilled."""

import re

import pytest

from evallib.__main__ import main
from evallib.runs.persona.cli import sentence
from evallib.runs.sentences import p_value, say, text

#: A reading's id as a page's catalogue key: a page's topic, then a dotted code.
READING_ID = re.compile(r"\b(persona|kappa|trigger|triggering|judge|gnss|format|scale)\.[a-z_]+\b")
#: A raw dict (JSON or Python) or a placeholder left in a sentence.
RAW = re.compile(r"\{\s*[\"'a-z_]|\}")
#: A code in snake case (a status, a group, a reading's code), as opposed to words.
SNAKE = re.compile(r"\b(?!p_o\b|p_e\b)[a-z]+_[a-z_]+\b")


def _words_only(out: str, codes: bool = True) -> None:
    """``codes``: also no code in snake case (gnss names the answer's JSON fields, ``offset_day``)."""
    assert out.strip()
    assert not READING_ID.search(out), READING_ID.search(out).group(0)
    assert not RAW.search(out), out
    assert not (codes and SNAKE.search(out)), SNAKE.search(out).group(0)


def test_the_persona_command_says_its_readings_in_the_pages_sentences(capsys):
    assert main(["persona"]) == 0
    out = capsys.readouterr().out
    _words_only(out)
    assert "95% interval from redrawing the 6 probes: from 0.58 to 0.67." in out
    assert "Of 1000 shuffles, the share doing as well is < 0.001: below 0.05, the assistants leave a signature." in out
    assert "Mutual confusion: style ↔ expression." in out  # the page's bold, without its asterisks


@pytest.mark.usefixtures("live_env")
def test_identical_answers_are_said_as_the_page_warns_not_as_a_code_and_json(server, capsys):
    server.reset()
    code = main(["persona", "--live", "fake-fixed", "--base-url", server.openai_base_url, "--retries", "0"])
    out = capsys.readouterr().out
    assert code == 0
    _words_only(out)
    assert ("All 36 collected answers are identical: no measure can tell the assistants apart, and no pair "
            "stands out from another.") in out
    assert "the interval has zero width, which says nothing about precision (it is not certainty)." in out


@pytest.mark.parametrize("reading, said", [
    ({"topic": "persona.ranks", "code": "mantel_exact",
      "values": {"changed": 3, "n": 15, "rho": -0.116, "p": 0.0004, "n_perm": 720}},
     "3 of 15 pairs change rank. Spearman correlation between the two distances: ρ = -0.12. Exact Mantel test "
     "(pairs share assistants: the assistants are permuted, not the pairs, over all 720 permutations): p = < 0.001."),
    ({"topic": "persona", "code": "undecided", "values": {"n": 1, "n_empty": 1, "n_tied": 0}},
     "1 answer without a predicted author (empty: 1; equally close to several assistants: 0): it counts as an error "
     "(\"none\" column of the matrix)."),
    ({"topic": "persona.interval_reading", "code": "zero_width", "values": {"n_probes": 6, "accuracy": None}},
     "All 6 probes give the same accuracy (undefined): the interval has zero width, which says nothing about "
     "precision (it is not certainty)."),
])
def test_a_persona_reading_is_the_english_pages_sentence_with_its_values(reading, said):
    assert sentence(reading) == said


def test_a_p_value_and_a_missing_message_read_as_the_page_would():
    assert (p_value(0.0004), p_value(0.0123), p_value(None)) == ("< 0.001", "0.012", "undefined")
    assert say("persona.jaccard.all_equal", {"n": 3, "top": -0.0001}) == \
        "All 3 pairs have the same index (0.00): the measure ranks nothing."
    with pytest.raises(KeyError, match="persona.disc.no_such_code"):
        text("persona.disc.no_such_code")


def test_the_judge_command_names_the_statuses_as_the_page_does(tmp_path, capsys):
    assert main(["judge", "--offline", "--compare", "--probes", "--out", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    _words_only(out)
    assert "statuses scored 8, unparseable 1, out of range 1, inconsistent 1, truncated 1" in out


def test_the_trigger_command_prints_words(tmp_path, capsys):
    assert main(["trigger", "--offline", "--model", "authored-example-light-router", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    _words_only(out)
    assert "gate: PASS (accuracy at or above the minimum;" in out


@pytest.mark.parametrize("options", [["--agents", "v1,v2,midas"], ["--recorded", "authored-example-gnss-text-model"]])
def test_the_gnss_command_prints_words(options, capsys):
    assert main(["gnss", *options]) in (0, 1)
    out = capsys.readouterr().out
    _words_only(out, codes=False)
    assert re.search(r"^  (answer not in the schema|offset not modelled|offset missed): C\d\d", out, re.MULTILINE)
