package dev.collsim.simulator.schedule;

import dev.collsim.nccl.Collective;
import dev.collsim.simulator.channel.NvlsTuning;
import java.util.ArrayList;
import java.util.List;

/**
 * Hierarchical AllReduce: ReduceScatter inside each host (ring over its L ranks, L-1 sends of {@code S/L} per
 * rank), then AllReduce across hosts of each 1/L shard, then AllGather inside each host (L-1 sends). Between hosts
 * either L parallel rings, one per local rank, each over the H hosts (2(H-1) sends of {@code S/(L H)}; the data
 * movement of NCCL's CollNet and of NVLS with a network switch, and of {@code --schedule hierarchical}), or, for
 * NCCL's NVLSTree ({@link InterHost}), NCCL's double binary tree over hosts per local rank (reduce up the tree,
 * broadcast down). Either way local rank j of one host exchanges only with local rank j of others, so on a
 * rail-optimized fabric the network part stays on one rail. This is the data movement of NCCL's NVLS, NVLSTree and
 * CollNet AllReduce (a reduction inside each node, one exchange per NIC between nodes, the result spread inside the
 * node). Channels split every transfer evenly. Only the heads ({@link ScheduleRequest#headRanks}, N of them) cross
 * hosts, each with {@code S/N}: NCCL's NVLS heads are one GPU per NIC (NCCL 2.30.7 {@code src/graph/search.cc
 * ncclTopoSearchRecNet}: one NVLS channel per NIC, headed by the NIC's {@code localGpu}; {@code src/transport/nvls.cc}
 * {@code nHeads} = those channels), and its loop covers {@code nHeads x chunk} per channel.
 *
 * <p>Pipelined as NCCL pipelines them ({@link #ncclNvlsTreePipeline}): with H and L above 1 the buffer is cut into
 * k chunks and chunk j's inter-host stages run while chunk j+1 is reduced inside the host and earlier chunks are
 * gathered, so the time tends to the slowest stage plus the fill, not the sum of the phases. Its transfers move at
 * the links' rates: the analytical model's {@code nvlsBwScale} (a fitted correction of NCCL's NVLS bandwidth, one
 * home in {@code perf.PerformanceParameters}) is not applied, and with one host (no pipeline) no loop cost is charged
 * (docs/flow-backend.md, "NVLS: the loop cost and nvlsBwScale"). Immutable.
 */
public final class HierarchicalSchedule implements ScheduleAlgorithm {

    /** Bytes of one channel's loop iteration: heads x chunk (0 for L x NCCL_NVLS_CHUNKSIZE's default). */
    private final long loopBytesPerChannel;
    /** True: NCCL's double binary tree between hosts (NVLSTree); false: a ring per local rank. */
    private final boolean tree;
    /** Fixed cost of every pipeline step, microseconds ({@link Step#latencyUs}). */
    private final double loopUs;

    /**
     * Rings between hosts, chunks of NCCL_NVLS_CHUNKSIZE's default ({@link NvlsTuning#DEFAULT_CHUNK}) per local
     * rank and channel, no per-step cost: {@code --schedule hierarchical}, and CollNet.
     */
    public HierarchicalSchedule() {
        this(0, false, 0);
    }

    /**
     * @param loopBytesPerChannel bytes one channel's loop iteration covers, NCCL's heads x chunk ({@code
     *                            perf.NvlsLoop.Call}); 0: L x {@link NvlsTuning#DEFAULT_CHUNK}
     * @param tree                true for NCCL's double binary tree between hosts (NVLSTree), false for rings
     * @param loopUs              fixed cost of each pipeline step, microseconds (NCCL's per-iteration cost,
     *                            {@code PerformanceParameters#nvlsLoopUs}), >= 0
     * @throws IllegalArgumentException on a negative size or cost
     */
    public HierarchicalSchedule(long loopBytesPerChannel, boolean tree, double loopUs) {
        if (loopBytesPerChannel < 0 || !(loopUs >= 0) || Double.isInfinite(loopUs)) {
            throw new IllegalArgumentException("loop bytes " + loopBytesPerChannel + " and loopUs " + loopUs
                    + " must be >= 0 and finite");
        }
        this.loopBytesPerChannel = loopBytesPerChannel;
        this.tree = tree;
        this.loopUs = loopUs;
    }

