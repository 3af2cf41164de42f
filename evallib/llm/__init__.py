"""One model layer for every page: requests, providers, recordings, modes and concurrent collection.

Typical use, from a script or a page::

    from evallib.llm import ChatRequest, ProviderConfig, Recordings, collect, make_provider, provider_for_mode

    live = make_provider(ProviderConfig(kind="openai", base_url="http://localhost:11434/v1"))
    provider = provider_for_mode("live", Recordings("recordings"), live)
    results = collect([ChatRequest.single("llama3.2", "Be brief.", "Hi")], provider)
"""

from evallib.llm.collect import DEFAULT_CONCURRENCY, Progress, collect, failed_indices, retry_failed
from evallib.llm.modes import (MODES, FallbackProvider, RecordingProvider, ReplayProvider, is_recordable,
                               provider_for_mode)
from evallib.llm.providers import (AnthropicProvider, OpenAICompatibleProvider, Provider, ProviderConfig,
                                   make_provider)
from evallib.llm.recordings import (RecordedSource, Recording, Recordings, default_recordings, live_provenance,
                                    local_directory)
from evallib.llm.request import ChatRequest, ChatResult, EmbeddingRequest, EmbeddingResult
from evallib.llm.scheduler import EndpointScheduler, Lane, ScheduledProvider

__all__ = [
    "DEFAULT_CONCURRENCY", "MODES", "AnthropicProvider", "ChatRequest", "ChatResult", "EmbeddingRequest",
    "EmbeddingResult", "EndpointScheduler", "FallbackProvider", "Lane", "OpenAICompatibleProvider", "Progress",
    "Provider", "ProviderConfig", "RecordedSource", "Recording", "RecordingProvider", "Recordings",
    "ReplayProvider", "ScheduledProvider",
    "collect", "default_recordings", "failed_indices", "is_recordable", "live_provenance", "local_directory",
    "make_provider", "provider_for_mode", "retry_failed",
]
