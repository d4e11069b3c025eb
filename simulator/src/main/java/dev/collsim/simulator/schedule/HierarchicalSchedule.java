package dev.collsim.simulator.schedule;

import dev.collsim.nccl.Collective;
import dev.collsim.simulator.channel.NvlsTuning;
import java.util.ArrayList;
import java.util.List;

/**
 * Hierarchical AllReduce: ReduceScatter inside each host (ring over its L ranks, L-1 sends of {@code S/L} per
 * rank), then AllReduce across hosts of each 1/L shard (L parallel rings, one per local rank, each over the H hosts:
 * 2(H-1) sends of {@code S/(L H)}), then AllGather inside each host (L-1 sends). Each rank sends
 * {@code 2(L-1)/L S + 2(H-1)/(L H) S} bytes. The inter-host rings join ranks of the same local index, so on a
 * rail-optimized fabric they stay on one rail. This is the data movement of NCCL's NVLS, NVLSTree and CollNet
 * AllReduce (a reduction inside each node, one exchange per NIC between nodes, the result spread inside the node);
 * it is not one NCCL algorithm. Channels split every transfer evenly.
 *
 * <p>Pipelined as NCCL pipelines them ({@link #ncclNvlsTreePipeline}): with H and L above 1 the buffer is cut into
 * k chunks and chunk j's inter-host phase runs while chunk j+1 is reduced inside the host and chunk j-1 gathered,
 * so the time tends to the slowest phase plus the fill of one chunk, not the sum of the phases.
 */
public final class HierarchicalSchedule implements ScheduleAlgorithm {

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
                steps.add(new Step("inter-host AllReduce", inter(h, l, nCh, s / l / h / nCh), 2L * (h - 1)));
            }
            if (l > 1) {
                steps.add(new Step("intra-host AllGather", intra(h, l, nCh, s / l / nCh), l - 1));
            }
        }
        return scheduleOf(r, steps);
    }

    /**
     * Number of pipeline chunks of a call: NCCL 2.28.9 {@code src/device/all_reduce.h}
     * {@code RunWorkColl<ncclFuncAllReduce, T, RedOp, NCCL_ALGO_NVLS_TREE, ...>} walks each channel's part of the
     * buffer in loops of {@code nvls->nHeads x chunkCount} elements (the NVLS variant likewise, {@code loopSize =
     * nChannels x nHeads x chunkSize}), every loop going up the NVLS reduce, across the network and back down while
     * the next loop is in the earlier stage. The chunk is NCCL_NVLS_CHUNKSIZE's default, {@link
     * NvlsTuning#DEFAULT_CHUNK}, at every size. NCCL's chunk of the call ({@code perf.NvlsLoop#chunk}, the one home of
     * that rule: NVLSTree caps it at 64 KiB on 4 or more nodes and both algorithms shrink it for small calls, to
     * 16-32 KiB) is not passed to the schedule: where it is smaller the pipeline here has fewer, larger chunks than
     * NCCL's (half its loops at large sizes on 4 or more nodes, fewer still for small calls) and so a longer fill.
     *
     * @param sizeBytes buffer, bytes
     * @param nChannels channels, >= 1
     * @param l         ranks per host (NVLS heads), >= 1
     * @return ceil(sizeBytes / (nChannels x l x chunk)), at least 1
     */
    static long pipelineChunks(long sizeBytes, int nChannels, int l) {
        long loop = (long) nChannels * l * NvlsTuning.DEFAULT_CHUNK;
        return Math.max(1, (sizeBytes + loop - 1) / loop);
    }

    /**
     * The three phases software-pipelined over {@link #pipelineChunks} chunks, as NCCL's NVLS, NVLSTree and CollNet
     * AllReduce run them (NCCL 2.28.9 {@code src/device/all_reduce.h}: the NVLS and NVLSTree kernels split each
     * channel's threads into scatter, gather, reduce and broadcast groups, {@code tidEndScatter} to
     * {@code tidEndBcast}, each working on its own loop of the buffer; {@code runTreeSplit} does the same
     * for Tree). Pipeline step t carries chunk t's intra-host ReduceScatter, chunk t-1's inter-host AllReduce and
     * chunk t-2's intra-host AllGather (those that exist), so k chunks take k + 2 steps; a step ends when its slowest
     * part ends.
     * Each phase of a chunk is one transfer per ring edge with all the phase's bytes (its L-1 or 2(H-1) ring sends
     * cross the same edge; the per-send latency inside a phase is not charged). The ReduceScatter and AllGather of
     * two chunks in one step use the same intra-host edge and are one transfer with both byte counts. Steps with the
     * same phases active are one {@link Step} with a repeat count: at most 5 distinct steps.
     */
    private static List<Step> ncclNvlsTreePipeline(ScheduleRequest r) {
        int l = r.ranksPerHost();
        int h = r.hosts();
        int nCh = r.nChannels();
        long k = pipelineChunks(r.sizeBytes(), nCh, l);
        double intraChunk = (l - 1) * (r.sizeBytes() / (double) l / nCh / k);
        double interChunk = 2.0 * (h - 1) * (r.sizeBytes() / (double) l / h / nCh / k);
        List<Step> steps = new ArrayList<>();
        long t = 0;
        while (t < k + 2) {
            int phases = activePhases(t, k);
            long run = 1;
            while (t + run < k + 2 && activePhases(t + run, k) == phases) {
                run++;
            }
            List<Transfer> ts = new ArrayList<>();
            int intraCount = (phases & 1) + (phases >> 2 & 1);
            if (intraCount > 0) {
                ts.addAll(intra(h, l, nCh, intraCount * intraChunk));
            }
            if ((phases & 2) != 0) {
                ts.addAll(inter(h, l, nCh, interChunk));
            }
            steps.add(new Step("pipeline " + label(phases), ts, run));
            t += run;
        }
        return steps;
    }

    /** @return bit 0: a chunk in ReduceScatter (t < k), bit 1: in AllReduce (1 <= t <= k), bit 2: in AllGather */
    private static int activePhases(long t, long k) {
        int rs = t < k ? 1 : 0;
        int ar = t >= 1 && t <= k ? 2 : 0;
        int ag = t >= 2 ? 4 : 0;
        return rs | ar | ag;
    }

    private static String label(int phases) {
        List<String> names = new ArrayList<>(3);
        if ((phases & 1) != 0) {
            names.add("intra-host ReduceScatter");
        }
        if ((phases & 2) != 0) {
            names.add("inter-host AllReduce");
        }
        if ((phases & 4) != 0) {
            names.add("intra-host AllGather");
        }
        return String.join(" + ", names);
    }

    private static List<Transfer> intra(int h, int l, int nCh, double bytes) {
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

    private static List<Transfer> inter(int h, int l, int nCh, double bytes) {
        List<Transfer> out = new ArrayList<>(h * l * nCh);
        for (int c = 0; c < nCh; c++) {
            for (int g = 0; g < h; g++) {
                for (int j = 0; j < l; j++) {
                    out.add(new Transfer(g * l + j, ((g + 1) % h) * l + j, bytes, c));
                }
            }
        }
        return out;
    }
}
