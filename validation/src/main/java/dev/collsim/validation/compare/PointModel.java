package dev.collsim.validation.compare;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.simulator.NcclPredictor;
import dev.collsim.simulator.PredictionRequest;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.channel.ChannelSearch;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.perf.P2pModel;
import dev.collsim.simulator.perf.PerformanceModel;
import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.simulator.perf.PhysicalBound;
import dev.collsim.simulator.tuning.AlgoChoice;
import dev.collsim.simulator.tuning.CostTable;
import dev.collsim.simulator.tuning.NcclTuningModel;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.simulator.tuning.TuningConstants;
import dev.collsim.simulator.tuning.TuningInput;
import java.util.ArrayList;
import java.util.List;

/**
 * collsim's prediction for the points of one communicator, split so that the parts that do not depend on the
 * {@link PerformanceParameters} (channel search, NCCL's cost table and its algorithm/protocol choice, NCCL
 * 2.30 {@code init.cc}/{@code tuning.cc}) are computed once, and the time can be re-evaluated cheaply for other
 * parameters during a fit. With the same parameters it gives what {@link NcclPredictor#predict} gives (the
 * same simulator calls, in the same order). Immutable.
 */
public final class PointModel {

    /**
     * One size.
     *
     * @param request   the prediction request
     * @param bytes     bytes NCCL selects on
     * @param choice    NCCL's choice, or null for point-to-point collectives
     */
    private record Point(PredictionRequest request, long bytes, AlgoChoice choice) {
    }

    private final ChannelPlan plan;
    private final NcclSettings settings;
    private final Collective collective;
    private final CostTable table;
    private final List<Point> points;

    /**
     * @param requests one request per size, all for the same communicator (topology, ranks, settings)
     * @param version  NCCL release modelled
     * @throws IllegalArgumentException on invalid settings or when NCCL would have no algorithm
     */
    public PointModel(List<PredictionRequest> requests, NcclVersion version) {
        PredictionRequest first = requests.get(0);
        this.settings = first.ncclSettings();
        this.collective = first.collective();
        this.plan = ChannelSearch.search(first.topology(), first.ranks(), settings, version);
        CostTable t = null;
        if (collective.hasNcclTuningModel()) {
            TuningInput in = new TuningInput(plan.graphs(), plan.nRanks(), plan.nNodes(), plan.minSm(), plan.maxSm(),
                    plan.cpu(), plan.nvlsSupport(), settings.collnetEnable(), plan.hasNvSwitch(),
                    plan.maxLocalRanks(), plan.graphs().tree().pattern(), plan.runtimeChannels(), settings,
                    TuningConstants.of(version));
            t = NcclTuningModel.tune(in);
        }
        this.table = t;
        List<Point> pts = new ArrayList<>();
        for (PredictionRequest r : requests) {
            long bytes = NcclPredictor.effectiveBytes(r);
            AlgoChoice choice = null;
            if (table != null) {
                choice = table.select(collective, bytes, r.dataType(), r.op()).orElseThrow(() ->
                        new IllegalArgumentException("No algorithm/protocol available for " + collective.ncclName()
                                + " with " + settings));
            }
            pts.add(new Point(r, bytes, choice));
        }
        this.points = List.copyOf(pts);
    }

    /** @return number of points */
    public int size() {
        return points.size();
    }

    /** @return the channel plan of the communicator */
    public ChannelPlan plan() {
        return plan;
    }

    /**
     * @param i  point index
     * @param pp parameters
     * @return predicted time, microseconds
     */
    public double timeUs(int i, PerformanceParameters pp) {
        Point p = points.get(i);
        if (p.choice() == null) {
            return P2pModel.estimate(plan, pp, collective, p.bytes(), plan.graphs().ring().typeIntra()).timeUs();
        }
        if (plan.nRanks() == 1) {
            return pp.launchOverheadUs() + p.bytes() / (1000.0 * pp.localCopyGBps());
        }
        return PerformanceModel.estimate(plan, settings, pp, table, collective, p.choice(), p.bytes()).timeUs();
    }

    /** @return NCCL's algorithm at point i, or null for point-to-point collectives */
    public Algorithm algorithm(int i) {
        Point p = points.get(i);
        return p.choice() == null ? null : p.choice().algorithm();
    }

    /** @return NCCL's protocol at point i (point-to-point: the p2p protocol) */
    public Protocol protocol(int i) {
        Point p = points.get(i);
        return p.choice() == null ? P2pModel.protocol(plan, collective, p.bytes()) : p.choice().protocol();
    }

    /** @return the physical bound of the communicator, GB/s busbw */
    public double physicalBoundBusBw() {
        return PhysicalBound.busBw(plan, collective);
    }
}
