#!/usr/bin/env python3
"""A coding agent on the Python standard library alone: chat completions with
streaming, its two read-only tools (glob, read_file) run on the folder it is
started in, the loop going on until a turn has no call. Reads OPENAI_BASE_URL,
OPENAI_API_KEY and AGENT_MODEL; the prompt is the first argument. It merges
streamed calls by their index, as a careful client does."""
import json
import os
import pathlib
import sys
import urllib.request

TOOLS = [
    {"type": "function", "function": {"name": "glob", "description": "List files matching a pattern.",
                                      "parameters": {"type": "object", "properties": {"pattern": {"type": "string"}}, "required": ["pattern"]}}},
    {"type": "function", "function": {"name": "read_file", "description": "Read a text file.",
                                      "parameters": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}}},
]


def run_tool(name, arguments):
    try:
        args = json.loads(arguments or "{}")
    except json.JSONDecodeError as e:
        return f"error: the arguments are not JSON: {e}"
    root = pathlib.Path.cwd()
    if name == "glob":
        matches = sorted(str(p.relative_to(root)) for p in root.glob(args.get("pattern", "")) if p.is_file())
        return "\n".join(matches) if matches else "no match"
    if name == "read_file":
        path = (root / args.get("path", "")).resolve()
        if root not in path.parents:
            return "error: the path is outside the folder"
        try:
            return path.read_text()
        except OSError as e:
            return f"error: {e.strerror}"
    return f"error: no tool named {name}"


def stream(messages):
    body = json.dumps({"model": os.environ.get("AGENT_MODEL", "example"), "stream": True, "messages": messages, "tools": TOOLS}).encode()
    req = urllib.request.Request(os.environ["OPENAI_BASE_URL"].rstrip("/") + "/chat/completions", data=body,
                                 headers={"Content-Type": "application/json", "Authorization": "Bearer " + os.environ.get("OPENAI_API_KEY", "")})
    text, calls, finish = "", {}, None
    with urllib.request.urlopen(req, timeout=60) as resp:
        for raw in resp:
            line = raw.decode().rstrip("\r\n")
            if not line.startswith("data:"):
                continue
            data = line[5:].strip()
            if data == "[DONE]":
                break
            chunk = json.loads(data)
            for choice in chunk.get("choices") or []:
                delta = choice.get("delta") or {}
                text += delta.get("content") or ""
                for piece in delta.get("tool_calls") or []:
                    call = calls.setdefault(piece.get("index", 0), {"id": "", "name": "", "arguments": ""})
                    call["id"] = piece.get("id") or call["id"]
                    fn = piece.get("function") or {}
                    call["name"] += fn.get("name") or ""
                    call["arguments"] += fn.get("arguments") or ""
                finish = choice.get("finish_reason") or finish
    if finish is None:
        raise RuntimeError("the stream ended before its finish_reason")
    merged = [calls[i] for i in sorted(calls)]
    for i, c in enumerate(merged):
        c["id"] = c["id"] or f"call_agent_{i}"  # a gateway that sends none: the call still needs one
    return text, merged


def main():
    messages = [{"role": "system", "content": "You are a read-only coding agent."},
                {"role": "user", "content": sys.argv[1] if len(sys.argv) > 1 else "Why are the tests red?"}]
    for _ in range(10):
        text, calls = stream(messages)
        if text:
            print(text)
        if not calls:
            return 0
        messages.append({"role": "assistant", "content": text or None,
                         "tool_calls": [{"id": c["id"], "type": "function", "function": {"name": c["name"], "arguments": c["arguments"]}} for c in calls]})
        for c in calls:
            messages.append({"role": "tool", "tool_call_id": c["id"], "content": run_tool(c["name"], c["arguments"])})
    print("agent: too many turns", file=sys.stderr)
    return 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Exception as e:  # the agent's one line, as the others print theirs
        print(f"agent: {e}", file=sys.stderr)
        sys.exit(1)
