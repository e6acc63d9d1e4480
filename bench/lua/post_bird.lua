-- POST /api/bird/ with one bird (JSON); every request stores a new document.
wrk.method = "POST"
wrk.body = '{"name":"bench-bird","color":"yellow","wingspan_cm":12}'
wrk.headers["Content-Type"] = "application/json"
