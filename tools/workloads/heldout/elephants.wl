# Held out (bpf/heldout/README): a few elephant flows carry most of the
# traffic -- 24 flows, Zipf 1.6 -- in frames from minimum to full size.
workload elephants
seed 11
frames 20000
flows 24 zipf 1.6
mix tcp 55 udp 40 icmp 5
sizes 1514 50 700 20 64 30
