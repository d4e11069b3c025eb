package dev.collsim.sweep.spec;

import java.util.Locale;

/**
 * A goal a design must meet on a workload; the sweep reports the cheapest design meeting it. Bounds that are NaN do
 * not apply; every bound given must hold. Immutable.
 *
 * @param name           table name
 * @param workload       the workload's name ({@link Workload#name()}), or null for every workload the bounds apply to
 * @param minTokensPerS  plans: tokens per second at least
 * @param maxStepMs      plans: step time at most, milliseconds
 * @param maxTimeUs      collectives: time per call at most, microseconds
 * @param minBusBw       collectives: bus bandwidth at least, GB/s (1e9 B/s, nccl-tests' busbw)
 */
public record Target(String name, String workload, double minTokensPerS, double maxStepMs, double maxTimeUs,
        double minBusBw) {

    /** @return true when a bound applies to plans (tokens per second or step time) */
    public boolean forPlans() {
        return !Double.isNaN(minTokensPerS) || !Double.isNaN(maxStepMs);
    }

    /** @return true when a bound applies to collectives (time or busbw) */
    public boolean forCollectives() {
        return !Double.isNaN(maxTimeUs) || !Double.isNaN(minBusBw);
    }

    /** @return the bounds as text, e.g. {@code tokens/s >= 1e+06, step <= 900 ms} */
    public String describe() {
        StringBuilder b = new StringBuilder();
        bound(b, minTokensPerS, "tokens/s >= %.6g");
        bound(b, maxStepMs, "step <= %.6g ms");
        bound(b, maxTimeUs, "time <= %.6g us");
        bound(b, minBusBw, "busbw >= %.6g GB/s");
        return b.toString();
    }

    private static void bound(StringBuilder b, double v, String format) {
        if (!Double.isNaN(v)) {
            b.append(b.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, format, v));
        }
    }
}
