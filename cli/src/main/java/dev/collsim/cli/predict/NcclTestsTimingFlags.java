package dev.collsim.cli.predict;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * nccl-tests' flags that shape how a run is timed or checked, accepted by {@code collsim predict} so that a pasted
 * nccl-tests command line works: a prediction has no iterations, warm-up, blocking, graph replay or data
 * check, so each is read, checked as nccl-tests would (a whole number) and named in one note. Flag letters and
 * meanings as nccl-tests' {@code src/common.cu} (2.19.6): -n iters, -w warmup_iters, -m agg_iters,
 * -N run_cycles, -z blocking, -a average, -G cudagraph, -T timeout (seconds), -C report_cputime.
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

    /**
     * @return true when {@code -G} asks for CUDA graph replay (a value above 0): the iterations are launched as one
     *         graph per GPU, so the host's per-iteration launches drop out ({@code HostLaunch})
     */
    public boolean cudaGraph() {
        return graph != null && graph > 0;
    }

    /**
     * @return the nccl-tests flags the user gave that the prediction ignores, in nccl-tests' order, e.g.
     *         {@code [-n, -w]} ({@code -G} above 0 is used: {@link #cudaGraph})
     */
    public List<String> given() {
        List<String> g = new ArrayList<>();
        Object[] values = {iters, warmup, agg, cycles, blocking, average, cudaGraph() ? null : graph, timeout, cpuTime};
        String[] names = {"-n", "-w", "-m", "-N", "-z", "-a", "-G", "-T", "-C"};
        for (int i = 0; i < names.length; i++) {
            if (values[i] != null) {
                g.add(names[i]);
            }
        }
        return g;
    }

    /**
     * @param checkFlag whether nccl-tests' {@code -c N} was given too
     * @return one header note naming the ignored flags, or empty when none was given
     */
    public List<String> note(boolean checkFlag) {
        List<String> g = given();
        if (checkFlag) {
            g.add("-c");
        }
        return g.isEmpty() ? List.of() : List.of("nccl-tests flags " + String.join(" ", g) + " read and ignored:"
                + " a prediction has no iterations, warm-up, blocking, graph replay or data check");
    }
}
