package dev.collsim.simulator.channel;

import dev.collsim.simulator.tuning.NcclVersion;

/**
 * The per-channel speeds NCCL's search tries, from high to low, GB/s (NCCL 2.30.7 {@code src/graph/search.cc};
 * fact sheet §5.4). "Intra" arrays apply when the system has no network (one node), "inter" arrays otherwise; the
 * array is chosen by the minimum compute capability. NCCL 2.28.9 lacks 45 in the sm100 intra array and 86, 80 in
 * the sm100 inter array.
 */
public final class SearchSpeeds {

    private static final double[] INTRA_SM80 = {40, 30, 20, 18, 15, 12, 10, 9, 7, 6, 5, 4, 3};
    private static final double[] INTER_SM80 = {48, 30, 28, 24, 20, 18, 15, 12, 10, 9, 7, 6, 5, 4, 3, 2.4, 1.2,
        0.24, 0.12};
    private static final double[] INTRA_SM90 = {60, 50, 40, 30, 24, 20, 15, 12, 11, 6, 3};
    private static final double[] INTER_SM90 = {48, 45, 42, 40, 30, 24, 22, 20, 17.5, 15, 12, 6, 3, 2.4, 1.2,
        0.24, 0.12};
    private static final double[] INTRA_SM100 = {90, 80, 70, 60, 50, 45, 40, 30, 24, 20, 19, 18};
    private static final double[] INTER_SM100 = {96, 86, 80, 48, 45.1, 42, 40, 30, 24, 22, 20, 17.5, 15, 12, 6, 3,
        2.4, 1.2, 0.24, 0.12};
    private static final double[] INTRA_SM100_228 = {90, 80, 70, 60, 50, 40, 30, 24, 20, 19, 18};
    private static final double[] INTER_SM100_228 = {96, 48, 45.1, 42, 40, 30, 24, 22, 20, 17.5, 15, 12, 6, 3, 2.4,
        1.2, 0.24, 0.12};

    private SearchSpeeds() {
    }

    /**
     * @param minSm     minimum compute capability x 10
     * @param multiNode true when the system has a network (more than one node)
     * @param version   NCCL release
     * @return a fresh copy of the speed array, GB/s, high to low
     */
    public static double[] of(int minSm, boolean multiNode, NcclVersion version) {
        boolean old = version.tables() == NcclVersion.V2_28_9;
        double[] a;
        if (minSm >= 100) {
            a = multiNode ? old ? INTER_SM100_228 : INTER_SM100 : old ? INTRA_SM100_228 : INTRA_SM100;
        } else if (minSm >= 90) {
            a = multiNode ? INTER_SM90 : INTRA_SM90;
        } else {
            a = multiNode ? INTER_SM80 : INTRA_SM80;
        }
        return a.clone();
    }
}
