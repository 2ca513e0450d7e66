-- wrk script: the sandbox's cheapest endpoint, GET /v1/health.
local threads = {}
function setup(thread) table.insert(threads, thread) end
function init(args) errors5xx = 0 end
function response(status, headers, body) if status >= 500 then errors5xx = errors5xx + 1 end end
function done(summary, latency, requests)
  local e5 = 0
  for _, t in ipairs(threads) do e5 = e5 + t:get("errors5xx") end
  local seconds = summary.duration / 1e6
  io.write(string.format("RESULT requests=%d seconds=%.2f rate=%.1f p50_ms=%.2f p99_ms=%.2f errors5xx=%d\n",
    summary.requests, seconds, summary.requests / seconds, latency:percentile(50) / 1000, latency:percentile(99) / 1000, e5))
end
