"""The OpenAI Agents SDK (PyPI `openai-agents`) against the example servers, no model called.

    agents_sdk.py [-v] --run SERVER SPEC TRANSPORT PROFILE TARGET [--run ...]   (harness.py)

Connects with the SDK's MCPServerStdio or MCPServerStreamableHttp, converts the listing with
MCPUtil.get_function_tools, the code an Agent runs: with `convert_schemas_to_strict=True`
under the openai-strict profile (every tool must come out strict: the SDK falls back to the
listed schema when its strict conversion fails, and logs that at info level, which fails the
run here), with the SDK's default (no strict conversion) under the others. Each call goes
through the FunctionTool's on_invoke_tool, what the Runner calls with the model's arguments
(under openai-strict, the spec's arguments as a strict model sends them: every property, null
or the default for those the spec leaves out); its result is what the model gets back.
"""

from __future__ import annotations

import copy
import json
import logging
import re
import sys
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator

from agents import Agent, RunContextWrapper, UserError, set_tracing_disabled
from agents.tool import default_tool_error_function
from agents.mcp import MCPServerStdio, MCPServerStreamableHttp, MCPUtil
from agents.tool_context import ToolContext

import harness

MISSING = object()
set_tracing_disabled(True)  # nothing is sent anywhere: no trace export


class Fallbacks(logging.Handler):
    """The SDK's own words when a strict conversion fails and it keeps the listed schema."""

    def __init__(self) -> None:
        super().__init__()
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if "strict mode" in message:
            self.messages.append(message)


def strict_problems(schema: Any, path: str = "$") -> list[str]:
    """Where a schema is not in OpenAI's strict form: an object must close its properties
    (`additionalProperties: false`) and require every one of them; and where the form loses
    values: a closed object with no properties below the root (a map) takes only `{}`."""
    problems: list[str] = []
    if isinstance(schema, dict):
        kind = schema.get("type")
        if (path != "$" and (kind == "object" or isinstance(kind, list) and "object" in kind)
                and not schema.get("properties") and schema.get("additionalProperties") is False):
            problems.append(f"{path}: an object with no properties, closed: only {{}} fits")
        if "properties" in schema:
            if schema.get("additionalProperties") is not False:
                problems.append(f"{path}: additionalProperties is not false")
            if sorted(schema.get("required", [])) != sorted(schema["properties"]):
                problems.append(f"{path}: required {schema.get('required')} is not every property")
        for key, value in schema.items():
            problems += strict_problems(value, f"{path}.{key}")
    elif isinstance(schema, list):
        for i, value in enumerate(schema):
            problems += strict_problems(value, f"{path}[{i}]")
    return problems


def nullable(schema: dict[str, Any]) -> bool:
    kind = schema.get("type")
    return kind == "null" or (isinstance(kind, list) and "null" in kind) or any(
        isinstance(v, dict) and nullable(v) for v in schema.get("anyOf", []))


DEFAULT = re.compile(r"Default: (.+?)\.$")  # where openai-strict writes a default


def default_of(schema: dict[str, Any]) -> Any:
    """A property's default: its `default`, else the `Default: VALUE.` of its description."""
    if "default" in schema:
        return schema["default"]
    found = DEFAULT.search(schema.get("description", ""))
    try:
        return json.loads(found[1]) if found else MISSING
    except ValueError:
        return MISSING


def branch_for(schema: Any, value: Any) -> Any:
    """The branch of a nullable `anyOf` that a non-null value takes (the schema otherwise)."""
    if isinstance(schema, dict) and value is not None and isinstance(schema.get("anyOf"), list):
        branches = [b for b in schema["anyOf"] if isinstance(b, dict) and b.get("type") != "null"]
        if len(branches) == 1:
            return branches[0]
    return schema


def entries_schema(schema: Any) -> Any:
    """The `{key, value}` record of a map published as a list of entries, or None."""
    if not isinstance(schema, dict):
        return None
    kind = schema.get("type")
    items = schema.get("items")
    if not (kind == "array" or (isinstance(kind, list) and "array" in kind)) or not isinstance(items, dict):
        return None
    props = items.get("properties")
    return items if isinstance(props, dict) and set(props) == {"key", "value"} else None