    /** Two hierarchical schedules are equal when they cut, cross hosts and charge steps alike. */
    @Override
    public boolean equals(Object o) {
        return o instanceof HierarchicalSchedule h && h.loopBytesPerChannel == loopBytesPerChannel && h.tree == tree
                && Double.compare(h.loopUs, loopUs) == 0;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(loopBytesPerChannel) * 31 + Boolean.hashCode(tree) * 17 + Double.hashCode(loopUs);
    }

    @Override
    public String name() {
        return "Hierarchical";
    }

    @Override
    public boolean supports(Collective c) {
        return c == Collective.ALL_REDUCE;
    }

    @Override
    public Schedule schedule(ScheduleRequest r) {
        checkSupported(r);
        int l = r.ranksPerHost();
        int h = r.hosts();
        int nCh = r.nChannels();
        List<Step> steps = new ArrayList<>();
        if (r.movesData()) {
            double s = r.sizeBytes();
            if (l > 1 && h > 1) {
                return scheduleOf(r, ncclNvlsTreePipeline(r));
            }
            if (l > 1) {
                steps.add(new Step("intra-host ReduceScatter", intra(h, l, nCh, s / l / nCh), l - 1));
            }
            if (h > 1) {
                steps.add(new Step("inter-host AllReduce", inter(h, l, r.headRanks(), nCh,
                        s / r.headRanks().length / h / nCh), 2L * (h - 1)));
            }
            if (l > 1) {
                steps.add(new Step("intra-host AllGather", intra(h, l, nCh, s / l / nCh), l - 1));
            }
        }
        return scheduleOf(r, steps);
    }

    /**
     * Number of pipeline chunks of a call with NCCL_NVLS_CHUNKSIZE's default chunk per local rank and channel.
     *
     * @param sizeBytes buffer, bytes
     * @param nChannels channels, >= 1
     * @param l         ranks per host (NVLS heads), >= 1
     * @return {@code pipelineChunks(sizeBytes, nChannels, l x DEFAULT_CHUNK)}
     */
    static long pipelineChunks(long sizeBytes, int nChannels, int l) {
        return pipelineChunks(sizeBytes, nChannels, (long) l * NvlsTuning.DEFAULT_CHUNK);
    }

    /**
     * Number of pipeline chunks of a call: NCCL 2.28.9 {@code src/device/all_reduce.h}
     * {@code RunWorkColl<ncclFuncAllReduce, T, RedOp, NCCL_ALGO_NVLS_TREE, ...>} walks each channel's part of the
     * buffer in loops of {@code nvls->nHeads x chunkCount} elements (the NVLS variant likewise, {@code loopSize =
     * nChannels x nHeads x chunkSize}), every loop going up the NVLS reduce, across the network and back down while
     * the next loop is in the earlier stage. The chunk is NCCL's of the call where the predictor gives it ({@code
     * perf.NvlsLoop#chunk}: NVLSTree 64 KiB on 4 or more nodes, smaller for small calls), else
     * NCCL_NVLS_CHUNKSIZE's default.
     *
     * @param sizeBytes           buffer, bytes
     * @param nChannels           channels, >= 1
     * @param loopBytesPerChannel bytes one channel's iteration covers (heads x chunk), >= 1
     * @return ceil(sizeBytes / (nChannels x loopBytesPerChannel)), at least 1
     */
    static long pipelineChunks(long sizeBytes, int nChannels, long loopBytesPerChannel) {
        long loop = nChannels * loopBytesPerChannel;
        return Math.max(1, (sizeBytes + loop - 1) / loop);
    }

