-- wrk script for docs/BENCHMARKS.md's HTTP figures: POST /api/v1/move at
-- ply 1 (the network alone) in backgammon from the opening position, cycling through the 21
-- rolls. Run: wrk -t2 -c8 -d20s --latency -s scripts/http_move.lua http://127.0.0.1:PORT
local rolls = {}
for a = 1, 6 do
  for b = 1, a do
    rolls[#rolls + 1] = string.format('{"game": "backgammon", "dice": [%d, %d], "ply": 1, "count": 1}', a, b)
  end
end
local i = 0
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
request = function()
  i = i % #rolls + 1
  return wrk.format(nil, "/api/v1/move", nil, rolls[i])
end
done = function(summary, latency, requests)
  io.write(string.format("non-2xx answers: %d\n", summary.errors.status))
  io.write(string.format("p50 %.2f ms  p99 %.2f ms\n", latency:percentile(50) / 1000, latency:percentile(99) / 1000))
end
