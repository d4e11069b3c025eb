package dev.collsim.executor;

import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.SizeSweep;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * nccl-tests' command-line options (nccl-tests 2.19.6 {@code src/common.cu}, same letters, long names and
 * defaults) plus collsim's; a picocli mixin shared by {@code collsim run} and the standalone executor, which also
 * brings both commands' exit-code list to their help (the numbers are UserInputException's: 4 check failed, 5 device).
 */
@Command(exitCodeListHeading = "%nExit codes:%n", exitCodeList = {"0:success", "1:internal error", "2:usage error",
    "4:wrong results (#wrong > 0)",
    "5:no GPU, CUDA/NCCL not loadable or failing, timeout (-T), rendezvous failure, too little memory"})
public final class RunOptions {

    /** Types {@code -d all} runs: nccl-tests 2.19.6's list (fp8 only on compute capability 9.0+). */
    public static final List<DataType> ALL_TYPES = List.of(DataType.values());

    @Parameters(index = "0", paramLabel = "COLLECTIVE",
            description = "all_reduce, all_gather, reduce_scatter, broadcast, reduce, alltoall, sendrecv, gather, "
                    + "scatter (NCCL spellings such as AllReduce also accepted)")
    String collective;

    @Option(names = {"-b", "--minbytes"}, defaultValue = SizeSweep.DEFAULT_MIN, description = "smallest size, K/M/G = 2^10.. (${DEFAULT-VALUE})")
    String minBytes;

    @Option(names = {"-e", "--maxbytes"}, defaultValue = SizeSweep.DEFAULT_MAX, description = "largest size (${DEFAULT-VALUE}); reduced when GPU memory is short")
    String maxBytes;

    @Option(names = {"-i", "--stepbytes"}, defaultValue = SizeSweep.DEFAULT_STEP, description = "additive step (${DEFAULT-VALUE})")
    String stepBytes;

    @Option(names = {"-f", "--stepfactor"}, defaultValue = SizeSweep.DEFAULT_FACTOR, description = "multiplicative step; 1 = off (${DEFAULT-VALUE})")
    long stepFactor;

    @Option(names = {"-n", "--iters"}, defaultValue = "20", description = "timed iterations (${DEFAULT-VALUE})")
    int iters;

    @Option(names = {"-w", "--warmup_iters"}, defaultValue = "1", description = "warm-up iterations per size (${DEFAULT-VALUE})")
    int warmup;

    @Option(names = {"-m", "--agg_iters"}, defaultValue = "1", description = "ops per iteration in one group (${DEFAULT-VALUE})")
    int agg;

    @Option(names = {"-N", "--run_cycles"}, defaultValue = "1", description = "repeat the sweep (${DEFAULT-VALUE})")
    int cycles;

    @Option(names = {"-c", "--check"}, defaultValue = "1", description = "data-check iterations; 0 prints N/A (${DEFAULT-VALUE})")
    int check;

    @Option(names = {"-o", "--op"}, defaultValue = "sum", description = "sum, prod, min, max, avg or all (${DEFAULT-VALUE})")
    String op;

    @Option(names = {"-d", "--datatype"}, defaultValue = "float", description = "int8 .. bfloat16, f8e4m3, f8e5m2, or all (${DEFAULT-VALUE})")
    String datatype;

    @Option(names = {"-r", "--root"}, defaultValue = "0", description = "root rank or all (${DEFAULT-VALUE})")
    String root;

    @Option(names = {"-z", "--blocking"}, defaultValue = "0", description = "0 async; 1 sync+barrier per op; 2 sync per op; 3 sync+barrier per iteration (${DEFAULT-VALUE})")
    int blocking;

    @Option(names = {"-a", "--average"}, defaultValue = "1", description = "time across ranks: 0 rank 0, 1 avg, 2 min, 3 max (${DEFAULT-VALUE})")
    int average;

    @Option(names = {"-G", "--cudagraph"}, defaultValue = "0", description = "capture the iterations in a CUDA graph and replay it N times (${DEFAULT-VALUE})")
    int graph;

