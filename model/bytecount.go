package model

// ByteCounter is implemented by laws (fluid and event faces) that count, while CountsBytes
// says so, the bytes every ACK acknowledges rather than the ACKs the sender calls them with: RFC 3465's
// Appropriate Byte Counting, which Linux 2.6.2x's tcp_reno_cong_avoid does in congestion
// avoidance with sysctl_tcp_abc = 1 (ns-2.35 TCP/Linux sets it in
// tcp/linux/ns-linux-param.c). ns-2's LinuxTcpAgent::recv adds every ACK's bytes to
// bytes_acked before it calls the module, and the module adds a packet once a window of
// them is acknowledged, whichever ACK it is called with; so a sender that calls its module
// only for some ACKs (fluid.Settings.SendJitterS and the packet engine's replica of ns-2's
// delayed send: tcp_is_cwnd_limited fails for an ACK that returns while a send waits)
// loses none of such a law's increase. Slow start
// (tcp_slow_start: one packet a call, bytes_acked cleared) and the other modules'
// counters (snd_cwnd_cnt, once a call) count calls.
type ByteCounter interface {
	CountsBytes() bool
}

var _ ByteCounter = (*windowFluid)(nil)

// CountsBytes: a rule that counts bytes (reno@linux's renoLinuxRule) does so in
// congestion avoidance.
func (f *windowFluid) CountsBytes() bool {
	r, ok := f.rule.(interface{ countsBytes() bool })
	return ok && r.countsBytes() && !f.win.SlowStart
}
