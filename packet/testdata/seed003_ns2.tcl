# Seed 003's ns-2 script (shared/seeds/003_*.txt) made batch-runnable, for the packet
# engine's reference numbers (seed003_ns2.json). Only these changes: no nam output, the
# agent and a shift of both CBR start times come from the command line, and the trace file
# is named after them. Run with ns-2.35 (Debian package ns2 2.35+dfsg-5):
#   ns seed003_ns2.tcl tahoe|reno|newreno|vegas SHIFT_S
set agent [lindex $argv 0]
set shift [lindex $argv 1]
set ns [new Simulator]
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
set n3 [$ns node]
set n4 [$ns node]
set tf [open ${agent}_${shift}.tr w]
$ns trace-all $tf
$ns duplex-link $n0 $n3 1Mb 2ms DropTail
$ns duplex-link $n1 $n3 1Mb 2ms DropTail
$ns duplex-link $n2 $n3 1Mb 2ms DropTail
$ns duplex-link $n4 $n3 2.5Mb 5ms DropTail
$ns queue-limit $n3 $n4 20
switch $agent {
	tahoe { set tcp0 [new Agent/TCP] }
	reno { set tcp0 [new Agent/TCP/Reno] }
	newreno { set tcp0 [new Agent/TCP/Newreno] }
	vegas { set tcp0 [new Agent/TCP/Vegas] }
}
$ns attach-agent $n0 $tcp0
set sink0 [new Agent/TCPSink]
$ns attach-agent $n4 $sink0
$ns connect $tcp0 $sink0
$tcp0 set fid_ 0
$tcp0 set window_ 8000
$tcp0 set packetSize_ 552
set ftp0 [new Application/FTP]
$ftp0 attach-agent $tcp0
foreach i {1 2} src [list $n1 $n2] {
	set udp($i) [new Agent/UDP]
	$ns attach-agent $src $udp($i)
	set null($i) [new Agent/Null]
	$ns attach-agent $n4 $null($i)
	$ns connect $udp($i) $null($i)
	$udp($i) set fid_ $i
	set cbr($i) [new Application/Traffic/CBR]
	$cbr($i) attach-agent $udp($i)
	$cbr($i) set type_ CBR
	$cbr($i) set packet_size_ 1000
	$cbr($i) set rate_ 1mb
	$cbr($i) set random_ false
}
$ns at 1.0 "$ftp0 start"
$ns at [expr 4.01 + $shift] "$cbr(1) start"
$ns at [expr 5.01 + $shift] "$cbr(2) start"
$ns at 10.0 "$ftp0 stop"
$ns at 10.0 "$cbr(1) stop"
$ns at 10.0 "$cbr(2) stop"
proc finish {} {
	global ns tf
	$ns flush-trace
	close $tf
	exit 0
}
$ns at 10.1 "finish"
$ns run