    @Option(names = {"-T", "--timeout"}, defaultValue = "0", description = "seconds before a hung collective is aborted; 0 = never (${DEFAULT-VALUE})")
    int timeout;

    @Option(names = {"-C", "--report_cputime"}, defaultValue = "0", description = "report CPU time instead of latency (${DEFAULT-VALUE}); -J then keys each time cpu_time, as nccl-tests does")
    int cpuTime;

    @Option(names = {"-g", "--ngpus"}, defaultValue = "1", description = "GPUs driven by this process (${DEFAULT-VALUE})")
    int nGpus;

    @Option(names = {"-t", "--nthreads"}, defaultValue = "1", description = "threads per process; only 1 is supported (${DEFAULT-VALUE})")
    int nThreads;

    @Option(names = {"-J", "--output_file", "--json"}, paramLabel = "FILE", description = "write the run as JSON")
    Path json;

    @Option(names = "--env", paramLabel = "NCCL_X=V", description = "set an NCCL variable for the run (repeatable)")
    List<String> env = new ArrayList<>();

    @Option(names = "--sweep-env", paramLabel = "NCCL_X=V1,V2", description = "run once per value, each in its own process (repeatable: cartesian product)")
    List<String> sweepEnv = new ArrayList<>();

    @Option(names = "--no-nccl-capture", description = "do not capture NCCL's topology dump and INFO log")
    boolean noCapture;

    @Option(names = "--comm-init", defaultValue = "config", paramLabel = "config|all",
            description = "single process: 'config' = ncclCommInitRankConfig with nccl-tests' settings (as nccl-tests),"
                    + " 'all' = ncclCommInitAll (${DEFAULT-VALUE})")
    String commInit;

    @Option(names = {"-p", "--parallel_init"}, defaultValue = "0", description = "nccl-tests: threads init NCCL in"
            + " parallel (0/1); no effect here, one thread inits every communicator of a process (${DEFAULT-VALUE})")
    int parallelInit;

    @Option(names = {"-R", "--local_register"}, defaultValue = "0", description = "nccl-tests: register buffers with"
            + " NCCL, 0 none, 1 local, 2 symmetric; accepted with no effect here, collsim does not register its"
            + " buffers (${DEFAULT-VALUE})")
    int register;

    @Option(names = "--rendezvous-timeout", defaultValue = "300", paramLabel = "SECONDS", description = "wait for all ranks at start-up (${DEFAULT-VALUE})")
    int rdzvTimeout;

    /**
     * Validates and converts the options, naming the size options by nccl-tests' short names.
     *
     * @return the run request
     * @throws ExecutorException (usage) naming the option and the allowed values
     */
    public RunSpec toSpec() {
        return toSpec(SizeSweep.Flags.NCCL_TESTS);
    }

