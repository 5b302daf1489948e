-- Rotates over a list of paths given as arguments: wrk ... -s rotate.lua -- /a /b /c
local paths = {}
local i = 0
function init(args)
  for _, p in ipairs(args) do paths[#paths + 1] = p end
end
function request()
  i = i + 1
  return wrk.format("GET", paths[(i - 1) % #paths + 1])
end
