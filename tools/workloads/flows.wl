# Many flows: a million sources, each seldom seen, so per-flow state
# misses every cache; a spread of small and medium frames.
workload flows
seed 2
frames 20000
flows 1000000 uniform
mix tcp_syn 10 tcp 50 udp 35 icmp 5
sizes 64 50 128 30 512 20
