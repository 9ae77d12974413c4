"""mcp-server-qdrant with its tools as the package defines them, without the embedding model.

The package's own `server.py` builds a FastEmbed provider, which downloads its model at
start; the tools and their schemas do not depend on it (they are the package's functions).
This starts the package's `QdrantMCPServer` with the same settings from the environment and
a provider that embeds nothing (a tool call would fail; listing the tools does not call it).
"""
from mcp_server_qdrant.embeddings.base import EmbeddingProvider
from mcp_server_qdrant.mcp_server import QdrantMCPServer
from mcp_server_qdrant.settings import QdrantSettings, ToolSettings


class NoModel(EmbeddingProvider):
    async def embed_documents(self, documents):
        raise RuntimeError("no embedding model offline")

    async def embed_query(self, query):
        raise RuntimeError("no embedding model offline")

    def get_vector_name(self):
        return "fast-all-minilm-l6-v2"

    def get_vector_size(self):
        return 384


QdrantMCPServer(
    tool_settings=ToolSettings(),
    qdrant_settings=QdrantSettings(),
    embedding_provider=NoModel(),
).run(transport="stdio")
