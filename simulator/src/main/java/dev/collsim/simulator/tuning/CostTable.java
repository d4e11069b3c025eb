package dev.collsim.simulator.tuning;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.BusBandwidth;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.RedOp;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * NCCL's cost table for one communicator, and the per-call time and selection that read it (NCCL 2.30.7
 * {@code src/graph/tuning.cc ncclTopoGetAlgoTime}, {@code src/enqueue.cc topoGetAlgoInfo}; fact sheet §2.6,
 * §2.7):
 *
 * <pre>
 *   time_us = lat x latCount + nBytes / (1000 x algBw)
 * </pre>
 *
 * with the tree correction factor on Tree AllReduce bandwidth (and, from 2.30, NVLSTree on sm100+ x86), the
 * Ring/Simple "plateau" latency factor (x1.4, x1.9 below sm80) for multi-host AllReduce once
 * nBytes / (comm.nChannels x nRanks) >= 64, and latCount = numPipeOps for Ring, ceil(numPipeOps / 8) otherwise.
 * Selection is the strictly smallest non-negative time scanning algorithms Tree, Ring, CollNetDirect,
 * CollNetChain, NVLS, NVLSTree, PAT and protocols LL, LL128, Simple, so the first wins a tie.
 *
 * <p>This class is immutable and thread-safe.
 */
public final class CostTable {

    private final TuningInput in;
    private final double[][][] lat;
    private final double[][][] bw;

    CostTable(TuningInput in, double[][][] lat, double[][][] bw) {
        this.in = in;
        this.lat = lat;
        this.bw = bw;
    }

    /** @return the input the table was computed from */
    public TuningInput input() {
        return in;
    }

    private static int f(Collective func) {
        int i = NcclTuningModel.FUNCTIONS.indexOf(func);
        if (i < 0) {
            throw new IllegalArgumentException(func.ncclName() + " has no NCCL cost model (point to point)");
        }
        return i;
    }

    /**
     * @return NCCL's latency entry, microseconds (0 when not eligible)
     * @throws IllegalArgumentException for a collective outside NCCL's tuning (AllToAll, SendRecv, ...)
     */
    public double latency(Collective func, Algorithm a, Protocol p) {
        return lat[f(func)][a.ordinal()][p.ordinal()];
    }

    /**
     * @return NCCL's algorithm bandwidth entry, GB/s (0 when not eligible or not enabled)
     * @throws IllegalArgumentException for a collective outside NCCL's tuning
     */
    public double bandwidth(Collective func, Algorithm a, Protocol p) {
        return bw[f(func)][a.ordinal()][p.ordinal()];
    }

    /**
     * NCCL's modelled time of one call of a single collective (numPipeOps = 1).
     *
     * @param func   the function
     * @param a      algorithm
     * @param p      protocol
     * @param nBytes bytes NCCL selects on: element size x count, count x nRanks for AllGather/ReduceScatter
     * @param type   element type (fp8 penalises Ring above 8 ranks; NVLS needs a reducible type)
     * @param op     reduction operator (NVLS, CollNet and PAT ReduceScatter need a supported one)
     * @return the choice with its time, or empty when the combination is not eligible (NCCL's time -1)
     * @throws IllegalArgumentException for a collective outside NCCL's tuning
     */
    public Optional<AlgoChoice> time(Collective func, Algorithm a, Protocol p, long nBytes, DataType type,
            RedOp op) {
        if (in.nRanks() == 1) {
            f(func);
            return a == Algorithm.RING && p == Protocol.SIMPLE ? Optional.of(new AlgoChoice(a, p, 0, 0, 0))
                    : Optional.empty();
        }
        double b = bandwidth(func, a, p);
        if (b <= 0 || !callSupported(func, a, type, op)) {
            return Optional.empty();
        }
        double l = latency(func, a, p);
        int logSize = nBytes < 64 ? -1 : 63 - Long.numberOfLeadingZeros(nBytes / 64);
        TuningConstants c = in.constants();
        if (a == Algorithm.TREE && func == Collective.ALL_REDUCE && logSize >= 0 && logSize < 23) {
            b *= c.treeCorrection(p, logSize);
        }
        if (a == Algorithm.NVLS_TREE && func == Collective.ALL_REDUCE && c.nvlsTreeCorrection() && logSize >= 0
                && logSize < c.treeCorrectionColumns() && in.minSm() >= 100 && in.cpu().isX86()) {
            b *= c.treeCorrection(p, logSize);
        }
        if (a == Algorithm.RING && p == Protocol.SIMPLE && func == Collective.ALL_REDUCE && in.nNodes() > 1) {
            l *= ringPlateau(c.rules().early(), nBytes);
        }
        int numPipeOps = 1;
        int latCount = a == Algorithm.RING ? numPipeOps
                : (numPipeOps + TuningConstants.MAX_DEV_WORK_BATCH_COLLS - 1) / TuningConstants.MAX_DEV_WORK_BATCH_COLLS;
        double t = l * latCount + BusBandwidth.timeUs(nBytes, b);
        if (a == Algorithm.RING && in.nRanks() > 8 && (type == DataType.F8E4M3 || type == DataType.F8E5M2)) {
            t *= 1024;
        }
        return Optional.of(new AlgoChoice(a, p, t, l, b));
    }

