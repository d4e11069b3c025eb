package dev.collsim.validation.tune;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.Protocol;
import dev.collsim.validation.compare.ErrorStats;
import dev.collsim.validation.ingest.Dataset;
import dev.collsim.validation.ingest.PerfPoint;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Measured times at swept points, from measurement files: for a collective, rank count and nccl-tests size, the
 * out-of-place time NCCL's own choice gave (runs that set neither NCCL_ALGO nor NCCL_PROTO) and the time a forced
 * (algorithm, protocol) gave (runs whose NCCL_ALGO and NCCL_PROTO, each where set, name that algorithm and protocol,
 * as a {@code collsim run --sweep NCCL_ALGO} or {@code NCCL_PROTO} writes them). Several runs of one point give their
 * median. Immutable.
 */
public final class Evidence {

    /** No measurements. */
    public static final Evidence NONE = new Evidence(List.of());

    private final List<Dataset> datasets;

    /** @param datasets measured datasets (any collective and rank count) */
    public Evidence(List<Dataset> datasets) {
        this.datasets = List.copyOf(datasets);
    }

    /**
     * @param c         collective
     * @param nRanks    ranks
     * @param sizeBytes nccl-tests size, bytes
     * @return median measured time of NCCL's own choice, microseconds; NaN when none was measured
     */
    public double ncclChoiceUs(Collective c, int nRanks, long sizeBytes) {
        return ErrorStats.median(times(c, nRanks, sizeBytes, null, null));
    }

    /**
     * @param c         collective
     * @param nRanks    ranks
     * @param sizeBytes nccl-tests size, bytes
     * @param a         algorithm
     * @param p         protocol
     * @return median measured time of runs forced to (a, p) by NCCL_ALGO and/or NCCL_PROTO, microseconds; NaN when
     *         none was measured
     */
    public double forcedUs(Collective c, int nRanks, long sizeBytes, Algorithm a, Protocol p) {
        return ErrorStats.median(times(c, nRanks, sizeBytes, a, p));
    }

    private List<Double> times(Collective c, int nRanks, long sizeBytes, Algorithm a, Protocol p) {
        List<Double> out = new ArrayList<>();
        for (Dataset d : datasets) {
            if (d.collective() != c || d.nRanks() != nRanks || !matches(d.env(), a, p)) {
                continue;
            }
            for (PerfPoint pt : d.points()) {
                if (pt.sizeBytes() == sizeBytes && pt.outOfPlace() != null && pt.outOfPlace().hasTime()
                        && pt.outOfPlace().timeUs() > 0) {
                    out.add(pt.outOfPlace().timeUs());
                }
            }
        }
        return out;
    }

    /** @return true when the run was NCCL's own choice (a null) or forced to exactly (a, p) as far as it says */
    private static boolean matches(Map<String, String> env, Algorithm a, Protocol p) {
        String algo = env.get("NCCL_ALGO");
        String proto = env.get("NCCL_PROTO");
        boolean channels = env.containsKey("NCCL_MIN_NCHANNELS") || env.containsKey("NCCL_MAX_NCHANNELS");
        if (channels) {
            return false;
        }
        if (a == null) {
            return algo == null && proto == null;
        }
        return (algo != null || proto != null)
                && (algo == null || algo.trim().toLowerCase(Locale.ROOT).equals(a.ncclName().toLowerCase(Locale.ROOT)))
                && (proto == null || proto.trim().toLowerCase(Locale.ROOT).equals(p.ncclName().toLowerCase(Locale.ROOT)));
    }
}
