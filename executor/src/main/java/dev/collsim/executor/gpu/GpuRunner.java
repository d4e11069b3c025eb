package dev.collsim.executor.gpu;

import dev.collsim.executor.EnvSettings;
import dev.collsim.executor.ExecutorException;
import dev.collsim.executor.LaunchEnv;
import dev.collsim.executor.NcclTestsTable;
import dev.collsim.executor.Rendezvous;
import dev.collsim.executor.RunSpec;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.SizeSweep;
import dev.collsim.perf.GpuInfo;
import dev.collsim.perf.PerfJson;
import dev.collsim.perf.PerfResult;
import dev.collsim.perf.PerfRow;
import dev.collsim.perf.PerfRun;
import dev.collsim.perf.RunConfig;
import dev.collsim.perf.RunMetadata;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Runs one request in this process: loads CUDA and NCCL, creates the communicators (ncclCommInitAll for all
 * local GPUs, or ncclCommInitRank with the id from rank 0 when a launcher started one process per GPU), sizes
 * the sweep to the memory, prints the nccl-tests table as it goes and returns the run. Everything it creates is
 * released on every path.
 */
public final class GpuRunner {

    /** collsim's version printed in the table's first line. */
    public static final String VERSION = "0.1.0";

    /** Issue calls per half in the JIT warm-up before the first test (see {@code BenchEngine.jitWarmup}). */
    static final int JIT_WARMUP_ROUNDS = Integer.getInteger("collsim.jitWarmup", 6000);

    private GpuRunner() {
    }

    /**
     * @param spec     the request
     * @param launch   the launcher's rank information, or empty for one process driving all its GPUs
     * @param out      where the table goes (only rank 0 prints)
     * @param settings label of the NCCL setting of a sweep, or ""
     * @return the run
     * @throws ExecutorException (device) for no GPU, library, NCCL/CUDA errors, timeouts, rendezvous failures
     */
    public static PerfRun run(RunSpec spec, Optional<LaunchEnv> launch, PrintStream out, String settings) {
        String start = Instant.now().toString();
        int libCode = Native.load();
        int visible = GpuContext.deviceCount();
        if (visible == 0) {
            throw new ExecutorException("no CUDA GPU is visible (cudaGetDeviceCount gave 0; check the driver and "
                    + "CUDA_VISIBLE_DEVICES)", ExecutorException.DEVICE);
        }
        boolean multiProc = launch.isPresent(); // also for a world of 1: exercises ncclCommInitRank
        int nGpus = spec.nGpus();
        int procRank = multiProc ? launch.get().rank() : 0;
        int nProcs = multiProc ? launch.get().worldSize() : 1;
        int localRank = multiProc ? launch.get().localRank() : 0;
        int first = firstDevice(System.getenv("NCCL_TESTS_DEVICE"), localRank * nGpus);
        int[] devices = new int[nGpus];
        for (int i = 0; i < nGpus; i++) {
            devices[i] = first + i;
            if (devices[i] >= visible) {
                throw new ExecutorException("needs CUDA device " + devices[i] + " (-g " + nGpus + ", local rank "
                        + localRank + ") but only " + visible + " GPU(s) are visible", ExecutorException.DEVICE);
            }
        }
        boolean print = procRank == 0;
        GpuContext ctx = null;
        try {
            if (multiProc) {
                ctx = initMultiProcess(launch.get(), nGpus, devices, spec.rdzvTimeoutSec(), libCode);
            } else {
                ctx = GpuContext.initLocal(devices, spec.useInitAll(), libCode);
            }
            long minMem = ctx.gpus().stream().mapToLong(GpuInfo::memoryBytes).min().orElse(0);
            SizeSweep sweep = spec.sweep().shrinkTo(SizeSweep.memoryLimit(minMem, spec.check() > 0));
            RunSpec run = spec.withSweep(sweep);
            if (print) {
                out.print(NcclTestsTable.deviceReport(VERSION, Native.headersCode(), libCode, spec.programName(), run,
                        ctx.allGpus()));
                if (sweep.maxBytes() != spec.sweep().maxBytes()) {
                    out.print(NcclTestsTable.reducedNotice(sweep.maxBytes()));
                }
                out.flush();
            }
            ctx.allocate(sweep.maxBytes());
            if (print) {
                out.print(NcclTestsTable.resultHeader(run.cpuTime()));
                out.flush();
            }
            List<PerfRow> rows = sweepAll(ctx, run, libCode, out, print);
            int oob = PerfRun.countOutOfBounds(rows);
            double avg = PerfRun.averageBusBw(rows);
            String err = Native.lastError();
            if (print) {
                out.print(NcclTestsTable.footer(oob, avg, spec.programName(), err));
                out.flush();
            }
            RunMetadata meta = new RunMetadata(Native.versionString(libCode), libCode, runtimeVersion(),
                    driverVersion(), EnvSettings.ncclVariables(System.getenv()),
                    ctx.allGpus().stream().map(GpuInfo::hostname).distinct().toList(), ctx.allGpus(), null, List.of(),
                    start, Instant.now().toString(),
                    settings);
            RunConfig cfg = new RunConfig(1, nGpus, sweep.minBytes(), sweep.maxBytes(),
                    sweep.stepFactor() > 1 ? sweep.stepFactor() : 0, sweep.stepBytes(), run.warmupIters(),
                    run.iters(), run.aggIters(), run.check(), run.graphLaunches(), run.blocking(), run.average(),
                    run.timeoutSec(), run.cpuTime());
            return new PerfRun("collsim-run", spec.collective().testName(), ctx.nRanks, cfg, rows, avg, oob, meta,
                    err.isEmpty() ? List.of() : List.of(err));
        } finally {
            if (ctx != null) {
                ctx.close();
            }
            if (print) {
                out.flush();
            }
        }
    }

