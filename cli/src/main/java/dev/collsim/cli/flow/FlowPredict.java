package dev.collsim.cli.flow;

import dev.collsim.io.InputException;
import dev.collsim.nccl.BusBandwidth;
import dev.collsim.nccl.Collective;
import dev.collsim.simulator.FlowPredictor;
import dev.collsim.simulator.Prediction;
import dev.collsim.simulator.network.AnalyticalNetwork;
import dev.collsim.simulator.network.FlowNetwork;
import dev.collsim.simulator.network.Job;
import dev.collsim.simulator.network.JobTiming;
import dev.collsim.simulator.network.LinkUsage;
import dev.collsim.simulator.network.NetworkBackend;
import dev.collsim.simulator.network.NetworkModel;
import dev.collsim.simulator.network.Placement;
import dev.collsim.simulator.network.Timing;
import dev.collsim.simulator.schedule.Schedule;
import dev.collsim.simulator.schedule.ScheduleAlgorithm;
import dev.collsim.simulator.schedule.DirectAllToAllSchedule;
import dev.collsim.simulator.schedule.HierarchicalSchedule;
import dev.collsim.simulator.schedule.RingSchedule;
import dev.collsim.simulator.schedule.TreeSchedule;
import dev.collsim.simulator.schedule.ScheduleAlgorithms;
import dev.collsim.simulator.schedule.ScheduleRequest;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Link;
import dev.collsim.topology.Topology;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Runs {@code collsim predict --backend flow|links}: for every size of the sweep (or of this shard), builds the
 * schedule, places it and the other jobs on the fabric, and times them with the flow backend (congestion-aware)
 * or its congestion-unaware twin ({@code links}). Returns one {@link Prediction} per size, in the table format of
 * the analytical backend, plus comment lines: busiest links and each job's slowdown.
 */
public final class FlowPredict {

    /**
     * The outcome of a run.
     *
     * @param predictions one per simulated size
     * @param header      settings lines for the table header
     * @param linksBusBw  per prediction: the links backend's busBw (each transfer alone on its route), GB/s
     * @param notes       per-size lines: busiest links, jobs' slowdowns
     */
    public record Result(List<Prediction> predictions, List<Double> linksBusBw, List<String> header,
            List<String> notes) {
    }

    /** The physical bound of a rank set on a topology, as the analytical backend computes it. */
    @FunctionalInterface
    public interface Bound {
        /**
         * @param topology the fabric the run uses
         * @param ranks    GPU of each rank
         * @return best busBw the links allow, GB/s ({@code Double.POSITIVE_INFINITY} when none)
         */
        double busBw(Topology topology, List<Gpu> ranks);
    }

    private final FlowOptions o;
    private final boolean congestionAware;

    /**
     * @param options         the parsed options
     * @param congestionAware true for the flow backend, false for the links backend
     */
    public FlowPredict(FlowOptions options, boolean congestionAware) {
        this.o = options;
        this.congestionAware = congestionAware;
    }

