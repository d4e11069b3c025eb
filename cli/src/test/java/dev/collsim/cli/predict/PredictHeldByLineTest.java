package dev.collsim.cli.predict;

import static dev.collsim.cli.CliRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.cli.CliRun;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * predict's text table says what holds the largest size's time (a user asks why busbw stays below the bound column),
 * the same bottleneck that --format csv gives that row; sizes, cluster and calibration as given on the command line.
 */
class PredictHeldByLineTest {

    private static final String[] ARGS = {"predict", "allreduce", "-c", "dgx-h100x4", "-b", "1M", "-e", "1G", "-f",
        "32", "--calibration", "none"};

    @Test
    void theLargestSizesBottleneckIsNamedAsCsvNamesIt() {
        CliRun text = run(ARGS);
        assertEquals(0, text.code(), text.err());
        List<String> held = text.out().lines().filter(l -> l.startsWith("# at ")).toList();
        assertEquals(1, held.size(), text.out());
        CliRun csv = run(concat(ARGS, "--format", "csv"));
        assertEquals(0, csv.code(), csv.err());
        List<String> rows = csv.out().lines().toList();
        String last = rows.get(rows.size() - 1);
        // sizes 1M, 32M, 1G: the last row is 1 GiB; its bottleneck is the quoted last column
        assertTrue(last.startsWith("1073741824,"), last);
        String bottleneck = last.substring(last.indexOf(",\"") + 2, last.length() - 1);
        assertEquals("# at 1073741824 B the predicted time is held by " + bottleneck + " (every size's: --format csv"
                + " or json, column bottleneck)", held.get(0));
        // the line stands after the table's footer and before the closing note
        List<String> lines = text.out().lines().toList();
        int at = lines.indexOf(held.get(0));
        assertTrue(lines.get(at - 2).startsWith("# Avg bus bandwidth") && lines.get(at + 1).startsWith("# Predicted by"),
                text.out());
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = new String[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
