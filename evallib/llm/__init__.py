"""One model layer for every page: requests, providers, recordings, modes and concurrent collection.

Typical use, from a script or a page::

    from evallib.llm import ChatRequest, ProviderConfig, Recordings, collect, make_provider, provider_for_mode

    live = make_provider(ProviderConfig(kind="openai", base_url="http://localhost:11434/v1"))
    provider = provider_for_mode("live", Recordings("recordings"), live)
    results = collect([ChatRequest.single("llama3.2", "Be brief.", "Hi")], provider)
"""

from evallib.llm.collect import DEFAULT_CONCURRENCY, Progress, collect, failed_indices, retry_failed
from evallib.llm.modes import MODES, FallbackProvider, RecordingProvider, ReplayProvider, provider_for_mode
from evallib.llm.providers import (AnthropicProvider, OpenAICompatibleProvider, Provider, ProviderConfig,
                                   make_provider)
from evallib.llm.recordings import Recording, Recordings, live_provenance
from evallib.llm.request import ChatRequest, ChatResult, EmbeddingRequest, EmbeddingResult

__all__ = [
    "DEFAULT_CONCURRENCY", "MODES", "AnthropicProvider", "ChatRequest", "ChatResult", "EmbeddingRequest",
    "EmbeddingResult", "FallbackProvider", "OpenAICompatibleProvider", "Progress", "Provider",
    "ProviderConfig", "Recording", "RecordingProvider", "Recordings", "ReplayProvider", "collect",
    "failed_indices", "live_provenance", "make_provider", "provider_for_mode", "retry_failed",
]
