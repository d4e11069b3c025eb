package dev.collsim.cli.predict;

import dev.collsim.cli.ClusterOption;
import dev.collsim.cli.ExitCodes;
import dev.collsim.cli.UserError;
import dev.collsim.cli.flow.FlowOptions;
import dev.collsim.cli.flow.FlowPredict;
import dev.collsim.io.InputException;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.NcclPredictor;
import dev.collsim.simulator.bound.PhysicalBound;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Topology;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * {@code predict --backend flow|links}: times each size's schedule on the fabric ({@link FlowPredict}), one run per
 * data type and op, and prints the nccl-tests-shaped table with the links backend's busbw, the latency floor's note
 * and the flow footer. The analytical path stays in {@link PredictCommand}. One use.
 */
final class PredictFlowRun {
    private final FlowOptions flowOptions;
    private final PredictCommand.Backend backend;
    private final ClusterOption cluster;
    private final NcclTestsRanks rankOptions;
    private final List<String> ncclTestsNote;
    private final PredictCommand.Format format;
    private final PrintWriter out;
    private final String profile;

    /**
     * @param flowOptions   the flow options given
     * @param backend       flow or links
     * @param cluster       the -c option (its source, trays)
     * @param rankOptions   the rank options (the Ranks line)
     * @param ncclTestsNote the nccl-tests flag notes for the header
     * @param format        the output format
     * @param out           where the table goes
     * @param profile       the calibration profile or parameters file the command applied ({@code --calibration},
     *                      auto: the shipped profile of the cluster's class), null for the bare model; see {@link
     *                      #calibrationLine}
     */
    PredictFlowRun(FlowOptions flowOptions, PredictCommand.Backend backend, ClusterOption cluster,
            NcclTestsRanks rankOptions, List<String> ncclTestsNote, PredictCommand.Format format, PrintWriter out,
            String profile) {
        this.profile = profile;
        this.flowOptions = flowOptions;
        this.backend = backend;
        this.cluster = cluster;
        this.rankOptions = rankOptions;
        this.ncclTestsNote = ncclTestsNote;
        this.format = format;
        this.out = out;
    }

    /**
     * @return {@link ExitCodes#OK}
     * @throws UserError (usage) when --timeline meets several data types or ops; (input) when the fabric cannot be
     *                   built
     */
    int run(Collective c, PredictGroups groups, Map<DataType, List<Long>> sizes, Topology topo, List<Gpu> rankList,
            NcclSettings nccl, NcclPredictor predictor) throws IOException, InputException {
        if (flowOptions.timeline() != null && groups.distinctTypeOps() > 1) {
            throw new UserError("--timeline writes one sweep; -d all or -o all gives " + groups.distinctTypeOps()
                    + ": name one type and op", ExitCodes.USAGE);
        }
        List<PredictRow> rows = new ArrayList<>();
        FlowPredict.Result first = null;
        double floor = Double.POSITIVE_INFINITY;
        Map<String, FlowPredict.Result> byTypeOp = new HashMap<>();
        for (PredictGroups.Group g : groups.groups(rankList.size())) {
            FlowPredict.Result fr = byTypeOp.get(g.type() + "/" + g.op());
            if (fr == null) {
                try {
                    fr = new FlowPredict(flowOptions, backend == PredictCommand.Backend.flow).run(cluster.source(),
                            topo, rankList, c, g.type(), g.op(), sizes.get(g.type()), nccl, predictor);
                } catch (InputException e) {
                    throw new UserError(e.getMessage(), ExitCodes.INPUT);
                }
                byTypeOp.put(g.type() + "/" + g.op(), fr);
            }
            first = first == null ? fr : first;
            double f = LatencyFloor.us(predictor, topo, rankList, c, g.type(), g.op(), nccl);
            floor = Math.min(floor, f);
            for (int i = 0; i < fr.predictions().size(); i++) {
                rows.add(g.row(fr.predictions().get(i), rankList.size(), List.of(), fr.linksBusBw().get(i))
                        .flagBelow(f));
            }
        }
        List<String> header = new ArrayList<>(List.of(String.format(Locale.ROOT, "collsim predict --backend %s: %s_perf"
                + " nGpus %d datatype %s op %s", backend, c.testName(), rankList.size(), groups.typeText(),
                groups.opText())));
        header.add(rankOptions.describe(rankList, c.testName(), cluster.ofTrays()));
        header.addAll(first.header());
        calibrationLine(backend, profile).ifPresent(header::add);
        header.addAll(ncclTestsNote);
        if (rows.stream().anyMatch(PredictRow::belowLatency)) {
            header.add(LatencyFloor.note(floor));
        }
        FlowAboveBound.warning(rows).ifPresent(header::add);
        PredictWriter w = new PredictWriter(out);
        switch (format) {
            case csv -> w.csv(rows, false);
            case json -> w.json(header, nccl, rows, false);
            default -> {
                w.text(header, rows, false, flowFooter(flowOptions.hasSchedule() ? Optional.empty()
                        : PhysicalBound.algorithmsNote(c, nccl.algo())));
                first.notes().forEach(n -> out.println("# " + n));
            }
        }
        out.flush();
        return ExitCodes.OK;
    }

    /**
     * The flow and links backends time the schedule's bytes on the fabric at the links' capacities: a calibration
     * profile's parameters are corrections to the analytical time (NCCL's protocol efficiencies, per-channel caps,
     * launch, step and latency terms, fitted on measured files against that time: {@code collsim calibrate}), and
     * none of them has a counterpart in the flow time, so none is applied there; they reach the run only through
     * the analytical model it asks for NCCL's choice (algorithm, protocol, channels, NVLS loop) and the latency floor
     * that flags small sizes ({@link LatencyFloor}).
     *
     * @param backend flow or links
     * @param profile the profile or parameters file applied, null for the bare model
     * @return the header line saying the profile's parameters are not in the times; empty for the bare model
     */
    static Optional<String> calibrationLine(PredictCommand.Backend backend, String profile) {
        return profile == null ? Optional.empty() : Optional.of("Calibration: " + profile + " not applied to the "
                + backend + " times (its parameters correct the analytical time); it sets NCCL's choice and the"
                + " latency floor only");
    }

    /**
     * @param boundFor the algorithms the bound column is for where NCCL_ALGO restricts them ({@link
     *                 PhysicalBound#algorithmsNote}: the flow rows' bound is NCCL's choice's, which reads NCCL_ALGO),
     *                 else empty (also under --schedule, whose bound is that of any algorithm: {@code
     *                 FlowSweep.Result#predictions})
     * @return the flow/links table's footer: what the columns mean and what is not modelled in this run
     */
    private String flowFooter(Optional<String> boundFor) {
        String others = backend == PredictCommand.Backend.links
                ? "sharing of links (links backend: every transfer alone)"
                : flowOptions.hasJobs() ? "jobs other than the --job ones" : "congestion from other jobs (add --job)";
        return "# Simulated by collsim, not measured: time/algbw/busbw are the " + backend + " backend's time of the"
                + " schedule; nccl_est -1; bound is the physical busbw bound, the best busbw the GPU and NIC links and"
                + " the fabric's leaf uplinks"
                + " allow" + boundFor.map(s -> " " + s).orElse("") + " (oversubscription counted, ECMP collisions not, "
                + (flowOptions.hasFailures() ? "the failed links and devices counted as working" : "nothing failed")
                + "); links is the links backend's"
                + " busbw (each transfer alone on its route, no link over its capacity), at most the bound. Not"
                + " modelled: " + others + ", NCCL protocol overheads, clocks, CUDA graph launch.";
    }
}
