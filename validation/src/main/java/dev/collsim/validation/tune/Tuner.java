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
 * adjacent points into {@link TuneRange}s for the table and covers the swept sizes with the plugin file's
 * {@link ConfigLine}s ({@link LineCover}).
 *
 * <p>Channels: besides NCCL's own per-call count, every count a tuner plugin can give (1 up to
 * {@link PreparedCommunicator#tunerChannelCap}: comm.nChannels after NCCL_MIN/MAX_NCHANNELS, or the NVLS channels) is
 * predicted for every eligible (algorithm, protocol) ({@link PreparedCall#candidates(PerformanceParameters, int)}).
 * A forced count is kept only where it beats the best candidate on NCCL's own count by more than the band, so a
 * channel count is never advised for a gain the model cannot tell from its own error. Stateless.
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
        List<TunePoint> points = points(comm, pp, band, collectives, sizes, evidence);
        List<ConfigLine> lines = new ArrayList<>();
        for (Collective c : collectives) {
            List<TunePoint> own = points.stream().filter(p -> p.collective() == c).toList();
            if (!own.isEmpty()) {
                lines.addAll(LineCover.of(own, s -> point(comm.call(c, s, DataType.FLOAT, RedOp.SUM), pp, band,
                        Evidence.NONE)));
            }
        }
        return new TuneResult(comm.nNodes(), comm.nRanks(), band, points, ranges(points), lines);
    }

    /**
     * @return the points of {@link #sweep} alone (no ranges or lines), in collective then size order; none at a size
     *         whose call has 0 elements, which NCCL discards before choosing anything
     * @throws IllegalArgumentException when a collective is not in {@link #TUNABLE}
     */
    static List<TunePoint> points(PreparedCommunicator comm, PerformanceParameters pp, TuningBand band,
            List<Collective> collectives, List<Long> sizes, Evidence evidence) {
        List<TunePoint> points = new ArrayList<>();
        for (Collective c : collectives) {
            if (!TUNABLE.contains(c)) {
                throw new IllegalArgumentException(c.ncclName() + " cannot be named in NCCL's example tuner "
                        + "plugin's file; allowed: AllReduce, AllGather, ReduceScatter, Broadcast, Reduce");
            }
            for (long s : sizes) {
                PreparedCall call = comm.call(c, s, DataType.FLOAT, RedOp.SUM);
                // 0 elements (AllGather/ReduceScatter below 16 bytes per rank): NCCL discards the call before any
                // choice, so no tuner is asked (NCCL 2.28.9 src/enqueue.cc taskAppend, "Empty collectives can be
                // discarded"; the tuner's getCollInfo is called later, from getAlgoInfo)
                if (call.bytes() > 0) {
                    points.add(point(call, pp, band, evidence));
                }
            }
        }
        return points;
    }

    private static TunePoint point(PreparedCall call, PerformanceParameters pp, TuningBand band, Evidence ev) {
        List<Candidate> cands = call.candidates(pp);
        Candidate nccl = cands.stream().filter(Candidate::chosen).findFirst()
                .orElseThrow(() -> new IllegalStateException("no candidate marked as NCCL's choice"));
        Candidate best = fastest(cands, nccl);
        Candidate forced = best;
        int channels = 0;
        int most = cands.stream().mapToInt(k -> call.communicator().tunerChannelCap(k.algorithm())).max().orElse(1);
        for (int k = 1; k <= most; k++) {
            for (Candidate c : call.candidates(pp, k)) {
                if (k <= call.communicator().tunerChannelCap(c.algorithm())
                        && c.predicted().timeUs() < forced.predicted().timeUs()) {
                    forced = c;
                    channels = k;
                }
            }
        }
        channels = channelsToForce(best.predicted().timeUs(), forced.predicted().timeUs(), channels,
                band.percentAt(call.sizeBytes()));
        if (channels > 0) {
            best = forced;
        }
        Collective c = call.collective();
        int n = call.communicator().nRanks();
        return new TunePoint(c, call.sizeBytes(), call.bytes(), nccl.algorithm(), nccl.protocol(),
                nccl.predicted().channels(), nccl.predicted().timeUs(), best.algorithm(), best.protocol(),
                best.predicted().channels(), channels, best.predicted().timeUs(), band,
                ev.ncclChoiceUs(c, n, call.sizeBytes()),
                channels > 0 ? Double.NaN : ev.forcedUs(c, n, call.sizeBytes(), best.algorithm(), best.protocol()));
    }

    /**
     * A forced channel count is advised only where it gains more than the band over the best candidate on NCCL's
     * own count.
     *
     * @param bestUs   predicted time of the best candidate on NCCL's own count, microseconds
     * @param forcedUs predicted time of the best candidate on a forced count, microseconds
     * @param channels that count (0: none was faster)
     * @param bandPercent the band at the call's size, percent
     * @return channels when (bestUs - forcedUs) / bestUs exceeds the band, else 0
     */
    static int channelsToForce(double bestUs, double forcedUs, int channels, double bandPercent) {
        return channels > 0 && bestUs > 0 && 100 * (bestUs - forcedUs) / bestUs > bandPercent ? channels : 0;
    }

    /** @return the candidate predicted fastest, NCCL's choice unless another is strictly faster */
    private static Candidate fastest(List<Candidate> cands, Candidate nccl) {
        Candidate best = cands.stream().min(Comparator.comparingDouble(k -> k.predicted().timeUs())).orElse(nccl);
        return best.predicted().timeUs() < nccl.predicted().timeUs() ? best : nccl;
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
