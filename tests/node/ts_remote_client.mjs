// An ACP v1 client (editor) on the official TypeScript SDK (@agentclientprotocol/sdk 2.4.0)
// that reaches a remote agent through the SDK's own network transports: its Streamable HTTP
// client for http(s):// URLs and its WebSocket client for ws(s):// URLs (given the `ws`
// package's WebSocket, as the SDK advises for node: it sends the headers). It initializes,
// opens a session, sends one prompt and prints JSON lines: one {"update": kind, "text"?} per
// session/update, then {"stopReason": ...}; a failure prints {"error": message} and exits 1.
//
//   node ts_remote_client.mjs <url> [bearer token] [prompt text]
import * as acp from "@agentclientprotocol/sdk";
import { createHttpStream } from "@agentclientprotocol/sdk/experimental/http-client";
import { createWebSocketStream } from "@agentclientprotocol/sdk/experimental/ws-client";
import { WebSocket } from "ws";

const [url, token, text = "one two three"] = process.argv.slice(2);
const headers = token ? { Authorization: `Bearer ${token}` } : {};
const stream = url.startsWith("ws")
  ? createWebSocketStream(url, { headers, WebSocket })
  : createHttpStream(url, { headers });

const emit = (line) => process.stdout.write(JSON.stringify(line) + "\n");
const app = acp.client({ name: "ts-remote-client" }).onNotification("session/update", ({ params }) => {
  const update = params.update;
  const line = { update: update.sessionUpdate };
  if (update.content?.type === "text") line.text = update.content.text;
  emit(line);
});

try {
  await app.connectWith(stream, async (ctx) => {
    await ctx.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
    const session = await ctx.request("session/new", { cwd: process.cwd(), mcpServers: [] });
    const answer = await ctx.request("session/prompt", {
      sessionId: session.sessionId,
      prompt: [{ type: "text", text }],
    });
    emit({ stopReason: answer.stopReason });
  });
  process.exit(0);
} catch (error) {
  emit({ error: String(error?.message ?? error) });
  process.exit(1);
}
