package dev.collsim.cli.flow;

import dev.collsim.cli.ExitCodes;
import dev.collsim.cli.InputFiles;
import dev.collsim.cli.UserError;
import dev.collsim.io.InputException;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.CollectivePredictor;
import dev.collsim.simulator.FlowChoice;
import dev.collsim.simulator.FlowJob;
import dev.collsim.simulator.FlowRequest;
import dev.collsim.simulator.FlowSweep;
import dev.collsim.simulator.InvalidRequestException;
import dev.collsim.simulator.Prediction;
import dev.collsim.simulator.network.Placement;
import dev.collsim.simulator.network.RankPlacement;
import dev.collsim.simulator.network.RoutingOptions;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Runs {@code collsim predict --backend flow|links}: turns the options into a {@link FlowRequest} (fabric,
 * failures, placement, routing, schedule and channel overrides, other jobs) and hands it to the simulator's
 * {@link FlowSweep}, which simulates NCCL's choice of algorithm, protocol and channels unless {@code --schedule} or
 * {@code --channels} replace it. Returns one {@link Prediction} per size, in the table format of
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
     * @param source      predict's -c cluster (its spec is the base --fabric rebuilds)
     * @param given       predict's topology
     * @param rankList    predict's ranks (their count is the job size; -g limits the GPUs used per host)
     * @param c           collective
     * @param type        element type (for NCCL's choice)
     * @param op          reduction operator (for NCCL's choice)
     * @param sizes       the sweep
     * @param ncclEnv     NCCL_* settings (for NCCL's choice)
     * @param chooser     NCCL's model: its algorithm, protocol and channels are simulated unless --schedule or
     *                    --channels replace them; its physical bound is the table's {@code bound}
     * @return predictions, the links backend's busBw and notes
     * @throws UserError               (usage) on a bad option (the message names it) or a request the flow backend
     *                                  refuses (too few GPUs, no working path, no flow schedule for NCCL's choice)
     * @throws InputException           on a bad hostfile
     * @throws IOException              when the timeline or hostfile cannot be read or written
     */
    public Result run(ClusterSource source, Topology given, List<Gpu> rankList, Collective c, DataType type, RedOp op,
            List<Long> sizes, NcclSettings ncclEnv, CollectivePredictor chooser)
            throws InputException, IOException {
        if (rankList.size() < 2) {
            throw new UserError("--backend flow and links need at least 2 ranks; found " + rankList.size() + " (one"
                    + " rank sends nothing between GPUs, so there is no transfer to simulate: use --backend analytical,"
                    + " which times the local copy)", ExitCodes.USAGE);
        }
        if (o.timeline != null) {
            OutputPaths.check(o.timeline, "--timeline");
        }
        Topology topo;
        FlowFabric.Failures failed;
        List<JobSpec> specs = new ArrayList<>();
        FlowRequest request;
        try {
            topo = FlowFabric.topology(o, source, given);
            failed = FlowFabric.failures(o, topo);
            FlowChoice.Override override = override("--schedule " + o.schedule, o.schedule, o.channels, c);
            List<FlowJob> jobs = new ArrayList<>();
            for (int i = 0; i < o.jobs.size(); i++) {
                JobSpec s = JobSpec.parse(o.jobs.get(i), i + 1);
                specs.add(s);
                jobs.add(new FlowJob(s.name(), s.collective(), s.sizeBytes(), s.ranks(), placement(s.placement(),
                        "--job " + s.name()), override("--job " + s.name(), s.schedule(), s.channels() > 0 ? s.channels()
                                : null, s.collective()), s.startUs()));
            }
            int[] shard = shard(o.shard);
            request = new FlowRequest(topo, rankList, c, type, op, sizes, ncclEnv, placement(o.placementText(),
                    "--placement"), override, o.ringOrderByRank(), o.rails == null ? 0 : o.rails,
                    new RoutingOptions(o.routing, !o.noPxn, o.seed), failed.links(), jobs, congestionAware,
                    o.timeline != null, o.completionWindow, o.stepSamples, shard[0], shard[1]);
        } catch (IllegalArgumentException e) {
            // every flow option (--fabric, --fail-*, --job, --placement, --schedule, --shard) names itself
            throw new UserError(e.getMessage(), ExitCodes.USAGE);
        }
        FlowSweep.Result r;
        try {
            r = new FlowSweep(chooser).run(request);
        } catch (InvalidRequestException e) {
            throw new UserError(e.getMessage(), ExitCodes.USAGE);
        }
        if (o.timeline != null) {
            List<TimelineCsv.Point> points = new ArrayList<>();
            for (int k = 0; k < r.predictions().size(); k++) {
                points.add(new TimelineCsv.Point(r.predictions().get(k).sizeBytes(), r.timeline().get(k)));
            }
            TimelineCsv.write(o.timeline, points);
        }
        boolean trays = source != null && source.spec() != null && source.spec().ofTrays();
        return new Result(r.predictions(), r.linksBusBw(), header(topo, trays, failed, r, specs), r.notes());
    }

    /** @throws IllegalArgumentException naming the option: unknown schedule, one that does not support c, or channels below 1 */
    private static FlowChoice.Override override(String option, String schedule, Integer channels, Collective c) {
        if (channels != null && channels < 1) {
            throw new IllegalArgumentException("--channels must be >= 1, got " + channels);
        }
        try {
            return FlowChoice.Override.of(schedule, channels, c);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(option + ": " + e.getMessage());
        }
    }

    private static RankPlacement placement(String policy, String option) {
        if (policy.startsWith("hostfile:")) {
            Path file = hostfile(policy.substring("hostfile:".length()).trim(), option);
            try {
                return RankPlacement.hostfile(file.toString(), Files.readString(file));
            } catch (IOException e) {
                throw InputFiles.failed(file, e, option);
            }
        }
        return new RankPlacement(Placement.Policy.parse(policy), null, null);
    }

    /**
     * @return the hostfile named after {@code hostfile:}
     * @throws IllegalArgumentException (usage) when no name is given
     * @throws UserError (exit 3) when it is missing, unreadable or a folder
     */
    private static Path hostfile(String name, String option) {
        if (name.isEmpty()) {
            throw new IllegalArgumentException(option + " hostfile: needs a file name, e.g. hostfile:hosts.txt"
                    + " (lines 'HOST [slots=N]')");
        }
        Path file = Path.of(name);
        InputFiles.require(file, option);
        if (Files.isDirectory(file)) {
            throw new UserError(file + ": is a directory, not a hostfile (given to " + option + ")",
                    ExitCodes.INPUT);
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

    /** @param trays true when the cluster's hosts are trays of a rack-scale NVLink domain (NVL72): said in trays */
    private List<String> header(Topology topo, boolean trays, FlowFabric.Failures failed, FlowSweep.Result r,
            List<JobSpec> specs) {
        List<String> h = new ArrayList<>();
        h.add("Backend: " + (congestionAware ? "flow (routes every transfer, max-min fair link sharing, event-driven)"
                : "links (no sharing: each transfer at its route's bottleneck bandwidth; a step at least its"
                        + " busiest link's bytes over its capacity)")
                + "; nothing was run");
        Topology sim = r.fabric();
        long built = sim.gpus().stream().mapToInt(Gpu::host).distinct().count();
        // a cluster described once is simulated on the ranks' hosts only (their leaves, every spine)
        String hosts = trays ? "trays" : "hosts";
        String part = built == topo.hostCount() ? "" : String.format(Locale.ROOT, " in the %d %s of the ranks"
                + " (their leaves and every spine; the other %s are not built)", built, hosts, hosts);
        h.add(String.format(Locale.ROOT, "Fabric: %s (%d %s, %d GPUs, %d directed links%s), %d failed directed"
                + " links", topo.name(), topo.hostCount(), hosts, topo.gpus().size(), sim.graph().edgeSet().size(),
                part, failed.links().size()));
        FlowFabric.oversubscriptionWarning(o, sim).ifPresent(h::add);
        if (!failed.names().isEmpty()) {
            h.add("Failed: " + String.join(", ", failed.names()) + (o.failRandomLinks + o.failRandomNics > 0
                    ? " (random draws with seed " + o.seed + ")" : ""));
        }
        if (!r.choices().isEmpty()) {
            FlowChoice first = r.choices().get(0);
            h.add(String.format(Locale.ROOT, "Schedule: %s, %d ranks (%s), placement %s; routing %s seed %d, PXN %s%s",
                    schedules(r), first.order().size(), first.grouping(), o.placementText(), o.routing, o.seed,
                    o.noPxn ? "off" : "on", o.shard == null ? "" : "; shard " + o.shard));
            r.choices().stream().map(FlowChoice::unevenHostsWarning).flatMap(Optional::stream).distinct()
                    .forEach(h::add);
        }
        for (JobSpec s : specs) {
            h.add(String.format(Locale.ROOT, "Other job %s: %s %d B on %d ranks (%s), start %.2f us", s.name(),
                    s.collective().testName(), s.sizeBytes(), s.ranks(), s.placement(), s.startUs()));
        }
        h.add("algo/proto/nch = what was simulated (NCCL's choice unless --schedule/--channels; the flow time has no"
                + " protocol); nccl_est -1 (NCCL has no model of contention); bound = the physical busbw bound of"
                + " the GPU and NIC links and of the fabric's leaf uplinks (oversubscription; ECMP collisions not"
                + " counted); links = the links backend's busbw"
                + " (this schedule, each transfer alone on its route, no sharing, no link over its capacity), at most"
                + " the bound");
        return h;
    }

    /**
     * @return the schedule simulated, e.g. {@code Ring, 16 channels (NCCL's choice: Ring/Simple)}, or when it
     *         changes along the sweep, each run of sizes with its schedule: {@code 67108864-268435456 B: ...; ...}
     */
    private static String schedules(FlowSweep.Result r) {
        List<String> parts = new ArrayList<>();
        String current = null;
        long from = 0;
        long to = 0;
        for (int k = 0; k <= r.choices().size(); k++) {
            String d = k < r.choices().size() ? r.choices().get(k).describe() : null;
            long size = k < r.choices().size() ? r.predictions().get(k).sizeBytes() : 0;
            if (current != null && !current.equals(d)) {
                parts.add((from == to ? from : from + "-" + to) + " B: " + current);
            }
            if (d != null && !d.equals(current)) {
                from = size;
            }
            current = d;
            to = size;
        }
        return parts.size() == 1 ? r.choices().get(0).describe() : String.join("; ", parts);
    }
}
