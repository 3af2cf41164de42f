"""A small workshop pack written from scratch: 3 skills, 12 queries, 3 assistants x 3 probes, 4 judge cases.

Shared by the pack tests (command line, pages, room, browser): `write_small_pack(folder)` writes it and
returns the folder.
"""

from __future__ import annotations

import codecs
import json
from pathlib import Path

SKILLS = [
    {"name": "trip-booker", "description": "Books train and plane tickets for staff travel. Use when someone asks "
                                           "to book, change or cancel a journey."},
    {"name": "room-finder", "description": "Finds and reserves a free meeting room in the office for a given time."},
    {"name": "payslip-reader", "description": "Explains the lines of a payslip. Never changes pay or bank details."},
]
QUERIES = [
    ("trip-1", "Book me a train to Leeds on Monday morning.", "trip-booker", False),
    ("trip-2", "Can you cancel my flight to Dublin next week?", "trip-booker", False),
    ("trip-3", "I need to move my Friday train back by one hour.", "trip-booker", True),
    ("room-1", "Find a room for six people at 2 pm tomorrow.", "room-finder", False),
    ("room-2", "Is there a quiet room free right now on the third floor?", "room-finder", False),
    ("room-3", "Reserve the big meeting room for Thursday's review.", "room-finder", True),
    ("pay-1", "What is the 'employer pension' line on my payslip?", "payslip-reader", False),
    ("pay-2", "Why is my net pay lower this month?", "payslip-reader", False),
    ("pay-3", "Explain the tax code printed on my March payslip.", "payslip-reader", True),
    ("none-1", "What's the weather like in Leeds?", None, False),
    ("none-2", "Change my bank details for next month's pay.", None, False),
    ("none-3", "Write a haiku about Mondays.", None, True),
]
ASSISTANTS = [
    {"name": "gardener", "system_prompt": "You are a patient gardening adviser for allotment beginners. Talk about "
                                          "soil, seasons and watering; keep answers practical."},
    {"name": "chef", "system_prompt": "You are a home cook who loves quick weeknight recipes. Give quantities and "
                                      "timings; suggest swaps for missing ingredients."},
    {"name": "coach", "system_prompt": "You are a running coach for people training for their first 10 km. Be "
                                       "encouraging and talk about pace, rest and injury."},
]
PROBES = ["How should I start this week?", "What is the most common mistake beginners make?",
          "What would you do on a rainy day?"]
CASES = [
    {"id": "json-1", "type": "JSON", "difficulty": "easy", "context": "An inventory service.",
     "input": "Return a JSON object with the keys name and count for one item called bolts, count 12."},
    {"id": "py-1", "type": "Python", "difficulty": "easy", "context": "A script run by hand.",
     "input": "Write a Python function add(a, b) that returns the sum of its two arguments."},
    {"id": "re-1", "type": "Regex", "difficulty": "medium", "context": "Log lines.",
     "input": "Write a regular expression that matches an ISO date such as 2024-05-31.",
     "must_match": ["2024-05-31"], "must_not_match": ["31/05/2024"]},
    {"id": "json-2", "type": "JSON", "difficulty": "hard", "context": "A feature-flag file.",
     "input": "Return a JSON list of two flags, each an object with the keys key and enabled."},
]
PROMPTS = {
    "templates": {"A": "You write code for an operations team. Reply with the code only.\n\nContext: {context}\n"
                       "Expected format: {type}\n\nRequest: {input}",
                  "B": "{input}\n\nBackground: {context}\n\nAnswer with one {type} block and one sentence."},
    "rubric": {"criteria": [
        {"name": "FORMAT", "max_points": 2, "description": "Is the answer in the requested format, with no stray text?"},
        {"name": "CORRECT", "max_points": 3, "description": "Does the code do exactly what the request asks?"}]},
}
MANIFEST = {"format": 1, "id": "small-office", "title": "A small office workshop", "language": "en",
            "version": "0.1.0", "author": "The test suite", "licence": "CC0-1.0",
            "pages": ["trigger", "persona", "judge", "kappa"]}
KAPPA = {"examples": [{"key": "two-reviewers", "title": "Two reviewers, eight answers", "source": "Written for the test.",
                       "ratings": [[1, 0, 1, 1, 0, 1, 1, 0], [1, 0, 0, 1, 0, 1, 1, 1]]}]}


def write_small_pack(folder: Path) -> Path:
    """Write the small pack into ``folder`` (created) and return it."""
    folder.mkdir(parents=True, exist_ok=True)
    files = {
        "pack.json": MANIFEST,
        "triggering_skills.json": {"setting": "An office helpdesk assistant.", "skills": SKILLS},
        "triggering_queries.json": {"queries": [{"id": i, "query": q, "expected": e, "held_out": h}
                                                for i, q, e, h in QUERIES]},
        "personas.json": {"setting": "Three hobby assistants.", "assistants": ASSISTANTS, "probes": PROBES},
        "judging_prompts.json": PROMPTS,
        "judging_cases.json": {"setting": "Small coding requests.", "cases": CASES},
        "kappa_examples.json": KAPPA,
    }
    for name, data in files.items():
        (folder / name).write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    return folder


def with_byte_order_marks(folder: Path) -> list[Path]:
    """Prefix every JSON and JSONL file under ``folder`` with a UTF-8 byte order mark, as Windows Notepad saves
    them; returns those files."""
    files = sorted(p for p in folder.rglob("*") if p.suffix in (".json", ".jsonl"))
    for path in files:
        path.write_bytes(codecs.BOM_UTF8 + path.read_bytes())
    return files
