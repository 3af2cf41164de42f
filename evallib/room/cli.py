"""``python -m evallib room token``: draw a new instructor token for the room database and print it.

For an instructor who lost the drawn token (only its hash is kept, `evallib.room.instructor`). The old
token stops working at once, in every running process, and so does every browser it had made the
instructor's. Exit codes: 0 drawn and printed; 1 the token is set by the secrets file or the
environment (nothing drawn: change it there); 2 a usage error, or the database cannot be used.
"""

from __future__ import annotations

import argparse

from sqlalchemy import exc

from evallib.errors import InputError
from evallib.room.instructor import configured_token, draw_new_token
from evallib.room.storage import database_url, make_engine


def main(argv: list[str] | None = None) -> int:
    """Run ``room token`` (module docstring); returns the exit code."""
    parser = argparse.ArgumentParser(prog="python -m evallib room", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("action", choices=("token",), help="token: draw a new instructor token and print it")
    parser.parse_args(argv)
    try:
        configured = configured_token()
    except InputError as error:
        print(f"error: {error}")
        return 2
    if configured is not None:
        where = "[room] instructor_token in .streamlit/secrets.toml" if configured.source == "secrets" \
            else "the EVALLIB_ROOM_INSTRUCTOR_TOKEN variable"
        print(f"The instructor token is set by {where}: change it there; nothing was drawn.")
        return 1
    engine = make_engine(database_url())
    try:
        token = draw_new_token(engine)
    except exc.DBAPIError as error:
        print(f"error: the room database cannot be used: {type(error.orig).__name__}")
        return 2
    finally:
        engine.dispose()
    print(f"New room instructor token (the old one and the browsers it recognised no longer work): {token}")
    return 0