    /**
     * @param clusterText the -c value or null
     * @param given       predict's topology
     * @param rankList    predict's ranks (their count is the job size; -g limits the GPUs used per host)
     * @param c           collective
     * @param sizes       the sweep
     * @param bound       the physical bound (the analytical table's {@code bound}), computed once on the fabric and
     *                    ranks the run uses
     * @return predictions (their physical bound from {@code bound}), the links backend's busBw and notes
     * @throws IllegalArgumentException on any bad option (the message names it)
     * @throws InputException           on a bad hostfile
     * @throws IOException              when the timeline or hostfile cannot be read or written
     */
    public Result run(String clusterText, Topology given, List<Gpu> rankList, Collective c, List<Long> sizes,
            Bound bound) throws InputException, IOException {
        if (o.timeline != null) {
            OutputPaths.check(o.timeline, "--timeline");
        }
        Topology topo = FlowFabric.topology(o, clusterText, given);
        FlowFabric.Failures failed = FlowFabric.failures(o, topo);
        Set<Link> down = failed.links();
        NetworkModel model = FlowFabric.model(o, topo, down);
        int maxLocal = rankList.stream().mapToInt(Gpu::index).max().orElse(0);
        List<Gpu> pool = new ArrayList<>(topo.gpus().stream().filter(g -> g.index() <= maxLocal).toList());
        List<Gpu> placed = place(o.placementText(), pool, rankList.size(), "--placement", topo.hostCount());
        pool.removeAll(placed);
        List<JobSpec> specs = new ArrayList<>();
        List<List<Gpu>> others = new ArrayList<>();
        for (int i = 0; i < o.jobs.size(); i++) {
            JobSpec s = JobSpec.parse(o.jobs.get(i), i + 1);
            List<Gpu> g = place(s.placement(), pool, s.ranks(), "--job " + s.name(), topo.hostCount());
            pool.removeAll(g);
            specs.add(s);
            others.add(g);
        }
        ScheduleAlgorithm algo = o.schedule == null ? ScheduleAlgorithms.defaultFor(c)
                : ScheduleAlgorithms.byName(o.schedule);
        requireSupport(algo, c, "--schedule " + o.schedule);
        List<Gpu> mainRanks = ordered(algo, placed);
        for (JobSpec sp : specs) {
            requireSupport(sp.schedule() == null ? ScheduleAlgorithms.defaultFor(sp.collective())
                    : ScheduleAlgorithms.byName(sp.schedule()), sp.collective(), "--job " + sp.name());
        }
        int perHost = Placement.ranksPerHost(mainRanks);
        // default: every NIC carries one channel's host-to-host hop; a tree needs two channels per NIC (NCCL runs
        // each search channel once per tree of its double binary tree)
        List<Integer> groups = algo instanceof RingSchedule && perHost == 1 ? hostGroups(mainRanks) : List.of();
        int widest = groups.stream().mapToInt(Integer::intValue).max().orElse(perHost);
        int nCh = o.channels != null ? o.channels : algo instanceof TreeSchedule ? 2 * perHost : widest;
        if (nCh < 1) {
            throw new IllegalArgumentException("--channels must be >= 1, got " + nCh);
        }
        if (!(o.completionWindow >= 0 && o.completionWindow < 1)) {
            throw new IllegalArgumentException("--completion-window must be in [0, 1), got " + o.completionWindow);
        }
        NetworkBackend backend = congestionAware ? new FlowNetwork(o.timeline != null, 3, o.completionWindow)
                : new AnalyticalNetwork(o.timeline != null, 3);
        int[] shard = shard(o.shard);
        double physical = bound.busBw(topo, mainRanks);
        List<Prediction> out = new ArrayList<>();
        List<Double> linksBusBw = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        List<TimelineCsv.Point> timeline = new ArrayList<>();
        Map<Integer, Double> aloneCache = new HashMap<>();
        for (int k = 0; k < sizes.size(); k++) {
            if (k % shard[1] != shard[0]) {
                continue;
            }
            long size = sizes.get(k);
            Schedule main = algo.schedule(new ScheduleRequest(c, size, mainRanks.size(), nCh, perHost,
                    o.rails != null && perHost > 1 && o.rails < perHost ? o.rails : 0, groups));
            List<Job> jobs = new ArrayList<>();
            jobs.add(new Job(c.testName(), main, mainRanks, 0));
            for (int j = 0; j < specs.size(); j++) {
                jobs.add(otherJob(specs.get(j), others.get(j)));
            }
            Timing t = backend.time(jobs, model);
            double time = t.jobs().get(0).timeUs();
            double aloneUs = congestionAware ? new AnalyticalNetwork().time(jobs.subList(0, 1), model).jobs().get(0)
                    .timeUs() : time;
            linksBusBw.add(aloneUs > 0 ? BusBandwidth.busBw(c, mainRanks.size(), size, aloneUs)
                    : Double.POSITIVE_INFINITY);
            String busiest = LinkUsage.describe(t.bottlenecks());
            out.add(FlowPredictor.fromTime(c, size, mainRanks.size(), ScheduleAlgorithms.ncclAlgorithm(algo), null,
                    nCh, time, -1, physical,
                    (algo instanceof HierarchicalSchedule ? "hier:rs-ar-ag " : "") + backend.name() + ": " + busiest));
            notes.add(String.format(Locale.ROOT, "size %d: busiest links %s", size, busiest));
            if (specs.size() > 0) {
                for (int j = 0; j < jobs.size(); j++) {
                    int key = j == 0 ? -1 - k : j;
                    final int jj = j;
                    double alone = aloneCache.computeIfAbsent(key, x -> backend.time(List.of(jobs.get(jj)), model)
                            .jobs().get(0).timeUs());
                    JobTiming jt = t.jobs().get(j);
                    notes.add(String.format(Locale.ROOT, "size %d: job %s start %.2f us end %.2f us: %.2f us, alone"
                            + " %.2f us, slowdown %.3f", size, jt.name(), jt.startUs(), jt.endUs(), jt.timeUs(),
                            alone, alone > 0 ? jt.timeUs() / alone : 1.0));
                }
            }
            if (o.timeline != null) {
                timeline.add(new TimelineCsv.Point(size, t.timeline()));
            }
        }
        if (o.timeline != null) {
            TimelineCsv.write(o.timeline, timeline);
        }
        return new Result(out, linksBusBw, header(topo, failed, algo, nCh, mainRanks, specs), notes);
    }

