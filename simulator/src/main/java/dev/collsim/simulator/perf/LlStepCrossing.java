package dev.collsim.simulator.perf;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.BusBandwidth;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.NcclDevice;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.channel.RuntimeChannels;
import dev.collsim.simulator.tuning.CostTable;

/**
 * The time an LL step's lines take to cross the network on each network hop of the critical path, beyond the wait
 * for them to land in the host-memory send FIFO ({@link LlSendFifo}, the probe's time): the step's
 * line bytes at {@link #LINE_GBPS}, once per hop ({@link NetHops#of}), added to the call's latency. A fitted figure:
 * what the bytes pass through in series is not isolated (see below).
 *
 * <p><b>Why per step and per hop.</b> NCCL's proxy posts an LL step's network send only once every line of the
 * step carries its flag in the host-memory FIFO (NCCL 2.26.2 and 2.30.7 {@code src/transport/net.cc
 * sendProxyProgress}, the LL branch; the FIFO is host memory even under GPU Direct RDMA, {@code sendProxyConnect}),
 * so each network hop forwards a whole step, not line by line as the GPUs do over NVLink; a chunk that crosses k
 * network links waits for its step's bytes k times. The bytes of one step are {@link NetTransport#messageBytes}
 * (nBytes over the call's channels for a Tree, over channels x nRanks for a Ring), two line bytes per data byte.
 * Below NCCL's channel threshold (512 threads x 8 B per channel for Tree, x nRanks for Ring, fact sheet §3.1) a
 * call runs on one channel and its step grows with the call, up to 4 KiB of data per step; from there NCCL adds
 * channels and the step stays at 4 KiB until every channel is in use.
 *
 * <p><b>Past the threshold step (Tree).</b> Once every channel is in use a Tree's step grows again (8 KiB per channel
 * at 128 KiB on 16 channels), beyond the 4 KiB the sixteen-channel clusters' fit saw; a Tree step is charged at most
 * {@link #thresholdStepBytes}. The files with Tree/LL at 64 and 128 KiB on 16 channels grow by less than the
 * uncapped term alone adds (2 hops x 2.92 us on two nodes, 4 x 2.92 on four): Dell XE9680 2x8 H100 +4.9 us, Nebius
 * 2x8 H100 +5.2, Lambda 2x8 B200 +2.8, Crusoe 2x8 A100 +1.6, Dell XE9680 4x8 H100 +5.0, Voltage Park 4x8 H100 -0.8,
 * where the model without the cap grew +16.2 to +31.3 us and predicted time fell from 128 to 256 KiB on the default
 * cluster (Tree/LL 94.3 us, then Tree/LL128 80.8). Not every file agrees: the 16-node CoreWeave A100 run (NCCL
 * 2.12, 8 hops, +20.8 us) and the ABCI runs of NCCL 2.8 with 4 channels (steps of 16-32 KiB, V100 at 16 and 32
 * nodes +134 and +175 us) grow at about the uncapped rate, which the cap leaves out there (docs/launch-overhead.md).
 * NCCL's own further tree correction past that size is the same cost and is held too ({@link #treeCorrection}).
 *
 * <p><b>Measured.</b> Every healthy multi-host InfiniBand or RoCE file whose calls run Ring or Tree LL at 4 or more
 * sizes up to 32 KiB grows faster with the step than the model without this term: per file, the Theil-Sen slope
 * (median of pairwise slopes, robust to the files' one-off slow rows) of the measured time less the model's over
 * the step's line bytes per hop times the hops, at sizes up to 32 KiB, gives a rate; the median over a cluster's
 * runs, then over clusters (validation {@code LlStepCrossingDerivationTest} works them out from the files):
 * ABCI A100 HDR 2.38 (five runs, 1.25-4.22; NCCL 2.8), ABCI V100 EDR 1.81 (five runs, 0.97-2.03; NCCL 2.8), OCI
 * BM.GPU4.8 RoCE 2.14 (two files), 2x2 DGX H100 2.52, Voltage Park 4x8 H100 2.67 (AllReduce and AllGather), Dell
 * XE9680 2x8 H100 NDR 4.24 (two runs), Nebius 2x8 H100 3.58, Lambda 2x8 B200 3.41, Dell XE9680 2x8 H200
 * Spectrum-X 2.95, GCP A3 Ultra gIB v1.0.6 2.10 (two runs), GCP A4X Max gIB run 1 45 and the 2x4 H100 16GB file
 * (no growth: infinite). Median of the twelve clusters 2.81 GB/s of line bytes; leaving one cluster out 2.67-2.95.
 * Not read from: the gIB v1.0.5 runs and the A4X Max JobSet run, whose floors look like LL128 (docs/gcp-gib.md),
 * the GKE DraNet runs (docs/gcp-gib.md §3-4), EFA, Slingshot and socket runs (other transports; the EFA p5 and
 * Slingshot GH200 runs grow faster still, 0.66-1.54 GB/s), files labelled problem.
 *
 * <p><b>What it may be.</b> Not the wire: 2.81 GB/s is a tenth of an HDR port. The proxy's scan of the step's flags
 * in host memory and the NIC's read of the step from there are both in series per hop and both grow with the step;
 * collsim's probe of the first on one H100 host ({@link LlSendFifo}: 0.455 us for 8 KiB of lines)
 * is already charged and explains a sixth of the slope. The clusters do not sort by PCIe generation (Gen3 V100
 * 1.81, Gen4 A100 2.14-2.38, Gen5 H100/H200/B200 2.10-4.24), so one figure is kept. A rooted Ring (Broadcast,
 * Reduce) whose ranks run ahead into the next call ({@link RingLoopFill#rootedRunsAhead}: one ring order, or one
 * channel) is not charged: back to back, a hop's wait is not on the measured period (the 4x8 H100 Voltage Park
 * Broadcast and Reduce, one channel up to 128 KiB, are already predicted slow at 16-64 KiB). Stateless.
 */
