package dev.collsim.executor.gpu;

import static dev.collsim.executor.gpu.Native.cuda;
import static dev.collsim.executor.gpu.Native.nccl;

import dev.collsim.executor.DataLayout;
import dev.collsim.executor.ExecutorException;
import dev.collsim.executor.RunSpec;
import dev.collsim.nccl.BusBandwidth;
import dev.collsim.nccl.CollGeometry;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.RedOp;
import dev.collsim.perf.PerfResult;
import org.bytedeco.cuda.cudart.CUgraphExec_st;
import org.bytedeco.cuda.cudart.CUgraph_st;
import org.bytedeco.cuda.global.cudart;
import org.bytedeco.cuda.global.nccl;
import org.bytedeco.cuda.nccl.ncclSimInfo_t;
import org.bytedeco.javacpp.BytePointer;

/**
 * Times one (collective, type, op, root) over sizes exactly as nccl-tests 2.19.6 {@code src/common.cu}
 * ({@code startColl}, {@code completeColl}, {@code BenchTime}, {@code TimeTest}) does: one untimed op and a
 * barrier; a host steady clock around issuing iters x agg ops and waiting for them (polling
 * {@code cudaStreamQuery} as {@code testStreamSynchronize}); buffer offsets shifted per iteration; the time
 * averaged across ranks per {@code -a}; then {@code -c} data checks.
 */
final class BenchEngine {

    /** NCCL_SIM_INFO_INITIALIZER's magic (NCCL 2.22+ {@code nccl.h}). */
    private static final int SIM_MAGIC = 0x74685283;

    private final GpuContext ctx;
    private final RunSpec spec;
    private final int libCode;
    private final Collective coll;
    private final DataType type;
    private final RedOp op;
    private final int root;
    private final CrossRank cross;
    private final DataCheck check;
    private final int es;
    private final int[] asyncErr = new int[1];

    private CollGeometry g;
    private long sizeBytes;
    private long steps;
    private long totalBytes;

    BenchEngine(GpuContext ctx, RunSpec spec, int libCode, DataType type, RedOp op, int root, CrossRank cross) {
        this.ctx = ctx;
        this.spec = spec;
        this.libCode = libCode;
        this.coll = spec.collective();
        this.type = type;
        this.op = op;
        this.root = root;
        this.cross = cross;
        this.es = type.size();
        this.check = new DataCheck(ctx, coll, type, op, root);
    }

    /** nccl-tests {@code setupArgs}: geometry of one size and the per-iteration shift range. */
    void setSize(long size) {
        sizeBytes = size;
        g = CollGeometry.of(coll, size / es, es, ctx.nRanks);
        totalBytes = Math.max(g.sendCount(), g.recvCount()) * es;
        steps = totalBytes == 0 ? 1 : Math.max(1, ctx.bufBytes / totalBytes);
    }

    CollGeometry geometry() {
        return g;
    }

    /**
     * Runs the issuing code path often enough for the JIT compiler to compile it (HotSpot's tiered thresholds
     * are in the thousands of calls), so the first timed sizes do not measure the interpreter. Uses the smallest
     * size of the sweep (at most 8 KiB), out-of-place and in-place, syncing every 256 ops; nothing is timed.
     *
     * @param minBytes the sweep's smallest size
     * @param rounds   issue calls per half
     */
    void jitWarmup(long minBytes, int rounds) {
        setSize(Math.min(minBytes, 8192));
        int calls = Math.max(1, rounds / 25);
        for (int c = 0; c < calls; c++) {
            timedLoop(false, 25);
            completeColl();
            timedLoop(true, 25);
            completeColl();
        }
    }

    /** The issuing part of nccl-tests' timed loop (no graph capture); returns collOnly seconds for -z 3. */
    private double timedLoop(boolean inPlace, int iters) {
        int agg = spec.aggIters();
        double collOnly = 0;
        for (int it = 0; it < iters; it++) {
            long t0 = System.nanoTime();
            if (agg > 1) {
                nccl(nccl.ncclGroupStart(), "ncclGroupStart");
            }
            for (int a = 0; a < agg; a++) {
                startColl(inPlace, it * agg + a);
            }
            if (agg > 1) {
                nccl(nccl.ncclGroupEnd(), "ncclGroupEnd");
            }
            if (spec.blocking() == 3) {
                sync();
                collOnly += (System.nanoTime() - t0) * 1e-9;
                cross.barrier();
            }
        }
        return collOnly;
    }

