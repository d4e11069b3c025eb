package dev.collsim.simulator.schedule;

import dev.collsim.nccl.Collective;
import java.util.ArrayList;
import java.util.List;

/**
 * Hierarchical AllReduce: ReduceScatter inside each host (ring over its L ranks, L-1 steps of {@code S/L}
 * chunks), then AllReduce across hosts of each 1/L shard (L parallel rings, one per local rank, each over the H
 * hosts: 2(H-1) steps of {@code S/(L H)}), then AllGather inside each host (L-1 steps). Each rank sends
 * {@code 2(L-1)/L S + 2(H-1)/(L H) S} bytes. The inter-host rings join ranks of the same local index, so on a
 * rail-optimized fabric they stay on one rail. This is the composition NCCL's CollNet/NVLS-tree and many
 * frameworks use; it is not one NCCL algorithm. Channels split every transfer evenly.
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
