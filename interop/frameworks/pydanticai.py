"""Pydantic AI (PyPI `pydantic-ai-slim[mcp]`) against the example servers, no model called.

    pydanticai.py [-v] --run SERVER SPEC TRANSPORT PROFILE TARGET [--run ...]   (harness.py)

Connects with the MCP toolset (`MCPToolset`, on a FastMCP StdioTransport or the server's URL;
2.x's name for 1.x's MCPServerStdio / MCPServerStreamableHTTP). Every call is an Agent run
whose model is a FunctionModel that asks for one tool call and then stops: the toolset runs
the call as an agent does, and the ToolReturnPart (or the RetryPromptPart of a tool error) is
what the model gets back. The tool definitions the model is given are the conversion checked.
"""

from __future__ import annotations

import sys
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator

from fastmcp.client.transports import StdioTransport
from pydantic_ai import Agent
from pydantic_ai.mcp import MCPToolset
from pydantic_ai.messages import (ModelMessage, ModelRequest, ModelResponse, RetryPromptPart, TextPart, ToolCallPart,
                                  ToolReturnPart)
from pydantic_ai.models.function import AgentInfo, FunctionModel

import harness


class PydanticAi:
    def __init__(self, toolset: MCPToolset[Any]) -> None:
        self.toolset = toolset
        self.refused: str | None = None
        self.next_call: tuple[str, dict[str, Any]] | None = None
        self.definitions: list[Any] = []
        self.seen: str | None = None
        self.agent = Agent(FunctionModel(self.model), toolsets=[toolset])

    def model(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        """The stand-in model: the tool call it is told to make, then the end of the run."""
        self.definitions = info.function_tools
        if self.next_call is not None:
            name, arguments = self.next_call
            self.next_call = None
            return ModelResponse(parts=[ToolCallPart(tool_name=name, args=arguments, tool_call_id="call_1")])
        last = messages[-1]
        assert isinstance(last, ModelRequest)
        for part in last.parts:
            if isinstance(part, ToolReturnPart):
                self.seen = part.model_response_str()
            elif isinstance(part, RetryPromptPart):
                self.seen = part.model_response()
        return ModelResponse(parts=[TextPart(content="done")])

    async def tools(self, c: harness.Checks) -> list[str]:
        listed = {t.name: t for t in await self.toolset.list_tools()}
        await self.agent.run("list")
        for d in self.definitions:
            c.equal(f"{d.name}: the schema is the listed one", d.parameters_json_schema, listed[d.name].input_schema)
        return [d.name for d in self.definitions]

    async def call(self, name: str, arguments: dict[str, Any]) -> str | None:
        self.next_call, self.seen = (name, arguments), None
        await self.agent.run(f"call {name}")
        return self.seen

    async def read(self, uri: str) -> tuple[Any, str]:
        return ..., await self.toolset.read_resource(uri)  # text only: no MIME type to check

    async def prompt(self, name: str, arguments: dict[str, str]) -> str:
        r = await self.toolset.get_prompt(name, arguments)
        return "".join(getattr(m.content, "content", "") for m in r.messages)


@asynccontextmanager
async def connect(target: str, _profile: str, _transport: str, _c: harness.Checks) -> AsyncIterator[PydanticAi]:
    where = harness.target_of(target)
    toolset: MCPToolset[Any] = MCPToolset(where if isinstance(where, str) else StdioTransport(where[0], where[1:]))
    async with toolset:
        yield PydanticAi(toolset)


if __name__ == "__main__":
    sys.exit(harness.main("pydantic-ai", connect))
