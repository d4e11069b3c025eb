package dev.collsim.validation.ingest;

import dev.collsim.nccl.BusBandwidth;
import dev.collsim.nccl.Collective;
import dev.collsim.perf.PerfResult;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

/**
 * The rank count nccl-tests itself used, read from its own columns: nccl-tests prints busbw = algbw x a factor of
 * its rank count only (nccl-tests 2.19.6 {@code src/all_reduce.cu AllReduceGetBw}: 2(n-1)/n; {@code all_gather.cu},
 * {@code reduce_scatter.cu}, {@code alltoall.cu}: (n-1)/n). A title or a provenance header that states another
 * count is prose written by a person; when every result of the table agrees on one other count, the table's own
 * count wins (the caller says so in a warning).
 *
 * <p>The check allows for the printed rounding: algbw and busbw carry two decimals, so a ratio is known to within
 * {@code f x (0.005 / algbw + 0.005 / busbw)}; a claimed count is contradicted only when its factor lies more than
 * {@value #MARGIN} such widths from the ratio of every result, and the table's count only when its factor lies
 * within one width of every result. Example (A-allreduce-alltoall-GB200-NVL72-oci-1to48nodes-mnnvl-nccl2.27.txt,
 * lines 32-33, titled "2 hosts ... (8 GPUs)"): 856.87 / 435.24 = 1.96873 and 895.54 / 454.88 = 1.96874 against
 * 2 x 63 / 64 = 1.96875 for 64 ranks and 2 x 7 / 8 = 1.75 for 8.
 */
final class FactorRanks {

    /** Rounding widths by which a claimed count's factor must miss every result to be contradicted. */
    static final int MARGIN = 20;

    /** Half a unit in the last printed decimal of algbw and busbw. */
    private static final double HALF_DIGIT = 0.005;

    private FactorRanks() {
    }

    /**
     * @param c       the table's collective
     * @param claimed the rank count a title or header states (>= 1)
     * @param rows    the table's rows
     * @return the count every result's busbw/algbw ratio gives, when it differs from {@code claimed} and at least
     *         two results agree on it; empty otherwise (no factor for the collective, too few results, results that
     *         disagree, or a ratio the claimed count explains within the rounding)
     */
    static OptionalInt contradicted(Collective c, int claimed, List<PerfPoint> rows) {
        List<PerfResult> results = new ArrayList<>();
        for (PerfPoint p : rows) {
            for (PerfResult r : new PerfResult[] {p.outOfPlace(), p.inPlace()}) {
                if (r != null && r.algBw() > 1 && r.busBw() > 1) {
                    results.add(r);
                }
            }
        }
        if (results.size() < 2 || claimed < 1 || BusBandwidth.factor(c, 2) == BusBandwidth.factor(c, 3)) {
            return OptionalInt.empty();
        }
        int found = 0;
        for (PerfResult r : results) {
            double ratio = r.busBw() / r.algBw();
            double width = ratio * (HALF_DIGIT / r.algBw() + HALF_DIGIT / r.busBw());
            int n = BusBandwidth.ranksForFactor(c, ratio);
            if (n < 2 || n == claimed || (found != 0 && n != found)
                    || Math.abs(BusBandwidth.factor(c, n) - ratio) > width
                    || Math.abs(BusBandwidth.factor(c, claimed) - ratio) <= MARGIN * width) {
                return OptionalInt.empty();
            }
            found = n;
        }
        return OptionalInt.of(found);
    }

    /**
     * Hosts for the table's count: the claimed hosts scaled by the table's count when the claim put the same number
     * of ranks on each host, else unknown.
     *
     * @param claimed      the claimed rank count
     * @param claimedHosts the claimed hosts, 0 when unknown
     * @param nRanks       the rank count read (the claim, or the table's)
     * @return hosts, 0 when unknown
     */
    static int hosts(int claimed, int claimedHosts, int nRanks) {
        if (nRanks == claimed || claimedHosts <= 0 || claimed % claimedHosts != 0) {
            return nRanks == claimed ? claimedHosts : 0;
        }
        int perHost = claimed / claimedHosts;
        return nRanks % perHost == 0 ? nRanks / perHost : 0;
    }

    /**
     * @param line    the table's first line
     * @param claimed the count the title or header states
     * @param nRanks  the count the table's ratios give
     * @param hosts   the hosts read with it, 0 when unknown
     * @return the warning that the table's count was used
     */
    static Note warning(int line, int claimed, int nRanks, int hosts) {
        return Note.warning(line, "the title or header says " + claimed + " ranks, but every busbw/algbw ratio of the"
                + " table is nccl-tests' factor for " + nRanks + " ranks: read as " + nRanks + " ranks"
                + (hosts > 0 ? " on " + hosts + " hosts" : ""));
    }
}
