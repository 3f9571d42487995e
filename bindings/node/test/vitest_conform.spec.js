// conformTests under vitest: vitest's own test, passed in, declares one test
// per case (.ci/run runs it with vitest in the scratch project).
import { test } from "vitest";
import { fileURLToPath } from "node:url";
import { conformTests } from "agentvcr-harness";

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
await conformTests({
  test,
  command: ["node", process.env.AGENTVCR_EXAMPLE_AGENT],
  cases: ["clean", "args_one_rune", "ids_dropped"],
  baseline: here("./baseline.txt"),
  cwd: process.env.AGENTVCR_SANDBOX,
  timeout: "30s",
});
