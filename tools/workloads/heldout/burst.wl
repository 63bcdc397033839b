# Held out (bpf/heldout/README, set 2): ten flows, one of them most of
# the traffic (Zipf 1.8), SYN-heavy, minimum and full-size frames.
workload burst
seed 22
frames 20000
flows 10 zipf 1.8
mix tcp_syn 45 tcp 35 udp 20
sizes 64 60 1514 40
