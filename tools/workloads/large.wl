# Large frames: bulk transfers over few, skewed flows.
workload large
seed 3
frames 20000
flows 1000 zipf 1.1
mix tcp 50 udp 45 icmp 5
sizes 1500 80 1024 20
