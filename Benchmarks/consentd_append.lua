-- wrk script for Benchmarks/consentd_load.py: drives consentd's write and read paths.
--
--   wrk -t2 -c32 -d10s -s Benchmarks/consentd_append.lua URL -- append TOKEN RUN SUBJECTS
--   wrk -t2 -c32 -d10s -s Benchmarks/consentd_append.lua URL -- read   TOKEN RUN SUBJECTS
--
-- append: every request POSTs /v1/consents with a unique eventId (run prefix, wrk thread
--         number and a per-thread counter make it unique) for a random subject of SUBJECTS,
--         collectedAt the current second; TOKEN is a publishable key.
-- read:   every request GETs /v1/subjects/RUN-read-N for a random N below SUBJECTS; TOKEN is
--         a secret key. The subjects must exist (consentd_load.py creates them first).
-- RUN is an 8-hex-digit run id. When wrk is done, one line "WRK_JSON {...}" carries the
-- counts and the latency percentiles (microseconds) for the Python side to read.

local threads = {}
local thread_count = 0

function setup(thread)
   thread_count = thread_count + 1
   thread:set("thread_number", thread_count)
   table.insert(threads, thread)
end

local mode, token, run, subjects
local counter = 0
local now_text, now_second = nil, -1

function init(args)
   mode = args[1] or "append"
   token = args[2] or ""
   run = args[3] or "00000000"
   subjects = tonumber(args[4] or "1000")
   math.randomseed(os.time() * 1000 + thread_number)
end

local function collected_at()
   local second = os.time()
   if second ~= now_second then
      now_second = second
      now_text = os.date("!%Y-%m-%dT%H:%M:%S.000Z", second)
   end
   return now_text
end

local proof = '"proof":{"noticeId":"main","noticeVersion":"1","language":"en","sdkVersion":"1.0","platform":"ios","method":"acceptAll"}'

function request()
   if mode == "read" then
      local path = string.format("/v1/subjects/%s-read-%d", run, math.random(0, subjects - 1))
      return wrk.format("GET", path, { ["Authorization"] = "Bearer " .. token, ["Accept"] = "application/json" })
   end
   counter = counter + 1
   -- 8-4-4-4-12 hex digits, version 4, variant 8: run id, thread number, random, counter.
   local event_id = string.format("%s-%04x-4%03x-8%03x-%012x", run, thread_number % 65536,
                                  math.random(0, 4095), math.random(0, 4095), counter)
   local body = string.format(
      '{"eventId":"%s","subjectId":"%s-append-%d","collectedAt":"%s","purposeConsents":[1,2,3],"vendorConsents":[755],%s}',
      event_id, run, math.random(0, subjects - 1), collected_at(), proof)
   return wrk.format("POST", "/v1/consents", {
      ["Authorization"] = "Bearer " .. token,
      ["Content-Type"] = "application/json",
      ["Accept"] = "application/json",
   }, body)
end

function done(summary, latency, requests)
   local errors = summary.errors
   io.write(string.format(
      'WRK_JSON {"duration_us":%d,"requests":%d,"bytes":%d,"connect_errors":%d,"read_errors":%d,' ..
      '"write_errors":%d,"status_errors":%d,"timeouts":%d,"p50_us":%d,"p90_us":%d,"p99_us":%d,' ..
      '"max_us":%d,"mean_us":%.1f}\n',
      summary.duration, summary.requests, summary.bytes, errors.connect, errors.read, errors.write,
      errors.status, errors.timeout, latency:percentile(50), latency:percentile(90),
      latency:percentile(99), latency.max, latency.mean))
end
