// An ACP v2 agent on the official TypeScript SDK's experimental v2
// (@agentclientprotocol/sdk 2.4.0, installed into tests/node by the test suite), run with node.
//
// Prompts are scripts, as for tests/acp_peers/our_agent.py: "hello N" streams N agent message
// chunks; "permission" asks the editor and says which option it got; "slow" streams one chunk
// and waits for session/cancel. Each turn echoes the user message, reports `running`, then
// `idle` with a stop reason, as v2 agents do.
//
// With --router it serves v1 and v2 editors through the SDK's AgentProtocolRouter (its v1
// agent answers the same scripts).
import { Readable, Writable } from "node:stream";
import * as v2 from "@agentclientprotocol/sdk/experimental/v2";
import * as v1 from "@agentclientprotocol/sdk";

const INFO = { name: "ts-v2-agent", version: "2.4.0" };

function v2Agent() {
  let sessions = 0;
  let turns = 0;
  const cancelled = new Map();
  const app = v2.agent({ name: "ts-v2-agent" });
  app.onRequest("initialize", ({ params }) => ({
    protocolVersion: Math.min(params.protocolVersion, 2),
    info: INFO,
    capabilities: { session: { delete: {} } },
  }));
  app.onRequest("session/new", () => {
    sessions += 1;
    const sessionId = `ts-sess-${sessions}`;
    cancelled.set(sessionId, false);
    return { sessionId };
  });
  app.onRequest("session/delete", () => ({}));
  app.onNotification("session/cancel", ({ params }) => {
    cancelled.set(params.sessionId, true);
  });
  app.onRequest("session/prompt", async ({ params, client }) => {
    turns += 1;
    const sessionId = params.sessionId;
    const userId = `ts-user-${turns}`;
    const agentId = `ts-agent-${turns}`;
    const update = (u) => client.notify("session/update", { sessionId, update: u });
    const say = (text) =>
      update({
        sessionUpdate: "agent_message_chunk",
        messageId: agentId,
        content: { type: "text", text },
      });
    await update({ sessionUpdate: "user_message", messageId: userId, content: params.prompt });
    await update({ sessionUpdate: "state_update", state: "running" });
    const text = params.prompt.map((b) => b.text ?? "").join("");
    let stopReason = "end_turn";
    if (text.startsWith("hello")) {
      const n = Number(text.split(" ")[1] ?? "1");
      for (let i = 0; i < n; i++) await say(`chunk ${i}`);
    } else if (text === "permission") {
      const answer = await client.request("session/request_permission", {
        sessionId,
        title: "Write notes.txt",
        options: [
          { optionId: "allow", name: "Allow", kind: "allow_once" },
          { optionId: "reject", name: "Reject", kind: "reject_once" },
        ],
      });
      const outcome = answer.outcome;
      await say(`outcome ${outcome.outcome === "selected" ? outcome.optionId : outcome.outcome}`);
    } else if (text === "slow") {
      await say("working");
      for (let i = 0; i < 500 && !cancelled.get(sessionId); i++) {
        await new Promise((r) => setTimeout(r, 10));
      }
      stopReason = cancelled.get(sessionId) ? "cancelled" : "end_turn";
      cancelled.set(sessionId, false);
    } else {
      await say(`echo ${text}`);
    }
    await update({ sessionUpdate: "state_update", state: "idle", stopReason });
    return { messageId: userId };
  });
  return app;
}

function v1Agent() {
  const app = v1.agent({ name: "ts-v1-agent" });
  app.onRequest("initialize", () => ({ protocolVersion: 1, agentCapabilities: {} }));
  app.onRequest("session/new", () => ({ sessionId: "ts-v1-sess" }));
  app.onRequest("session/prompt", async ({ params, client }) => {
    const text = params.prompt.map((b) => b.text ?? "").join("");
    await client.notify("session/update", {
      sessionId: params.sessionId,
      update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: `v1 ${text}` } },
    });
    return { stopReason: "end_turn" };
  });
  return app;
}

const stream = v2.ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin));
if (process.argv.includes("--router")) {
  const router = v2.agentProtocolRouter().withV1(v1Agent()).withV2(v2Agent());
  await router.connect(stream).closed;
} else {
  const connection = v2Agent().connect(stream);
  await connection.closed;
}
