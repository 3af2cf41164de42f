"""How long a live run takes to report an address that cannot answer, before and after the live path named them (docs/README.md#modes).

Two addresses that no retry can help: a port where nothing listens (a refused connection) and a plain
file server (``python -m http.server``: an HTML 501 to every POST). For each, the persona page's 36
requests are collected at concurrency 8 with the SDK's default 3 retries, side by side:

- "SDK retries": the provider with the SDK's own HTTP client (what the code did before: the SDK
  retries a refused connection and a 5xx page with backoff, 0.5 s then doubling, with jitter);
- "ours": the provider as built now (a refused connection and an HTML page are not retried).

Prints seconds and the ratio for each address; both runs give the same failure codes (checked). Run with
``.venv/bin/python bench/live_failures.py`` (about a minute; local servers only).
"""

from __future__ import annotations

import socket
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from evallib.llm import ProviderConfig, collect, make_provider  # noqa: E402
from evallib.persona.catalogue import build_requests, load_catalogue  # noqa: E402
from tests.fake_llm_server import PlainFileServer  # noqa: E402


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _sdk_retrying(provider):
    """``provider`` with the SDK's own HTTP client, as before: every retry the SDK wants, it makes."""
    provider._client = provider._make_client(provider.sdk.DefaultHttpxClient())
    return provider


def _run(url: str, old: bool) -> tuple[float, dict]:
    provider = make_provider(ProviderConfig(base_url=url, api_key="k", max_retries=3))
    if old:
        provider = _sdk_retrying(provider)
    requests = [cell.request for cell in build_requests(load_catalogue(), "m")]
    start = time.perf_counter()
    results = collect(requests, provider, max_concurrency=8)
    codes: dict = {}
    for result in results:
        code = result.error_details.get("code", result.status)
        codes[code] = codes.get(code, 0) + 1
    return time.perf_counter() - start, codes


def main() -> None:
    print(f"{'address':<22} {'SDK retries (s)':>16} {'ours (s)':>9} {'ratio':>7}  failure codes (both runs)")
    with tempfile.TemporaryDirectory() as folder, PlainFileServer(folder) as site:
        for name, url in (("refused connection", f"http://127.0.0.1:{_free_port()}/v1"),
                          ("plain file server", site.url + "/v1")):
            before, old_codes = _run(url, old=True)
            after, new_codes = _run(url, old=False)
            assert old_codes == new_codes, (old_codes, new_codes)  # the same reading, only sooner
            print(f"{name:<22} {before:16.2f} {after:9.3f} {before / after:7.0f}  {new_codes}")


if __name__ == "__main__":
    main()
