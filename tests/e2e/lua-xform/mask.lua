-- the 4 address bytes of ip.src / ip.dst and a netmask argument (hex)
-- give the network in CIDR form: "192.168.1.0/24"
function transform(input, args)
    if #input ~= 4 or not args[1] then
        return nil, 0
    end
    local mask = tonumber(args[1]:match("^0[xX](%x+)$") or args[1], 16)
    local a, b, c, d = string.byte(input, 1, 4)
    local net = ((a << 24) | (b << 16) | (c << 8) | d) & mask
    local bits = 0
    for i = 0, 31 do
        if mask & (1 << i) ~= 0 then bits = bits + 1 end
    end
    local out = string.format("%d.%d.%d.%d/%d", (net >> 24) & 255, (net >> 16) & 255,
        (net >> 8) & 255, net & 255, bits)
    return out, #out
end
