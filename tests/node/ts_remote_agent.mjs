// A tiny ACP v1 echo agent served over the network by the official TypeScript SDK's server
// transport (@agentclientprotocol/sdk 2.4.0, AcpServer with its node adapters): Streamable HTTP
// and WebSocket (upgrades through the `ws` package) on one loopback port. It prints
// {"port": N} once listening and serves until stdin closes or it gets SIGTERM.
// A prompt is echoed back as one agent_message_chunk per word, then stop reason end_turn.
//
//   node ts_remote_agent.mjs
import http from "node:http";
import { WebSocketServer } from "ws";
import * as acp from "@agentclientprotocol/sdk";
import { AcpServer } from "@agentclientprotocol/sdk/experimental/server";
import {
  createNodeHttpHandler,
  createNodeWebSocketUpgradeHandler,
} from "@agentclientprotocol/sdk/experimental/node";

let sessions = 0;
const createAgent = () =>
  acp
    .agent({ name: "ts-remote-echo" })
    .onRequest("initialize", () => ({
      protocolVersion: 1,
      agentCapabilities: {},
      authMethods: [],
      agentInfo: { name: "ts-remote-echo", version: "2.4.0" },
    }))
    .onRequest("session/new", () => ({ sessionId: `ts-echo-${++sessions}` }))
    .onRequest("session/prompt", async ({ params, client }) => {
      const text = params.prompt.map((block) => (block.type === "text" ? block.text : "")).join("");
      const words = text.split(" ").filter((word) => word.length > 0);
      for (const [index, word] of words.entries()) {
        await client.notify("session/update", {
          sessionId: params.sessionId,
          update: {
            sessionUpdate: "agent_message_chunk",
            content: { type: "text", text: index === 0 ? word : ` ${word}` },
          },
        });
      }
      return { stopReason: "end_turn" };
    });

const server = new AcpServer({ createAgent });
const webSockets = new WebSocketServer({ noServer: true });
const httpServer = http.createServer(createNodeHttpHandler(server));
httpServer.on("upgrade", createNodeWebSocketUpgradeHandler(server, webSockets));

const stop = async () => {
  await server.close();
  webSockets.close();
  httpServer.close();
  process.exit(0);
};
process.on("SIGTERM", stop);
process.stdin.on("end", stop);
process.stdin.resume();

httpServer.listen(0, "127.0.0.1", () => {
  process.stdout.write(JSON.stringify({ port: httpServer.address().port }) + "\n");
});