    /** Warm-up (nccl-tests: every size from min, doubling, warmup_iters ops each, then a sync). */
    void warmup(Iterable<Long> sizes) {
        for (long s : sizes) {
            setSize(s);
            for (int it = 0; it < spec.warmupIters(); it++) {
                startColl(false, it);
            }
            completeColl();
        }
    }

    /** One nccl-tests {@code startColl}: every local rank issues the op (grouped when several). */
    void startColl(boolean inPlace, int iter) {
        long shift = totalBytes * (iter % steps);
        int n = ctx.localRanks();
        if (n > 1) {
            nccl(nccl.ncclGroupStart(), "ncclGroupStart");
        }
        for (int i = 0; i < n; i++) {
            int rank = ctx.firstRank + i;
            long sendOff;
            long recvOff;
            if (inPlace) {
                sendOff = shift + g.sendInplaceOffset() * rank * es;
                recvOff = shift + g.recvInplaceOffset() * rank * es;
            } else {
                sendOff = shift;
                recvOff = shift;
            }
            issue(i, inPlace, sendOff, recvOff);
        }
        if (n > 1) {
            nccl(nccl.ncclGroupEnd(), "ncclGroupEnd");
        }
        if (spec.blocking() != 0) {
            sync();
        }
        if (spec.blocking() == 1) {
            cross.barrier();
        }
    }

    private void issue(int i, boolean inPlace, long sendOff, long recvOff) {
        // in place, send and receive point into the receive buffer (nccl-tests startColl)
        BytePointer s = inPlace ? ctx.sendInPlaceP[i] : ctx.sendP[i];
        BytePointer r = ctx.recvP[i];
        long count = g.paramCount();
        int t = type.ncclValue();
        int o = op.ordinal();
        var comm = ctx.comms[i];
        var st = ctx.streams[i];
        int rank = ctx.firstRank + i;
        int n = ctx.nRanks;
        int rc;
        s.position(sendOff);
        r.position(recvOff);
        switch (coll) {
            case ALL_REDUCE -> rc = nccl.ncclAllReduce(s, r, count, t, o, comm, st);
            case ALL_GATHER -> rc = nccl.ncclAllGather(s, r, count, t, comm, st);
            case REDUCE_SCATTER -> rc = nccl.ncclReduceScatter(s, r, count, t, o, comm, st);
            case BROADCAST -> rc = nccl.ncclBroadcast(s, r, count, t, root, comm, st);
            case REDUCE -> rc = nccl.ncclReduce(s, r, count, t, o, root, comm, st);
            case ALL_TO_ALL -> {
                if (libCode >= 22800) {
                    rc = nccl.ncclAlltoAll(s, r, count, t, comm, st);
                } else {
                    rc = groupedAllToAll(s, r, count, t, i, n);
                }
            }
            case SEND_RECV -> {
                nccl(nccl.ncclGroupStart(), "ncclGroupStart");
                nccl(nccl.ncclSend(s, count, t, (rank + 1) % n, comm, st), "ncclSend");
                nccl(nccl.ncclRecv(r, count, t, Math.floorMod(rank - 1, n), comm, st), "ncclRecv");
                rc = nccl.ncclGroupEnd();
            }
            case GATHER -> rc = count == 0 ? 0 : libCode >= 22800 ? nccl.ncclGather(s, r, count, t, root, comm, st)
                    : groupedGather(s, r, count, t, i, n, true);
            case SCATTER -> rc = count == 0 ? 0 : libCode >= 22800 ? nccl.ncclScatter(s, r, count, t, root, comm, st)
                    : groupedGather(s, r, count, t, i, n, false);
            default -> throw new IllegalStateException(coll.toString());
        }
        if (rc != 0) {
            nccl(rc, "nccl" + coll.ncclName() + "(" + sizeBytes + " B, " + type.testName() + ")");
        }
    }

