package dev.collsim.simulator.tuning;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;

/**
 * The cost table collsim's <em>time</em> reads (its performance model), as opposed to the table NCCL's choice reads
 * ({@link NcclTuningModel#tune}): NCCL's own, except the NVLS and NVLSTree entries, which are recomputed
 * (latency and bandwidth, where NCCL has the entry) with the carried release's formula ({@link NcclVersion#tables}:
 * 2.28.9 for every release before 2.28, else the release's own) on the NVLS graph NCCL 2.30.7's search finds on the
 * same nodes ({@code channel.ChannelPlan#nvlsTimeGraph}).
 *
 * <p>Why each part:
 * <ul>
 *   <li>The formula. collsim's NVLS terms ({@code nvlsBwScale}, {@code perChannelCapNvls}, {@code nvlsLoopUs}) were
 *       fitted against 2.28.9's figures, and an older release's coarser estimate (5/6 of the graph's bandwidth,
 *       v2.19.4-1 to v2.27.3-1 {@code src/graph/tuning.cc}; 2.18's NVLSTree latency without the network's) says
 *       what its NCCL chose, not how fast the switch moves data.</li>
 *   <li>The graph. The NVLS graph's bwIntra is the first entry of NCCL's speed array whose (heads + 1) x speed fits
 *       each GPU's NVSwitch links ({@code src/graph/search.cc}); between nodes the array is the "inter" one, whose
 *       sm100 entries are {48, 45, ...} in 2.26.2 (line 924), {47.9, 45, ...} in 2.27.3 (line 913), {96, 48, 45.1,
 *       ...} in 2.28.9 (line 987) and {96, 86, 80, 48, ...} in 2.30.3 and 2.30.7 (line 996; 80 first in 2.29.7, line
 *       988). Eight Blackwell GPUs carry 18 x 40.1 GB/s ({@code SM100_NVLINK_BW}) = 721.8 GB/s each to the switch:
 *       9 x 80 = 720 fits, 9 x 86 does not, so 2.30.7 finds bwIntra 80 where the older arrays, which have nothing
 *       between 96 and 48, stop at 48 (47.9). The links are the same; only the array's grid differs, so the finer
 *       grid of the newest release carried is the better figure for the time (the argument of
 *       {@code perf.NvlsSpeedCeiling} for one node). On sm90 the arrays are the same in every release carried,
 *       and so is the graph. Measured: 2 x 8 B200 on 8 x 400 Gb/s InfiniBand, NCCL 2.26.2
 *       (A-allreduce-2x8xB200-lambda-1cc-ib-dstack-nccl2.26.txt lines 40-42), moves 397 GB/s algbw per added byte
 *       from 128 to 256 MiB, where NCCL 2.26.2 runs NVLSTree by its own table; 2.28.9's formula on the 48 GB/s
 *       graph gives 8 x min(48 x 0.74 x 7/8 x 2, 2 x 48, 96) x 16/30 = 265 GB/s, on the 80 GB/s graph
 *       8 x min(103.6, 96, 96) x 16/30 = 409.6 GB/s, the NICs' 8 x 50 GB/s.</li>
 * </ul>
 * For a release before 2.12 on Ampere or newer, the Tree and Ring LL and LL128 latencies are recomputed with the
 * release's formula on NCCL 2.18.5's latency tables ({@link RemeasuredLatency}: the release's were measured on
 * Volta). The Ring/Simple bandwidth of such a release on sm80 drops NCCL's 235 GB/s cap
 * ({@link #withoutSm80Cap}). Every other entry is the release's own, as the time has always read it. Stateless and
 * thread-safe.
 */
public final class TimeTable {

    private TimeTable() {
    }

    /**
     * The base latency collsim's time reads ({@code baseLat}): the release's own, but 2.18.5's for Tree and Ring LL and
     * LL128 of a release before 2.12 on sm80 or newer, and for Tree/Simple (base 0 in both) of a release whose figure
     * is NCCL's 28 us chunk trip ({@link RemeasuredLatency}).
     *
     * @param in a communicator
     * @param a  algorithm
     * @param p  protocol
     * @return microseconds
     */
    public static double baseLatency(TuningInput in, Algorithm a, Protocol p) {
        return RemeasuredLatency.forTime(in).baseLatency(a, p);
    }

    /**
     * @param table NCCL's table of a communicator
     * @return {@link #of(CostTable, GraphSummary)} on the communicator's own NVLS graph
     */
    public static CostTable of(CostTable table) {
        return of(table, table.input().graphs().nvls());
    }