def as_strict_model_sends(schema: Any, value: Any) -> Any:
    """The arguments as a strict model writes them: it must send every property, so it sends
    the default of one it leaves out (the schema's, or the one its description gives), or null
    where the property may be null (what the openai-strict profile reads as "absent"). A
    property with neither stays out: the spec's missing-argument errors stay missing. A map
    the schema publishes as a list of `{key, value}` entries is sent as those entries."""
    schema = branch_for(schema, value)
    entry = entries_schema(schema)
    if isinstance(value, dict) and entry is not None:
        value_schema = entry["properties"]["value"]
        return [{"key": k, "value": as_strict_model_sends(value_schema, v)} for k, v in value.items()]
    if isinstance(value, dict) and isinstance(schema, dict) and isinstance(schema.get("properties"), dict):
        out = {k: as_strict_model_sends(schema["properties"].get(k), v) for k, v in value.items()}
        for key, prop in schema["properties"].items():
            if key in out or not isinstance(prop, dict):
                continue
            if default_of(prop) is not MISSING:
                out[key] = default_of(prop)
            elif nullable(prop):
                out[key] = None
        return out
    if isinstance(value, list) and isinstance(schema, dict):
        return [as_strict_model_sends(schema.get("items"), v) for v in value]
    return value


class AgentsSdk:
    def __init__(self, server: Any, strict: bool) -> None:
        self.server = server
        self.strict = strict
        self.converted: dict[str, Any] = {}
        self.context = RunContextWrapper(context=None)
        self.refused: str | None = None
        self.errors: list[Exception] = []

    def on_error(self, context: RunContextWrapper[Any], error: Exception) -> str:
        """The SDK's default error function (what the model sees), keeping the exception."""
        self.errors.append(error)
        return default_tool_error_function(context, error)

    async def tools(self, c: harness.Checks) -> list[str]:
        fallbacks = Fallbacks()
        logger = logging.getLogger("openai.agents")
        logger.addHandler(fallbacks)
        logger.setLevel(logging.INFO)
        try:
            listed = {t.name: t for t in await self.server.list_tools()}
            converted = await MCPUtil.get_function_tools(self.server, self.strict, self.context,
                                                         Agent(name="interop"), failure_error_function=self.on_error)
        finally:
            logger.removeHandler(fallbacks)
        c.check("no fallback to a non-strict schema", not fallbacks.messages, "; ".join(fallbacks.messages))
        for tool in converted:
            self.converted[tool.name] = tool
            listed_schema = copy.deepcopy(listed[tool.name].input_schema)
            listed_schema.setdefault("properties", {})
            if self.strict:
                c.check(f"{tool.name}: converted to strict", tool.strict_json_schema is True,
                        "the SDK kept the listed schema")
                problems = strict_problems(tool.params_json_schema)
                c.check(f"{tool.name}: the schema is strict", not problems, "; ".join(problems))
            else:
                c.equal(f"{tool.name}: the schema is the listed one", tool.params_json_schema, listed_schema)
        return [t.name for t in converted]

    async def call(self, name: str, arguments: dict[str, Any]) -> str:
        tool = self.converted[name]
        if self.strict:
            arguments = as_strict_model_sends(tool.params_json_schema, arguments)
        text = json.dumps(arguments)
        context = ToolContext(context=None, tool_name=name, tool_call_id="call_1", tool_arguments=text)
        self.errors.clear()
        out = await tool.on_invoke_tool(context, text)
        # The SDK checks required arguments before it sends a call (a UserError).
        refusals = [str(e) for e in self.errors if isinstance(e, UserError) and "missing required" in str(e)]
        self.refused = refusals[0] if refusals else None
        items = out if isinstance(out, list) else [out]
        return "".join(i["text"] if isinstance(i, dict) else str(i) for i in items)

    async def read(self, uri: str) -> tuple[str | None, str | None]:
        r = await self.server.read_resource(uri)
        return r.contents[0].mime_type, getattr(r.contents[0], "text", None)

    async def prompt(self, name: str, arguments: dict[str, str]) -> str | None:
        r = await self.server.get_prompt(name, arguments)
        return "".join(getattr(m.content, "text", "") for m in r.messages)


@asynccontextmanager
async def connect(target: str, profile: str, _transport: str, _c: harness.Checks) -> AsyncIterator[AgentsSdk]:
    where = harness.target_of(target)
    server = (MCPServerStreamableHttp(params={"url": where}, client_session_timeout_seconds=30)
              if isinstance(where, str) else
              MCPServerStdio(params={"command": where[0], "args": where[1:]}, client_session_timeout_seconds=30))
    async with server:
        yield AgentsSdk(server, strict=profile == "openai-strict")


if __name__ == "__main__":
    sys.exit(harness.main("agents", connect))
