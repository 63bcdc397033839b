# Held out (bpf/heldout/README, set 11): a branch office behind a stateful
# firewall that sees both directions on one port, 1,500 connections of
# moderate skew (Zipf 0.9), TCP-heavy with opens, some UDP, ARP and pings;
# nearly half of the TCP and UDP frames are the answers.
workload office
seed 111
frames 20000
flows 1500 zipf 0.9
mix tcp_syn 6 tcp 58 udp 26 icmp 5 arp 5
sizes 64 40 590 20 1514 40
replies 45
