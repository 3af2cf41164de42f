"""What evallib.llm.redaction finds: a URL's credentials wherever its scheme starts, in any text."""

import pytest

from evallib.llm.redaction import leak


@pytest.mark.parametrize("text", ["https://user:pw@host/v1", "voir https://user:pw@host", "xhttps://u:p@h",
                                  "(http://u:p@h)", "«ftp://u:p@h»", "a_https://u:p@h", "a.b+c-d://u:p@h"])
def test_credentials_in_a_url_are_found_wherever_the_url_starts(text):
    assert leak({"note": text}) == "url_credentials"


@pytest.mark.parametrize("text", ["http://host/v1", "user:pw@host", "a" * 200_000, "a" * 100_000 + "://x"])
def test_text_without_credentials_is_not_a_leak(text):
    assert leak([text]) is None
