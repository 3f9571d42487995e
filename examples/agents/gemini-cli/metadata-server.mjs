// A stand-in for the GCE metadata server on 127.0.0.1, so that Gemini CLI in
// its Vertex AI mode gets an access token through Application Default
// Credentials without a Google account: google-auth-library asks the
// metadata server at GCE_METADATA_HOST for the default service account's
// token (METADATA_SERVER_DETECTION=assume-present skips its probe), and
// sends it as "Authorization: Bearer TOKEN".
//
// node metadata-server.mjs PORTFILE TOKEN PROJECT: listens on a free port of
// 127.0.0.1, writes the port to PORTFILE, and answers
//   /computeMetadata/v1/instance/service-accounts/default/token  {"access_token": TOKEN, ...}
//   /computeMetadata/v1/project/project-id                       PROJECT
//   /computeMetadata/v1/universe/universe-domain                 googleapis.com
// with the Metadata-Flavor: Google header the client checks (and 403, as the
// real server does, to a request without it); 404 to anything else. It
// exits when the process that started it is gone.
import { createServer } from "node:http";
import { writeFileSync, renameSync } from "node:fs";

const [portFile, token, project] = process.argv.slice(2);
if (!portFile || !token || !project) {
  console.error("usage: node metadata-server.mjs PORTFILE TOKEN PROJECT");
  process.exit(2);
}
const answers = {
  "/computeMetadata/v1/instance/service-accounts/default/token": [
    "application/json",
    JSON.stringify({ access_token: token, expires_in: 3599, token_type: "Bearer" }),
  ],
  "/computeMetadata/v1/project/project-id": ["application/text", project],
  "/computeMetadata/v1/universe/universe-domain": ["application/text", "googleapis.com"],
};
const server = createServer((req, res) => {
  res.setHeader("Metadata-Flavor", "Google");
  if (req.headers["metadata-flavor"] !== "Google") {
    res.writeHead(403).end("Missing Metadata-Flavor:Google header.\n");
    return;
  }
  const answer = answers[new URL(req.url, "http://metadata").pathname];
  if (!answer) {
    res.writeHead(404).end("not found\n");
    return;
  }
  res.writeHead(200, { "Content-Type": answer[0] }).end(answer[1]);
});
server.listen(0, "127.0.0.1", () => {
  writeFileSync(portFile + ".tmp", String(server.address().port));
  renameSync(portFile + ".tmp", portFile); // the reader never sees half a number
});
// The wrapper ends it on exit; should the wrapper be killed first, the
// orphan notices its parent has changed and goes too.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) process.exit(0);
}, 500).unref();