    /**
     * One process per rank: rank 0 makes the ncclUniqueId and serves it to every other rank over TCP, waiting until
     * all have fetched it (or the rendezvous timeout: then it fails naming the ranks that never connected) before it
     * joins NCCL's init, which would otherwise wait for the missing ranks without a limit.
     */
    private static GpuContext initMultiProcess(LaunchEnv l, int nGpus, int[] devices, int timeoutSec, int libCode) {
        byte[] id;
        Map<Integer, byte[]> payloads = Map.of();
        if (l.rank() == 0) {
            id = GpuContext.newUniqueId();
            payloads = Rendezvous.serve(l.bindAddr(), l.masterPort(), l.worldSize(), id,
                    Rendezvous.key(l.secret()), timeoutSec * 1000L, null, System.err::println);
        } else {
            List<GpuInfo> mine = new ArrayList<>();
            for (int i = 0; i < devices.length; i++) {
                mine.add(GpuContext.describe(l.rank() * nGpus + i, devices[i]));
            }
            byte[] payload = PerfJson.toJson(mine).getBytes(StandardCharsets.UTF_8);
            id = Rendezvous.fetch(l.masterAddr(), l.masterPort(), l.rank(), l.worldSize(),
                    Rendezvous.key(l.secret()), timeoutSec * 1000L, payload);
        }
        GpuContext ctx = GpuContext.initRanks(id, l.worldSize() * nGpus, l.rank() * nGpus, devices, libCode);
        if (l.rank() == 0) {
            ctx.addRemoteGpus(payloads);
        }
        return ctx;
    }

