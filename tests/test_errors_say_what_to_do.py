"""Errors a newcomer meets say what to do (issue 43), typed under ``AgentprotoError``."""

from __future__ import annotations

import pytest
from agentproto.errors import AgentprotoError
from agentproto.llm import LLMClient, UnknownProviderError


def test_a_misspelt_provider_names_the_nearest_one() -> None:
    with pytest.raises(UnknownProviderError) as caught:
        LLMClient("opnai")
    error = caught.value
    assert isinstance(error, AgentprotoError) and isinstance(error, LookupError)
    assert error.provider == "opnai"
    assert error.suggestions[0] == "openai"
    assert str(error).startswith("no bundled provider 'opnai': did you mean 'openai'")
    assert "LLMClient(Manifest.load(path))" in str(error)
    assert "openai@v2" in error.known


def test_a_provider_nothing_is_near_gets_the_list() -> None:
    with pytest.raises(UnknownProviderError) as caught:
        LLMClient("zzzzzz-nothing")
    assert caught.value.suggestions == ()
    assert "did you mean" not in str(caught.value)
    assert "anthropic" in str(caught.value)
