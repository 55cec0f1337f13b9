// An ACP v2 client (editor) on the official TypeScript SDK's experimental v2
// (@agentclientprotocol/sdk 2.4.0), run with node: it spawns the agent command given as its
// arguments, drives a scripted session and prints one JSON object with what it saw (the
// initialize answer, the prompt answers, every session/update, the permission requests).
//
//   node ts_v2_client.mjs [--version N] <agent command> [args...]
import { spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import * as v2 from "@agentclientprotocol/sdk/experimental/v2";

let args = process.argv.slice(2);
let requested = 2;
if (args[0] === "--version") {
  requested = Number(args[1]);
  args = args.slice(2);
}
const child = spawn(args[0], args.slice(1), { stdio: ["pipe", "pipe", "inherit"] });
const stream = v2.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout));

const seen = { updates: [], permissions: [], prompts: [] };
const app = v2
  .client({ name: "ts-v2-client" })
  .onNotification("session/update", ({ params }) => {
    seen.updates.push(params.update);
  })
  .onRequest("session/request_permission", ({ params }) => {
    seen.permissions.push(params);
    return { outcome: { outcome: "selected", optionId: params.options[0].optionId } };
  });

try {
  await app.connectWith(stream, async (ctx) => {
    seen.initialize = await ctx.request("initialize", {
      protocolVersion: requested,
      info: { name: "ts-v2-client", version: "2.4.0" },
      capabilities: {},
    });
    const session = await ctx.request("session/new", { cwd: process.cwd() });
    seen.sessionId = session.sessionId;
    for (const text of ["hello 3", "permission"]) {
      const answer = await ctx.request("session/prompt", {
        sessionId: session.sessionId,
        prompt: [{ type: "text", text }],
      });
      seen.prompts.push(answer);
    }
    // The last state_update of a turn may arrive after the prompt's answer (v2 reports
    // completion through state updates): wait for the second idle.
    for (let i = 0; i < 200; i++) {
      const idles = seen.updates.filter((u) => u.sessionUpdate === "state_update" && u.state === "idle");
      if (idles.length >= 2) break;
      await new Promise((r) => setTimeout(r, 10));
    }
  });
  seen.ok = true;
} catch (error) {
  seen.ok = false;
  seen.error = String(error?.message ?? error);
} finally {
  child.stdin.end();
}
process.stdout.write(JSON.stringify(seen) + "\n");
process.exit(0);
