package dev.collsim.simulator.perf;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.bound.PhysicalBound;
import dev.collsim.simulator.channel.ChannelPlan;

/**
 * The network transport as NCCL's proxy runs it, reduced to the two limits that NCCL's own model leaves out and that
 * make NCCL_BUFFSIZE and the message size matter between nodes (NCCL 2.30.7 {@code src/transport/net.cc} proxy
 * progress; fact sheet §3.3):
 *
 * <ul>
 *   <li><b>Fixed cost per network step.</b> The proxy posts one network send per slice (sliceSteps x stepSize,
 *       stepSize = buffer / NCCL_STEPS with NCCL_STEPS = 8; Ring AllReduce/AllGather/ReduceScatter Simple slices
 *       are 2 steps, everything else 1 step) or per smaller piece when the call has less data per channel: a Ring
 *       moves nBytes / (channels x nRanks) per step and channel, the other algorithms nBytes / channels. Each send
 *       costs {@link PerformanceParameters#netStepUs} whatever its size, so one connection moves at most
 *       {@code message / netStepUs}. (NVIDIA/nccl#2409: about 10-12 us per network step on 400G RoCE, so a 128 KiB
 *       chunk gives 13 GB/s and 1 MiB 88 GB/s.)</li>
 *   <li><b>Bytes in flight.</b> A connection has NCCL_STEPS slots of stepSize, i.e. its whole buffer, in flight; a
 *       slot is free again only after the receiving proxy has completed it and the sender's proxy has seen the
 *       credit, two proxy steps, so one connection moves at most {@code buffer data / (2 x netStepUs)}.
 *       (NVIDIA/nccl#387: larger buffers are faster, up to the point where the NIC is the limit.)</li>
 * </ul>
 *
 * <p>Only the Simple protocol pays the fixed step cost: its receiving proxy completes each step with a GPU Direct
 * RDMA flush and hands it to the GPU through the connection's head/tail counters, while LL and LL128 data carries its
 * own flags that the receiving GPU polls directly (NCCL 2.30.7 {@code src/transport/net.cc}: {@code ncclNetIflush}
 * only for {@code NCCL_PROTO_SIMPLE}). Measured on 2 x 2 DGX H100 (public dataset A-allreduce-2x2xH100-dgx-ib.txt):
 * Ring/LL AllReduce at 8 B takes 16 us for its 6 ring steps, which leaves no room for 10 us per LL step. From
 * Hopper on, NCCL skips that flush (NCCL 2.30.7 {@code src/graph/paths.cc ncclTopoNeedFlush}: none for compute
 * capability >= 9.0 unless NCCL_NET_FORCE_FLUSH, the plugin asks, or the NIC sits behind a C2C-attached CPU), and
 * the 10-12 us of NVIDIA/nccl#2409 come from a run its reporter calls degraded (231 GB/s busbw on 2 x 8 H100 with
 * 8 x 400G RoCE where about 470 is expected); so {@code netStepUs} is an upper figure. On the public InfiniBand
 * and RoCE files (2x2 and 2x8 DGX H100, 2x8 XE9680, 2x8 A100 RoCE) it never binds at NCCL's default NCCL_BUFFSIZE:
 * {@code collsim compare} gives the same error per point with netStepUs 0.
 *
 * <p>Every channel has one network connection leaving each node (a ring enters and leaves a node once per channel;
 * a tree's up and down links are counted as one), so a node sends at most {@code channels x connection rate}; that
 * figure takes the place of the NIC bandwidth in {@link PhysicalBound#nicBusBw}. Applies to Ring, Tree, PAT and
 * NVLSTree between NCCL nodes; not on one node, and not to NVLS or CollNet (their network part is switch-side).
 * This class is stateless and thread-safe.
 */
public final class NetTransport {

    /** NCCL_STEPS: slots per connection (NCCL 2.30.7 {@code src/include/device.h}). */
    public static final int NCCL_STEPS = 8;

    private NetTransport() {
    }

    /**
     * @param a    algorithm
     * @param p    protocol
     * @param plan the channel plan
     * @return true when calls of this algorithm and protocol pay the proxy's per-step cost between NCCL nodes
     */
    public static boolean applies(Algorithm a, Protocol p, ChannelPlan plan) {
        return plan.nNodes() > 1 && p == Protocol.SIMPLE && (a == Algorithm.RING || a == Algorithm.TREE || a == Algorithm.PAT
                || a == Algorithm.NVLS_TREE);
    }

    /**
     * Network connections leaving a node per channel: one for Ring, Tree and PAT; the NVLS heads for NVLSTree,
     * whose every head runs its own tree between nodes (NCCL 2.30.7 {@code src/enqueue.cc calcCollChunking}
     * counts {@code concurrentOps = nChannels x nvls.nHeads}).
     *
     * @return connections per channel, >= 1
     */
    static int connectionsPerChannel(Algorithm a, ChannelPlan plan) {
        return a == Algorithm.NVLS_TREE ? Math.max(1, plan.graphs().nvls().nChannels()) : 1;
    }

