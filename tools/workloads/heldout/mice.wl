# Held out (bpf/heldout/README, set 6): sixty thousand short flows of
# shallow skew (Zipf 0.7), many of them opening, small frames: a web
# front end's mice.
workload mice
seed 61
frames 20000
flows 60000 zipf 0.7
mix tcp 45 tcp_syn 20 udp 30 icmp 5
sizes 64 60 128 25 512 15
