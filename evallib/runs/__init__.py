"""What a run is, for every page: its bundle, its replay, its figures checked, its gate, its failures, its recording.

The domain packages (`evallib.persona`, `evallib.triggering`, `evallib.judging`, `evallib.gnss`,
`evallib.agreement`, `evallib.room`) hold what is measured; this package holds how one measurement is
carried out, kept and replayed, and never the other way round: no domain module imports from here.

Shared by every page:

- `evallib.runs.bundle`: one run as one JSON file (``format`` "evallib-run"), written by a page's download
  and by ``python -m evallib <page> --out``, read back by either (`read_run_bundle`, `make_run_bundle`);
- `evallib.runs.replay`: a bundle's answers as a provider (`AnswerBook`), so that a loaded run is
  recomputed by the functions that made it;
- `evallib.runs.figures`: the stored report against the recomputed one (`check_recomputed`);
- `evallib.runs.gate`: what the commands share (exit codes 0 / 1 / 2, live options, progress, reports);
- `evallib.runs.failures`: failed calls grouped by cause and worded for a terminal;
- `evallib.runs.record_all`: ``python -m evallib record all``, every page's default requests, resumable.

One sub-package per page, each with ``bundle`` (the page's run as data and as a bundle) and ``cli`` (its
command and gate): `evallib.runs.persona`, `evallib.runs.trigger`, `evallib.runs.judge`,
`evallib.runs.gnss`, `evallib.runs.kappa`. The entry point of every command is `evallib.__main__`.
"""

from evallib.runs.bundle import RunBundleError, make_run_bundle, read_run_bundle
from evallib.runs.figures import check_recomputed
from evallib.runs.replay import AnswerBook, book_of

__all__ = ["AnswerBook", "RunBundleError", "book_of", "check_recomputed", "make_run_bundle", "read_run_bundle"]