    /**
     * The Ring/Simple AllReduce plateau on several hosts ({@code ncclTopoGetAlgoTime}): from 2.18 x1.9 below sm80 and
     * x1.4 from sm80 once {@code nBytes / (nChannels x nRanks) >= 64} (v2.18.5-1, NCCL 2.30.7); in 2.8-2.11 x1.9 on
     * every GPU once {@code nBytes >= nRanks / 16.0 x 65536} (v2.8.4-1 line 281, v2.11.4-1 line 283).
     *
     * @param early  the release is 2.8-2.11 ({@link ReleaseRules#early})
     * @param nBytes the call's bytes
     * @return the latency factor, 1 below the plateau
     */
    private double ringPlateau(boolean early, long nBytes) {
        if (early) {
            return nBytes >= in.nRanks() / 16.0 * 65536 ? EarlyTuningTables.RING_PLATEAU_FACTOR : 1.0;
        }
        if (nBytes / ((long) in.runtimeChannels() * in.nRanks()) < 64) {
            return 1.0;
        }
        return in.minSm() < 80 ? TuningConstants.RING_PLATEAU_FACTOR[0] : TuningConstants.RING_PLATEAU_FACTOR[1];
    }

    /**
     * The tree correction as a continuous function of size, for collsim's prediction: NCCL's step factors
     * ({@link TuningConstants#treeCorrection}) interpolated linearly in log2(nBytes / 64) between table points,
     * and towards 1.0 (NCCL's "no correction") after the last column, so predicted time stays monotone in size.
     * NCCL's own estimate keeps the steps (which make Tree's modelled time drop at some power-of-two boundaries).
     * Tree AllReduce only: NCCL 2.30.7 ({@code src/graph/tuning.cc ncclTopoGetAlgoTime}) also applies the factors to
     * NVLSTree AllReduce on sm100+ x86 hosts, which NCCL's choice keeps ({@link #choice}), but collsim's NVLSTree
     * time carries its mid-size shortfall itself, the pipeline fill of {@code perf.NvlsTreePipeline} (checked without
     * any correction on 4 x 8 H100, where NCCL applies none); both would count it twice, and the Simple row's steps
     * (0.8 at 8 MiB, 0.7 at 16-32 MiB, 0.8 at 64 MiB) would make a Blackwell NVLSTree busbw fall from 8 to 16 MiB
     * and rise from 32 to 64 MiB, which nothing physical does.
     *
     * @return the factor in (0, 1] (1 when NCCL applies no correction, and for NVLSTree)
     */
    public double smoothCorrection(Collective func, Algorithm a, Protocol p, long nBytes) {
        TuningConstants c = in.constants();
        int limit = 23;
        if (a != Algorithm.TREE || func != Collective.ALL_REDUCE || nBytes < 64) {
            return 1.0;
        }
        double x = Math.log(nBytes / 64.0) / Math.log(2);
        int i = (int) Math.floor(x);
        if (i >= limit) {
            return 1.0;
        }
        double next = i + 1 < limit ? c.treeCorrection(p, i + 1) : 1.0;
        double frac = x - i;
        return c.treeCorrection(p, i) * (1 - frac) + next * frac;
    }

    private static boolean callSupported(Collective func, Algorithm a, DataType type, RedOp op) {
        boolean reduces = func == Collective.ALL_REDUCE || func == Collective.REDUCE_SCATTER;
        return switch (a) {
            case NVLS, NVLS_TREE -> !reduces || ncclNvlsSupported(op, type);
            case COLLNET_DIRECT, COLLNET_CHAIN -> !reduces || op != RedOp.AVG && type.size() >= 2;
            case PAT -> func != Collective.REDUCE_SCATTER || op != RedOp.AVG;
            default -> true;
        };
    }

    /**
     * {@code ncclNvlsSupported} (NCCL 2.28.9 {@code src/include/device.h} line 544, the same set in 2.30.7 and at
     * 2.19.4 line 392; 2.18.5's {@code NCCL_NVLS_SUPPORTS}, {@code src/include/collectives.h} line 128): 32- and 64-bit
     * integers, half and bfloat16 with sum, min or max; float and double with sum only; no 8-bit type. AVG and PROD
     * (NCCL's PreMulSum, SumPostDiv and Prod) never.
     */
    static boolean ncclNvlsSupported(RedOp op, DataType type) {
        return switch (type) {
            case INT32, UINT32, INT64, UINT64, HALF, BFLOAT16 -> op == RedOp.SUM || op == RedOp.MIN || op == RedOp.MAX;
            case FLOAT, DOUBLE -> op == RedOp.SUM;
            default -> false;
        };
    }

    /**
     * Every eligible (algorithm, protocol) with its modelled time, in NCCL's scan order.
     *
     * @return the candidates (empty when nothing is eligible)
     * @throws IllegalArgumentException for a collective outside NCCL's tuning
     */
    public List<AlgoChoice> candidates(Collective func, long nBytes, DataType type, RedOp op) {
        List<AlgoChoice> out = new ArrayList<>();
        for (Algorithm a : Algorithm.values()) {
            for (Protocol p : Protocol.values()) {
                time(func, a, p, nBytes, type, op).ifPresent(out::add);
            }
        }
        return out;
    }

    /**
     * NCCL's choice: the strictly smallest time in scan order (ties keep the earlier).
     *
     * @return the choice, or empty when nothing is eligible (NCCL: "No algorithm/protocol available")
     * @throws IllegalArgumentException for a collective outside NCCL's tuning
     */
    public Optional<AlgoChoice> select(Collective func, long nBytes, DataType type, RedOp op) {
        AlgoChoice best = null;
        for (AlgoChoice c : candidates(func, nBytes, type, op)) {
            if (best == null || c.timeUs() < best.timeUs()) {
                best = c;
            }
        }
        return Optional.ofNullable(best);
    }
}