    /**
     * The phases software-pipelined over {@link #pipelineChunks} chunks, as NCCL's NVLS, NVLSTree and CollNet
     * AllReduce run them (NCCL 2.28.9 {@code src/device/all_reduce.h}: the NVLS and NVLSTree kernels split each
     * channel's threads into scatter, gather, reduce and broadcast groups, {@code tidEndScatter} to
     * {@code tidEndBcast}, each working on its own loop of the buffer). A chunk passes stage 0 (intra-host
     * ReduceScatter), the network stages ({@link InterHost}: one for rings, 2 x the tree depth for NVLSTree) and
     * the last stage (intra-host AllGather); pipeline step t carries chunk t - s in stage s, so k chunks take
     * k + stages - 1 steps; a step ends when its slowest part ends, after the per-iteration cost ({@code loopUs}).
     * Each stage of a chunk is one transfer per edge with all the stage's bytes (the L-1 ring sends of a
     * ReduceScatter cross the same edge; the per-send latency inside a stage is not charged). The ReduceScatter and
     * AllGather of two chunks in one step use the same intra-host edge and are one transfer with both byte counts.
     * Steps with the same stages active are one {@link Step} with a repeat count.
     */
    private List<Step> ncclNvlsTreePipeline(ScheduleRequest r) {
        int l = r.ranksPerHost();
        int h = r.hosts();
        int nCh = r.nChannels();
        int[] heads = r.headRanks();
        long k = pipelineChunks(r.sizeBytes(), nCh, loopBytesPerChannel > 0 ? loopBytesPerChannel
                : (long) heads.length * NvlsTuning.DEFAULT_CHUNK);
        double perHead = r.sizeBytes() / (double) heads.length / nCh / k;
        InterHost net = tree ? InterHost.tree(h, l, heads, nCh, perHead)
                : InterHost.rings(h, l, heads, nCh, 2.0 * (h - 1) * perHead / h);
        double intraChunk = (l - 1) * (r.sizeBytes() / (double) l / nCh / k);
        int last = net.stages() + 1;
        List<Step> steps = new ArrayList<>();
        long total = k + last;
        long t = 0;
        while (t < total) {
            long next = nextChange(t, k, last);
            List<Transfer> ts = new ArrayList<>();
            int intraCount = (active(t, 0, k) ? 1 : 0) + (active(t, last, k) ? 1 : 0);
            if (intraCount > 0) {
                ts.addAll(intra(h, l, nCh, intraCount * intraChunk));
            }
            List<String> names = new ArrayList<>(3);
            if (active(t, 0, k)) {
                names.add("intra-host ReduceScatter");
            }
            for (int st = 1; st < last; st++) {
                if (active(t, st, k)) {
                    ts.addAll(net.transfers(st));
                }
            }
            names.addAll(net.labels(t, k));
            if (active(t, last, k)) {
                names.add("intra-host AllGather");
            }
            steps.add(new Step("pipeline " + String.join(" + ", names), ts, next - t, loopUs));
            t = next;
        }
        return steps;
    }

    /** @return true when step t carries a chunk in stage st (chunk t - st exists) */
    static boolean active(long t, int st, long k) {
        return t - st >= 0 && t - st < k;
    }

    /** @return the first step after t whose active stages differ from step t's: a stage starts or ends there */
    private static long nextChange(long t, long k, int last) {
        long next = k + last;
        for (int st = 0; st <= last; st++) {
            if (st > t) {
                next = Math.min(next, st);
            }
            if (st + k > t) {
                next = Math.min(next, st + k);
            }
        }
        return next;
    }

    static List<Transfer> intra(int h, int l, int nCh, double bytes) {
        List<Transfer> out = new ArrayList<>(h * l * nCh);
        for (int c = 0; c < nCh; c++) {
            for (int g = 0; g < h; g++) {
                for (int j = 0; j < l; j++) {
                    out.add(new Transfer(g * l + j, g * l + (j + 1) % l, bytes, c));
                }
            }
        }
        return out;
    }

    /** One ring step between hosts: local rank j (each of heads) of host g to local rank j of host g + 1. */
    static List<Transfer> inter(int h, int l, int[] heads, int nCh, double bytes) {
        List<Transfer> out = new ArrayList<>(h * heads.length * nCh);
        for (int c = 0; c < nCh; c++) {
            for (int g = 0; g < h; g++) {
                for (int j : heads) {
                    out.add(new Transfer(g * l + j, ((g + 1) % h) * l + j, bytes, c));
                }
            }
        }
        return out;
    }
}
