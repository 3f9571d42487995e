// An agent on the Vercel AI SDK with a native provider: streamText with tools
// and a step limit, the SDK merging the stream, running the tools and
// sending the next request. AGENT_API picks the provider: "messages" speaks
// Anthropic Messages (@ai-sdk/anthropic, ANTHROPIC_BASE_URL + /v1 and
// ANTHROPIC_API_KEY), "responses" the OpenAI Responses API (@ai-sdk/openai's
// responses model, OPENAI_BASE_URL and OPENAI_API_KEY). AGENT_MODEL names
// the model; the prompt is the first argument.
import { streamText, tool, jsonSchema, stepCountIs } from "ai";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { definitions, run } from "../readonly-tools/tools.mjs";

const name = process.env.AGENT_MODEL || "example";
let model;
switch (process.env.AGENT_API) {
  case "messages":
    model = createAnthropic({
      baseURL: `${process.env.ANTHROPIC_BASE_URL}/v1`,
      apiKey: process.env.ANTHROPIC_API_KEY,
    })(name);
    break;
  case "responses":
    model = createOpenAI({ baseURL: process.env.OPENAI_BASE_URL, apiKey: process.env.OPENAI_API_KEY }).responses(name);
    break;
  default:
    console.error("agent: set AGENT_API to messages or responses");
    process.exit(2);
}
const prompt = process.argv[2] || "Why are the tests red?";

const tools = Object.fromEntries(
  definitions.map((d) => [
    d.name,
    tool({ description: d.description, inputSchema: jsonSchema(d.parameters), execute: async (args) => run[d.name](args) }),
  ]),
);

let failed = null;
const result = streamText({
  model,
  system: "You are a read-only coding agent.",
  prompt,
  tools,
  maxOutputTokens: 1024,
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
