package dev.collsim.cli.flow;

import dev.collsim.cli.ExitCodes;
import dev.collsim.cli.UserError;
import dev.collsim.simulator.network.Multipath;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterSource;
import dev.collsim.units.Bandwidth;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * Options of {@code collsim predict --backend flow|links}, as a picocli mixin. Given with another backend they
 * are a usage error ({@code PredictCommand} checks); {@code --job} and {@code --completion-window} need
 * {@code --backend flow}.
 */
public final class FlowOptions {

    @Option(names = "--schedule", paramLabel = "ALGO", description = "flow/links backends: simulate this schedule"
            + " instead of NCCL's choice: ring, tree, hierarchical, pat, direct (default: the schedule of the algorithm"
            + " NCCL would choose at each size: Ring, Tree, PAT; hierarchical for NVLS, NVLSTree and CollNet; direct"
            + " for alltoall)")
    String schedule;

    @Option(names = "--channels", paramLabel = "N", description = "flow/links backends: NCCL channels the schedule"
            + " uses (default: NCCL's channel count; with --schedule, GPUs per host, so every NIC carries one channel's"
            + " host-to-host hop, twice that for tree, whose two trees run on a pair of channels sharing one NIC, as"
            + " NCCL's do)")
    Integer channels;

    @Option(names = "--fabric", paramLabel = "KIND", description = "rebuild the -c hosts on"
            + " this fabric: single-switch, fat-tree, rail-optimized (default: the cluster's own)")
    String fabric;

    @Option(names = "--oversubscription", paramLabel = "A:B", description = "with --fabric: leaf down/up ratio,"
            + " e.g. 2:1 or 2 (default 1:1)")
    String oversubscription;

    @Option(names = "--leaf-radix", paramLabel = "N", description = "with --fabric: host-facing ports per leaf"
            + " (default 32)")
    Integer leafRadix;

    @Option(names = "--planes", paramLabel = "N", description = "with --fabric: network planes (default 1)")
    Integer planes;

    @Option(names = "--rails", paramLabel = "N", description = "with --fabric: rails, i.e. compute NICs per host"
            + " that are cabled (rails 0..N-1; GPUs of the other rails reach the network through them, over PCIe or"
            + " PXN; default: all of the host type's compute NICs)")
    Integer rails;

    @Option(names = "--link-speed", paramLabel = "BW", description = "with --fabric: fabric cable speed, e.g."
            + " '400 Gb/s' (default: the NICs' speed)")
    String linkSpeed;

    @Option(names = "--routing", paramLabel = "MODE", converter = RoutingConverter.class,
            completionCandidates = RoutingNames.class, description = "flow/links backends: ${COMPLETION-CANDIDATES}:"
            + " ecmp hashes each flow onto one of the equal-cost paths, spray splits it over all (default: ecmp)")
    Multipath routing = Multipath.ECMP;

