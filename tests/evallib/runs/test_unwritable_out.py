"""An ``--out`` folder that cannot be created is a usage error (exit 2, the path named), never a
traceback with the gate's exit code 1."""

import pytest

from evallib.__main__ import main
from evallib.runs.gate import EXIT_USAGE


@pytest.mark.parametrize("command", [["persona"], ["gnss"], ["kappa", "RATINGS"]])
def test_an_out_folder_that_cannot_be_created_is_named_with_exit_code_2(command, tmp_path, capsys):
    ratings = tmp_path / "ratings.csv"
    ratings.write_text("a,b\npass,pass\nfail,pass\npass,fail\nfail,fail\n", encoding="utf-8")
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    out = blocker / "reports"  # under a file: no folder can be made there
    argv = [str(ratings) if part == "RATINGS" else part for part in command] + ["--out", str(out)]
    assert main(argv) == EXIT_USAGE
    err = capsys.readouterr().err
    assert f"{command[0]}: error: cannot write {out}" in err and "Traceback" not in err
