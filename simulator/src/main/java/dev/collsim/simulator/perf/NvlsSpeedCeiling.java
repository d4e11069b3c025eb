package dev.collsim.simulator.perf;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.simulator.channel.SearchSpeeds;
import dev.collsim.simulator.tuning.CostTable;
import dev.collsim.simulator.tuning.GraphSummary;
import dev.collsim.simulator.tuning.TuningInput;

/**
 * NCCL's NVLS bandwidth on one NCCL node (one host, or one multi-node NVLink clique) with the search's speed
 * ceiling taken out: collsim's correction on NCCL's own figure, applied to NVLS's time only (NCCL's choice of
 * algorithm is left as NCCL makes it).
 *
 * <p>NCCL 2.30.7 {@code src/graph/tuning.cc} gives NVLS per channel {@code min(intraBw, interBw)} with intraBw =
 * bwIntra x nvlsEfficiency x (nCh - 1) / nCh (x 2 for AllReduce) and interBw the NVLS graph's bwInter. On one node
 * that bwInter bounds no link: the call crosses no network, and the search ({@code src/graph/search.cc}, pass 2)
 * raises an NVLS graph's bwInter while it is below 2 x bwIntra and a faster speed is left in the array, so on one
 * node it ends at 2 x bwIntra, which intraBw never reaches (nvlsEfficiency &lt; 1), or at the array's first, fastest
 * entry. Only that ceiling can make interBw the minimum. It does on 8 Blackwell GPUs: 18 NVLinks x 40.1 GB/s
 * ({@code SM100_NVLINK_BW}) = 721.8 GB/s per GPU, (8 heads + 1) x 80 fits, so bwIntra = 80 and bwInter stops at
 * the sm100 intra array's 90; intraBw = 80 x 0.74 x 7/8 x 2 = 103.6 GB/s per channel, interBw 90, so NCCL gives 8 x
 * 90 = 720 GB/s busbw where its own NVLink terms give 8 x 103.6 = 828.8. Measured on one 8-GPU Blackwell host:
 * 830+ GB/s busbw (8x B200, NCCL 2.27.1, NVIDIA/nccl#1807) and 845 (8x B300, NCCL 2.30.4, NVIDIA/nccl#2140),
 * against collsim's 705.6 with the ceiling (720 x bwEfficiencySimple 0.98) and 812.2 without. On 8 Hopper GPUs
 * the ceiling (60) does not bind: 40 x 0.85 x 7/8 x 2 = 59.5. On a GB200 NVL72 clique of 64 or 72 GPUs bwInter is
 * 2 x bwIntra (40 = 2 x 20) and nothing changes. No constant is fitted: the factor is NCCL's own intraBw over
 * its own ceiling.
 */
final class NvlsSpeedCeiling {

    private NvlsSpeedCeiling() {
    }

    /**
     * @param table NCCL's cost table of the communicator
     * @param func  the collective
     * @param a     the algorithm
     * @return the factor on NCCL's NVLS bandwidth, intraBw / bwInter when the NVLS graph's bwInter is the search's
     *         ceiling on one node and below intraBw; 1 otherwise (not NVLS, several nodes, fewer than 2 channels)
     */
    static double factor(CostTable table, Collective func, Algorithm a) {
        TuningInput in = table.input();
        if (a != Algorithm.NVLS || in.nNodes() != 1) {
            return 1;
        }
        GraphSummary g = in.graphs().graphFor(a);
        int nCh = g.nChannels();
        double ceiling = SearchSpeeds.of(in.minSm(), false, in.constants().version())[0];
        if (nCh < 2 || g.bwInter() < ceiling) {
            return 1;
        }
        double intraBw = g.bwIntra() * in.constants().nvlsEfficiency(in.generation()) * (nCh - 1) / nCh
                * (func == Collective.ALL_REDUCE ? 2.0 : (in.ppn() - 1) / in.ppn());
        return Math.max(1.0, intraBw / g.bwInter());
    }
}
