# Held out (bpf/heldout/README, set 3): sensors reporting -- a few
# hundred flows of equal weight, small UDP datagrams, some pings.
workload iot
seed 32
frames 20000
flows 400 uniform
mix udp 80 icmp 12 tcp 8
sizes 60 50 90 30 128 20
