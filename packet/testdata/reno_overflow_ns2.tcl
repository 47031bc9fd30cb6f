# One Reno flow on a dumbbell with one-BDP drop-tail buffers, for the packet engine's
# check of Reno at a congestion-avoidance overflow (reno_overflow_ns2.json): access
# 20 Mb/s 10 ms, bottleneck 10 Mb/s D ms, access 20 Mb/s 10 ms; 1420-byte segments plus
# 40-byte headers (1460 bytes on the wire); 600 s. Prints D, the bottleneck buffer and the
# number of retransmission timeouts (nrexmit_). Run with ns-2.35 (Debian package ns2
# 2.35+dfsg-5):  ns reno_overflow_ns2.tcl D
set D [lindex $argv 0]
set ns [new Simulator]
set s [$ns node]; set r1 [$ns node]; set r2 [$ns node]; set d [$ns node]
$ns duplex-link $s $r1 20Mb 10ms DropTail
$ns duplex-link $r1 $r2 10Mb ${D}ms DropTail
$ns duplex-link $r2 $d 20Mb 10ms DropTail
set bdp [expr int(ceil(10e6 * 2 * (20 + $D) / 1000.0 / (8 * 1460)))]
$ns queue-limit $s $r1 [expr 2 * $bdp]
$ns queue-limit $r1 $r2 $bdp
$ns queue-limit $r2 $d [expr 2 * $bdp]
set tcp [new Agent/TCP/Reno]
$tcp set window_ 100000
$tcp set packetSize_ 1420
$ns attach-agent $s $tcp
set sink [new Agent/TCPSink]
$ns attach-agent $d $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp
$ns at 0.0 "$ftp start"
proc finish {} {
	global tcp bdp D
	puts "$D $bdp [$tcp set nrexmit_]"
	exit 0
}
$ns at 600 "finish"
$ns run
