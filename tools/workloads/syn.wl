# SYN-heavy: connection setup from many clients, minimum-size frames.
workload syn
seed 1
frames 20000
flows 65536 uniform
mix tcp_syn 80 tcp 10 udp 5 icmp 5
sizes 64 100