    /**
     * @param table     NCCL's table of a communicator
     * @param nvlsGraph the NVLS graph the time reads ({@code channel.ChannelPlan#nvlsTimeGraph})
     * @return {@code table} itself for 2.28.9 and 2.30.7 on their own NVLS graph, else a table with the NVLS and
     *         NVLSTree entries and the re-measured latencies replaced (class comment), whose input holds that NVLS
     *         graph (what {@code perf.NvlsSpeedCeiling} reads)
     */
    public static CostTable of(CostTable table, GraphSummary nvlsGraph) {
        TuningInput in = table.input();
        GraphSet graphs = in.graphs();
        if (in.constants().version().carriedWhole() && nvlsGraph.equals(graphs.nvls())) {
            return table;
        }
        TuningInput timed = new TuningInput(graphs.withNvls(nvlsGraph), in.nRanks(), in.nNodes(), in.minSm(),
                in.maxSm(), in.cpu(), in.nvlsSupport(), in.collNetSupport(), in.hasNvSwitch(), in.maxLocalRanks(),
                in.maxTreePattern(), in.runtimeChannels(), in.settings(), in.constants());
        TuningInput m = timed.withConstants(TuningConstants.of(in.constants().version().tables()));
        LatencyTable kernels = RemeasuredLatency.forTime(timed);
        int nf = NcclTuningModel.FUNCTIONS.size();
        double[][][] lat = new double[nf][Algorithm.values().length][Protocol.values().length];
        double[][][] bw = new double[nf][Algorithm.values().length][Protocol.values().length];
        for (int f = 0; f < nf; f++) {
            Collective func = NcclTuningModel.FUNCTIONS.get(f);
            for (Algorithm a : Algorithm.values()) {
                for (Protocol p : Protocol.values()) {
                    double b = table.bandwidth(func, a, p);
                    boolean nvls = a == Algorithm.NVLS || a == Algorithm.NVLS_TREE;
                    GraphSummary g = m.graphs().graphFor(a);
                    double newer = b > 0 && nvls && g.present() ? NcclTuningModel.algBandwidth(m, func, a, p, g) : 0;
                    bw[f][a.ordinal()][p.ordinal()] = newer > 0 ? newer
                            : a == Algorithm.RING && p == Protocol.SIMPLE ? withoutSm80Cap(timed, g, b) : b;
                    lat[f][a.ordinal()][p.ordinal()] = newer > 0 ? NcclTuningModel.latency(m, func, a, p, g)
                            : b > 0 && RemeasuredLatency.replaces(timed, a, p)
                            ? NcclTuningModel.latency(timed, kernels, func, a, p, g) : table.latency(func, a, p);
                }
            }
        }
        return new CostTable(timed, lat, bw);
    }

    /**
     * The time's Ring/Simple bandwidth without NCCL 2.8-2.11's sm80 cap. NCCL's estimate caps every algorithm's busBw
     * at 235 GB/s when all GPUs are sm80 ({@code if (compCap80) busBw = std::min(busBw, 235.0f)}, v2.8.4-1
     * {@code src/graph/tuning.cc} line 124, still in v2.12.12-1 line 126, gone in v2.18.5-1): its figure for what an
     * A100 ring moves, not a link rate. collsim's time already takes its own share of the links (12 x 20 GB/s x
     * {@code bwEfficiencySimple} 0.98 on one A100 NVSwitch host), so the cap would count the loss twice: 0.98 x 235
     * against 0.98 x 240. Measured: 8 A100-SXM4-40GB, NCCL 2.9.9 (libnccl2 of horovod/horovod's CUDA 11.3 image),
     * one process ({@code -g 8}), 234.17 and 235.14 GB/s busbw at 4 and 8 GiB
     * (A-allreduce-1x8-2x8xA100-40GB-oci-bmgpu48-horovod-container-sweep.txt lines 53-54), where the capped time
     * gave 226.5 and 227.4 and the uncapped 231.2 and 232.1; a recent release on the same GPUs moves 232.4-232.8 at
     * 4 GiB (A-allreduce-1x8xA100-80GB-sxm-thanos-g8-vs-mpirun-sweep.txt). Ring/Simple has no other refinement in
     * that formula ({@code busBw x nRanks / nSteps}), so the entry scales by the graph's busBw over the cap.
     * NCCL's choice keeps the cap ({@link NcclTuningModel}).
     *
     * @param in the communicator the time reads
     * @param g  its ring graph
     * @param b  NCCL's Ring/Simple algorithm bandwidth, GB/s
     * @return {@code b}, or {@code b} x graph busBw / 235 where the cap bound it
     */
    static double withoutSm80Cap(TuningInput in, GraphSummary g, double b) {
        double cap = in.constants().busBwCap(in.minSm(), in.maxSm());
        double bus = g.nChannels() * (in.nNodes() <= 2 ? g.bwIntra() : g.bwInter());
        return b > 0 && bus > cap ? b * bus / cap : b;
    }
}
