package dev.collsim.executor.gpu;

import dev.collsim.executor.ExecutorException;
import dev.collsim.executor.RunOptions;
import dev.collsim.executor.RunSpec;
import dev.collsim.nccl.CollGeometry;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.SizeSweep;
import dev.collsim.perf.PerfRow;
import dev.collsim.perf.PerfRun;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine;

/**
 * GPU tests of the executor, run on a GPU host through the bundle ({@code run-executor --self-test}); prints
 * one PASS/FAIL line per test and exits 1 when any failed. The JUnit test {@code GpuSelfTestIT} (tag
 * {@code gpu}) runs the same list where a GPU is present.
 */
public final class GpuSelfTest {

    private final List<String> failures = new ArrayList<>();
    private final PrintStream log;

    GpuSelfTest(PrintStream log) {
        this.log = log;
    }

    /**
     * Usage text of {@code bundle/self-test}.
     */
    static final String USAGE = """
            usage: self-test [--help]
            Runs the executor's GPU tests on this host's first GPU (device 0; 15 s on one H200) and
            prints one PASS/FAIL line per test.
            Exit codes: 0 all passed; 1 a test failed; 2 usage error; 3 a hang (halted after 300 s);
              5 no NVIDIA driver, no GPU, or CUDA 13 / NCCL (libnccl.so.2, 2.19+) not loadable: nothing was run.
            Set COLLSIM_JAVA_OPTS=-Dcollsim.selftest.limit.ms=N to change the hang limit.""";

