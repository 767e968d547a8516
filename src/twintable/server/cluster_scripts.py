"""The Lua scripts the cluster runs in Redis (:mod:`twintable.server.cluster`): each is one
atomic step (a lease taken, renewed or given back; a worker placed; an address's table
claimed or socket opened), so that workers racing for the same key never both win."""

# KEYS: lease, counter; ARGV: worker id, ttl ms, floor. The token, or 0 when held.
ACQUIRE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local floor = tonumber(ARGV[3])
if tonumber(redis.call('GET', KEYS[2]) or '0') < floor then
  redis.call('SET', KEYS[2], floor)
end
local token = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[1], ARGV[1] .. ':' .. token, 'PX', ARGV[2])
return token
"""
# KEYS: leases; ARGV: ttl ms, then each lease's expected value. 1 where renewed.
RENEW = """
local renewed = {}
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[i + 1] then
    redis.call('PEXPIRE', key, ARGV[1])
    renewed[i] = 1
  else
    renewed[i] = 0
  end
end
return renewed
"""
RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""
# KEYS: the counts; ARGV: this worker, its count when it has none there yet, the keys'
# prefix, the reservation's id, how long it holds (ms). The chosen worker: the live one
# whose count plus unexpired reservations is lowest, this one on a tie. Dead workers'
# counts and reservations go.
PLACE = """
local clock = redis.call('TIME')
local now = clock[1] * 1000 + math.floor(clock[2] / 1000)
local me, prefix = ARGV[1], ARGV[3]
local workers, counts = {me}, {}
local listed = redis.call('HGETALL', KEYS[1])
for i = 1, #listed, 2 do
  local worker = listed[i]
  if worker == me then
    counts[me] = tonumber(listed[i + 1])
  elseif redis.call('EXISTS', prefix .. 'alive:' .. worker) == 1 then
    workers[#workers + 1] = worker
    counts[worker] = tonumber(listed[i + 1])
  else
    redis.call('HDEL', KEYS[1], worker)
    redis.call('DEL', prefix .. 'placing:' .. worker)
  end
end
counts[me] = counts[me] or tonumber(ARGV[2])
local chosen, fewest = nil, nil
for _, worker in ipairs(workers) do
  local placing = prefix .. 'placing:' .. worker
  redis.call('ZREMRANGEBYSCORE', placing, '-inf', now)
  local count = counts[worker] + redis.call('ZCARD', placing)
  if fewest == nil or count < fewest then chosen, fewest = worker, count end
end
redis.call('ZADD', prefix .. 'placing:' .. chosen, now + tonumber(ARGV[5]), ARGV[4])
return chosen
"""

# KEYS: an address's places; ARGV: the limit, a reservation, how long it holds (ms).
# -1 when the reservation was added, else how many places the address holds.
CLAIM = """
local clock = redis.call('TIME')
local now = clock[1] * 1000 + math.floor(clock[2] / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local held = redis.call('ZCARD', KEYS[1])
if held >= tonumber(ARGV[1]) then return held end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return -1
"""

# KEYS: an address's open WebSockets; ARGV: the limit, the socket's id, how long it
# holds unless renewed (ms). {1, how many now} when it was added, {0, how many} when not.
OPEN_SOCKET = """
local clock = redis.call('TIME')
local now = clock[1] * 1000 + math.floor(clock[2] / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local held = redis.call('ZCARD', KEYS[1])
if held >= tonumber(ARGV[1]) then return {0, held} end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return {1, held + 1}
"""
