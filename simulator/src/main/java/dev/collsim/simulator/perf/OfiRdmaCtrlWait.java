package dev.collsim.simulator.perf;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.NcclDevice;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.topology.NetworkClass;
import dev.collsim.topology.catalog.OfiRailGroups;

/**
 * The wait of a call's first network send for its receiver's control message under aws-ofi-nccl's RDMA protocol
 * (EFA on Hopper and later: p5, p5e, p5en): one more network crossing's latency on the call's critical path where
 * that send is larger than the plugin's eager limit.
 *
 * <p>What the plugin does (aws/aws-ofi-nccl v1.7.3-aws to v1.9.2-aws, the releases of the public p5 runs,
 * {@code src/nccl_ofi_rdma.c}): the protocol moves each NCCL send by an RDMA write into the receive buffer, whose
 * address the receiver's {@code recv} sends to the sender in a control message. {@code send} looks the message up
 * ({@code nccl_ofi_msgbuff_retrieve}): with its control message already there ({@code have_ctrl}) it writes at once;
 * without, a send of at most OFI_NCCL_EAGER_MAX_SIZE bytes goes eagerly into the receiver's bounce buffer
 * ({@code eager = !have_ctrl && size <= eager_max_size}), and a larger one is queued until the control message
 * arrives. OFI_NCCL_EAGER_MAX_SIZE is 8192 B ({@code include/nccl_ofi_param.h}; the same default to v1.21.1). NCCL's
 * receiving proxy posts its receives when the call starts (up to NCCL_STEPS per connection, {@code
 * src/transport/net.cc recvProxyProgress}), at the moment the sending GPU starts filling its first chunk, so the
 * first send above the limit waits for the control message's crossing; the later sends' control messages were sent
 * with those first receives, or as each step is freed while the data of the steps before it is in flight, and do
 * not wait. Every connection of the call waits at once: one crossing per call.
 *
 * <pre>
 *   piece = nBytes / (channels x (nRanks for Ring, else 1)), at most the protocol's chunk ({@link
 *           CalcCollChunking#chunk}): the data of the call's first send on a connection
 *   wire  = piece x 2 (LL: 8 data bytes per 16-byte line), x 128 / 120 (LL128), x 1 (Simple)
 *   extra = the network class's latency per crossing ({@link NetClassProfile#hopLatencyUs}) if wire &gt; 8192 B
 * </pre>
 *
 * <p>Measured (collsim before this term, compare --calibration none): the two 2 x p5.48xlarge AllReduce sweeps
 * (A-allreduce-2x8xH100-aws-p5-efa-slurm-awsome-distributed-training.txt, NCCL 2.20.3 with aws-ofi-nccl 1.8.1;
 * A-allreduce-2x8xH100-aws-p5-eks-efa-terraform-aws-do-eks.txt) are predicted within 12 % on Tree/LL from 8 B to
 * 8 KiB, where every send is at most 8 KiB on the wire, and 12-27 % fast on Tree/LL128 from 256 KiB to 8 MiB, a
 * near-constant 15-35 us (e.g. 1 MiB: 123.2 and 119.7 us measured, 105.05 predicted), where the first send is
 * 68 KiB and more. The charge is EFA's per-crossing figure (20 us, read on EFA generation 1, {@link
 * NetClassDefaults}); no figure is fitted here. Stateless and thread-safe.
 */
public final class OfiRdmaCtrlWait {

    /** OFI_NCCL_EAGER_MAX_SIZE default, bytes (aws-ofi-nccl v1.7.3-aws to v1.21.1 {@code nccl_ofi_param.h}). */
    static final long EAGER_MAX_BYTES = 8192;

    private OfiRdmaCtrlWait() {
    }

    /**
     * @param plan the channel plan
     * @return true for several NCCL nodes over EFA whose GPUs are all Hopper or newer (the RDMA protocol)
     */
    public static boolean applies(ChannelPlan plan) {
        return plan.nNodes() > 1 && plan.netClass() == NetworkClass.EFA && plan.minSm() >= OfiRailGroups.RDMA_MIN_SM;
    }

    /**
     * @param plan     the channel plan
     * @param s        NCCL settings (the protocol's chunk)
     * @param func     collective
     * @param a        algorithm
     * @param p        protocol
     * @param nBytes   bytes of the call
     * @param channels runtime channels of the call
     * @return bytes on the wire of the call's first send on a connection (class comment)
     */
    static double firstSendWireBytes(ChannelPlan plan, NcclSettings s, Collective func, Algorithm a, Protocol p,
            long nBytes, int channels) {
        double share = nBytes / (double) Math.max(1, channels) / (a == Algorithm.RING ? plan.nRanks() : 1);
        double piece = Math.min(CalcCollChunking.chunk(a, p, func, s), share);
        return piece / NcclDevice.dataPerLineByte(p);
    }

    /**
     * @param plan     the channel plan
     * @param s        NCCL settings
     * @param func     collective
     * @param a        algorithm
     * @param p        protocol
     * @param nBytes   bytes of the call
     * @param channels runtime channels of the call
     * @param hopUs    the network class's latency per crossing, microseconds
     * @return the control message's wait, microseconds: {@code hopUs} where {@link #applies} and the first send is
     *         above the eager limit, else 0
     */
    public static double extraUs(ChannelPlan plan, NcclSettings s, Collective func, Algorithm a, Protocol p,
            long nBytes, int channels, double hopUs) {
        return applies(plan) && nBytes > 0
                && firstSendWireBytes(plan, s, func, a, p, nBytes, channels) > EAGER_MAX_BYTES ? hopUs : 0;
    }
}
