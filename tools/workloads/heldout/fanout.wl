# Held out (bpf/heldout/README, set 4): a front end's fan-in -- fifty
# thousand flows of mild skew (Zipf 0.8), short requests and some bulk,
# with ARP and pings.
workload fanout
seed 42
frames 20000
flows 50000 zipf 0.8
mix tcp 40 udp 30 tcp_syn 15 arp 5 icmp 10
sizes 64 45 256 25 1024 15 1500 15
