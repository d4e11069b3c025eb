package dev.collsim.simulator.schedule;

import dev.collsim.nccl.Collective;
import java.util.ArrayList;
import java.util.List;

/**
 * A PAT-like schedule (NCCL 2.23+ "Parallel Aggregated Trees" for AllGather/ReduceScatter at one GPU per node):
 * logarithmic steps with distance doubling, modelled as the Bruck dissemination pattern. AllGather step k
 * ({@code k = 0..ceil(log2 n)-1}, distance {@code d = 2^k}): rank i sends {@code min(d, n-d)} chunks of
 * {@code S/n} to rank {@code (i - d) mod n}. ReduceScatter runs the same steps in reverse order; AllReduce is
 * ReduceScatter then AllGather. Each rank sends {@code (n-1)/n S} per AllGather or ReduceScatter, as a ring
 * does, in {@code ceil(log2 n)} instead of n-1 steps. NCCL's real PAT also bounds the buffer per step
 * ({@code src/device/prims_*}); that staging is not modelled. Channels split every transfer evenly.
 */
public final class PatSchedule implements ScheduleAlgorithm {

    @Override
    public String name() {
        return "PAT-like";
    }

    @Override
    public boolean supports(Collective c) {
        return c == Collective.ALL_REDUCE || c == Collective.ALL_GATHER || c == Collective.REDUCE_SCATTER;
    }

    @Override
    public Schedule schedule(ScheduleRequest r) {
        checkSupported(r);
        int n = r.nRanks();
        List<Step> steps = new ArrayList<>();
        if (r.movesData()) {
            double chunk = (double) r.sizeBytes() / n / r.nChannels();
            List<Step> gather = new ArrayList<>();
            for (int d = 1; d < n; d *= 2) {
                gather.add(step("distance " + d, n, d, Math.min(d, n - d) * chunk, r.nChannels()));
            }
            if (r.collective() != Collective.ALL_GATHER) {
                for (int k = gather.size() - 1; k >= 0; k--) {
                    Step g = gather.get(k);
                    steps.add(new Step("ReduceScatter " + g.label(), g.transfers(), 1));
                }
            }
            if (r.collective() != Collective.REDUCE_SCATTER) {
                for (Step g : gather) {
                    steps.add(new Step("AllGather " + g.label(), g.transfers(), 1));
                }
            }
        }
        return scheduleOf(r, steps);
    }

    private static Step step(String label, int n, int d, double bytes, int nCh) {
        List<Transfer> out = new ArrayList<>(n * nCh);
        for (int c = 0; c < nCh; c++) {
            for (int i = 0; i < n; i++) {
                out.add(new Transfer(i, Math.floorMod(i - d, n), bytes, c));
            }
        }
        return new Step(label, out, 1);
    }
}
