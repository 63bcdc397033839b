# Held out (bpf/heldout/README, set 7): six bulk transfers, one of them
# most of the traffic (Zipf 1.4), TCP full-size segments with their
# small acknowledgements, some UDP.
workload backup
seed 71
frames 20000
flows 6 zipf 1.4
mix tcp 85 udp 15
sizes 1500 80 64 20
