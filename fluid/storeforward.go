package fluid

// Store and forward. A link sends a packet once it holds all of it and takes the packet's
// size over its capacity to send it, so a packet's round trip is the propagation, its wait
// at each queue, its own transmission at every link of its path and its ACK's on the way
// back (the reverse path never queues). The fluid queue holds bytes and counts the packet
// in service among them, as the packet engine's and ns-2's buffers do: at a link whose
// queue holds a packet or more, q/C is the packet's wait and its transmission together,
// and at one that holds less the packet still takes its transmission. Each link then adds
// max(q/C, tx) to the round trip. On an empty path the pipe holds C·(propagation + every
// transmission) and a queue forms at that window, as the packet engine's does (seed 003:
// 1 Mb/s links and 592-byte packets, 14 ms of propagation and 7 ms of transmissions, its
// first slow start a round ahead without them); a full buffer holds the same packets in
// both engines, since the one in service is one of them.

// delay is what the stream's link adds to its source's round trip when its queue makes the
// packet wait wait seconds: that wait, or the packet's transmission where the queue is
// shorter.
func (st *stream) delay(wait float64) float64 { return max(wait, st.tx) }

// baseRTT is subflow f's round trip on an empty path, s: the propagation and its packet's
// and its ACK's transmissions.
func (f *subflow) baseRTT() float64 { return f.propRTT + f.txS + f.ackTxS }
