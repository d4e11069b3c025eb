package dev.collsim.validation.tune;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import java.util.List;

/**
 * Adjacent swept points of one collective with the same NCCL choice, the same advice and (when advised) the same
 * target: one row of the table and at most one line of the tuner plugin's file.
 *
 * @param collective the collective
 * @param points     the points, in increasing size, at least one
 */
public record TuneRange(Collective collective, List<TunePoint> points) {

    /** @throws IllegalArgumentException when there is no point */
    public TuneRange {
        points = List.copyOf(points);
        if (points.isEmpty()) {
            throw new IllegalArgumentException("a range needs at least one point");
        }
    }

    /** @return bytes NCCL selects on at the first point */
    public long minBytes() {
        return points.get(0).bytes();
    }

    /** @return bytes NCCL selects on at the last point */
    public long maxBytes() {
        return points.get(points.size() - 1).bytes();
    }

    /** @return true when the change is advised (every point's gain exceeds its band) */
    public boolean recommended() {
        return points.get(0).recommended();
    }

    /** @return NCCL's algorithm */
    public Algorithm ncclAlgorithm() {
        return points.get(0).ncclAlgorithm();
    }

    /** @return NCCL's protocol */
    public Protocol ncclProtocol() {
        return points.get(0).ncclProtocol();
    }

    /** @return the advised algorithm: collsim's best when recommended, else NCCL's */
    public Algorithm algorithm() {
        return recommended() ? points.get(0).bestAlgorithm() : ncclAlgorithm();
    }

    /** @return the advised protocol: collsim's best when recommended, else NCCL's */
    public Protocol protocol() {
        return recommended() ? points.get(0).bestProtocol() : ncclProtocol();
    }

    /** @return the advised channel count for the tuner plugin, 0 for NCCL's own count */
    public int channels() {
        return recommended() ? points.get(0).forcedChannels() : 0;
    }

    /** @return the smallest predicted gain over the points, percent */
    public double minGainPercent() {
        return points.stream().mapToDouble(TunePoint::gainPercent).min().orElse(0);
    }

    /** @return the largest predicted gain over the points, percent */
    public double maxGainPercent() {
        return points.stream().mapToDouble(TunePoint::gainPercent).max().orElse(0);
    }

    /** @return whether this range and a point share NCCL's choice, the advice and its target */
    boolean joins(TunePoint p) {
        TunePoint q = points.get(0);
        return p.collective() == collective && p.ncclAlgorithm() == q.ncclAlgorithm()
                && p.ncclProtocol() == q.ncclProtocol() && p.recommended() == q.recommended()
                && (!q.recommended() || p.bestAlgorithm() == q.bestAlgorithm() && p.bestProtocol() == q.bestProtocol()
                && p.forcedChannels() == q.forcedChannels());
    }
}
