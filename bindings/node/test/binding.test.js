// The package's own tests, run from a project that installed its packed
// tarballs (.ci/run): a scripted conversation served to the openai
// package's agent (examples/openai-runtools), clean and under a quirk,
// then conform on that agent, as a report and as one test per case.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { serve, conform, conformTests, binary } from "agentvcr-harness";

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const agent = process.env.AGENTVCR_EXAMPLE_AGENT; // examples/openai-runtools/agent.mjs
const sandbox = process.env.AGENTVCR_SANDBOX; // demo/sandbox: the folder the agent's tools read
if (!agent || !sandbox) throw new Error("set AGENTVCR_EXAMPLE_AGENT and AGENTVCR_SANDBOX");

function runAgent(baseURL) {
  return new Promise((resolve) => {
    execFile("node", [agent, "why is the test red?"], { cwd: sandbox, env: { ...process.env, OPENAI_BASE_URL: baseURL, OPENAI_API_KEY: "dummy", AGENT_MODEL: "probe" } },
      (err, stdout, stderr) => resolve({ code: err ? err.code : 0, stdout, stderr }));
  });
}

test("the binary is the platform package's", () => {
  assert.match(binary(), /agentvcr-harness-linux-x64\/bin\/agentvcr$/);
});

test("a script served to the openai agent, clean and under a quirk", async () => {
  const s = await serve({ script: here("./probe.yaml") });
  try {
    assert.equal(s.url("chat", "probe"), `${s.root}/s/probe/v1`);
    assert.equal(s.url("messages", "probe~ids_dropped"), `${s.root}/s/probe~ids_dropped`);
    for (const name of ["probe", "probe~args_one_rune"]) {
      const out = await runAgent(s.url("chat", name));
      assert.equal(out.code, 0, out.stderr);
      assert.equal(out.stdout, "Let me look at the files.divide in src/calc.js returns a / b without checking b.\n");
    }
  } finally {
    await s.close();
  }
});

test("serve refuses a bad script with its line", async () => {
  await assert.rejects(serve({ script: here("./baseline.txt") }), /bad script: .*baseline\.txt:\d+: not a script/);
});

test("conform gives the report", async () => {
  const report = await conform({ command: ["node", agent], cases: ["clean", "ids_dropped"], cwd: sandbox, timeout: "30s" });
  assert.deepEqual(report.map((r) => [r.id, r.status]), [["clean", "SUCCESS"], ["ids_dropped", "FAILURE"]]);
  assert.equal(report.exitCode, 1);
});

// one test per case, the baseline's failure expected
await conformTests({ command: ["node", agent], cases: ["clean", "args_one_rune", "ids_dropped"], baseline: here("./baseline.txt"), cwd: sandbox, timeout: "30s" });
