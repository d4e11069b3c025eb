package dev.collsim.validation.ingest;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How the benchmark process drove its GPUs, as the file says: nccl-tests' {@code # nThread T nGpus G ... iters: N agg
 * iters: M ... graph: N} line (nccl-tests 2.19.6 {@code src/common.cu}) with its {@code # Blocking Enabled} line
 * ({@code src/util.cu writeDeviceReport}, printed for {@code -z} above 0), the {@code config} of a JSON result
 * ({@code nthreads}, {@code ngpus}, {@code graph}, {@code blocking_collectives}), or
 * {@code -t}/{@code -g}/{@code -G}/{@code -n}/{@code -m}/{@code -z} on the {@code #@ command:} header line.
 *
 * @param threads        threads per process ({@code -t}), 0 when the file does not say
 * @param gpusPerThread  GPUs per thread ({@code -g}), 0 when the file does not say
 * @param graphLaunches  CUDA graph launches ({@code -G}; 0 = no graph, also when the file does not say)
 * @param iterations     timed calls per run, {@code iters x agg_iters} ({@code -n}, {@code -m}), 0 when the file does
 *                       not say
 * @param blocking       whether each call waits for the GPUs before the next ({@code -z} above 0; false also when
 *                       the file does not say)
 */
public record LaunchShape(int threads, int gpusPerThread, int graphLaunches, int iterations, boolean blocking) {

    private static final Pattern PERF_BINARY = Pattern.compile("_perf\\b(.*)$");
    private static final Pattern FLAG = Pattern.compile(
            "(?:^|\\s)(-[gtGnmz]|--ngpus|--nthreads|--cudagraph|--iters|--agg_iters|--blocking)[\\s=]+(\\d{1,6})\\b");

    /** What follows a binary when it is described, not run: a word, a parenthesis or a comma before any flag. */
    private static final Pattern PROSE_AFTER_BINARY = Pattern.compile("\\s*[(,\\p{Alpha}]");

    /** Nothing known. */
    public static final LaunchShape UNKNOWN = new LaunchShape(0, 0, 0, 0, false);

    /** @throws IllegalArgumentException on a negative count */
    public LaunchShape {
        if (threads < 0 || gpusPerThread < 0 || graphLaunches < 0 || iterations < 0) {
            throw new IllegalArgumentException("counts must be >= 0, got -t " + threads + " -g " + gpusPerThread
                    + " -G " + graphLaunches + " iterations " + iterations);
        }
    }

    /**
     * A shape of calls that do not wait for the GPUs (nccl-tests' default, {@code -z 0}).
     *
     * @param threads       threads per process ({@code -t}), 0 when the file does not say
     * @param gpusPerThread GPUs per thread ({@code -g}), 0 when the file does not say
     * @param graphLaunches CUDA graph launches ({@code -G}), 0 for none
     * @param iterations    timed calls per run, 0 when the file does not say
     * @throws IllegalArgumentException on a negative count
     */
    public LaunchShape(int threads, int gpusPerThread, int graphLaunches, int iterations) {
        this(threads, gpusPerThread, graphLaunches, iterations, false);
    }

    /**
     * A shape whose timed calls per run the file does not say.
     *
     * @param threads       threads per process ({@code -t}), 0 when the file does not say
     * @param gpusPerThread GPUs per thread ({@code -g}), 0 when the file does not say
     * @param graphLaunches CUDA graph launches ({@code -G}), 0 for none
     * @throws IllegalArgumentException on a negative count
     */
    public LaunchShape(int threads, int gpusPerThread, int graphLaunches) {
        this(threads, gpusPerThread, graphLaunches, 0);
    }

    /**
     * The shape a nccl-tests command line gives: {@code -g}, {@code -t}, {@code -G}, {@code -n}, {@code -m},
     * {@code -z} (and their long names) after the {@code *_perf} binary, as nccl-tests 2.19.6 {@code src/common.cu}
     * reads them; a flag left out has nccl-tests' default (1 thread, 1 GPU, no graph, 20 iterations of 1 call, not
     * blocking). A text without a {@code *_perf} binary says nothing, and so does one whose
     * binary is followed by words rather than its arguments (a description such as {@code all_reduce_perf (sizes 1
     * MiB..8 GiB); exact args not shown}: what follows the binary starts with neither a flag nor a shell separator),
     * since its {@code -g} may be among the arguments left out.
     *
     * @param command the command line, e.g. {@code NCCL_ALGO=Ring ./build/all_reduce_perf -b 8 -e 8G -f 2 -g 8}
     * @return the shape, or {@link #UNKNOWN}
     */
    public static LaunchShape fromCommand(String command) {
        Matcher b = PERF_BINARY.matcher(command == null ? "" : command);
        if (!b.find() || PROSE_AFTER_BINARY.matcher(b.group(1)).lookingAt()) {
            return UNKNOWN;
        }
        int threads = 1;
        int gpus = 1;
        int graph = 0;
        int iters = 20;
        int agg = 1;
        boolean blocking = false;
        Matcher m = FLAG.matcher(b.group(1));
        while (m.find()) {
            int v = Integer.parseInt(m.group(2));
            switch (m.group(1)) {
                case "-g", "--ngpus" -> gpus = v;
                case "-t", "--nthreads" -> threads = v;
                case "-n", "--iters" -> iters = v;
                case "-m", "--agg_iters" -> agg = v;
                case "-z", "--blocking" -> blocking = v > 0;
                default -> graph = v;
            }
        }
        return gpus < 1 || threads < 1 ? UNKNOWN
                : new LaunchShape(threads, gpus, graph, timedCalls(iters, agg), blocking);
    }

    /**
     * Timed calls per run as nccl-tests 2.19.6 {@code src/common.cu BenchTime} divides by them: {@code iters x
     * agg_iters}. nccl-tests reads both with {@code strtol} and checks neither, so a file may say 0 (its times are
     * then the elapsed time over 0) or a count whose product does not fit nccl-tests' {@code int}; such a run does
     * not say how many calls it timed.
     *
     * @param iters nccl-tests {@code -n} ({@code iters:} of the {@code # nThread} line, {@code iterations} of
     *              {@code -J}'s {@code config})
     * @param agg   nccl-tests {@code -m} ({@code agg iters:}, {@code aggregated_iterations})
     * @return {@code iters x agg}, or 0 (not said) when either is below 1 or the product is above
     *         {@link Integer#MAX_VALUE}
     */
    public static int timedCalls(long iters, long agg) {
        if (iters < 1 || agg < 1 || iters > Integer.MAX_VALUE / agg) {
            return 0;
        }
        return (int) (iters * agg);
    }

    /**
     * @param wait whether each call waits for the GPUs ({@code -z} above 0, a {@code # Blocking Enabled} line)
     * @return this shape with that
     */
    public LaunchShape withBlocking(boolean wait) {
        return new LaunchShape(threads, gpusPerThread, graphLaunches, iterations, wait);
    }

    /** @return true when the file gave the GPUs per thread */
    public boolean known() {
        return gpusPerThread > 0;
    }
}
