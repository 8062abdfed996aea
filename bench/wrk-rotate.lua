-- wrk's script for bench/wrk.js: each request to the URL's path carries the
-- next bearer token of the list given after `--`, each of the two threads
-- bench/wrk.js runs starting at its own place in it (the first and the
-- middle of the list); at the end one line of figures for the runner.
local threads = 0
function setup(thread)
  thread:set("first", threads)
  threads = threads + 1
end

local tokens, n = {}, 0
function init(args)
  for i, token in ipairs(args) do tokens[i] = "Bearer " .. token end
  n = (first * math.floor(#tokens / 2)) % #tokens
end

function request()
  n = n % #tokens + 1
  wrk.headers["Authorization"] = tokens[n]
  return wrk.format()
end

-- summary.errors.status: answers with a status of 400 or more.
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'WRK_FIGURES {"requests":%d,"durationUs":%d,"status":%d,"connect":%d,"read":%d,"write":%d,"timeout":%d,"p50Us":%d,"p99Us":%d}\n',
    summary.requests, summary.duration, e.status, e.connect, e.read, e.write, e.timeout,
    latency:percentile(50), latency:percentile(99)))
end
