// agentvcr-harness: agentvcr from a Node test. serve() starts `agentvcr
// serve` on loopback and gives its URLs; conform() runs `agentvcr conform`
// on an agent and gives its JSON report; conformTests() turns that report
// into one test per case. The binary is $AGENTVCR_BINARY, else the one the
// platform package (agentvcr-harness-<os>-<cpu>, an optional dependency)
// carries, the way esbuild and biome ship theirs.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const require = createRequire(import.meta.url);

// binary is the path of the agentvcr binary.
export function binary() {
  if (process.env.AGENTVCR_BINARY) return process.env.AGENTVCR_BINARY;
  const pkg = `agentvcr-harness-${process.platform}-${process.arch}`;
  try {
    return require.resolve(`${pkg}/bin/agentvcr`);
  } catch {
    throw new Error(`agentvcr-harness: no agentvcr binary: install ${pkg} (an optional dependency, for this platform), or set AGENTVCR_BINARY to one`);
  }
}

// basePaths are what each wire format's base URL adds to the server's
// root: its client's base URL variable ends in /v1 for OpenAI's formats,
// and is the root for Anthropic's and Gemini's.
const basePaths = { chat: "/v1", responses: "/v1", messages: "", gemini: "" };

function list(v) {
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

// serve starts `agentvcr serve` with the options' cassettes (names or .yaml
// paths), scripts (.yaml files), quirk, fault and match, and resolves once
// it listens: { baseURL, root, url(format, name), close() }. url gives the
// base URL a client of format (chat, responses, messages, gemini) takes,
// on the case URL of name (a cassette's or script's name, with ~QUIRK) or
// the plain one.
export function serve(options = {}) {
  const args = ["serve", "-listen", "127.0.0.1:0"];
  for (const c of list(options.cassette)) args.push("-cassette", c);
  for (const s of list(options.script)) args.push("-script", s);
  if (options.quirk) args.push("-quirk", options.quirk);
  if (options.fault) args.push("-fault", options.fault);
  if (options.match) args.push("-match", options.match);
  if (options.journal) args.push("-journal", options.journal);
  const child = spawn(binary(), args, { stdio: ["ignore", "pipe", "pipe"], cwd: options.cwd });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  const exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
  return new Promise((resolve, reject) => {
    let out = "";
    const onData = (d) => {
      out += d;
      const nl = out.indexOf("\n");
      if (nl < 0) return;
      child.stdout.off("data", onData);
      const line = out.slice(0, nl);
      const eq = line.indexOf("=");
      if (eq < 0) return reject(new Error(`agentvcr serve: unexpected first line ${JSON.stringify(line)}`));
      const baseURL = line.slice(eq + 1);
      const root = baseURL.replace(/\/v1$/, "");
      resolve({
        baseURL,
        root,
        url(format = "chat", name) {
          if (!(format in basePaths)) throw new Error(`agentvcr-harness: no format ${JSON.stringify(format)}: the formats are ${Object.keys(basePaths).join(", ")}`);
          const at = name ? `${root}/s/${encodeURIComponent(name)}` : root;
          return at + basePaths[format];
        },
        get stderr() {
          return stderr;
        },
        async close() {
          if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
          await exited;
        },
      });
    };
    child.stdout.on("data", onData);
    exited.then(({ code }) => reject(new Error(`agentvcr serve exited ${code} before it listened: ${stderr.trim()}`)));
  });
}

// conform runs `agentvcr conform` on command (an array: the program and its
// arguments) and resolves to its JSON report (one object per case: id,
// status, details...), with exitCode, stdout and stderr beside it as
// properties of the array. Options: api, baseline (a file), cases (ids),
// caseFiles (-cases folders), timeout ("30s"), parallel, calls (-call
// specs), cwd, env.
export function conform(options) {
  const { command } = options;
  if (!Array.isArray(command) || command.length === 0) throw new Error("agentvcr-harness: conform needs command, the agent as an array: [program, ...args]");
  const dir = mkdtempSync(join(tmpdir(), "agentvcr-conform-"));
  const report = join(dir, "report.json");
  const args = ["conform", "-q", "-json", report];
  if (options.api) args.push("-api", options.api);
  if (options.baseline) args.push("-baseline", options.baseline);
  for (const c of list(options.cases)) args.push("-case", c);
  for (const d of list(options.caseFiles)) args.push("-cases", d);
  for (const c of list(options.calls)) args.push("-call", c);
  if (options.timeout) args.push("-timeout", options.timeout);
  if (options.parallel) args.push("-p", String(options.parallel));
  args.push("--", ...command);
  const child = spawn(binary(), args, { stdio: ["ignore", "pipe", "pipe"], cwd: options.cwd, env: options.env || process.env });
  let stdout = "", stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", (code) => {
      let results;
      try {
        results = JSON.parse(readFileSync(report, "utf8"));
      } catch {
        rmSync(dir, { recursive: true, force: true });
        return reject(new Error(`agentvcr conform exited ${code} with no report: ${stderr.trim()}`));
      }
      rmSync(dir, { recursive: true, force: true });
      Object.defineProperties(results, { exitCode: { value: code }, stdout: { value: stdout }, stderr: { value: stderr } });
      resolve(results);
    });
  });
}

// conformTests runs conform once and declares one test per case on test
// (node:test's test, or vitest's: pass it as options.test): a FAILURE the
// baseline does not expect fails its test with the case's details; a
// SKIPPED case is skipped, saying why; the rest pass. In node:test call it
// at the top level of a test file (it awaits the run before declaring).
export async function conformTests(options) {
  let test = options.test;
  if (!test) test = (await import("node:test")).test;
  const results = await conform(options);
  for (const r of results) {
    if (r.status === "SKIPPED") {
      test(r.id, { skip: r.details }, () => {});
      continue;
    }
    test(r.id, () => {
      if (r.status === "FAILURE" && !r.expected_failure) {
        throw new Error(`${r.id}: ${r.details}${r.diff ? "\n" + r.diff : ""}`);
      }
    });
  }
  return results;
}
