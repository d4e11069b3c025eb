package dev.collsim.nccl;

/**
 * nccl-tests' algorithm and bus bandwidth: the one conversion time -> algbw -> busbw of collsim, for measured,
 * read and predicted rows alike.
 *
 * <p>Source: nccl-tests 2.19.6 {@code src/<coll>.cu <Coll>GetBw(count, typesize, sec, ...)}, called from
 * {@code src/common.cu BenchTime} with {@code count = paramCount} ({@code setupArgs}):
 * <ul>
 *   <li>algbw = bytes / 1e9 / sec, with bytes = count x typesize for AllReduce, Broadcast, Reduce, SendRecv and
 *       count x typesize x nRanks for AllGather, ReduceScatter, AllToAll, Gather, Scatter. In every case these
 *       bytes equal the {@code size} column nccl-tests prints (max(send, recv) bytes of one rank,
 *       {@link CollGeometry#sizeBytes}), so a row's algbw is its size column / its time;</li>
 *   <li>busbw = algbw x factor: 2(n-1)/n for AllReduce; (n-1)/n for AllGather, ReduceScatter, AllToAll, Gather,
 *       Scatter; 1 for Broadcast, Reduce, SendRecv.</li>
 * </ul>
 * Units: bytes, microseconds, GB/s with GB = 1e9 B (so GB/s = bytes / (1000 x us)).
 */
public final class BusBandwidth {

    private BusBandwidth() {
    }

    /**
     * nccl-tests' bus bandwidth factor: busbw = algbw x factor.
     *
     * @param c      the collective
     * @param nRanks number of ranks, >= 1
     * @return the factor (0 for AllReduce, AllGather, ... on 1 rank, as nccl-tests prints)
     * @throws IllegalArgumentException when nRanks &lt; 1
     */
    public static double factor(Collective c, int nRanks) {
        if (nRanks < 1) {
            throw new IllegalArgumentException("nRanks must be >= 1, got " + nRanks);
        }
        double n = nRanks;
        return switch (c) {
            case ALL_REDUCE -> 2.0 * (n - 1) / n;
            case ALL_GATHER, REDUCE_SCATTER, ALL_TO_ALL, GATHER, SCATTER -> (n - 1) / n;
            case BROADCAST, REDUCE, SEND_RECV -> 1.0;
        };
    }

    /**
     * The bytes of nccl-tests' algbw numerator ({@code GetBw}).
     *
     * @param c          the collective
     * @param paramCount the count passed to NCCL (nccl-tests' {@code count} column), elements
     * @param eltSize    element size, bytes
     * @param nRanks     ranks, >= 1
     * @return bytes
     */
    public static long algBytes(Collective c, long paramCount, int eltSize, int nRanks) {
        long b = paramCount * eltSize;
        return switch (c) {
            case ALL_GATHER, REDUCE_SCATTER, ALL_TO_ALL, GATHER, SCATTER -> b * nRanks;
            case ALL_REDUCE, BROADCAST, REDUCE, SEND_RECV -> b;
        };
    }

    /**
     * @param sizeBytes the size column (= {@link #algBytes}), bytes
     * @param timeUs    time of one operation, microseconds
     * @return algbw in GB/s; 0 when the time is not positive (nothing timed)
     */
    public static double algBw(double sizeBytes, double timeUs) {
        return timeUs > 0 ? sizeBytes / (1000.0 * timeUs) : 0;
    }

    /**
     * @param c      the collective
     * @param nRanks ranks, >= 1
     * @param algBw  algorithm bandwidth, GB/s
     * @return busbw, GB/s
     */
    public static double busBw(Collective c, int nRanks, double algBw) {
        return algBw * factor(c, nRanks);
    }

    /**
     * @param c         the collective
     * @param nRanks    ranks, >= 1
     * @param sizeBytes the size column, bytes
     * @param timeUs    time of one operation, microseconds
     * @return busbw, GB/s; 0 when the time is not positive
     */
    public static double busBw(Collective c, int nRanks, double sizeBytes, double timeUs) {
        return busBw(c, nRanks, algBw(sizeBytes, timeUs));
    }

    /**
     * The inverse of {@link #busBw(Collective, int, double)}.
     *
     * @param c      the collective
     * @param nRanks ranks, >= 1
     * @param busBw  bus bandwidth, GB/s
     * @return algbw, GB/s; positive infinity when the factor is 0 (AllReduce etc. on one rank: every algbw has
     *         busbw 0, so a busbw bounds nothing)
     */
    public static double algBwFromBusBw(Collective c, int nRanks, double busBw) {
        double f = factor(c, nRanks);
        return f > 0 ? busBw / f : Double.POSITIVE_INFINITY;
    }

    /**
     * The inverse of {@link #algBw}.
     *
     * @param sizeBytes the size column, bytes
     * @param algBw     algorithm bandwidth, GB/s, &gt; 0
     * @return time of one operation, microseconds
     */
    public static double timeUs(double sizeBytes, double algBw) {
        return sizeBytes / (1000.0 * algBw);
    }

    /**
     * Inverts {@link #factor}: the rank count whose factor is {@code ratio}.
     *
     * @param c     the collective
     * @param ratio busbw / algbw
     * @return n (rounded), or 0 when the factor does not depend on n (Broadcast, Reduce, SendRecv) or the ratio is
     *         out of range
     */
    public static int ranksForFactor(Collective c, double ratio) {
        double n = switch (c) {
            case ALL_REDUCE -> 2.0 / (2.0 - ratio);
            case ALL_GATHER, REDUCE_SCATTER, ALL_TO_ALL, GATHER, SCATTER -> 1.0 / (1.0 - ratio);
            case BROADCAST, REDUCE, SEND_RECV -> 0;
        };
        return n >= 1 && n < 1e6 ? (int) Math.round(n) : 0;
    }
}
