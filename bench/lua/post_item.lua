-- POST /item with the item body of the verify step (JSON).
wrk.method = "POST"
wrk.body = '{"name":"Foo","description":"A very nice Item","price":35.4,"tax":3.2}'
wrk.headers["Content-Type"] = "application/json"