    /** @param args {@code --help} or nothing */
    public static void main(String[] args) {
        int pre = preflight(args, System.out, System.err);
        if (pre >= 0) {
            System.exit(pre);
        }
        Thread watchdog = new Thread(() -> {
            try {
                Thread.sleep(Long.getLong("collsim.selftest.limit.ms", 300_000L));
                System.out.println("FAIL self-test did not finish in time (a hang); halting");
                System.out.flush();
                Runtime.getRuntime().halt(3);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "collsim-selftest-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
        int failed = new GpuSelfTest(System.out).runAll();
        System.exit(failed == 0 ? 0 : 1);
    }

    /**
     * What happens before any test: {@code --help} (exit 0), an unknown argument (exit 2), and the check that
     * the CUDA runtime and NCCL load and at least one GPU is visible (one line on {@code err}, exit 5).
     *
     * @param args the command line
     * @param out  where the usage goes
     * @param err  where the one-line reason goes
     * @return the exit code to end with, or -1 when the tests should run
     */
    static int preflight(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 1 && (args[0].equals("--help") || args[0].equals("-h"))) {
            out.println(USAGE);
            return 0;
        }
        if (args.length > 0) {
            err.println("self-test: unknown argument '" + args[0] + "' (self-test takes no arguments; see --help)");
            return 2;
        }
        try {
            Native.load();
            if (GpuContext.deviceCount() < 1) {
                throw new ExecutorException("no GPU is visible to CUDA (check nvidia-smi and CUDA_VISIBLE_DEVICES)",
                        ExecutorException.DEVICE);
            }
        } catch (ExecutorException e) {
            err.println("self-test: " + firstSentence(e.getMessage()) + "; no test was run");
            return ExecutorException.DEVICE;
        }
        return -1;
    }

    /** The message up to the loader's own detail (its list of searched paths runs to thousands of characters). */
    private static String firstSentence(String m) {
        int colon = m.indexOf("): ");
        return colon < 0 ? m : m.substring(0, colon + 1);
    }

    /** @return the number of failed tests */
    public int runAll() {
        for (Collective c : Collective.values()) {
            test("data check passes: " + c.testName() + " float, 8 B .. 4 MiB, out-of-place and in-place",
                    () -> expectNoWrong(run(c.testName(), "-b", "8", "-e", "4M", "-f", "8", "-w", "1", "-n", "3")));
        }
        test("all types x all ops, all_reduce 1 KiB .. 256 KiB",
                () -> expectNoWrong(run("all_reduce", "-d", "all", "-o", "all", "-b", "1K", "-e", "256K", "-f", "16",
                        "-n", "2", "-w", "1")));
        test("f8e4m3/f8e5m2 all_reduce: exact results, or NCCL's own one-line refusal", () -> {
            for (String t : new String[] {"f8e4m3", "f8e5m2"}) {
                try {
                    expectNoWrong(run("all_reduce", "-d", t, "-o", "all", "-b", "1K", "-e", "64K", "-f", "8"));
                    log.println("     " + t + ": ran, no wrong elements");
                } catch (ExecutorException e) {
                    require(e.getMessage().contains("invalid argument"), e.getMessage());
                    log.println("     " + t + ": refused by NCCL: " + e.getMessage());
                }
            }
        });
        test("all types, reduce_scatter and all_gather 1 MiB", () -> {
            expectNoWrong(run("reduce_scatter", "-d", "all", "-o", "all", "-b", "1M", "-e", "1M", "-n", "2"));
            expectNoWrong(run("all_gather", "-d", "all", "-b", "1M", "-e", "1M", "-n", "2"));
        });
        test("all roots, broadcast and reduce (-r all)", () -> {
            expectNoWrong(run("broadcast", "-r", "all", "-b", "64K", "-e", "64K"));
            expectNoWrong(run("reduce", "-r", "all", "-o", "max", "-b", "64K", "-e", "64K"));
        });
        test("CUDA graph replay (-G 3), blocking modes -z 1, 2, 3, aggregation -m 4", () -> {
            expectNoWrong(run("all_reduce", "-G", "3", "-b", "8", "-e", "1M", "-f", "32", "-n", "4"));
            for (String z : new String[] {"1", "2", "3"}) {
                expectNoWrong(run("all_reduce", "-z", z, "-b", "1K", "-e", "1M", "-f", "32", "-n", "4"));
            }
            expectNoWrong(run("all_reduce", "-m", "4", "-b", "1K", "-e", "1M", "-f", "32", "-n", "4"));
        });
        test("the data check can fail: an op never issued leaves poisoned output counted wrong", this::checkCanFail);
        test("one rank: no NCCL estimate (ncclGroupSimulateEnd is NaN for 1 rank)", () -> {
            PerfRun r = run("all_reduce", "-b", "1M", "-e", "1M");
            for (PerfRow row : r.rows()) {
                require(row.ncclEstimateUs() == null, "estimate should be null for 1 rank");
            }
        });
        test("sweep shrinks to GPU memory as nccl-tests (-e 1024G)", () -> {
            PerfRun r = run("all_reduce", "-b", "1G", "-e", "1024G", "-f", "1024", "-c", "0", "-n", "2", "-w", "0");
            long mem = r.metadata().gpus().get(0).memoryBytes();
            require(r.config().maxBytes() == SizeSweep.memoryLimit(mem, false),
                    "maxBytes " + r.config().maxBytes() + " != limit for " + mem);
            require(r.rows().size() == 1, "one size expected, got " + r.rows().size());
        });
        test("asking for a GPU that is not there: exit code 5 with one line", () -> {
            int visible = GpuContext.deviceCount();
            try {
                run("all_reduce", "-g", String.valueOf(visible + 1), "-b", "8", "-e", "8");
                require(false, "no exception");
            } catch (ExecutorException e) {
                require(e.exitCode() == ExecutorException.DEVICE, "exit code " + e.exitCode());
                require(e.getMessage().contains("visible"), e.getMessage());
            }
        });
        test("hung collective: unmatched ncclSend aborted after -T 3 s", this::timeoutAborts);
        log.println(failures.isEmpty() ? "ALL GPU TESTS PASSED" : failures.size() + " GPU TEST(S) FAILED: " + failures);
        return failures.size();
    }

    private interface Body {
        void run() throws Exception;
    }

    private void test(String name, Body b) {
        long t0 = System.nanoTime();
        try {
            b.run();
            log.printf("PASS %-90s %6.1f s%n", name, (System.nanoTime() - t0) * 1e-9);
        } catch (Throwable t) {
            failures.add(name);
            log.printf("FAIL %-90s %s%n", name, t);
        }
        log.flush();
    }

    private static void require(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError(what);
        }
    }

    private static void expectNoWrong(PerfRun r) {
        require(!r.rows().isEmpty(), "no rows");
        for (PerfRow row : r.rows()) {
            require(row.outOfPlace().wrong() != null && row.outOfPlace().wrong() == 0,
                    "out-of-place #wrong " + row.outOfPlace().wrong() + " at " + row.size() + " " + row.type() + " "
                            + row.redop());
            require(row.inPlace().wrong() == null || row.inPlace().wrong() == 0,
                    "in-place #wrong " + row.inPlace().wrong() + " at " + row.size() + " " + row.type());
            require(row.outOfPlace().timeUs() > 0, "time > 0");
        }
    }

    static PerfRun run(String... args) {
        RunOptions o = new RunOptions();
        new CommandLine(o).parseArgs(args);
        RunSpec spec = o.toSpec();
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PerfRun r = GpuRunner.run(spec, Optional.empty(), new PrintStream(buf, true, StandardCharsets.UTF_8), "");
        return r;
    }

    private void checkCanFail() {
        RunOptions o = new RunOptions();
        new CommandLine(o).parseArgs("all_reduce", "-b", "4K", "-e", "4K");
        RunSpec spec = o.toSpec();
        int lib = Native.load();
        try (GpuContext ctx = GpuContext.initAll(new int[] {0})) {
            ctx.allocate(4096);
            CollGeometry g = CollGeometry.of(Collective.ALL_REDUCE, 1024, 4, 1);
            DataCheck dc = new DataCheck(ctx, Collective.ALL_REDUCE, DataType.FLOAT, RedOp.SUM, 0);
            dc.init(g, false);
            long wrong = dc.countWrong(g, false);
            require(wrong == 1024, "expected all 1024 elements wrong, got " + wrong);
            BenchEngine e = new BenchEngine(ctx, spec, lib, DataType.FLOAT, RedOp.SUM, 0, new CrossRank(ctx));
            e.setSize(4096);
            dc.init(g, false);
            e.startColl(false, 0);
            e.sync();
            require(dc.countWrong(g, false) == 0, "after the op no element may be wrong");
        }
    }

    private void timeoutAborts() {
        RunOptions o = new RunOptions();
        new CommandLine(o).parseArgs("sendrecv", "-b", "4K", "-e", "4K", "-T", "3");
        RunSpec spec = o.toSpec();
        int lib = Native.load();
        GpuContext ctx = GpuContext.initAll(new int[] {0});
        try {
            ctx.allocate(4096);
            BenchEngine e = new BenchEngine(ctx, spec, lib, DataType.FLOAT, RedOp.SUM, 0, new CrossRank(ctx));
            e.setSize(4096);
            int rc = org.bytedeco.cuda.global.nccl.ncclSend(ctx.sendP[0].position(0), 1024,
                    DataType.FLOAT.ncclValue(), 0, ctx.comms[0], ctx.streams[0]);
            if (rc != 0) {
                log.println("     (NCCL refused the unmatched send at once: " + Native.ncclError(rc) + ")");
                return;
            }
            try {
                e.sync();
                require(false, "an unmatched send completed");
            } catch (ExecutorException ex) {
                require(ex.exitCode() == ExecutorException.DEVICE, "exit code");
                log.println("     message: " + ex.getMessage());
                require(ctx.aborted, "communicator not aborted");
            }
        } finally {
            ctx.close();
        }
    }
}
