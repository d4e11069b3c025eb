package dev.collsim.reports.whatif;

import dev.collsim.io.InputException;
import dev.collsim.io.InputProblem;
import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.BusBandwidth;
import dev.collsim.nccl.CollGeometry;
import dev.collsim.reports.chart.SweepSeries;
import dev.collsim.reports.plan.CommTiming;
import dev.collsim.reports.spec.ReportSpec;
import dev.collsim.reports.spec.SweepSpec;
import dev.collsim.simulator.FlowPredictor;
import dev.collsim.simulator.InvalidRequestException;
import dev.collsim.simulator.Prediction;
import dev.collsim.simulator.PredictionRequest;
import dev.collsim.simulator.bound.HostNicShare;
import dev.collsim.topology.Gpu;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The rows of a report's collective sweeps on one variant: each size as the variant's predictor times it ({@link
 * #of}), the measured points beside them ({@link #measured}), the base's algorithm map ({@link #algorithmMap}). Used
 * by {@link ReportRunner} and by callers that time single points (design sweeps), so both give the same number.
 * Stateless.
 */
public final class SweepRows {

    private SweepRows() {
    }

    /**
     * One collective sweep on one variant, each size exactly as {@link ReportRunner#run} times it (for callers that
     * time single points, such as design sweeps); sizes NCCL discards ({@link CollGeometry#discarded}: 0 elements per
     * rank) are left out, as the flow backends leave them out.
     *
     * @throws InputException when the predictor rejects the variant's NCCL settings (located at the variant)
     */
    public static List<ReportData.SweepRow> of(ReportSpec spec, ResolvedVariant v, SweepSpec s)
            throws InputException {
        List<Gpu> ranks = s.ranks(v.topology());
        List<ReportData.SweepRow> rows = new ArrayList<>();
        for (long size : s.sizes().sizes()) {
            if (!CollGeometry.discarded(s.collective(), size, s.dataType().size(), ranks.size())) { // NCCL runs nothing
                rows.add(row(v, s, ranks, size, predict(spec, v, ranks, s, size)));
            }
        }
        return rows;
    }

    private static Prediction predict(ReportSpec spec, ResolvedVariant v, List<Gpu> ranks, SweepSpec s, long size)
            throws InputException {
        try {
            return v.predictor().predict(new PredictionRequest(v.topology(), ranks, s.collective(), size,
                    s.dataType(), null, v.spec().ncclSettings()));
        } catch (InvalidRequestException e) {
            // refused by the simulator because of what the variant asks; any other exception is a bug (exit 1)
            throw new InputException(v.spec().problem(spec.file(), "sweep " + s.collective().testName() + " at "
                    + size + " B on " + ranks.size() + " ranks: " + e.getMessage()));
        }
    }

    /**
     * A sweep row: the prediction as the variant's predictor gives it, the number {@code collsim predict} prints (the
     * analytical prediction applies its nodes' NIC bound, the flow backend shares every link); with no finite time (no
     * NCCL-model estimate for the layout) timed by the host NICs ({@link HostNicShare}, one group), and says so. Bound:
     * the prediction's, which includes what the fabric's leaf uplinks allow ({@code FabricBound}) whatever the backend.
     */
    private static ReportData.SweepRow row(ResolvedVariant v, SweepSpec s, List<Gpu> ranks, long size, Prediction p) {
        double limit = p.physicalBoundBusBw();
        String backend = FlowPredictor.fabricLimited(p) ? "flow" : "analytical";
        double t = p.timeUs();
        boolean ring = p.algorithm() == Algorithm.RING;
        double bound = Double.isFinite(t) ? 0 : HostNicShare.boundUs(v.topology(), ranks, s.collective(), size, 1,
                ring);
        if (!Double.isFinite(t) && bound > 0) {
            return new ReportData.SweepRow(v.name(), s.collective().ncclName(), s.dataType().testName(), ranks.size(),
                    size, bound, BusBandwidth.algBw(size, bound), BusBandwidth.busBw(s.collective(), ranks.size(), size,
                    bound), limit, algo(p), proto(p),
                    p.nChannels(), p.ncclEstimateUs(), "no estimate from the NCCL model for this layout ("
                    + p.bottleneck() + "); timed instead by the host NICs", "host-NIC bound");
        }
        return new ReportData.SweepRow(v.name(), s.collective().ncclName(), s.dataType().testName(), ranks.size(),
                size, t, p.algBw(), p.busBw(), limit, algo(p), proto(p), p.nChannels(),
                p.ncclEstimateUs(), p.bottleneck(), backend);
    }

    /**
     * The measured points of a sweep beside the prediction at the same size (a size the sweep does not have is
     * predicted on its own); points of no time are left out.
     *
     * @param measurements reads measurement files, or null when none can be read
     * @param predicted    the sweep's rows ({@link #of})
     * @return one row per measured point of positive time, in the file's order
     * @throws InputException when no reader is available, the file cannot be read, or the predictor rejects the
     *                        variant's NCCL settings
     */
    static List<ReportData.MeasuredRow> measured(MeasuredSeriesReader measurements, ReportSpec spec, ResolvedVariant v,
            SweepSpec s, List<ReportData.SweepRow> predicted) throws InputException {
        if (measurements == null) {
            throw new InputException(new InputProblem(spec.file(), 0, 0, "sweeps.measured",
                    "measurement files cannot be read by this build (no reader available)"));
        }
        Map<Long, ReportData.SweepRow> bySize = new TreeMap<>();
        predicted.forEach(r -> bySize.put(r.sizeBytes(), r));
        List<ReportData.MeasuredRow> out = new ArrayList<>();
        int nRanks = s.ranks(v.topology()).size();
        for (SweepSeries.Measured m : measurements.read(spec.folder().resolve(s.measured()), s.collective(),
                nRanks)) {
            ReportData.SweepRow p = bySize.get(m.sizeBytes());
            if (p == null) {
                List<Gpu> ranks = s.ranks(v.topology());
                p = row(v, s, ranks, m.sizeBytes(), predict(spec, v, ranks, s, m.sizeBytes()));
            }
            if (m.timeUs() > 0) {
                out.add(new ReportData.MeasuredRow(v.name(), s.collective().ncclName(), s.measured(), m.sizeBytes(),
                        m.timeUs(), p.timeUs(), m.busBw(), (p.timeUs() - m.timeUs()) / m.timeUs() * 100));
            }
        }
        return out;
    }

    /**
     * The base's algorithm map: NCCL's algorithm and protocol per size for 2, 4, 8, ... ranks and all of them (sizes
     * NCCL discards left out).
     */
    static List<ReportData.AlgoCellRow> algorithmMap(ReportSpec spec, ResolvedVariant base, SweepSpec s)
            throws InputException {
        List<ReportData.AlgoCellRow> out = new ArrayList<>();
        int all = base.topology().gpus().size();
        List<Integer> counts = new ArrayList<>();
        for (int n = 2; n < all; n *= 2) {
            counts.add(n);
        }
        counts.add(all);
        for (int n : counts) {
            List<Gpu> ranks = n >= all ? base.topology().gpus() : base.topology().gpus().subList(0, n);
            for (long size : s.sizes().sizes()) {
                if (!CollGeometry.discarded(s.collective(), size, s.dataType().size(), n)) { // NCCL runs nothing
                    Prediction p = predict(spec, base, ranks, s, size);
                    out.add(new ReportData.AlgoCellRow(s.collective().ncclName(), n, size, CommTiming.choice(p),
                            p.timeUs()));
                }
            }
        }
        return out;
    }

    private static String algo(Prediction p) {
        return p.algorithm() == null ? "P2P" : p.algorithm().ncclName();
    }

    private static String proto(Prediction p) {
        return p.protocol() == null ? "-" : p.protocol().ncclName();
    }
}
