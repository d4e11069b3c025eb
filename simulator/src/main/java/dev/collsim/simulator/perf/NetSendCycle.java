package dev.collsim.simulator.perf;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.topology.NetworkClass;

/**
 * One network send's cycle through its connection's slot, beyond {@link NetTransport}'s two network steps: the send's
 * own bytes inside the cycle (every class), and under GPUDirect-TCPX the last sends' delivery after the slot count.
 * Used for collsim's time prediction only. Stateless and thread-safe.
 *
 * <p><b>The send's bytes.</b> NCCL's sending proxy frees a slot ({@code sendHead}) only when the plugin's {@code test}
 * reports the send complete (NCCL 2.28.9 {@code src/transport/net.cc sendProxyProgress}: {@code sub->done} advances
 * on {@code ncclNet->test} done), after the send's last byte has left (InfiniBand: the RDMA write's completion;
 * GPUDirect-TCPX: its chunks' zero-copy completions, google/nccl-plugin-gpudirecttcpx commit 4b8ea7f2
 * {@code src/net_tcpx.cc tcpxTest}, {@code processCompletion}). So a send holds its slot for 2 x stepUs plus its
 * bytes at the connection's share of the network; a connection with {@code sends} in flight moves, in bus terms,
 * 1 / (1 / slots + 1 / (sends x netBusBw)), each send's bytes moving while the others are in their fixed steps
 * ({@link #slotBusBw}).
 *
 * <p><b>The last delivery under GPUDirect-TCPX.</b> {@link NetTransport}'s cycle is a credit loop: an InfiniBand send
 * waits for the receiver's posted receive (its {@code irecv}, re-posted by {@code recvProxyProgress} once the GPU has
 * consumed the slot), so a cycle is one step out (the data lands) and one back (the credit), and a call's last sends,
 * posted after ceil(sends / in flight) - 1 cycles, land half a cycle later: on average over the send count the slot
 * count's sends / inFlight cycles. GPUDirect-TCPX has no credit: {@code tcpxIsend_v5} only queues the request, and
 * {@code tcpxCommProgress} sends each chunk's control message and hands the chunk to a socket helper thread whether
 * or not the receiver has posted ({@code tcpxIrecv_v5} reads the control messages in order; the kernel's TCP buffers
 * hold what is early); the sender's slot returns on its own zero-copy completion, a trip out and the ACK back. The
 * receiver's side of a send is a trip of the same parts (its helper thread's reads of the control message and the
 * chunk, the request's in-order completion in {@code tcpxTest}) and then the receiving GPU's unpack of the received
 * pages (netDeviceType UNPACK) before the step is its kernel's: a whole cycle, not half. So the last sends land a
 * whole cycle after their post, at ceil(sends / inFlight) cycles, where the slot count charges sends / inFlight
 * ({@link #lastDeliveryUs}). Measured, not fitted (the step is {@link NetClassDefaults}'s): the GKE A3 High 2x8
 * AllGather (A-allgather-2x8xH100-gcp-a3high-gke-tcpx-cluster-toolkit.txt lines 17-23) takes 942.9-1116.5 us at
 * 1-32 MiB, 30 sends per connection, 4 in flight: 8 cycles of 116 us and its bytes, where the slot count gives 7.5.
 */
public final class NetSendCycle {

    private NetSendCycle() {
    }

    /**
     * @param slotBus  the slot count's bus bandwidth, 2 x stepUs per cycle, GB/s
     * @param netBus   the network's bus bandwidth bound of the call (NICs at the class's share, or the socket
     *                 streams'), GB/s; infinite on one node
     * @param sends    sends one connection keeps in flight (its window over one send)
     * @return GB/s: 1 / (1 / slotBus + 1 / (sends x netBus)); slotBus where either is not finite
     */
    static double slotBusBw(double slotBus, double netBus, double sends) {
        if (!Double.isFinite(slotBus) || !Double.isFinite(netBus) || netBus <= 0) {
            return slotBus;
        }
        return 1 / (1 / slotBus + 1 / (sends * netBus));
    }

    /**
     * The time a GPUDirect-TCPX Ring/Simple call between nodes waits beyond its slot count for its last sends to
     * reach the receiving GPU, microseconds: (ceil(K) - K) x slotUs / K, K = sends per connection / sends in flight.
     * Sends per connection: the ring steps of the call (nRanks - 1 for AllGather and ReduceScatter, 2 (nRanks - 1)
     * for AllReduce; NCCL 2.28.9 {@code src/device/all_gather.h runRing}) x its sends per step (the step's data,
     * nBytes / (channels x nRanks), over {@link NetTransport#messageBytes}).
     *
     * @param slotUs   the slot count's time for the call, microseconds (bytes over the connections' rate)
     * @param channels channels of the call (may be fractional, >= 1)
     * @return microseconds, >= 0; 0 off GPUDirect-TCPX, on one node, and for other algorithms and protocols
     */
    public static double lastDeliveryUs(ChannelPlan plan, NcclSettings s, Collective func, Algorithm a, Protocol p,
            long nBytes, double channels, double slotUs) {
        boolean ring = a == Algorithm.RING && (func == Collective.ALL_GATHER || func == Collective.REDUCE_SCATTER
                || func == Collective.ALL_REDUCE);
        if (plan.netClass() != NetworkClass.TCPX || plan.nNodes() < 2 || p != Protocol.SIMPLE || !ring
                || !Double.isFinite(slotUs)) {
            return 0;
        }
        double message = NetTransport.messageBytes(a, p, func, s, nBytes, channels, plan);
        double perStep = nBytes / (channels * plan.nRanks());
        int steps = (func == Collective.ALL_REDUCE ? 2 : 1) * (plan.nRanks() - 1);
        double sends = steps * Math.max(1, Math.ceil(perStep / message - 1e-9));
        double inFlight = Math.min(NetTransport.windowBytes(p, s), NetTransport.sendsInFlight(a, p, func) * message)
                / message;
        double cycles = sends / inFlight;
        return (Math.ceil(cycles - 1e-9) - cycles) * slotUs / cycles;
    }
}
