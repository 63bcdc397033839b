# Held out (bpf/heldout/README, set 9): a SYN flood from a hundred
# thousand spoofed sources, spread evenly, under a trickle of UDP and
# established TCP, minimum-size frames.
workload storm
seed 93
frames 20000
flows 100000 uniform
mix tcp_syn 65 udp 20 tcp 10 icmp 5
sizes 64 85 128 15
