-- wrk script for benchmarks/bench_aap_server.py: each thread keeps a queue of sessions it
-- created; a request takes a turn (stream "none") in the oldest waiting session, or creates a
-- session when none waits. One session + one turn is one operation.
local key = os.getenv("AAP_BENCH_KEY")
local queue, head, tail = {}, 1, 0
turns, sessions, bad = 0, 0, 0  -- globals: done() reads them from each thread
local create_body = '{"agent":{"name":"echo"}}'
local turn_body = '{"messages":[{"role":"user","content":"bench"}],"stream":"none"}'
local headers = {["Authorization"] = "Bearer " .. key, ["Content-Type"] = "application/json"}
local all_threads = {}

function setup(thread)
  table.insert(all_threads, thread)
end

request = function()
  if head <= tail then
    local sid = queue[head]
    queue[head] = nil
    head = head + 1
    return wrk.format("POST", "/sessions/" .. sid .. "/turns", headers, turn_body)
  end
  return wrk.format("POST", "/sessions", headers, create_body)
end

response = function(status, hdrs, body)
  local sid = body:match('"sessionId"%s*:%s*"([^"]+)"')
  if sid and (status == 200 or status == 201) then
    tail = tail + 1
    queue[tail] = sid
    sessions = sessions + 1
  elseif status == 200 then
    turns = turns + 1
  else
    bad = bad + 1
  end
end

done = function(summary, latency, requests)
  local p = function(q) return latency:percentile(q) / 1000.0 end
  local t, s, b = 0, 0, 0
  for _, thread in ipairs(all_threads) do
    t = t + thread:get("turns")
    s = s + thread:get("sessions")
    b = b + thread:get("bad")
  end
  io.write(string.format("WRK turns=%d sessions=%d bad=%d\n", t, s, b))
  io.write(string.format("WRK requests=%d duration_us=%d non2xx=%d errors=%d p50_ms=%.2f p99_ms=%.2f\n",
    summary.requests, summary.duration, summary.errors.status,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    p(50), p(99)))
end
