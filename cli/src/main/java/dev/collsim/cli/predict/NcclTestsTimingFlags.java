package dev.collsim.cli.predict;

import dev.collsim.cli.ExitCodes;
import dev.collsim.cli.UserError;
import dev.collsim.simulator.HostLaunch;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * nccl-tests' flags that shape how a run is timed or checked, accepted by {@code collsim predict} so that a pasted
 * nccl-tests command line works. Flag letters and meanings as nccl-tests' {@code src/common.cu} (2.19.6): -n iters,
 * -w warmup_iters, -m agg_iters, -N run_cycles, -z blocking, -a average, -G cudagraph, -T timeout (seconds), -C
 * report_cputime, -p parallel_init, -y stream_null, -S report_timestamps, -J output_file, -M memory, -I
 * per_iter_timing, -K per_iter_skip (-V, device_cta_count, used only with -D, stays collsim's --version).
 * <ul>
 *   <li>Used: -n and -m give the timed calls per run, {@code iters x agg_iters} ({@link #timedCalls}), over which
 *       {@code HostLaunch} spreads the first call's launch skew; -G above 0 replays CUDA graphs
 *       ({@link #cudaGraph}); -z above 0 makes each call wait for the GPUs before the next ({@link #blocking}).</li>
 *   <li>Read, checked as nccl-tests would (a whole number) and named in one note ({@link #note}): the others. -w
 *       among them: nccl-tests runs its warm-up calls before the timed loop ({@code run}: {@code warmup_iters} calls
 *       per size, then {@code completeColl}; {@code BenchTime} starts its timer after a {@code Barrier}), so they
 *       are not in the time it prints.</li>
 *   <li>Refused when not at nccl-tests' default ({@link #refuseUnmodelled}): four flags change what NCCL runs, which
 *       the model does not follow: -R local_register, -x cta_policy, -D device_implementation, -u unalign.</li>
 * </ul>
 * nccl-tests' -c (data check) is {@code -c N} with a bare number: see {@code ClusterOption#dropNcclTestsCheck}.
 * -t (threads) and -g (GPUs per thread) set the rank count: {@link NcclTestsRanks}.
 */
public final class NcclTestsTimingFlags {

    @Option(names = {"-n", "--iters"}, paramLabel = "N", hidden = true)
    private Integer iters;
    @Option(names = {"-w", "--warmup_iters"}, paramLabel = "N", hidden = true)
    private Integer warmup;
    @Option(names = {"-m", "--agg_iters"}, paramLabel = "N", hidden = true)
    private Integer agg;
    @Option(names = {"-N", "--run_cycles"}, paramLabel = "N", hidden = true)
    private Integer cycles;
    @Option(names = {"-z", "--blocking"}, paramLabel = "N", hidden = true)
    private Integer blocking;
    @Option(names = {"-a", "--average"}, paramLabel = "N", hidden = true)
    private Integer average;
    @Option(names = {"-G", "--cudagraph"}, paramLabel = "N", hidden = true)
    private Integer graph;
    @Option(names = {"-T", "--timeout"}, paramLabel = "S", hidden = true)
    private Integer timeout;
    @Option(names = {"-C", "--report_cputime"}, paramLabel = "N", hidden = true)
    private Integer cpuTime;
    @Option(names = {"-p", "--parallel_init"}, paramLabel = "N", hidden = true)
    private Integer parallelInit;
    @Option(names = {"-y", "--stream_null"}, paramLabel = "N", hidden = true)
    private Integer streamNull;
    @Option(names = {"-S", "--report_timestamps"}, paramLabel = "N", hidden = true)
    private Integer timestamps;
    @Option(names = {"-J", "--output_file"}, paramLabel = "FILE", hidden = true)
    private String outputFile;
    @Option(names = {"-M", "--memory"}, paramLabel = "N", hidden = true)
    private Integer memory;
    @Option(names = {"-I", "--per_iter_timing"}, paramLabel = "N", hidden = true)
    private Integer perIter;
    @Option(names = {"-K", "--per_iter_skip"}, paramLabel = "N", hidden = true)
    private Integer perIterSkip;
    @Option(names = {"-R", "--local_register"}, paramLabel = "N", hidden = true)
    private Integer register;
    @Option(names = {"-x", "--cta_policy"}, paramLabel = "N", hidden = true)
    private Integer ctaPolicy;
    @Option(names = {"-D", "--device_implementation"}, paramLabel = "N", hidden = true)
    private Integer deviceImpl;
    @Option(names = {"-u", "--unalign"}, paramLabel = "N", hidden = true)
    private Integer unalign;

    /**
     * Refuses the nccl-tests flags that change what NCCL runs when they ask for more than nccl-tests' default
     * (2.19.6 {@code src/common.cu}: -R 0, -x not set, -D 0, -u 0; -x 0 is NCCL_CTA_POLICY_DEFAULT, the default).
     *
     * @throws UserError with {@link ExitCodes#USAGE} naming the flag, its value, what it changes and what is allowed
     */
    public void refuseUnmodelled() {
        refuse("-R", register, 0, "registers the send and receive buffers with NCCL (1 local, 2 symmetric), which"
                + " lets NCCL skip copies through its own buffers (NVLS, CollNet, peer-to-peer and network zero-copy,"
                + " symmetric kernels from NCCL 2.27)");
        refuse("-x", ctaPolicy, 0, "sets NCCL's CTA policy (1 NCCL_CTA_POLICY_EFFICIENCY, 2 NCCL_CTA_POLICY_ZERO),"
                + " which changes how many CTAs NCCL runs");
        refuse("-D", deviceImpl, 0, "times nccl-tests' own device-API kernels instead of NCCL's collectives");
        refuse("-u", unalign, 0, "misaligns the buffers by that many elements, which changes NCCL's copies");
    }

    private static void refuse(String flag, Integer value, int allowed, String what) {
        if (value != null && value != allowed) {
            throw new UserError("nccl-tests flag " + flag + " " + value + ": " + what + "; collsim's model does not"
                    + " follow this, so the prediction would be of another run; allowed: " + flag + " " + allowed
                    + " (nccl-tests' default) or leave it out", ExitCodes.USAGE);
        }
    }

    /**
     * @return true when {@code -G} asks for CUDA graph replay (a value above 0): the iterations are launched as one
     *         graph per GPU, so the host's per-iteration launches drop out ({@code HostLaunch})
     */
    public boolean cudaGraph() {
        return graph != null && graph > 0;
    }

    /**
     * @return true when {@code -z} asks for blocking calls (1, 2 or 3, and any other value but 0 as nccl-tests
     *         2.19.6 {@code src/common.cu startColl} tests it, {@code if (blocking_coll)}: it polls the streams after
     *         each call before the next): {@code HostLaunch} then charges every call its launches, a launch and
     *         completion round trip and its kernel, one after the other
     */
    public boolean blocking() {
        return blocking != null && blocking != 0;
    }

    /**
     * Timed calls per run, {@code iters x agg_iters}: nccl-tests 2.19.6 {@code src/common.cu BenchTime} launches
     * {@code iters} iterations of {@code agg_iters} calls and divides the elapsed time by {@code iters x agg_iters}
     * (defaults {@code iters = 20}, {@code agg_iters = 1}). nccl-tests reads -n and -m with {@code strtol} and checks
     * neither: -n 0 times no call and prints the elapsed time divided by 0, a negative count a negative time, so no
     * run of those is a measurement collsim could predict; they are refused here.
     *
     * @return {@code -n x -m}, 20 when neither is given
     * @throws UserError with {@link ExitCodes#USAGE} when -n or -m is below 1, or their product is above
     *         {@link Integer#MAX_VALUE} (nccl-tests multiplies them as an {@code int})
     */
    public int timedCalls() {
        int n = count("-n (iters)", iters, HostLaunch.DEFAULT_ITERATIONS);
        int m = count("-m (agg_iters)", agg, 1);
        if ((long) n * m > Integer.MAX_VALUE) {
            throw new UserError("nccl-tests flags -n " + n + " -m " + m + ": " + ((long) n * m) + " timed calls, more"
                    + " than nccl-tests' int holds; allowed: a product of at most " + Integer.MAX_VALUE,
                    ExitCodes.USAGE);
        }
        return n * m;
    }

    private static int count(String flag, Integer value, int dflt) {
        if (value != null && value < 1) {
            throw new UserError("nccl-tests flag " + flag + " " + value + ": nccl-tests would time no call (it divides"
                    + " the elapsed time by -n x -m), so there is no time to predict; allowed: a whole number >= 1"
                    + " (nccl-tests' defaults: -n 20, -m 1)", ExitCodes.USAGE);
        }
        return value == null ? dflt : value;
    }

    /**
     * @param launchModelled whether the prediction charges the host's launches ({@code HostLaunch}: the analytical
     *                       backend without a hierarchical composition), the only part of it -n and -m change
     * @return the nccl-tests flags the user gave that the prediction ignores, in a fixed order, e.g.
     *         {@code [-w, -N]}; -R, -x, -D and -u only at their default ({@link #refuseUnmodelled}); {@code -G} above
     *         0 is used ({@link #cudaGraph}); -n, -m and -z only when the launches are not modelled
     */
    public List<String> given(boolean launchModelled) {
        List<String> g = new ArrayList<>();
        Object[] values = {launchModelled ? null : iters, warmup, launchModelled ? null : agg, cycles,
            launchModelled ? null : blocking,
            average, cudaGraph() ? null : graph, timeout, cpuTime, parallelInit, streamNull, timestamps, outputFile,
            register, ctaPolicy, deviceImpl, memory, unalign, perIter, perIterSkip};
        String[] names = {"-n", "-w", "-m", "-N", "-z", "-a", "-G", "-T", "-C", "-p", "-y", "-S", "-J", "-R", "-x",
            "-D", "-M", "-u", "-I", "-K"};
        for (int i = 0; i < names.length; i++) {
            if (values[i] != null) {
                g.add(names[i]);
            }
        }
        return g;
    }

    /**
     * @param launch         how the prediction's benchmark drives its GPUs, with {@link #timedCalls}
     * @param launchModelled whether the prediction charges the host's launches ({@link #given(boolean)})
     * @return the header notes on the host's launches: {@link HostLaunch#describe} with {@code -g} above 1,
     *         {@code -G} or {@code -z}; with -n or -m given where they change nothing (one GPU per thread, graph
     *         replay or blocking calls, where {@link HostLaunch#fillUs} is 0), a note that says so; none when the
     *         launches are not modelled
     */
    public List<String> launchNotes(HostLaunch launch, boolean launchModelled) {
        List<String> out = new ArrayList<>();
        boolean noFill = launch.gpusPerThread() == 1 || launch.cudaGraph() || launch.blocking();
        if (launchModelled && (launch.gpusPerThread() > 1 || launch.cudaGraph() || launch.blocking())) {
            out.add(launch.describe());
        }
        if (launchModelled && noFill && (iters != null || agg != null)) {
            out.add("nccl-tests -n x -m = " + launch.iterations() + " timed calls: read; they spread the first call's"
                    + " launch skew, which collsim charges only with -g above 1, no -G and no -z, so they change"
                    + " nothing here");
        }
        return out;
    }

    /**
     * @param checkFlag      whether nccl-tests' {@code -c N} was given too
     * @param launchModelled whether the prediction charges the host's launches ({@link #given(boolean)})
     * @return one header note naming the ignored flags, or empty when none was given
     */
    public List<String> note(boolean checkFlag, boolean launchModelled) {
        List<String> g = given(launchModelled);
        if (checkFlag) {
            g.add("-c");
        }
        return g.isEmpty() ? List.of() : List.of("nccl-tests flags " + String.join(" ", g) + " read and ignored:"
                + " a prediction has no " + (launchModelled ? "" : "iterations, blocking, ") + "warm-up (not timed"
                + " by nccl-tests), graph replay, data check or report options");
    }
}
