package dev.collsim.validation.ingest;

import dev.collsim.io.NumberField;
import dev.collsim.nccl.Collective;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a reader knows about the run it is inside: section title, collective claims, rank lines, NCCL log lines.
 * Mutable; one per run; package-private.
 */
final class RunContext {

    private static final Pattern NGPUS = Pattern.compile("nGpus\\s+(\\d+)");
    private static final Pattern NTHREAD = Pattern.compile("nThread\\s+(\\d+)");
    private static final Pattern GRAPH = Pattern.compile("graph:\\s*(\\d+)");
    /** {@code iters: N} of the line, not {@code warmup iters:} nor {@code agg iters:}. */
    private static final Pattern ITERS = Pattern.compile("(?<!warmup )(?<!agg )\\biters:\\s*(\\d+)");
    private static final Pattern AGG_ITERS = Pattern.compile("\\bagg iters:\\s*(\\d+)");
    /**
     * The line nccl-tests prints under its {@code # nThread} line when {@code -z} is above 0 (2.19.6 {@code src/util.cu
     * writeDeviceReport}; {@code src/common.cu} before 2.19): {@code # Blocking Enabled: wait ...}.
     */
    static final String BLOCKING = "# Blocking Enabled";

    /** A claim about the collective with the line that made it. */
    record Claim(Collective collective, int line, String source) {
    }

    String title = "";
    int titleLine;
    Claim strong;
    /** An nccl-tests binary the run names that collsim does not model ({@link Claims#unmodelledBinary}), or "". */
    String unmodelled = "";
    /** The line that names {@link #unmodelled}. */
    int unmodelledLine;
    final List<Claim> weak = new ArrayList<>();
    final List<RankInfo> ranks = new ArrayList<>();
    /**
     * Whether the author cut the rank lines short: a {@code ...} line right after the last rank line listed (the
     * CoreWeave README lists ranks 0-4 of a 128-rank run, then {@code ...}), so the lines are a lower bound on the ranks
     * and hosts.
     */
    boolean ranksCut;
    NcclLogParser log = new NcclLogParser();
    /** The release of nccl-tests' {@code nccl-library=} code; unknown when not seen. */
    NcclRelease library = NcclRelease.UNKNOWN;
    int nGpusPerThread;
    /** nThread of nccl-tests' {@code # nThread ...} line; 0 when not seen. */
    int nThreads;
    /** graph of nccl-tests' {@code # nThread ...} line (CUDA graph launches); 0 when not seen. */
    int graphLaunches;
    /** iters x agg iters of nccl-tests' {@code # nThread ...} line (timed calls per run); 0 when not seen. */
    int iterations;
    /** Whether nccl-tests printed its {@link #BLOCKING} line (each call waits for the GPUs, {@code -z}). */
    boolean blocking;
    /** maxBytes of nccl-tests' {@code # nThread ...} line, bytes; 0 when not seen. */
    long maxBytes;
    final List<Note> notes = new ArrayList<>();
    /** NCCL_* settings a {@code # collsim settings: K=V ...} line set for this run (collsim's sweep files). */
    final Map<String, String> settings = new LinkedHashMap<>();

    /** Keeps the nccl-tests binary collsim does not model that the text at this line names, if any. */
    void unmodelledClaim(String text, int line) {
        Claims.unmodelledBinary(text).ifPresent(b -> {
            unmodelled = b;
            unmodelledLine = line;
        });
    }

    /** Adds weak claims for every collective named in the text. */
    void weakClaims(Set<Collective> named, int line, String source) {
        if (named.size() == 1) {
            weak.add(new Claim(named.iterator().next(), line, source));
        }
    }

    /** @return the collectives weak claims name, in order, without duplicates */
    Set<Collective> weakSet() {
        Set<Collective> s = EnumSet.noneOf(Collective.class);
        weak.forEach(c -> s.add(c.collective()));
        return s;
    }

    /**
     * Keeps nThread, nGpus, iters x agg iters and graph of nccl-tests' {@code # nThread T nGpus G ... iters: N agg
     * iters: M ... graph: N} line, or that its {@link #BLOCKING} line was seen.
     *
     * @param t the line
     * @throws NumberField.Refused when a count does not fit
     */
    void nThreadLine(String t) {
        if (t.startsWith(BLOCKING)) {
            blocking = true;
            return;
        }
        Matcher m;
        if ((m = NGPUS.matcher(t)).find()) {
            nGpusPerThread = NumberField.count(m, 1, "nGpus");
        }
        if ((m = NTHREAD.matcher(t)).find()) {
            nThreads = NumberField.count(m, 1, "nThread");
        }
        if ((m = GRAPH.matcher(t)).find()) {
            graphLaunches = NumberField.count(m, 1, "graph");
        }
        if ((m = ITERS.matcher(t)).find()) {
            int iters = NumberField.count(m, 1, "iters");
            Matcher a = AGG_ITERS.matcher(t);
            int agg = a.find() ? NumberField.count(a, 1, "agg iters") : 1;
            iterations = LaunchShape.timedCalls(iters, agg);
        }
    }

    /**
     * @param header the file's provenance header
     * @return the launch shape nccl-tests' {@code # nThread} line gave, else the one of a command in the run's
     *         section title (a page of several runs titles each with its own command line, while the header's
     *         {@code command} lists them all), else the one of the header's {@code command}, else
     *         {@link LaunchShape#UNKNOWN}
     */
    LaunchShape launch(FileHeader header) {
        if (nGpusPerThread > 0) {
            return new LaunchShape(nThreads, nGpusPerThread, graphLaunches, iterations, blocking);
        }
        LaunchShape titled = LaunchShape.fromCommand(title);
        LaunchShape s = titled.known() ? titled : LaunchShape.fromCommand(header.text("command"));
        return blocking && s.known() ? s.withBlocking(true) : s;
    }

    /** @return a fresh context that keeps nothing but the title (for a second table in the same section) */
    RunContext continuation() {
        RunContext c = new RunContext();
        c.title = title;
        c.titleLine = titleLine;
        c.strong = strong;
        c.unmodelled = unmodelled;
        c.unmodelledLine = unmodelledLine;
        c.weak.addAll(weak);
        c.ranks.addAll(ranks);
        c.ranksCut = ranksCut;
        c.library = library;
        c.maxBytes = maxBytes;
        c.nGpusPerThread = nGpusPerThread;
        c.nThreads = nThreads;
        c.graphLaunches = graphLaunches;
        c.iterations = iterations;
        c.blocking = blocking;
        c.settings.putAll(settings);
        return c;
    }
}
