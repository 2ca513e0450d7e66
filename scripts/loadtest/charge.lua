-- wrk script: each connection asks a server token (POST /v1/access-tokens with the
-- merchant key), then creates charges (POST /v1/charges) with unique references.
-- Counts 5xx and other non-2xx answers; done() prints one RESULT line.
local threads = {}

function setup(thread)
  thread:set("id", #threads + 1)
  table.insert(threads, thread)
end

function init(args)
  key = os.getenv("MERCHANT_KEY")
  run = os.getenv("RUN_ID") or "0"
  amount = os.getenv("AMOUNT") or "125"  -- AMOUNT=-1: a body refused at validation (profiling)
  token = nil
  counter = 0
  errors5xx = 0
  non2xx = 0
  charges = 0
end

-- A create's request is its head (built once, when the token is known) and a body that
-- differs only in the reference's counter: a few concatenations per request instead of
-- wrk.format's header table and string.formats. wrk shares the machine's cores with the
-- server; its user time per create fell from about 17 to 12 µs (a health request: 5 µs).
function request()
  if token == nil then
    return wrk.format("POST", "/v1/access-tokens",
      { ["Authorization"] = "Bearer " .. key, ["Content-Type"] = "application/json" }, '{"token_type":"server"}')
  end
  if head == nil then
    head = "POST /v1/charges HTTP/1.1\r\nHost: " .. wrk.headers["Host"] .. "\r\nAuthorization: Bearer " .. token
      .. "\r\nContent-Type: application/json\r\nContent-Length: "
    before = '{"transaction":{"reference":"load-' .. run .. "-" .. id .. "-"
    after = '","amount":' .. amount .. ',"currency":"USD","country":"US","note":"load"},'
      .. '"payment":{"method":"wechatpay"},"urls":{"success":"https://shop.example/ok"}}'
  end
  counter = counter + 1
  local body = before .. counter .. after
  return head .. #body .. "\r\n\r\n" .. body
end

function response(status, headers, body)
  if status >= 500 then errors5xx = errors5xx + 1 end
  if status < 200 or status >= 300 then non2xx = non2xx + 1 end
  if token == nil then
    token = string.match(body, '"access_token":"([^"]+)"')
  elseif status == 200 then  -- the live API answers 200 for a create
    charges = charges + 1
  end
end

function done(summary, latency, requests)
  local e5, bad, made = 0, 0, 0
  for _, t in ipairs(threads) do
    e5 = e5 + t:get("errors5xx")
    bad = bad + t:get("non2xx")
    made = made + t:get("charges")
  end
  local seconds = summary.duration / 1e6
  io.write(string.format("RESULT charges=%d seconds=%.2f rate=%.1f p50_ms=%.2f p99_ms=%.2f errors5xx=%d non2xx=%d socket_errors=%d requests_rate=%.1f\n",
    made, seconds, made / seconds, latency:percentile(50) / 1000, latency:percentile(99) / 1000, e5, bad,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout, summary.requests / seconds))
end
