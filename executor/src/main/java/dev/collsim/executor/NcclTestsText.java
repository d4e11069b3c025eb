package dev.collsim.executor;

import dev.collsim.perf.PerfResult;
import dev.collsim.perf.PerfRow;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the rows of an nccl-tests text table (nccl-tests 2.19.6 format, as printed by nccl-tests and by
 * {@link NcclTestsTable}): 13 columns {@code size count type redop root} then time, algbw, busbw, #wrong for
 * out-of-place and in-place; {@code N/A} in #wrong reads as null. Lines starting with {@code #} and lines of
 * other shapes are skipped.
 */
public final class NcclTestsText {

    private NcclTestsText() {
    }

    /**
     * @param lines      the output's lines
     * @param collective nccl-tests' collective name to store in each row
     * @param nRanks     ranks to store in each row
     * @return the rows in order
     */
    public static List<PerfRow> parse(List<String> lines, String collective, int nRanks) {
        List<PerfRow> rows = new ArrayList<>();
        for (String line : lines) {
            String t = line.strip();
            if (t.isEmpty() || t.startsWith("#")) {
                continue;
            }
            String[] f = t.split("\\s+");
            if (f.length < 13) {
                continue;
            }
            try {
                rows.add(new PerfRow(collective, f[2], f[3], Integer.parseInt(f[4]), nRanks, Long.parseLong(f[0]),
                        Long.parseLong(f[1]), half(f, 5), half(f, 9), null));
            } catch (NumberFormatException e) {
                // not a table row
            }
        }
        return rows;
    }

    /**
     * @param lines the output's lines
     * @return the number of {@code #  Rank} lines, or 1 when there are none
     */
    public static int ranks(List<String> lines) {
        int n = (int) lines.stream().filter(l -> l.startsWith("#  Rank")).count();
        return Math.max(1, n);
    }

    private static PerfResult half(String[] f, int i) {
        Long wrong = f[i + 3].equals("N/A") ? null : (long) Double.parseDouble(f[i + 3]);
        return new PerfResult(Double.parseDouble(f[i]), Double.parseDouble(f[i + 1]), Double.parseDouble(f[i + 2]),
                wrong);
    }
}
