// Drives an AAP server with the upstream TypeScript client (@agentapplicationprotocol/client
// 0.8.0, built outside this repository; see interop/README.md) through every endpoint, the
// three stream modes, a client-tool turn, a trusted server tool and an untrusted one with
// permission, and a second turn refused while one runs. The server is ours, serving the
// scripted agent of tests/servers/aap_agents.py. Prints one JSON line per step; exits 1 if
// any step failed.
//
//   node interop/aap_ts/drive_client.cjs SDK_DIR BASE_URL API_KEY
"use strict";
const path = require("node:path");
const { createRequire } = require("node:module");

const [sdkDir, baseUrl, apiKey] = process.argv.slice(2);
const sdkRequire = createRequire(path.join(path.resolve(sdkDir), "package.json"));
const { Client, ClientError, Session } = sdkRequire("@agentapplicationprotocol/client");

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
async function collect(stream) {
  const events = [];
  for await (const e of stream) events.push(e);
  return events;
}
const user = (content) => ({ role: "user", content });
const addTool = {
  name: "add",
  description: "Add two numbers",
  parameters: { type: "object", properties: { a: { type: "integer" }, b: { type: "integer" } }, required: ["a", "b"] },
};

(async () => {
  const client = new Client({ baseUrl, apiKey });
  let meta, agent, sid;

  await step("GET /meta", async () => {
    meta = await client.getMeta(); // throws on a protocol version mismatch
    agent = meta.agents.find((a) => a.name === "echo");
    check(agent && agent.capabilities.stream.delta, "agent echo with delta streaming");
    return `version ${meta.version}, agents ${meta.agents.map((a) => a.name).join(",")}`;
  });

  await step("POST /sessions", async () => {
    const res = await client.postSessions({
      agent: {
        name: "echo",
        tools: [{ name: "clock", trust: true }, { name: "delete_files" }],
        options: { model: "large", upstream_key: "ts-secret-value" },
      },
      tools: [addTool],
    });
    sid = res.sessionId;
    check(typeof sid === "string", "sessionId");
    return sid;
  });

  await step("GET /sessions/:id (secret redacted)", async () => {
    const info = await client.getSession(sid);
    check(info.sessionId === sid, "same session");
    check(info.agent.options.upstream_key === "***", "secret redacted");
    check(info.agent.options.model === "large", "option kept");
    return JSON.stringify(info.agent.options);
  });

  await step("GET /sessions (pagination)", async () => {
    for (let i = 0; i < 3; i++) await client.postSessions({ agent: { name: "echo" } });
    const seen = [];
    let after, pages = 0;
    do {
      const page = await client.getSessions(after ? { after } : undefined);
      seen.push(...page.sessions.map((s) => s.sessionId));
      after = page.next;
      pages++;
    } while (after && pages < 100);
    check(seen.includes(sid), "created session listed");
    check(new Set(seen).size === seen.length, "no duplicates");
    return `${seen.length} sessions in ${pages} pages`;
  });

  await step("POST /sessions/:id/turns stream none", async () => {
    const res = await client.postSessionTurn(sid, { messages: [user("hello from ts")] });
    check(res.stopReason === "end_turn", "end_turn");
    check(res.messages[0].content[0].text === "echo: hello from ts", "echo text");
    return res.messages[0].content[0].text;
  });

  await step("POST /sessions/:id/turns stream delta", async () => {
    const events = await collect(await client.postSessionTurn(sid, { stream: "delta", messages: [user("think deltas")] }));
    const names = events.map((e) => e.event);
    check(names[0] === "turn_start" && names[names.length - 1] === "turn_stop", "framing");
    check(names.includes("thinking_delta") && names.includes("text_delta"), "delta events");
    return names.join(",");
  });

  await step("POST /sessions/:id/turns stream message", async () => {
    const events = await collect(await client.postSessionTurn(sid, { stream: "message", messages: [user("think messages")] }));
    const names = events.map((e) => e.event);
    check(JSON.stringify(names) === JSON.stringify(["turn_start", "thinking", "text", "turn_stop"]), names.join(","));
    return names.join(",");
  });

  await step("client tool turn (Session)", async () => {
    const info = await client.getSession(sid);
    const { session } = await Session.load(client, info, agent);
    let { pending } = await session.send({ stream: "delta", messages: [user('call add {"a": 2, "b": 40}')] });
    check(pending.client.length === 1 && pending.client[0].name === "add", "one client call");
    const call = pending.client[0];
    const answer = { role: "tool", toolCallId: call.toolCallId, content: String(call.input.a + call.input.b) };
    const { generated } = await session.send({ stream: "delta", messages: [answer] });
    const text = generated[generated.length - 1].content[0].text;
    check(text === `results: ${call.toolCallId}=42`, text);
    return text;
  });

  await step("trusted server tool runs inline", async () => {
    const events = await collect(await client.postSessionTurn(sid, { stream: "message", messages: [user("call clock")] }));
    const names = events.map((e) => e.event);
    check(names.includes("tool_call") && names.includes("tool_result"), names.join(","));
    check(events[events.length - 1].stopReason === "end_turn", "no stop for a trusted tool");
    return names.join(",");
  });

  await step("untrusted server tool with tool_permission", async () => {
    const info = await client.getSession(sid);
    const { session } = await Session.load(client, info, agent, "full");
    let { pending } = await session.send({ stream: "delta", messages: [user('call delete_files {"path": "/tmp/x"}')] });
    check(pending.server.length === 1 && pending.server[0].name === "delete_files", "one server call waits");
    const call = pending.server[0];
    const seen = [];
    const { generated } = await session.send(
      { stream: "delta", messages: [{ role: "tool_permission", toolCallId: call.toolCallId, granted: true }] },
      (e) => seen.push(e),
    );
    const result = seen.find((e) => e.event === "tool_result");
    check(result && result.content === "deleted /tmp/x", "tool_result after the grant");
    return `${seen.map((e) => e.event).join(",")} -> ${generated[generated.length - 1].content[0].text}`;
  });

  await step("GET /sessions/:id/history (full, compacted)", async () => {
    const full = await client.getSessionHistory(sid, "full");
    const compacted = await client.getSessionHistory(sid, "compacted");
    check(full.history.full.length > 8, "full history");
    check(compacted.history.compacted.length === full.history.full.length, "compacted");
    check(!full.history.full.some((m) => m.role === "tool_permission"), "permissions not stored");
    return `${full.history.full.length} messages`;
  });

  await step("second turn while one runs: 409", async () => {
    const running = await client.postSessionTurn(sid, { stream: "delta", messages: [user("hold 1")] });
    const iterator = running[Symbol.asyncIterator]();
    await iterator.next(); // turn_start: the turn runs
    let status = null;
    try {
      await client.postSessionTurn(sid, { messages: [user("hi")] });
    } catch (err) {
      status = err instanceof ClientError ? err.status : String(err);
    }
    for (let r = await iterator.next(); !r.done; r = await iterator.next());
    check(status === 409, `status ${status}`);
    return "ClientError 409";
  });

  await step("DELETE /sessions/:id and 404s", async () => {
    await client.deleteSession(sid);
    check((await client.getSession(sid)) === undefined, "gone (404)");
    check((await client.getSessionHistory(sid, "full")) === undefined, "history 404");
    check((await client.postSessionTurn(sid, { messages: [user("x")] })) === undefined, "turn 404");
    return "404 after delete";
  });

  await step("auth refused without the key", async () => {
    const anonymous = new Client({ baseUrl, apiKey: "wrong-key" });
    try {
      await anonymous.getSessions();
    } catch (err) {
      check(err instanceof ClientError && err.status === 401, String(err));
      return "ClientError 401";
    }
    throw new Error("a wrong key was accepted");
  });

  const failed = results.filter((r) => !r.ok).length;
  console.log(JSON.stringify({ steps: results.length, failed }));
  process.exit(failed ? 1 : 0);
})();
