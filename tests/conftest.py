"""Tests never write into the repository's recordings: new recordings go to a temporary folder.

The variable is set before any test runs, so the app servers that browser tests start inherit it.
"""

import os
import shutil
import tempfile

from evallib.llm.recordings import LOCAL_DIR_VARIABLE


def pytest_configure(config):
    config._local_recordings = tempfile.mkdtemp(prefix="evallib-test-recordings-")
    os.environ[LOCAL_DIR_VARIABLE] = config._local_recordings


def pytest_unconfigure(config):
    shutil.rmtree(getattr(config, "_local_recordings", ""), ignore_errors=True)