    private int groupedAllToAll(BytePointer s, BytePointer r, long count, int t, int i, int n) {
        long off = count * es;
        nccl(nccl.ncclGroupStart(), "ncclGroupStart");
        for (int p = 0; p < n; p++) {
            BytePointer sp = new BytePointer(s).position(s.position() + p * off);
            BytePointer rp = new BytePointer(r).position(r.position() + p * off);
            nccl(nccl.ncclSend(sp, count, t, p, ctx.comms[i], ctx.streams[i]), "ncclSend");
            nccl(nccl.ncclRecv(rp, count, t, p, ctx.comms[i], ctx.streams[i]), "ncclRecv");
        }
        return nccl.ncclGroupEnd();
    }

    private int groupedGather(BytePointer s, BytePointer r, long count, int t, int i, int n, boolean gather) {
        long off = count * es;
        int rank = ctx.firstRank + i;
        nccl(nccl.ncclGroupStart(), "ncclGroupStart");
        if (gather) {
            nccl(nccl.ncclSend(s, count, t, root, ctx.comms[i], ctx.streams[i]), "ncclSend");
        } else {
            nccl(nccl.ncclRecv(r, count, t, root, ctx.comms[i], ctx.streams[i]), "ncclRecv");
        }
        if (rank == root) {
            for (int p = 0; p < n; p++) {
                if (gather) {
                    BytePointer rp = new BytePointer(r).position(r.position() + p * off);
                    nccl(nccl.ncclRecv(rp, count, t, p, ctx.comms[i], ctx.streams[i]), "ncclRecv");
                } else {
                    BytePointer sp = new BytePointer(s).position(s.position() + p * off);
                    nccl(nccl.ncclSend(sp, count, t, p, ctx.comms[i], ctx.streams[i]), "ncclSend");
                }
            }
        }
        return nccl.ncclGroupEnd();
    }

    /** nccl-tests {@code completeColl}: sync unless blocking mode already did with one op per iteration. */
    void completeColl() {
        if (spec.blocking() != 0 && spec.aggIters() <= 1) {
            return;
        }
        sync();
    }

    /**
     * nccl-tests {@code testStreamSynchronize}: poll every stream, watch NCCL's asynchronous error, abort the
     * communicators after the -T timeout.
     */
    void sync() {
        int n = ctx.localRanks();
        boolean[] done = new boolean[n];
        int remaining = n;
        long t0 = System.nanoTime();
        long limit = spec.timeoutSec() * 1_000_000_000L;
        while (remaining > 0) {
            boolean idle = true;
            for (int i = 0; i < n; i++) {
                if (done[i]) {
                    continue;
                }
                int rc = cudart.cudaStreamQuery(ctx.streams[i]);
                if (rc == 0) {
                    done[i] = true;
                    remaining--;
                    idle = false;
                    continue;
                }
                if (rc != cudart.cudaErrorNotReady) {
                    cuda(rc, "cudaStreamQuery while waiting for " + what());
                }
                nccl(nccl.ncclCommGetAsyncError(ctx.comms[i], asyncErr), "ncclCommGetAsyncError");
                if (asyncErr[0] != nccl.ncclSuccess && asyncErr[0] != nccl.ncclInProgress) {
                    String msg = Native.ncclError(asyncErr[0]);
                    ctx.abortAll();
                    throw new ExecutorException(what() + " failed asynchronously: " + msg
                            + "; NCCL communicators aborted", ExecutorException.DEVICE);
                }
                if (limit > 0 && System.nanoTime() - t0 > limit) {
                    ctx.abortAll();
                    throw new ExecutorException(what() + " did not finish within " + spec.timeoutSec()
                            + " s (-T); NCCL communicators aborted with ncclCommAbort", ExecutorException.DEVICE);
                }
            }
            if (idle) {
                Thread.yield();
            }
        }
    }

    private String what() {
        return coll.ncclName() + " of " + sizeBytes + " B (" + type.testName() + ", "
                + (coll.isReduction() ? op.testName() : "no op") + (coll.isRooted() ? ", root " + root : "")
                + ") on " + ctx.nRanks + " ranks";
    }