    private static List<PerfRow> sweepAll(GpuContext ctx, RunSpec run, int libCode, PrintStream out, boolean print) {
        Collective coll = run.collective();
        List<DataType> types = new ArrayList<>(run.types());
        boolean fp8ok = libCode >= 22400 && ctx.gpus().stream().allMatch(g -> Double.parseDouble(g.computeCapability()) >= 9.0);
        if (types.size() > 1 && (!fp8ok || !fp8Accepted(ctx))) {
            types.removeIf(t -> t == DataType.F8E4M3 || t == DataType.F8E5M2);
            if (print) {
                out.println("# f8e4m3, f8e5m2 skipped: " + (fp8ok ? "this NCCL build rejects FP8 reductions ("
                        + fp8Reason + ")" : "they need NCCL 2.24+ and compute capability 9.0+"));
            }
        }
        List<RedOp> allOps = (coll.isReduction() || coll == Collective.SEND_RECV) ? run.ops() : List.of(RedOp.SUM);
        List<Integer> roots = new ArrayList<>();
        if (!coll.isRooted()) {
            roots.add(-1);
        } else if (run.root() < 0) {
            for (int r = 0; r < ctx.nRanks; r++) {
                roots.add(r);
            }
        } else {
            if (run.root() >= ctx.nRanks) {
                throw new ExecutorException("-r " + run.root() + ": root must be below the number of ranks ("
                        + ctx.nRanks + ")", ExecutorException.USAGE);
            }
            roots.add(run.root());
        }
        CrossRank cross = new CrossRank(ctx);
        List<PerfRow> rows = new ArrayList<>();
        for (DataType t : types) {
            List<RedOp> ops = new ArrayList<>(allOps);
            boolean fp8 = t == DataType.F8E4M3 || t == DataType.F8E5M2;
            if (fp8 && ops.size() > 1 && coll.isReduction() && ops.remove(RedOp.AVG) && print) {
                // NCCL 2.28 answers ncclInvalidArgument for avg on FP8 (seen on the H200, 2026-11-29)
                out.println("# avg skipped for " + t.testName() + ": NCCL does not support it on FP8 types");
            }
            for (RedOp o : ops) {
                for (int root : roots) {
                    int r = Math.max(root, 0);
                    String opName = coll.isReduction() || coll == Collective.SEND_RECV ? o.testName() : "none";
                    BenchEngine e = new BenchEngine(ctx, run, libCode, t, o, r, cross);
                    cross.barrier();
                    if (rows.isEmpty()) {
                        e.jitWarmup(run.sweep().minBytes(), run.blocking() == 0 ? JIT_WARMUP_ROUNDS : 200);
                        cross.barrier();
                    }
                    e.warmup(run.sweep().warmupSizes());
                    for (int cyc = 0; cyc < run.runCycles(); cyc++) {
                        for (long size : run.sweep().sizes()) {
                            e.setSize(size);
                            Double est = e.estimate();
                            var g = e.geometry();
                            if (print) {
                                out.print(NcclTestsTable.rowPreamble(g.sizeBytes(t.size()), g.paramCount(),
                                        t.testName(), opName, root));
                                out.flush();
                            }
                            PerfResult oop = e.benchTime(false);
                            if (print) {
                                out.print(NcclTestsTable.rowBody(oop));
                            }
                            PerfResult ip = e.benchTime(true);
                            if (print) {
                                out.print(NcclTestsTable.rowBody(ip));
                                out.print('\n');
                                out.flush();
                            }
                            rows.add(new PerfRow(coll.testName(), t.testName(), opName, root, ctx.nRanks,
                                    g.sizeBytes(t.size()), g.paramCount(), oop, ip, est));
                        }
                    }
                }
            }
        }
        return rows;
    }

    private static String fp8Reason = "";

    /** Issues one 16-element f8e4m3 sum on every local rank and reports whether NCCL accepted it. */
    private static boolean fp8Accepted(GpuContext ctx) {
        org.bytedeco.cuda.global.nccl.ncclGroupStart();
        int rc = 0;
        for (int i = 0; i < ctx.localRanks() && rc == 0; i++) {
            rc = org.bytedeco.cuda.global.nccl.ncclAllReduce(ctx.sendP[i].position(0), ctx.recvP[i].position(0), 16,
                    DataType.F8E4M3.ncclValue(), RedOp.SUM.ordinal(), ctx.comms[i], ctx.streams[i]);
        }
        int end = org.bytedeco.cuda.global.nccl.ncclGroupEnd();
        if (rc == 0) {
            rc = end;
        }
        for (int i = 0; i < ctx.localRanks(); i++) {
            org.bytedeco.cuda.global.cudart.cudaStreamSynchronize(ctx.streams[i]);
        }
        if (rc != 0) {
            fp8Reason = Native.ncclError(rc);
        }
        return rc == 0;
    }

    private static int runtimeVersion() {
        int[] v = new int[1];
        org.bytedeco.cuda.global.cudart.cudaRuntimeGetVersion(v);
        return v[0];
    }

    private static int driverVersion() {
        int[] v = new int[1];
        org.bytedeco.cuda.global.cudart.cudaDriverGetVersion(v);
        return v[0];
    }

    /**
     * @param dev0     NCCL_TESTS_DEVICE (nccl-tests' first device of this process), or null
     * @param fallback the first device when it is not set
     * @return the first CUDA device index of this process
     * @throws ExecutorException (usage) when the variable is not a device index
     */
    static int firstDevice(String dev0, int fallback) {
        if (dev0 == null) {
            return fallback;
        }
        if (!dev0.trim().matches("[0-9]{1,4}")) {
            throw new ExecutorException("environment variable NCCL_TESTS_DEVICE='" + dev0 + "' is not a device index;"
                    + " allowed: a whole number from 0 to 9999", ExecutorException.USAGE);
        }
        return Integer.parseInt(dev0.trim());
    }
}
