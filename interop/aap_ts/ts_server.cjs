// The upstream TypeScript AAP server kit (@agentapplicationprotocol/server 0.8.0, built
// outside this repository; see interop/README.md) serving a scripted agent that answers like
// the benchmark agent of tests/servers/aap_agents.py: "echo: <text>" in 4-character deltas,
// and "hold <seconds>" waits that long first. Sessions in memory (as the upstream examples
// keep them), bearer auth with hono's middleware. For benchmarks/bench_aap_server.py.
//
//   node interop/aap_ts/ts_server.cjs SDK_DIR PORT API_KEY
"use strict";
const path = require("node:path");
const { createRequire } = require("node:module");

const [sdkDir, port, apiKey] = process.argv.slice(2);
const sdkRequire = createRequire(
  path.join(path.resolve(sdkDir), "packages", "server", "package.json"),
);
const { Agent, ModelProvider, Session, aap } = sdkRequire("@agentapplicationprotocol/server");
const { Hono } = sdkRequire("hono");
const { bearerAuth } = sdkRequire("hono/bearer-auth");
const { serve } = sdkRequire("@hono/node-server");

function lastUserText(history) {
  const last = [...history].reverse().find((m) => m.role === "user");
  if (!last) return "";
  return typeof last.content === "string"
    ? last.content
    : last.content.map((b) => (b.type === "text" ? b.text : "")).join("");
}

class ScriptedModel extends ModelProvider {
  async *stream(history) {
    const text = lastUserText(history);
    if (text.startsWith("hold ")) {
      await new Promise((resolve) => setTimeout(resolve, 1000 * Number(text.slice(5))));
      yield { event: "text_delta", delta: "held" };
    } else {
      const reply = `echo: ${text}`;
      for (let i = 0; i < reply.length; i += 4) yield { event: "text_delta", delta: reply.slice(i, i + 4) };
    }
    yield { event: "turn_stop", stopReason: "end_turn" };
  }
}

const agent = new Agent("echo", { version: "1.0.0" })
  .stream({ delta: {}, message: {}, none: {} })
  .history({ compacted: {}, full: {} });
const model = new ScriptedModel();
const sessions = new Map();
let next = 0;

const handler = {
  getMeta: () => ({ agents: [agent.info] }),
  async postSessions(req) {
    const sessionId = `sess_${++next}`;
    sessions.set(sessionId, new Session(sessionId, agent, model, req.agent, req.tools ?? [], req.messages ?? []));
    return { sessionId };
  },
  postSessionTurnStreamNone: (session, req) => session.runTurnStreamNone(req),
  postSessionTurnStreamDelta: (session, req, onEvent) => session.runTurnStreamDelta(req, onEvent),
  postSessionTurnStreamMessage: (session, req, onEvent) => session.runTurnStreamMessage(req, onEvent),
  getSession: async (id) => sessions.get(id),
  getSessionHistory: async (id) => sessions.get(id)?.history,
  getSessions: async () => ({ sessions: [...sessions.values()].map((s) => s.toSessionInfo()) }),
  deleteSession: async (id) => sessions.delete(id),
};

const app = new Hono();
app.use("/sessions/*", bearerAuth({ token: apiKey }));
app.use("/sessions", bearerAuth({ token: apiKey }));
app.route("/", aap(handler));
serve({ fetch: app.fetch, port: Number(port), hostname: "127.0.0.1" }, () => {
  console.log(`listening ${port}`);
});