    /** @throws IllegalArgumentException naming the option and the schedules that support the collective */
    private static void requireSupport(ScheduleAlgorithm a, Collective c, String option) {
        if (!a.supports(c)) {
            throw new IllegalArgumentException(option + ": " + a.name() + " has no schedule for " + c.ncclName()
                    + "; " + ScheduleAlgorithms.supporting(c));
        }
    }

    /**
     * @return the GPUs in the order the schedule walks them: NCCL's topology order (ranks of a host together) unless
     *         {@code --ring-order rank}; direct AllToAll keeps rank order (NCCL's p2p rounds pair rank numbers)
     */
    private List<Gpu> ordered(ScheduleAlgorithm algo, List<Gpu> ranks) {
        if (o.ringOrderByRank() || algo instanceof DirectAllToAllSchedule) {
            return ranks;
        }
        return Placement.topologyOrder(ranks);
    }

    private Job otherJob(JobSpec s, List<Gpu> placed) {
        ScheduleAlgorithm a = s.schedule() == null ? ScheduleAlgorithms.defaultFor(s.collective())
                : ScheduleAlgorithms.byName(s.schedule());
        List<Gpu> gpus = ordered(a, placed);
        int perHost = Placement.ranksPerHost(gpus);
        Schedule sch = a.schedule(new ScheduleRequest(s.collective(), s.sizeBytes(), gpus.size(),
                s.channels() > 0 ? s.channels() : perHost, perHost));
        return new Job(s.name(), sch, gpus, s.startUs());
    }

    private List<Gpu> place(String policy, List<Gpu> pool, int n, String option, int hostCount)
            throws InputException {
        if (policy.startsWith("hostfile:")) {
            Path file = hostfile(policy.substring("hostfile:".length()).trim(), option);
            String text;
            try {
                text = Files.readString(file);
            } catch (IOException e) {
                throw dev.collsim.cli.InputFiles.failed(file, e, option);
            }
            List<Gpu> g = Placement.fromHostfile(file.toString(), text, pool, hostCount);
            if (g.size() < n) {
                throw new IllegalArgumentException("hostfile " + file + " offers " + g.size() + " GPUs but " + n
                        + " ranks are needed");
            }
            return g.subList(0, n);
        }
        return Placement.place(FlowOptions.policy(policy), pool, n, o.seed);
    }

    /**
     * @return the hostfile named after {@code hostfile:}
     * @throws IllegalArgumentException (usage) when no name is given
     * @throws dev.collsim.cli.UserError (exit 3) when it is missing, unreadable or a folder
     */
    private static Path hostfile(String name, String option) {
        if (name.isEmpty()) {
            throw new IllegalArgumentException(option + " hostfile: needs a file name, e.g. hostfile:hosts.txt"
                    + " (lines 'HOST [slots=N]')");
        }
        Path file = Path.of(name);
        dev.collsim.cli.InputFiles.require(file, option);
        if (Files.isDirectory(file)) {
            throw new dev.collsim.cli.UserError(file + ": is a directory, not a hostfile (given to " + option + ")",
                    dev.collsim.cli.ExitCodes.INPUT);
        }
        return file;
    }

    static int[] shard(String text) {
        if (text == null) {
            return new int[] {0, 1};
        }
        String[] p = text.split("/");
        try {
            int i = Integer.parseInt(p[0].trim());
            int n = Integer.parseInt(p[1].trim());
            if (p.length == 2 && n >= 1 && i >= 0 && i < n) {
                return new int[] {i, n};
            }
        } catch (NumberFormatException | ArrayIndexOutOfBoundsException e) {
            // reported below
        }
        throw new IllegalArgumentException("--shard '" + text + "': use I/N with 0 <= I < N, e.g. 0/4");
    }