    /**
     * Data bytes of one network send for this call: the protocol's largest send ({@link #protocolMessage}), or less
     * when the call has less data per connection: a Ring moves nBytes / (channels x nRanks) per step and channel,
     * the other algorithms nBytes / (channels x connections per channel). NCCL also shrinks NVLSTree chunks in
     * steps for mid-size calls (256K/128K/64K/32K, {@code calcCollChunking}); collsim keeps this continuous bound
     * instead, so that the predicted time never drops as the size grows.
     *
     * @param a        algorithm
     * @param p        protocol
     * @param func     collective
     * @param s        settings (buffer sizes)
     * @param nBytes   bytes NCCL selects on
     * @param channels channels of the call (may be fractional, >= 1)
     * @param plan     the channel plan (ranks, NVLS heads)
     * @return bytes, >= 1
     */
    public static double messageBytes(Algorithm a, Protocol p, Collective func, NcclSettings s, long nBytes,
            double channels, ChannelPlan plan) {
        int conns = connectionsPerChannel(a, plan);
        double perStep = a == Algorithm.RING ? nBytes / (channels * plan.nRanks()) : nBytes / (channels * conns);
        return Math.max(1, Math.min(protocolMessage(a, p, func, s), perStep));
    }

    /**
     * The largest network send of a protocol, data bytes: Simple sliceSteps x buffSize / 8 (sliceSteps 2 for Ring
     * AllReduce, AllGather, ReduceScatter, else 1); LL one step of
     * LL_BUFFSIZE / 8 lines, half data; LL128 one step of LL128_BUFFSIZE / 8, 15/16 data (fact sheet §3.3).
     *
     * @return bytes
     */
    static double protocolMessage(Algorithm a, Protocol p, Collective func, NcclSettings s) {
        return switch (p) {
            case LL -> s.llBuffSize() / (double) NCCL_STEPS / 2;
            case LL128 -> s.ll128BuffSize() / (double) NCCL_STEPS * 15 / 16;
            case SIMPLE -> {
                double step = s.buffSize() / (double) NCCL_STEPS;
                boolean twoSteps = a == Algorithm.RING && (func == Collective.ALL_REDUCE
                        || func == Collective.ALL_GATHER || func == Collective.REDUCE_SCATTER);
                yield twoSteps ? 2 * step : step;
            }
        };
    }

    /** @return the data bytes a connection's NCCL_STEPS slots hold for a protocol (its whole buffer) */
    static double windowBytes(Protocol p, NcclSettings s) {
        return switch (p) {
            case LL -> s.llBuffSize() / 2.0;
            case LL128 -> s.ll128BuffSize() * 15.0 / 16;
            case SIMPLE -> s.buffSize();
        };
    }

    /**
     * The most one network connection moves for this call, GB/s: min(message / stepUs, window / (2 x stepUs)).
     * Infinite when stepUs is 0.
     *
     * @param message data bytes of one send ({@link #messageBytes})
     * @param p       protocol
     * @param s       settings
     * @param stepUs  cost of one network send of the network class, microseconds
     *                ({@link PerformanceParameters#netProfile}, {@link NetClassProfile#stepUs})
     * @return GB/s
     */
    public static double connectionGBps(double message, Protocol p, NcclSettings s, double stepUs) {
        if (stepUs <= 0) {
            return Double.POSITIVE_INFINITY;
        }
        double bytesPerUs = Math.min(message / stepUs, windowBytes(p, s) / (2 * stepUs));
        return bytesPerUs / 1000.0;
    }

    /**
     * The bus bandwidth the network proxy allows this call, GB/s: {@link PhysicalBound#nicBusBw} with channels x
     * the connection rate in place of the node's NIC bandwidth (a Ring's traffic as a Ring's, k = n).
     *
     * @return GB/s; infinite where {@link #applies} is false or the class's step cost is 0
     */
    public static double busBwCap(ChannelPlan plan, NcclSettings s, PerformanceParameters pp, Collective func,
            Algorithm a, Protocol p, long nBytes, double channels) {
        if (!applies(a, p, plan)) {
            return Double.POSITIVE_INFINITY;
        }
        double message = messageBytes(a, p, func, s, nBytes, channels, plan);
        double node = channels * connectionsPerChannel(a, plan) * connectionGBps(message, p, s,
                pp.netProfile(plan.netClass()).stepUs());
        double perNode = (double) plan.nRanks() / plan.nNodes();
        return PhysicalBound.nicBusBw(func, a == Algorithm.RING, plan.nRanks(), plan.nNodes(), perNode, node);
    }
}
