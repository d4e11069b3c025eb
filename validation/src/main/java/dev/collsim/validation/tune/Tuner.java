package dev.collsim.validation.tune;

import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.RedOp;
import dev.collsim.simulator.Candidate;
import dev.collsim.simulator.InvalidRequestException;
import dev.collsim.simulator.PreparedCall;
import dev.collsim.simulator.PreparedCommunicator;
import dev.collsim.simulator.perf.PerformanceParameters;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Sweeps collectives and sizes on one prepared communicator: per point, NCCL's choice (its cost table's argmin) and
 * the candidate collsim predicts fastest ({@link PreparedCall#candidates}), with the gain and the band; then joins
 * adjacent points into {@link TuneRange}s. Stateless.
 */
public final class Tuner {

    /**
     * The collectives NCCL's example tuner plugin can name (plugins/tuner/example/README.md, NCCL 2.30: broadcast,
     * reduce, allgather, reducescatter, allreduce), in that file's order of precedence here.
     */
    public static final List<Collective> TUNABLE = List.of(Collective.ALL_REDUCE, Collective.ALL_GATHER,
            Collective.REDUCE_SCATTER, Collective.BROADCAST, Collective.REDUCE);

    private Tuner() {
    }

    /**
     * @param comm        the prepared communicator (cluster, ranks, NCCL settings, release)
     * @param pp          performance parameters (defaults or a calibration)
     * @param band        the band a gain must exceed
     * @param collectives collectives to sweep, each in {@link #TUNABLE}
     * @param sizes       nccl-tests sizes, bytes, increasing
     * @param evidence    measured evidence to attach
     * @return the result, points in collective then size order
     * @throws IllegalArgumentException when a collective is not in {@link #TUNABLE}
     * @throws InvalidRequestException when NCCL would have no eligible algorithm
     */
    public static TuneResult sweep(PreparedCommunicator comm, PerformanceParameters pp, TuningBand band,
            List<Collective> collectives, List<Long> sizes, Evidence evidence) {
        List<TunePoint> points = new ArrayList<>();
        for (Collective c : collectives) {
            if (!TUNABLE.contains(c)) {
                throw new IllegalArgumentException(c.ncclName() + " cannot be named in NCCL's example tuner "
                        + "plugin's file; allowed: AllReduce, AllGather, ReduceScatter, Broadcast, Reduce");
            }
            for (long s : sizes) {
                points.add(point(comm.call(c, s, DataType.FLOAT, RedOp.SUM), pp, band, evidence));
            }
        }
        return new TuneResult(comm.nNodes(), comm.nRanks(), band, points, ranges(points));
    }

    private static TunePoint point(PreparedCall call, PerformanceParameters pp, TuningBand band, Evidence ev) {
        List<Candidate> cands = call.candidates(pp);
        Candidate nccl = cands.stream().filter(Candidate::chosen).findFirst()
                .orElseThrow(() -> new IllegalStateException("no candidate marked as NCCL's choice"));
        Candidate best = cands.stream().min(Comparator.comparingDouble(k -> k.predicted().timeUs())).orElse(nccl);
        if (best.predicted().timeUs() >= nccl.predicted().timeUs()) {
            best = nccl;
        }
        return new TunePoint(call.collective(), call.sizeBytes(), call.bytes(), nccl.algorithm(), nccl.protocol(),
                nccl.predicted().channels(), nccl.predicted().timeUs(), best.algorithm(), best.protocol(),
                best.predicted().channels(), best.predicted().timeUs(), band,
                ev.ncclChoiceUs(call.collective(), call.communicator().nRanks(), call.sizeBytes()),
                ev.forcedUs(call.collective(), call.communicator().nRanks(), call.sizeBytes(), best.algorithm(),
                        best.protocol()));
    }

    /**
     * @param points points in collective then size order
     * @return adjacent points with the same NCCL choice, advice and target joined
     */
    static List<TuneRange> ranges(List<TunePoint> points) {
        List<TuneRange> out = new ArrayList<>();
        List<TunePoint> run = new ArrayList<>();
        TuneRange current = null;
        for (TunePoint p : points) {
            if (current != null && !current.joins(p)) {
                out.add(new TuneRange(current.collective(), run));
                run = new ArrayList<>();
                current = null;
            }
            run.add(p);
            if (current == null) {
                current = new TuneRange(p.collective(), List.of(p));
            }
        }
        if (current != null) {
            out.add(new TuneRange(current.collective(), run));
        }
        return List.copyOf(out);
    }
}
