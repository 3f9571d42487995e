// Three read-only tools (read_file, glob, grep) over the folder the agent
// runs in, written the plain way an example agent would write them. Each
// returns a string; a failure is a string too, so the model always gets an
// answer. Shared by the Node examples.
import fs from "node:fs";
import path from "node:path";

const root = fs.realpathSync(process.env.AGENT_ROOT || process.cwd());
const skip = new Set(["node_modules", ".git", "dist"]);

function inside(p) {
  const abs = path.resolve(root, p);
  return abs === root || abs.startsWith(root + path.sep) ? abs : null;
}

function walk(dir, out) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (skip.has(e.name)) continue;
    const full = path.join(dir, e.name);
    if (e.isDirectory()) walk(full, out);
    else if (e.isFile()) out.push(path.relative(root, full).split(path.sep).join("/"));
  }
  return out;
}

function globRegExp(pattern) {
  let re = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "*" && pattern[i + 1] === "*") {
      re += pattern[i + 2] === "/" ? "(?:.*/)?" : ".*";
      i += pattern[i + 2] === "/" ? 2 : 1;
    } else if (c === "*") re += "[^/]*";
    else if (c === "?") re += "[^/]";
    else re += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp("^" + re + "$");
}

export const definitions = [
  {
    name: "read_file",
    description: "Read a text file of the workspace, with line numbers.",
    parameters: {
      type: "object",
      properties: { path: { type: "string", description: "path relative to the workspace root" } },
      required: ["path"],
      additionalProperties: false,
    },
  },
  {
    name: "glob",
    description: "List the workspace's files whose paths match a glob pattern such as **/*.js.",
    parameters: {
      type: "object",
      properties: { pattern: { type: "string", description: "glob pattern" } },
      required: ["pattern"],
      additionalProperties: false,
    },
  },
  {
    name: "grep",
    description: "Search the workspace's files for a regular expression; prints path:line:content.",
    parameters: {
      type: "object",
      properties: { pattern: { type: "string", description: "regular expression" } },
      required: ["pattern"],
      additionalProperties: false,
    },
  },
];

export const run = {
  read_file({ path: p }) {
    const abs = inside(String(p));
    if (!abs) return `error: ${p} is outside the workspace`;
    try {
      return fs.readFileSync(abs, "utf8").split("\n").slice(0, 400).map((l, i) => `${i + 1}\t${l}`).join("\n");
    } catch (e) {
      return `error: ${e.message}`;
    }
  },
  glob({ pattern }) {
    const re = globRegExp(String(pattern));
    const hits = walk(root, []).filter((f) => re.test(f)).sort();
    return hits.length ? hits.slice(0, 200).join("\n") : "no files match";
  },
  grep({ pattern }) {
    let re;
    try {
      re = new RegExp(String(pattern));
    } catch (e) {
      return `error: ${e.message}`;
    }
    const out = [];
    for (const f of walk(root, []).sort()) {
      const lines = fs.readFileSync(path.join(root, f), "utf8").split("\n");
      lines.forEach((l, i) => re.test(l) && out.length < 50 && out.push(`${f}:${i + 1}:${l.slice(0, 120)}`));
    }
    return out.length ? out.join("\n") : "no matches";
  },
};