    /**
     * Validates and converts the options.
     *
     * @param sweepFlags the size options' names as the user typed them ({@code -f} or {@code --stepfactor})
     * @return the run request
     * @throws ExecutorException (usage) naming the option and the allowed values
     */
    public RunSpec toSpec(SizeSweep.Flags sweepFlags) {
        Collective coll;
        try {
            coll = Collective.parse(collective);
        } catch (IllegalArgumentException e) {
            throw new ExecutorException(e.getMessage(), ExecutorException.USAGE);
        }
        SizeSweep sweep;
        try {
            sweep = SizeSweep.parse(minBytes, maxBytes, stepBytes, stepFactor, sweepFlags);
        } catch (IllegalArgumentException e) {
            throw new ExecutorException(e.getMessage(), ExecutorException.USAGE);
        }
        positive("-n", iters, 1);
        positive("-w", warmup, 0);
        positive("-m", agg, 1);
        positive("-N", cycles, 1);
        positive("-c", check, 0);
        positive("-G", graph, 0);
        positive("-T", timeout, 0);
        positive("-g", nGpus, 1);
        range("-z", blocking, 0, 3);
        range("-a", average, 0, 3);
        range("-C", cpuTime, 0, 1);
        range("-p", parallelInit, 0, 1);
        range("-R", register, 0, 2);
        if (nThreads != 1) {
            throw new ExecutorException("-t " + nThreads + ": collsim drives all GPUs of a process from one thread; "
                    + "use -g N for N GPUs, or one process per GPU", ExecutorException.USAGE);
        }
        List<RedOp> ops;
        try {
            ops = op.equalsIgnoreCase("all") ? Arrays.asList(RedOp.values()) : List.of(RedOp.parse(op));
        } catch (IllegalArgumentException e) {
            throw new ExecutorException("-o: " + e.getMessage() + ", all", ExecutorException.USAGE);
        }
        List<DataType> types;
        try {
            types = datatype.equalsIgnoreCase("all") ? ALL_TYPES : List.of(DataType.parse(datatype));
        } catch (IllegalArgumentException e) {
            throw new ExecutorException("-d: " + e.getMessage() + ", all", ExecutorException.USAGE);
        }
        int r;
        if (root.equalsIgnoreCase("all")) {
            r = -1;
        } else {
            try {
                r = Integer.parseInt(root.trim());
            } catch (NumberFormatException e) {
                throw new ExecutorException("-r '" + root + "': expected a rank number or all", ExecutorException.USAGE);
            }
            positive("-r", r, 0);
        }
        EnvSettings.expandSweep(sweepEnv); // validates
        if (!commInit.equals("config") && !commInit.equals("all")) {
            throw new ExecutorException("--comm-init '" + commInit + "': allowed config, all", ExecutorException.USAGE);
        }
        return new RunSpec(coll, sweep, iters, warmup, agg, cycles, check, ops, types, r, blocking, average, graph,
                timeout, cpuTime == 1, nGpus, json, EnvSettings.parseFixed(env), sweepEnv, !noCapture, rdzvTimeout,
                commInit.equals("all"), notes());
    }

    /**
     * nccl-tests 2.19.6 flags ({@code src/common.cu}) the executor accepts without acting on them, so a pasted
     * nccl-tests line runs and its output says what was not honoured.
     *
     * @return one header line per such flag given with a value other than its default
     */
    List<String> notes() {
        List<String> n = new ArrayList<>();
        if (parallelInit != 0) {
            n.add("-p " + parallelInit + " (parallel init) has no effect here: one thread initialises every"
                    + " communicator of the process (nccl-tests' parallel init only matters with -t > 1)");
        }
        if (register != 0) {
            n.add("-R " + register + " (" + (register == 1 ? "local" : "symmetric") + " buffer registration) has no"
                    + " effect here: collsim does not register its buffers with NCCL, so times are those of -R 0");
        }
        return n;
    }

    /** @return the raw arguments for re-running this request in a child process */
    public List<String> workerArgs() {
        List<String> a = new ArrayList<>(List.of(collective, "-b", minBytes, "-e", maxBytes, "-i", stepBytes,
                "-f", "" + stepFactor, "-n", "" + iters, "-w", "" + warmup, "-m", "" + agg, "-N", "" + cycles,
                "-c", "" + check, "-o", op, "-d", datatype, "-r", root, "-z", "" + blocking, "-a", "" + average,
                "-G", "" + graph, "-T", "" + timeout, "-C", "" + cpuTime, "-g", "" + nGpus, "-p", "" + parallelInit, "-R", "" + register,
                "--rendezvous-timeout", "" + rdzvTimeout, "--comm-init", commInit));
        if (noCapture) {
            a.add("--no-nccl-capture");
        }
        return a;
    }

    private static void positive(String flag, long v, long min) {
        if (v < min) {
            throw new ExecutorException(flag + " " + v + ": must be >= " + min, ExecutorException.USAGE);
        }
    }

    private static void range(String flag, int v, int lo, int hi) {
        if (v < lo || v > hi) {
            throw new ExecutorException(flag + " " + v + ": allowed " + lo + ".." + hi, ExecutorException.USAGE);
        }
    }
}
