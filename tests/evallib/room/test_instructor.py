import pytest

from evallib.errors import InputError
from evallib.room.instructor import ENV_VAR, InstructorToken, instructor_token


def test_the_secrets_file_wins_then_the_environment_then_a_drawn_token(tmp_path):
    secrets_file = tmp_path / "secrets.toml"
    secrets_file.write_text('[room]\ninstructor_token = " from-secrets "\n')
    assert instructor_token({ENV_VAR: "from-env"}, secrets_file) == InstructorToken("from-secrets", "secrets")
    secrets_file.write_text('[room]\ninstructor_token = "  "\n[other]\nx = 1\n')
    assert instructor_token({ENV_VAR: "from-env"}, secrets_file) == InstructorToken("from-env", "environment")
    drawn = [instructor_token({}, tmp_path / "absent.toml") for _ in range(2)]
    assert {d.source for d in drawn} == {"drawn"} and drawn[0].token != drawn[1].token
    assert len(drawn[0].token) >= 20


@pytest.mark.parametrize("text", ["[room\ninstructor_token = 1", "[room]\ninstructor_token = 12\n"])
def test_an_unreadable_secrets_file_is_named(tmp_path, text):
    secrets_file = tmp_path / "secrets.toml"
    secrets_file.write_text(text)
    with pytest.raises(InputError) as error:
        instructor_token({}, secrets_file)
    assert error.value.code == "secrets_unreadable" and error.value.details["path"] == str(secrets_file)
