"""The official MCP Python SDK (PyPI `mcp`) as an OAuth client of notes-example.

    python sdk_client.py URL ISSUER MODE

MODE is the SDK's `Client(mode=...)`: `legacy` (the 2025-11-25 handshake, a session) or
`2026-07-28`. The SDK's own client-credentials provider does everything: the first request
gets 401, the SDK reads the protected resource metadata, discovers the authorization
server, gets a token for the resource (RFC 8707) with the scopes the challenge names (the
specification's scope selection: the challenge's `scope` before the client's own), and
retries; then it lists the tools, calls `list_tags` (`notes:read`) and `create_note`
(`notes:write`). Prints one JSON line of what it saw; exit 1 on a failure. (Started by
examples/notes/tests/it/auth.rs, with the provider and the server running.)
"""

from __future__ import annotations

import json
import sys

import anyio
import httpx2
from mcp import Client
from mcp.client.auth.extensions.client_credentials import ClientCredentialsOAuthProvider
from mcp.client.streamable_http import streamable_http_client


class Memory:
    """Token storage in memory (the SDK's `TokenStorage` protocol)."""

    def __init__(self) -> None:
        self.tokens = None
        self.client_info = None

    async def get_tokens(self):
        return self.tokens

    async def set_tokens(self, tokens) -> None:
        self.tokens = tokens

    async def get_client_info(self):
        return self.client_info

    async def set_client_info(self, client_info) -> None:
        self.client_info = client_info


async def main(url: str, issuer: str, mode: str) -> dict:
    storage = Memory()
    provider = ClientCredentialsOAuthProvider(
        server_url=url,
        storage=storage,
        client_id="notes-client",
        client_secret="notes-client-secret",
        scope="notes:read",
        issuer=issuer,
    )
    seen: dict = {}
    async with httpx2.AsyncClient(auth=provider) as http:
        async with Client(streamable_http_client(url, http_client=http), mode=mode) as client:
            tools = await client.list_tools()
            seen["tools"] = len(tools.tools)
            seen["scope"] = storage.tokens.scope if storage.tokens else None
            tags = await client.call_tool("list_tags", {})
            seen["list_tags_error"] = tags.is_error
            created = await client.call_tool("create_note", {"title": "from the Python SDK"})
            seen["create_note_error"] = created.is_error
            seen["create_note"] = created.structured_content
    return seen


if __name__ == "__main__":
    url, issuer, mode = sys.argv[1:4]
    result = anyio.run(main, url, issuer, mode)
    print(json.dumps(result))
    ok = (
        result["tools"] > 0
        and result["list_tags_error"] is False
        and result["create_note_error"] is False
        and result["create_note"] is not None
    )
    sys.exit(0 if ok else 1)
