# Held out (bpf/heldout/README, set 11): voice calls through a NAT-like
# edge, 300 UDP media flows of equal weight in both directions (half the
# datagrams come back), small frames, a little TCP signalling and ARP.
workload voip
seed 112
frames 20000
flows 300 uniform
mix tcp_syn 2 tcp 8 udp 86 arp 4
sizes 200 70 218 20 1280 10
replies 50
