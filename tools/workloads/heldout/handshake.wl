# Held out (bpf/heldout/README, set 8): twenty thousand connections of
# moderate skew (Zipf 1.1), a quarter of the frames opening ones, mostly
# TCP, sizes from minimum to full.
workload handshake
seed 82
frames 20000
flows 20000 zipf 1.1
mix tcp 60 tcp_syn 25 udp 10 icmp 5
sizes 64 60 576 25 1500 15