    /**
     * NCCL's own estimate for the current size (ncclGroupSimulateEnd, NCCL 2.22+), or null when it has none.
     */
    Double estimate() {
        if (ctx.nRanks < 2 || libCode < 22200 || !coll.hasNcclTuningModel()) {
            return null;
        }
        nccl(nccl.ncclGroupStart(), "ncclGroupStart");
        for (int i = 0; i < ctx.localRanks(); i++) {
            issue(i, false, 0, 0);
        }
        ncclSimInfo_t si = new ncclSimInfo_t();
        si.size(si.sizeof()).magic(SIM_MAGIC).version(libCode).estimatedTime(-1f);
        nccl(nccl.ncclGroupSimulateEnd(si), "ncclGroupSimulateEnd");
        float t = si.estimatedTime();
        return t < 0 || Float.isNaN(t) ? null : (double) t;
    }

    /** nccl-tests {@code BenchTime} for one half of a row. */
    PerfResult benchTime(boolean inPlace) {
        startColl(inPlace, 0);
        completeColl();
        cross.barrier();

        int n = ctx.localRanks();
        CUgraph_st[] graphs = null;
        CUgraphExec_st[] execs = null;
        if (spec.graphLaunches() > 0) {
            for (int i = 0; i < n; i++) {
                cuda(cudart.cudaStreamBeginCapture(ctx.streams[i], cudart.cudaStreamCaptureModeThreadLocal),
                        "cudaStreamBeginCapture");
            }
        }
        int iters = spec.iters();
        int agg = spec.aggIters();
        long start = System.nanoTime();
        double collOnly = timedLoop(inPlace, iters);
        if (spec.graphLaunches() > 0) {
            graphs = new CUgraph_st[n];
            execs = new CUgraphExec_st[n];
            for (int i = 0; i < n; i++) {
                graphs[i] = new CUgraph_st();
                cuda(cudart.cudaStreamEndCapture(ctx.streams[i], graphs[i]), "cudaStreamEndCapture");
                execs[i] = new CUgraphExec_st();
                cuda(cudart.cudaGraphInstantiate(execs[i], graphs[i], 0L), "cudaGraphInstantiate");
            }
            cross.barrier();
            start = System.nanoTime();
            for (int l = 0; l < spec.graphLaunches(); l++) {
                for (int i = 0; i < n; i++) {
                    cuda(cudart.cudaGraphLaunch(execs[i], ctx.streams[i]), "cudaGraphLaunch");
                }
            }
        }
        double cpuSec = (spec.blocking() == 3 ? collOnly : (System.nanoTime() - start) * 1e-9) / (iters * agg);
        completeColl();
        double deltaSec = (spec.blocking() == 3 ? collOnly : (System.nanoTime() - start) * 1e-9) / (iters * agg);
        if (spec.graphLaunches() > 0) {
            deltaSec /= spec.graphLaunches();
            for (int i = 0; i < n; i++) {
                cudart.cudaGraphExecDestroy(execs[i]);
                cudart.cudaGraphDestroy(graphs[i]);
            }
        }
        deltaSec = cross.reduceTime(deltaSec, spec.average());
        double timeUs = deltaSec * 1.0e6;
        double algBw = BusBandwidth.algBw(BusBandwidth.algBytes(coll, g.paramCount(), es, ctx.nRanks), timeUs);
        double busBw = BusBandwidth.busBw(coll, ctx.nRanks, algBw);
        cross.barrier();

        Long wrong = null;
        if (spec.check() > 0 && DataLayout.reportsErrors(coll, inPlace)) {
            long w = 0;
            for (int c = 0; c < spec.check(); c++) {
                check.init(g, inPlace);
                startColl(inPlace, 0);
                completeColl();
                sync();
                w = cross.sumLong(check.countWrong(g, inPlace));
                if (w != 0) {
                    break;
                }
            }
            wrong = w;
        } else if (spec.check() > 0) {
            // nccl-tests still runs the op; errors are not reported (N/A)
            wrong = null;
        }
        double t = (spec.cpuTime() ? cpuSec : deltaSec) * 1e6;
        return new PerfResult(t, algBw, busBw, wrong);
    }
}
