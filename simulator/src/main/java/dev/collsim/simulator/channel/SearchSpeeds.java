package dev.collsim.simulator.channel;

import dev.collsim.simulator.tuning.NcclVersion;

/**
 * The per-channel speeds NCCL's search tries, from high to low, GB/s (NCCL 2.30.7 {@code src/graph/search.cc};
 * fact sheet §5.4). "Intra" arrays apply when the system has no network (one node), "inter" arrays otherwise; the
 * array is chosen by the minimum compute capability. The sm80 and sm90 arrays are the same at every tag read (2.23.4
 * to 2.30.7). The sm100 arrays differ by release (github.com/NVIDIA/nccl {@code src/graph/search.cc}):
 * <pre>
 *   up to 2.24   none: sm100 takes sm90's ({@code ccMin >= 90 ? sm90SpeedArrayInter : ...}, v2.24.3-1 lines 993-996)
 *   2.25-2.26    intra {90, 80, 70, 60, 50, 40, 30, 24, 20, 19}, inter {48, 45, 42, 40, 30, 24, ...}
 *                (v2.25.1-1 lines 940-941, v2.26.2-1 lines 923-924)
 *   2.27         intra 2.25's + 18; inter {47.9, 45, 42, ...} (v2.27.3-1 lines 912-913; 2.27.5 {48, 45.1, ...},
 *                2.27.6 and 2.27.7 2.28.9's: the entry 2.27.3 stands for 2.27 and takes its own)
 *   2.28.9       intra 2.27's; inter {96, 48, 45.1, 42, ...} (v2.28.9-1 lines 986-987)
 *   2.30.7       intra with 45 added; inter {96, 86, 80, 48, 45.1, ...} (v2.30.7-1 lines 1063-1064)
 * </pre>
 * Before 2.18 the sm80 arrays (there was no other below sm90) follow that release's NVLink figure ({@code
 * dev.collsim.topology.NcclBandwidths#nvlinkPerLink(int, int)}): 2.8-2.9 one array {42, 30, 24, 21, ...} for intra
 * and inter, 2.10-2.17 intra {44, 30, 22, ...} and inter {48, 30, 24, 22, ...} (2.16-2.17 {48, 30, 28, 24, 22,
 * ...}); a 2.12-2.17 run, modelled by the 2.18.5 entry, searches with its own array and figure ({@link #of(int,
 * boolean, NcclVersion, int)}). A release's own array decides its graphs, so its choice: on 2 x 8 B200 2.26's inter
 * array, which starts at 48, leaves the tree graph's bwIntra at 48 (pass 2 raises it only to a faster entry of the array), where 2.28.9's
 * raises it to 96.
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

    private static final double[] INTRA_SM100_225 = {90, 80, 70, 60, 50, 40, 30, 24, 20, 19};
    private static final double[] INTER_SM100_225 = {48, 45, 42, 40, 30, 24, 22, 20, 17.5, 15, 12, 6, 3, 2.4, 1.2,
        0.24, 0.12};
    private static final double[] INTER_SM100_227 = {47.9, 45, 42, 40, 30, 24, 22, 20, 17.5, 15, 12, 6, 3, 2.4, 1.2,
        0.24, 0.12};

    /**
     * NCCL 2.8-2.9's one array, intra and inter alike, built on its 21 GB/s NVLink figure (v2.8.4-1 line 651, v2.9.9-1
     * line 710).
     */
    private static final double[] SM80_28 = {42, 30, 24, 21, 18, 15, 12, 10, 9, 7, 6, 5, 4, 3, 2.4, 1.2, 0.24, 0.12};
    /** NCCL 2.10-2.17's intra array, on its 22 GB/s NVLink figure (v2.10.3-1 line 710, v2.12.12-1 line 729). */
    private static final double[] INTRA_SM80_210 = {44, 30, 22, 18, 15, 12, 10, 9, 7, 6, 5, 4, 3};
    /** NCCL 2.10-2.15's inter array (v2.10.3-1 line 711, v2.11.4-1 line 711; 2.16-2.17 add 28). */
    private static final double[] INTER_SM80_210 = {48, 30, 24, 22, 18, 15, 12, 10, 9, 7, 6, 5, 4, 3, 2.4, 1.2, 0.24,
        0.12};
    /** NCCL 2.16-2.17's inter array (v2.16.5-1 and v2.17.1-1 line 730). */
    private static final double[] INTER_SM80_216 = {48, 30, 28, 24, 22, 18, 15, 12, 10, 9, 7, 6, 5, 4, 3, 2.4, 1.2,
        0.24, 0.12};

    private SearchSpeeds() {
    }

    /**
     * @param minSm     minimum compute capability x 10
     * @param multiNode true when the system has a network (more than one node)
     * @param version   NCCL release
     * @return a fresh copy of the speed array, GB/s, high to low
     */
    public static double[] of(int minSm, boolean multiNode, NcclVersion version) {
        return of(minSm, multiNode, version, version.minor());
    }

    /**
     * @param minSm     minimum compute capability x 10
     * @param multiNode true when the system has a network (more than one node)
     * @param version   NCCL release modelled
     * @param nvlMinor  the NCCL 2 minor release whose sm80 array applies below sm90 (a 2.16 run, modelled by the
     *                  2.18.5 entry, {@link #INTER_SM80_216}; 18 or later: 2.18's)
     * @return a fresh copy of the speed array, GB/s, high to low
     */
    public static double[] of(int minSm, boolean multiNode, NcclVersion version, int nvlMinor) {
        int minor = version.minor();
        int run = nvlMinor;
        double[] a;
        if (minSm >= 100 && minor >= NcclVersion.V2_25_1.minor()) {
            a = multiNode ? sm100Inter(version) : minor < NcclVersion.V2_27_3.minor() ? INTRA_SM100_225
                    : version == NcclVersion.V2_30_7 ? INTRA_SM100 : INTRA_SM100_228;
        } else if (minSm < 90 && run < NcclVersion.V2_10_3.minor()) {
            a = SM80_28;
        } else if (minSm < 90 && run < NcclVersion.V2_18_5.minor()) {
            a = !multiNode ? INTRA_SM80_210 : run < 16 ? INTER_SM80_210 : INTER_SM80_216;
        } else if (minSm >= 90) {
            a = multiNode ? INTER_SM90 : INTRA_SM90;
        } else {
            a = multiNode ? INTER_SM80 : INTRA_SM80;
        }
        return a.clone();
    }

    /** @return the sm100 inter array of a release from 2.25 (class comment) */
    private static double[] sm100Inter(NcclVersion version) {
        if (version.minor() < NcclVersion.V2_27_3.minor()) {
            return INTER_SM100_225;
        }
        if (version.minor() < NcclVersion.V2_28_9.minor()) {
            return INTER_SM100_227;
        }
        return version == NcclVersion.V2_30_7 ? INTER_SM100 : INTER_SM100_228;
    }
}