    /**
     * @return the sizes of the runs of consecutive ranks on one host when the ranks come host by host in unequal
     *         runs (a ring can still rotate its channels inside each), else empty (equal groups, one rank per host,
     *         or a host that appears in two runs)
     */
    private static List<Integer> hostGroups(List<Gpu> ranks) {
        List<Integer> sizes = new ArrayList<>();
        java.util.Set<Integer> seen = new java.util.HashSet<>();
        for (int i = 0; i < ranks.size(); i++) {
            if (i > 0 && ranks.get(i).host() == ranks.get(i - 1).host()) {
                sizes.set(sizes.size() - 1, sizes.get(sizes.size() - 1) + 1);
            } else if (!seen.add(ranks.get(i).host())) {
                return List.of();
            } else {
                sizes.add(1);
            }
        }
        return sizes.size() == ranks.size() ? List.of() : List.copyOf(sizes);
    }

    /**
     * The schedules rotate channels inside equal host groups; when the placement gives hosts different numbers of
     * ranks (e.g. random placement of fewer ranks than GPUs) they cannot, and every channel crosses hosts through
     * the same GPUs: a slower result than NCCL, which builds its rings per host whatever the counts.
     *
     * @return a one-line warning naming the counts, or empty
     */
    private static java.util.Optional<String> unevenHostsWarning(List<Gpu> ranks) {
        Map<Integer, Integer> perHost = new java.util.TreeMap<>();
        ranks.forEach(g -> perHost.merge(g.host(), 1, Integer::sum));
        if (Placement.ranksPerHost(ranks) > 1 || perHost.size() == ranks.size()) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of("Warning: the placement gives hosts different numbers of ranks (ranks per host "
                + perHost.values() + "), so the schedule cannot spread channels over each host's GPUs and NICs and"
                + " uses them as one rank per host group: slower than NCCL would be. Use --placement contiguous, or a"
                + " hostfile with equal slots per host");
    }

    private List<String> header(Topology topo, FlowFabric.Failures failed, ScheduleAlgorithm algo, int nCh, List<Gpu> ranks,
            List<JobSpec> specs) {
        List<String> h = new ArrayList<>();
        h.add("Backend: " + (congestionAware ? "flow (routes every transfer, max-min fair link sharing, event-driven)"
                : "links (congestion-unaware: each transfer at its route's bottleneck bandwidth)")
                + "; nothing was run");
        h.add(String.format(Locale.ROOT, "Fabric: %s (%d hosts, %d GPUs, %d directed links), %d failed directed"
                + " links", topo.name(), topo.hostCount(), topo.gpus().size(), topo.graph().edgeSet().size(),
                failed.links().size()));
        FlowFabric.oversubscriptionWarning(o, topo).ifPresent(h::add);
        if (!failed.names().isEmpty()) {
            h.add("Failed: " + String.join(", ", failed.names()) + (o.failRandomLinks + o.failRandomNics > 0
                    ? " (random draws with seed " + o.seed + ")" : ""));
        }
        List<Integer> groups = algo instanceof RingSchedule && Placement.ranksPerHost(ranks) == 1 ? hostGroups(ranks)
                : List.of();
        h.add(String.format(Locale.ROOT, "Schedule: %s, %d channels, %d ranks (%s), placement %s;"
                + " routing %s seed %d, PXN %s%s", algo.name(), nCh, ranks.size(), groups.isEmpty()
                        ? Placement.ranksPerHost(ranks) + " per host group" : "host groups of " + groups,
                o.placementText(), o.routing, o.seed, o.noPxn ? "off" : "on", o.shard == null ? ""
                        : "; shard " + o.shard));
        if (!(algo instanceof RingSchedule)) {
            unevenHostsWarning(ranks).ifPresent(h::add);
        }
        for (JobSpec s : specs) {
            h.add(String.format(Locale.ROOT, "Other job %s: %s %d B on %d ranks (%s), start %.2f us", s.name(),
                    s.collective().testName(), s.sizeBytes(), s.ranks(), s.placement(), s.startUs()));
        }
        h.add("algo column = schedule; nccl_est -1 (NCCL has no model of contention); bound = the physical bound of"
                + " the analytical backend (GPU and NIC links, non-blocking fabric); links = the links backend's busbw"
                + " (this schedule, each transfer alone on its route, no sharing)");
        return h;
    }
}