public final class LlStepCrossing {

    /**
     * The rate an LL step's line bytes cross one network hop, GB/s (1e9 B/s of 16-byte lines, 8 data bytes each):
     * fitted, the median over twelve clusters' Theil-Sen rates (list above), leaving one cluster out 2.67-2.95.
     */
    public static final double LINE_GBPS = 2.81;

    private LlStepCrossing() {
    }

    /**
     * @param plan     the channel plan (nodes, ranks)
     * @param s        settings (LL buffer size)
     * @param func     collective
     * @param a        algorithm
     * @param p        protocol
     * @param nBytes   bytes NCCL selects on
     * @param channels     channels of the call (may be fractional, >= 1)
     * @param callChannels the call's runtime channels (whether a rooted Ring runs ahead)
     * @return microseconds for the call; 0 unless LL between nodes on a Tree or a Ring that does not run ahead
     */
    public static double extraUs(ChannelPlan plan, NcclSettings s, Collective func, Algorithm a, Protocol p,
            long nBytes, double channels, int callChannels) {
        if (plan.nNodes() < 2 || p != Protocol.LL || (a != Algorithm.RING && a != Algorithm.TREE)
                || RingLoopFill.rootedRunsAhead(a, func, plan, callChannels)) {
            return 0;
        }
        double stepBytes = NetTransport.messageBytes(a, p, func, s, nBytes, channels, plan);
        if (a == Algorithm.TREE) {
            stepBytes = Math.min(stepBytes, thresholdStepBytes(plan, s, a, p));
        }
        double lineBytes = stepBytes / NcclDevice.dataPerLineByte(Protocol.LL);
        return NetHops.of(func, a, plan) * BusBandwidth.timeUs(lineBytes, LINE_GBPS);
    }

    /**
     * The LL step, data bytes, at which NCCL's per-call channel count stops growing with the call: maxThreads x the
     * per-thread threshold (512 x 8 B = 4 KiB for Tree; a Ring's threshold is x nRanks and its step 1 / nRanks of a
     * channel's share, the same 4 KiB; NCCL 2.30.7 {@code src/enqueue.cc topoGetAlgoInfo}, {@code
     * src/include/comm.h} threadThresholds, {@link RuntimeChannels#threadThreshold}).
     *
     * @return data bytes of one step
     */
    static double thresholdStepBytes(ChannelPlan plan, NcclSettings s, Algorithm a, Protocol p) {
        return (double) RuntimeChannels.maxThreads(a, p, plan.graphs(), s)
                * RuntimeChannels.threadThreshold(a, p, plan.nRanks()) / (a == Algorithm.RING ? plan.nRanks() : 1);
    }

    /**
     * NCCL's tree correction ({@link CostTable#smoothCorrection}) for collsim's time, held for a Tree LL call between
     * nodes past the size at which every channel carries the threshold step ({@link #thresholdStepBytes} x the
     * runtime channels, 64 KiB on 16 channels): NCCL's LL row keeps falling there (0.6 at 64 KiB, 0.5 at 128 KiB,
     * 0.4 at 256-512 KiB, back to 1.0 at 32 MiB; NCCL 2.30.7 {@code src/graph/tuning.cc treeCorrectionFactor}),
     * just where the channel's one LL step grows towards its full 32 KiB chunk (16 channels x 32 KiB = 512 KiB) and
     * then pipelines; that is the per-hop step cost this class charges itself, so the further dip is not applied
     * twice. Other calls: the correction unchanged.
     *
     * @return the factor in (0, 1]
     */
    public static double treeCorrection(CostTable table, ChannelPlan plan, NcclSettings s, Collective func,
            Algorithm a, Protocol p, long nBytes) {
        double corr = table.smoothCorrection(func, a, p, nBytes);
        if (plan.nNodes() < 2 || p != Protocol.LL || a != Algorithm.TREE) {
            return corr;
        }
        long allChannels = (long) Math.ceil(plan.runtimeChannels() * thresholdStepBytes(plan, s, a, p));
        return nBytes <= allChannels ? corr : Math.max(corr, table.smoothCorrection(func, a, p, allChannels));
    }
}
