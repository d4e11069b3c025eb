package dev.collsim.validation.calibration;

import dev.collsim.simulator.PreparedCall;
import dev.collsim.units.DataSize;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A fit's points in the words {@link FitAdvice}'s refusals use: the algorithm and protocol the model picks at each
 * size (NCCL's names, {@code Ring/Simple}), and sizes and size ranges in nccl-tests' short spelling ({@code 8 B},
 * {@code 512K}, {@code 8G}). Package-private; stateless.
 */
final class FitPicks {

    private FitPicks() {
    }

    /**
     * @param p the points
     * @return each algorithm/protocol the model picks, with the sizes it runs at, in order of the smallest size: a
     *         range for sizes that no other pick interrupts, and several such joined with "and" otherwise, so that no
     *         two picks' ranges overlap: {@code Ring/LL at 8 B-512K (17 points), Ring/Simple at 32M-64M and 256M
     *         (3 points), Tree/Simple at 128M and 512M-8G (7 points)}; "at every size" when one
     */
    static String picks(Problem p) {
        Integer[] order = new Integer[p.count()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (x, y) -> Long.compare(p.size(x), p.size(y)));
        Map<String, List<long[]>> runs = new LinkedHashMap<>();
        Map<String, Integer> counts = new LinkedHashMap<>();
        String last = null;
        for (int i : order) {
            String l = label(p.call(i));
            List<long[]> r = runs.computeIfAbsent(l, x -> new ArrayList<>());
            if (!l.equals(last)) {
                r.add(new long[] {p.size(i), p.size(i)});
            }
            r.get(r.size() - 1)[1] = p.size(i);
            counts.merge(l, 1, Integer::sum);
            last = l;
        }
        if (runs.size() == 1) {
            return last + " at every size (" + span(p) + ")";
        }
        List<String> out = new ArrayList<>();
        runs.forEach((l, r) -> out.add(l + " at " + String.join(" and ", r.stream().map(x -> range(x[0], x[1]))
                .toList()) + " (" + counts.get(l) + (counts.get(l) == 1 ? " point)" : " points)")));
        return String.join(", ", out);
    }

    private static String label(PreparedCall c) {
        return (c.algorithm() == null ? "p2p" : c.algorithm().ncclName()) + "/" + c.protocol().ncclName();
    }

    /** @return the points' sizes, smallest to largest: {@code 8 B-8G} */
    static String span(Problem p) {
        long lo = Long.MAX_VALUE;
        long hi = 0;
        for (int i = 0; i < p.count(); i++) {
            lo = Math.min(lo, p.size(i));
            hi = Math.max(hi, p.size(i));
        }
        return range(lo, hi);
    }

    /** @return a size range in nccl-tests' short spelling, one size when both ends are equal */
    static String range(long lo, long hi) {
        return lo == hi ? size(lo) : size(lo) + "-" + size(hi);
    }

    /** @return nccl-tests' short spelling of a size (8 B, 512K, 8G) */
    private static String size(long bytes) {
        String s = DataSize.format(bytes);
        return Character.isDigit(s.charAt(s.length() - 1)) ? s + " B" : s;
    }
}
