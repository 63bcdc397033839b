# Held out (bpf/heldout/README, set 5): two hundred chatty flows, a few
# of them most of the traffic (Zipf 1.3), TCP with some opens, small
# frames.
workload chatty
seed 51
frames 20000
flows 200 zipf 1.3
mix tcp 70 tcp_syn 10 udp 15 icmp 5
sizes 64 50 128 35 256 15
