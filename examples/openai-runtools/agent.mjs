// An agent on the openai package's tool runner, streaming, with no code of
// its own for merging tool calls: the SDK merges the stream, runs the tools
// and sends the next request. Reads OPENAI_BASE_URL and OPENAI_API_KEY (the
// SDK's own defaults) and AGENT_MODEL; the prompt is the first argument.
import OpenAI from "openai";
import { definitions, run } from "../readonly-tools/tools.mjs";

const client = new OpenAI({ maxRetries: 2 });
const prompt = process.argv[2] || "Why are the tests red?";

const tools = definitions.map((d) => ({
  type: "function",
  function: { ...d, parse: JSON.parse, function: (args) => run[d.name](args) },
}));

try {
  const runner = client.chat.completions.runTools({
    model: process.env.AGENT_MODEL || "example",
    stream: true,
    messages: [
      { role: "system", content: "You are a read-only coding agent." },
      { role: "user", content: prompt },
    ],
    tools,
  });
  runner.on("content", (delta) => process.stdout.write(delta));
  await runner.finalChatCompletion();
  process.stdout.write("\n");
  process.exit(0);
} catch (err) {
  console.error(`agent: ${err.message}`);
  process.exit(1);
}
