# Four NewReno flows through one RED queue, for the packet engine's check of RED as ns-2
# runs it by default (red_ns2.json): access 1 Gb/s 1 ms (limit 10000), bottleneck 10 Mb/s
# 20 ms with Queue/RED (limit 100, thresh_ 5, maxthresh_ 15, linterm_ 10 = max_p 0.1,
# q_weight_ 0.002, in packets: bytes_ and queue_in_bytes_ false, as tcpfluid's RED counts;
# gentle_ and wait_ at their defaults, true), Agent/TCP/Newreno with
# packetSize_ 1460 (plus 40-byte headers), window_ 10000, overhead_ 0.1 ms, and TCPSink;
# flow i starts at 0.1·i s; 100 s. Prints the bottleneck's drops and arrivals, then each
# flow's highest ACK and its retransmission timeouts (nrexmit_). Run with ns-2.35 (Debian
# package ns2 2.35+dfsg-5):  ns red_ns2.tcl SEED
set ns [new Simulator]
global defaultRNG
$defaultRNG seed [lindex $argv 0]
Queue/RED set thresh_ 5
Queue/RED set maxthresh_ 15
Queue/RED set linterm_ 10
Queue/RED set q_weight_ 0.002
Queue/RED set bytes_ false
Queue/RED set queue_in_bytes_ false
Agent/TCP set packetSize_ 1460
Agent/TCP set window_ 10000
Agent/TCP set overhead_ 0.0001
set s [$ns node]; set r [$ns node]; set d [$ns node]
$ns duplex-link $s $r 1000Mb 1ms DropTail
$ns duplex-link $r $d 10Mb 20ms RED
$ns queue-limit $r $d 100
$ns queue-limit $s $r 10000
set qm [$ns monitor-queue $r $d [open /dev/null w] 0.1]
for {set i 0} {$i < 4} {incr i} {
  set tcp($i) [new Agent/TCP/Newreno]
  $ns attach-agent $s $tcp($i)
  set sink($i) [new Agent/TCPSink]
  $ns attach-agent $d $sink($i)
  $ns connect $tcp($i) $sink($i)
  set ftp($i) [new Application/FTP]
  $ftp($i) attach-agent $tcp($i)
  $ns at [expr 0.1 * $i] "$ftp($i) start"
}
proc finish {} {
  global qm tcp
  puts "drops [$qm set pdrops_] arrivals [$qm set parrivals_]"
  for {set i 0} {$i < 4} {incr i} { puts "flow $i acked [$tcp($i) set ack_] timeouts [$tcp($i) set nrexmit_]" }
  exit 0
}
$ns at 100 "finish"
$ns run
