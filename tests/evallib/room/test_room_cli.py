"""``python -m evallib room token``: a new drawn token replaces the kept one; a set token is left alone."""

from evallib.__main__ import main
from evallib.room.instructor import ENV_VAR as TOKEN_VAR
from evallib.room.storage import ENV_VAR, RoomStore


def test_room_token_draws_a_new_token_that_the_store_then_accepts(tmp_path, monkeypatch, capsys):
    url = f"sqlite:///{tmp_path}/rooms.sqlite3"
    monkeypatch.setenv(ENV_VAR, url)
    monkeypatch.delenv(TOKEN_VAR, raising=False)
    monkeypatch.setattr("evallib.room.instructor.SECRETS_FILE", tmp_path / "absent.toml")
    first = RoomStore(url).drawn_token
    assert main(["room", "token"]) == 0
    new = capsys.readouterr().out.strip().rsplit(" ", 1)[1]
    store = RoomStore(url)
    assert new != first and store.open_room(new).code
    store.engine.dispose()
    monkeypatch.setenv(TOKEN_VAR, "set-here")
    assert main(["room", "token"]) == 1 and "EVALLIB_ROOM_INSTRUCTOR_TOKEN" in capsys.readouterr().out
