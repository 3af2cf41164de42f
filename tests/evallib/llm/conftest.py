import pytest

from tests.fake_llm_server import FakeLLMServer

#: A distinctive key: the tests assert it never appears in a message, a recording or a log.
SECRET_KEY = "sk-test-SECRET-9f3a7c"


@pytest.fixture(scope="module")
def server():
    with FakeLLMServer(api_key=SECRET_KEY) as running:
        yield running


@pytest.fixture(autouse=True)
def _fresh_server_state(request):
    if "server" in request.fixturenames:
        request.getfixturevalue("server").reset()
        request.getfixturevalue("server").latency = 0.0
