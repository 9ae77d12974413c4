"""examples/weather on the official Python SDK's low-level server (PyPI `mcp` 2.x), for the
typed clients' interop run (scripts/interop.sh, docs/interop.md "Typed clients").

    server.py --listing FILE [--http HOST:PORT [--stateless] [--ssl-certfile PEM --ssl-keyfile PEM]]

FILE is the listing `toolidl schema` prints for weather.tool and manual.tool (its `tools`,
`resourceTemplates` and `prompts`), published as it is. The behaviour is
examples/weather/src/lib.rs's, answered in the wire shapes of docs/runtime.md's result
table: a string is one text block, a list or an integer one text block of JSON, a record
`structuredContent` plus the same JSON as text, a tool error `isError` with its text.
Serves stdio, or Streamable HTTP at http://HOST:PORT/mcp (with sessions; none with
--stateless), or at https://HOST:PORT/mcp with uvicorn's TLS given a certificate and its
key. `--http` is the example servers' flag, so interop.sh starts all of them alike.
"""

import argparse
import json
import urllib.parse

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError

# name, latitude, longitude, temperature in °C
CITIES = [("Brussels", 50.85, 4.35, 11.5), ("Lisbon", 38.72, -9.14, 19.0), ("Oslo", 59.91, 10.75, 3.0)]
RESOURCE_NOT_FOUND = -32002


def city(name):
    return next((c for c in CITIES if c[0].lower() == name.lower()), None)


def text(s):
    return types.CallToolResult(content=[types.TextContent(text=s)])


def as_json(value):
    return text(json.dumps(value, separators=(",", ":"), ensure_ascii=False))


def structured(value):
    result = as_json(value)
    result.structured_content = value
    return result


def tool_error(s):
    return types.CallToolResult(content=[types.TextContent(text=s)], is_error=True)


def get_weather(args):
    c = city(args["city"])
    if c is None:
        return tool_error(f"No weather known for {args['city']}.")
    if args.get("units", "celsius") == "fahrenheit":
        return text(f"{c[0]}: {c[3] * 9 / 5 + 32:.1f}°F")
    return text(f"{c[0]}: {c[3]:.1f}°C")


def daily_forecast(args):
    days = args.get("days", 3)
    if not isinstance(days, int) or not 1 <= days <= 14:
        return tool_error("Argument 'days' is not valid. Expected a value from 1 to 14.")
    c = city(args["city"])
    if c is None:
        return tool_error(f"No forecast for {args['city']}.")
    return as_json(
        [
            {"city": c[0], "tempC": c[3] + d / 2, "humidity": 60 + d if d % 2 == 0 else None, "when": f"2026-12-{1 + d:02}"}
            for d in range(days)
        ]
    )


def locate(args):
    c = city(args["city"])
    if c is None:
        return tool_error(f"No city named {args['city']}.")
    return structured({"latitude": c[1], "longitude": c[2]})


def stats(args):
    values = args["values"]
    return structured(
        {"count": len(values), "min": min(values), "max": max(values), "mean": sum(values) / len(values)}
    )


TOOLS = {
    "get_weather": get_weather,
    "daily_forecast": daily_forecast,
    "locate": locate,
    "greet": lambda args: text(f"Hello, {args['name']}!"),
    "add": lambda args: as_json(args["a"] + args["b"]),
    "stats": stats,
}


def make_server(listing):
    async def list_tools(ctx, params):
        return types.ListToolsResult.model_validate({"tools": listing["tools"]})

    async def call_tool(ctx, params):
        tool = TOOLS.get(params.name)
        if tool is None:
            raise MCPError(types.INVALID_PARAMS, f"Unknown tool: {params.name}")
        return tool(params.arguments or {})

    # Only templates here, but an empty `resources/list` makes the SDK declare the
    # `resources` capability, as our runtime does.
    async def list_resources(ctx, params):
        return types.ListResourcesResult(resources=[])

    async def list_templates(ctx, params):
        return types.ListResourceTemplatesResult.model_validate(
            {"resourceTemplates": listing.get("resourceTemplates", [])}
        )

    async def read_resource(ctx, params):
        uri = str(params.uri)
        prefix = "weather://cities/"
        name = urllib.parse.unquote(uri[len(prefix) :]) if uri.startswith(prefix) else ""
        c = city(name)
        if c is None:
            raise MCPError(RESOURCE_NOT_FOUND, f"No city named {name}.")
        markdown = f"# {c[0]}\n\nAt {c[1]}° N, {c[2]}° E.\n"
        return types.ReadResourceResult(
            contents=[types.TextResourceContents(uri=uri, mime_type="text/markdown", text=markdown)]
        )

    async def list_prompts(ctx, params):
        return types.ListPromptsResult.model_validate({"prompts": listing.get("prompts", [])})

    async def get_prompt(ctx, params):
        if params.name != "summarize":
            raise MCPError(types.INVALID_PARAMS, f"Unknown prompt: {params.name}")
        a = params.arguments or {}
        message = f"Summarize the weather in {a.get('city')} for the next {a.get('days', '3')} days, in {a.get('units', 'celsius')}."
        return types.GetPromptResult(
            messages=[types.PromptMessage(role="user", content=types.TextContent(text=message))]
        )

    return Server(
        "weather-python-sdk",
        version="0.1.0",
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_resources=list_resources,
        on_list_resource_templates=list_templates,
        on_read_resource=read_resource,
        on_list_prompts=list_prompts,
        on_get_prompt=get_prompt,
    )


async def serve_stdio(server):
    from mcp.server.stdio import stdio_server

    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--listing", required=True)
    parser.add_argument("--http", metavar="HOST:PORT")
    parser.add_argument("--stateless", action="store_true")
    parser.add_argument("--ssl-certfile")
    parser.add_argument("--ssl-keyfile")
    args = parser.parse_args()
    with open(args.listing, encoding="utf-8") as f:
        server = make_server(json.load(f))
    if args.http is None:
        anyio.run(serve_stdio, server)
        return
    import uvicorn

    host, _, port = args.http.rpartition(":")
    app = server.streamable_http_app(stateless_http=args.stateless, host=host)
    uvicorn.run(
        app,
        host=host,
        port=int(port),
        log_level="warning",
        ssl_certfile=args.ssl_certfile,
        ssl_keyfile=args.ssl_keyfile,
    )


if __name__ == "__main__":
    main()
