// An agent on the Vercel AI SDK: streamText with tools and a step limit, the
// SDK merging the stream, running the tools and sending the next request.
// Reads OPENAI_BASE_URL and OPENAI_API_KEY, and AGENT_MODEL; the prompt is
// the first argument.
import { streamText, tool, jsonSchema, stepCountIs } from "ai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { definitions, run } from "../readonly-tools/tools.mjs";

const provider = createOpenAICompatible({
  name: "gateway",
  baseURL: process.env.OPENAI_BASE_URL,
  apiKey: process.env.OPENAI_API_KEY,
});
const prompt = process.argv[2] || "Why are the tests red?";

const tools = Object.fromEntries(
  definitions.map((d) => [
    d.name,
    tool({ description: d.description, inputSchema: jsonSchema(d.parameters), execute: async (args) => run[d.name](args) }),
  ]),
);

let failed = null;
const result = streamText({
  model: provider(process.env.AGENT_MODEL || "example"),
  system: "You are a read-only coding agent.",
  prompt,
  tools,
  stopWhen: stepCountIs(5),
  onError: ({ error }) => {
    failed = error;
  },
});
try {
  for await (const delta of result.textStream) process.stdout.write(delta);
  await result.finishReason;
} catch (err) {
  failed = failed || err;
}
if (failed) {
  console.error(`agent: ${failed.message || failed}`);
  process.exit(1);
}
process.stdout.write("\n");
process.exit(0);