    @Option(names = "--no-pxn", description = "flow/links backends: send from the sender's own NIC even when the"
            + " receiver is on another rail (NCCL_PXN_DISABLE=1)")
    boolean noPxn;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "0", description = "seed of ECMP hashing, random"
            + " placement and random failures (default: ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--placement", paramLabel = "POLICY", description = "flow/links backends: rank placement:"
            + " contiguous, round-robin, random, or hostfile:FILE (lines 'HOST [slots=N]') (default: contiguous)")
    String placement;

    @Option(names = "--ring-order", paramLabel = "ORDER", defaultValue = "topology", description = "flow/links"
            + " backends: order of the ranks along ring, tree, hierarchical and PAT schedules: topology (default:"
            + " as NCCL builds its rings, the ranks of one host next to each other, hosts in the order of their"
            + " lowest rank) or rank (rank numbers, as if NCCL followed them: with round-robin placement every hop"
            + " then crosses hosts). Direct AllToAll always pairs ranks by number, as NCCL's p2p rounds do.")
    String ringOrder;

    @Option(names = "--fail", paramLabel = "NAME", description = "flow/links backends: take a link or device out"
            + " of service: a NIC or switch id, a cable A>B, or a directed link A>B#k; repeatable")
    List<String> fail = new ArrayList<>();

    @Option(names = "--fail-random-links", paramLabel = "N", description = "flow/links backends: fail N network"
            + " cables chosen at random with --seed")
    int failRandomLinks;

    @Option(names = "--fail-random-nics", paramLabel = "N", description = "flow/links backends: fail N NICs chosen"
            + " at random with --seed")
    int failRandomNics;

    @Option(names = "--job", paramLabel = "SPEC", description = "flow backend: another job on the same fabric,"
            + " repeatable: key=value list with coll (allreduce...), size (e.g. 1G), ranks, and optionally name,"
            + " schedule, channels, placement (contiguous|round-robin|random), start (us). Each job's slowdown"
            + " against running alone is printed. Example: --job coll=allreduce,size=1G,ranks=64,start=0")
    List<String> jobs = new ArrayList<>();

    @Option(names = "--timeline", paramLabel = "FILE", description = "flow/links backends: write every simulated"
            + " flow's start and end (CSV) to FILE")
    Path timeline;

    @Option(names = "--shard", paramLabel = "I/N", description = "flow/links backends: compute only sweep points"
            + " k with k mod N = I (0 <= I < N), e.g. a Slurm array task; join the CSV outputs with collsim merge")
    String shard;

    @Option(names = "--completion-window", paramLabel = "W", defaultValue = "0", description = "flow backend:"
            + " finish together the flows that end within W x (elapsed step time) of each other, while one job"
            + " alone is in flight (exact while --job runs overlap); 0 is exact, 0.05 trades a little accuracy for far fewer events on ECMP AllToAll; the notes print its stated"
            + " error bound, W / (1 - W) x the time (tested, not proven) (default: ${DEFAULT-VALUE})")
    double completionWindow;

    @Option(names = "--step-samples", paramLabel = "N", defaultValue = "32", description = "flow backend: a job"
            + " alone on the fabric with more than N steps (direct AllToAll on more than 8N ranks) is timed from N of"
            + " its steps, each simulated alone (with --completion-window, if given), by stratified sampling; the"
            + " notes print the error bound (3 standard errors, plus the window's bound); 0 simulates every step"
            + " (default: ${DEFAULT-VALUE})")
    int stepSamples;

    /** The options that rebuild the -c cluster on another fabric: meaningful to every backend. */
    private static final List<String> FABRIC_SHAPE = List.of("--fabric", "--oversubscription", "--leaf-radix",
            "--planes", "--rails", "--link-speed");

    /**
     * @param option an option's longest name
     * @return true for the options that rebuild the cluster's fabric, which the analytical backend uses too (it times
     *         every collective no faster than the rebuilt fabric's leaf uplinks allow)
     */
    public static boolean reshapesFabric(String option) {
        return FABRIC_SHAPE.contains(option);
    }

    /**
     * @param source the -c cluster
     * @param given  the topology loaded from it
     * @return the cluster rebuilt on --fabric (and the options that go with it), or {@code given} without --fabric
     * @throws UserError (usage) naming the option, on a value or a cluster the rebuild cannot take
     */
    public Topology fabricTopology(ClusterSource source, Topology given) {
        try {
            return FlowFabric.topology(this, source, given);
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage(), ExitCodes.USAGE);
        }
    }

    /**
     * Checks the values that have a syntax of their own before any rule about which options go together, so a typo
     * such as {@code --link-speed 400Gbps} is named first.
     *
     * @throws IllegalArgumentException naming the option, the value found and what is allowed
     */
    public void checkValues() {
        if (linkSpeed != null) {
            try {
                Bandwidth.parse(linkSpeed);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--link-speed: " + e.getMessage(), e);
            }
        }
    }

    /** @return the {@code --timeline} file, or null */
    public Path timeline() {
        return timeline;
    }

    /** @return true when {@code --fail}, {@code --fail-random-links} or {@code --fail-random-nics} was given */
    public boolean hasFailures() {
        return !fail.isEmpty() || failRandomLinks > 0 || failRandomNics > 0;
    }

    /**
     * @return true when {@code --schedule} replaces NCCL's choice (the bound column is then the bound whatever the
     *         algorithm, {@code CollectivePredictor.anyScheduleBoundBusBw})
     */
    public boolean hasSchedule() {
        return schedule != null;
    }

    /** @return true when {@code --job} was given */
    public boolean hasJobs() {
        return !jobs.isEmpty();
    }

    /**
     * @return true when schedules follow rank numbers ({@code --ring-order rank}), false for NCCL's topology order
     * @throws IllegalArgumentException on another value (names the option and the allowed values)
     */
    boolean ringOrderByRank() {
        return switch (ringOrder == null ? "topology" : ringOrder.trim().toLowerCase(Locale.ROOT)) {
            case "topology" -> false;
            case "rank" -> true;
            default -> throw new IllegalArgumentException("unknown --ring-order '" + ringOrder
                    + "'; allowed: topology, rank");
        };
    }

    /** @return the placement policy text, contiguous by default */
    String placementText() {
        return placement == null ? "contiguous" : placement;
    }

    /** The {@code --routing} values as the docs write them: lower case. */
    static final class RoutingNames implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return Arrays.stream(Multipath.values()).map(Multipath::yamlName).iterator();
        }
    }

    /** Reads {@code --routing} case-insensitively ({@link Multipath#parse}); an unknown value names the allowed. */
    static final class RoutingConverter implements CommandLine.ITypeConverter<Multipath> {
        @Override
        public Multipath convert(String value) {
            try {
                return Multipath.parse(value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }
}
