# tcpfluid's parking-lot built-in in ns-2.35 TCP/Linux: four 50 Mb/s, 10 ms hops (h2 RED with
# ns-2's defaults, h3 random loss 1e-5), buffers of 333 packets; a long CUBIC flow over all
# four from r0 to r4, one cross flow per hop (Reno, Vegas, H-TCP, Reno) from a 1 Gb/s, 30 ms
# access link; starts 0–4 s, 200 s; SACK sinks, timestamps, send jitter overhead_ 0.467 ms
# (two packet times at a hop). Run by compare.sh: ns parkinglot-ns2.tcl SEED.
# Output: "E flow cuts timeouts acked_pkts sent_pkts" per flow at 200 s, and in
# hN_drops_SEED.tr every TCP packet dropped at hop N (ns-2 trace lines, field 8 the flow).
set seed [lindex $argv 0]
set ns [new Simulator]
global defaultRNG
$defaultRNG seed $seed
for {set i 0} {$i <= 4} {incr i} { set r($i) [$ns node] }
for {set i 1} {$i <= 4} {incr i} { set s($i) [$ns node] }
# hops h1..h4: r(i-1) -> r(i)
for {set i 1} {$i <= 4} {incr i} {
	set q DropTail
	if {$i == 2} { set q RED }
	$ns duplex-link $r([expr $i-1]) $r($i) 50Mb 10ms $q
	$ns queue-limit $r([expr $i-1]) $r($i) 333
	$ns queue-limit $r($i) $r([expr $i-1]) 333
	$ns duplex-link $s($i) $r([expr $i-1]) 1Gb 30ms DropTail
	$ns queue-limit $s($i) $r([expr $i-1]) 6667
	$ns queue-limit $r([expr $i-1]) $s($i) 6667
}
set em [new ErrorModel]
$em unit pkt
$em set rate_ 1e-5
$em ranvar [new RandomVariable/Uniform]
[$ns link $r(2) $r(3)] errormodule $em
set em_sink [new Agent/Null]
$em drop-target $em_sink
for {set i 1} {$i <= 4} {incr i} {
	set f [open "|awk {\$1==\"d\" \&\& \$5==\"tcp\"} > h${i}_drops_$seed.tr" w]
	$ns trace-queue $r([expr $i-1]) $r($i) $f
	set trf($i) $f
}
set mods {cubic reno vegas htcp reno}
set starts {0 1 2 3 4}
for {set k 0} {$k <= 4} {incr k} {
	set tcp($k) [new Agent/TCP/Linux]
	$tcp($k) set timestamps_ true
	$tcp($k) set window_ 100000
	$tcp($k) set packetSize_ 1460
	$tcp($k) set overhead_ 0.000467
	$tcp($k) set fid_ $k
	if {$k == 0} { $ns attach-agent $r(0) $tcp($k) } else { $ns attach-agent $s($k) $tcp($k) }
	set sink($k) [new Agent/TCPSink/Sack1]
	$sink($k) set ts_echo_rfc1323_ true
	if {$k == 0} { $ns attach-agent $r(4) $sink($k) } else { $ns attach-agent $r($k) $sink($k) }
	$ns connect $tcp($k) $sink($k)
	$ns at 0 "$tcp($k) select_ca [lindex $mods $k]"
	set ftp($k) [$tcp($k) attach-app FTP]
	$ns at [lindex $starts $k] "$ftp($k) start"
}
proc finish {} {
	global ns tcp trf
	for {set k 0} {$k <= 4} {incr k} {
		set t $tcp($k)
		puts "E $k [$t set ncwndcuts_] [$t set nrexmit_] [expr [$t set ack_] + 1] [$t set ndatapack_]"
	}
	for {set i 1} {$i <= 4} {incr i} { close $trf($i) }
	exit 0
}
$ns at 200 finish
$ns run
