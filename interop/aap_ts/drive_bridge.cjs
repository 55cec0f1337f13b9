// Drives `ACPAgent` (an ACP agent offered over AAP) with the upstream TypeScript client
// (@agentapplicationprotocol/client 0.8.0, built outside this repository; see
// interop/README.md). The ACP agent is Zed's claude-agent-acp, its model a loopback stand-in
// that first calls Claude Code's Bash tool (run_bridge.py starts them). Steps: a streamed turn
// whose permission request comes to this client as the `acp_permission` client tool and is
// answered with its Session helper, the turn going on to end_turn; a turn in message mode; a
// turn abandoned mid-stream (cancel: `cancel` mode, a separate process that exits after
// turn_start); deletion. Prints one JSON line per step; exits 1 if any step failed.
//
//   node interop/aap_ts/drive_bridge.cjs SDK_DIR BASE_URL API_KEY [cancel SESSION_ID]
"use strict";
const path = require("node:path");
const { createRequire } = require("node:module");

const [sdkDir, baseUrl, apiKey, mode, cancelSid] = process.argv.slice(2);
const sdkRequire = createRequire(path.join(path.resolve(sdkDir), "package.json"));
const { Client, Session } = sdkRequire("@agentapplicationprotocol/client");

const results = [];
async function step(name, work) {
  try {
    const detail = await work();
    results.push({ step: name, ok: true, detail: detail ?? "" });
  } catch (err) {
    results.push({ step: name, ok: false, detail: String(err && err.stack ? err.stack.split("\n")[0] : err) });
  }
  console.log(JSON.stringify(results[results.length - 1]));
}
function check(cond, what) {
  if (!cond) throw new Error(`check failed: ${what}`);
}
const user = (content) => ({ role: "user", content });
const permissionTool = {
  name: "acp_permission",
  description: "Answer the agent's permission request",
  parameters: {
    type: "object",
    properties: { toolCall: { type: "object" }, options: { type: "array", items: { type: "object" } } },
    required: ["toolCall", "options"],
  },
};

(async () => {
  const client = new Client({ baseUrl, apiKey });
  if (mode === "cancel") {
    // a separate process: reads turn_start, then exits mid-turn (its connection closes)
    const stream = await client.postSessionTurn(cancelSid, { stream: "delta", messages: [user("hold on")] });
    for await (const e of stream) {
      console.log(JSON.stringify({ step: "cancel: turn started", ok: e.event === "turn_start", detail: e.event }));
      process.exit(e.event === "turn_start" ? 0 : 1);
    }
    process.exit(1);
  }
  let meta, agent, sid, session;

  await step("GET /meta (the ACP agent)", async () => {
    meta = await client.getMeta();
    agent = meta.agents.find((a) => a.name === "claude");
    check(agent && agent.capabilities.stream.delta && agent.capabilities.application, "claude, delta, client tools");
    return `${agent.name}: ${agent.description}`;
  });

  await step("POST /sessions with the acp_permission client tool", async () => {
    session = await Session.create(client, { agent: { name: "claude" }, tools: [permissionTool] }, agent);
    sid = session.sessionId;
    check(typeof sid === "string", "sessionId");
    return sid;
  });

  await step("streamed turn: permission round trip, Bash runs, end_turn", async () => {
    const seen = [];
    let { pending } = await session.send({ stream: "delta", messages: [user("Make the directory")] }, (e) => seen.push(e.event));
    check(pending.client.length === 1 && pending.client[0].name === "acp_permission", "the permission, as a client tool");
    const call = pending.client[0];
    const allow = call.input.options.find((o) => o.kind === "allow_once");
    check(allow && String(JSON.stringify(call.input.toolCall)).includes("bridged-by-ts"), "Bash's request, with its options");
    const stops = [];
    ({ pending } = await session.send(
      { stream: "delta", messages: [{ role: "tool", toolCallId: call.toolCallId, content: allow.optionId }] },
      (e) => { seen.push(e.event); if (e.event === "turn_stop") stops.push(e.stopReason); },
    ));
    check(stops[0] === "end_turn", `end_turn (got ${stops[0]})`);
    check(seen.includes("tool_result") && seen.includes("text_delta"), "tool_result and text_delta events");
    const last = session.history[session.history.length - 1];
    check(last.role === "assistant", "assistant last");
    return seen.join(",");
  });

  await step("turn in message mode", async () => {
    const seen = [];
    await session.send({ stream: "message", messages: [user("Say hello")] }, (e) => seen.push(e.event));
    check(seen.includes("text") && seen[seen.length - 1] === "turn_stop", "text events, turn_stop last");
    return seen.join(",");
  });

  console.log(JSON.stringify({ step: "session", ok: true, detail: sid }));
  process.exitCode = results.every((r) => r.ok) ? 0 : 1;
})().catch((err) => {
  console.error(err);
  process.exit(1);
});
