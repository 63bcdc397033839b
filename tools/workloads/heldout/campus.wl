# Held out (bpf/heldout/README, set 3): a campus uplink -- many flows of
# moderate skew, mostly established TCP, a spread of frame sizes.
workload campus
seed 31
frames 20000
flows 20000 zipf 1.1
mix tcp 60 udp 22 tcp_syn 10 icmp 5 arp 3
sizes 64 35 576 20 1024 10 1500 35
