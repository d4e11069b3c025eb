package dev.collsim.cli.validation;

import static dev.collsim.cli.CliRun.run;
import static dev.collsim.cli.DocFigure.assertFigure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.cli.CliRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The per-size figures that docs/validation.md, docs/predict.md and docs/nccl-releases.md quote from {@code compare}
 * rows of public measurement files, in prose that {@code DocsExamplesTest} does not run: each must be what the row
 * prints now, to the digits the page gives. (The pages said -93.7 % for the 2x2 DGX H100 hiccup row, which prints
 * -92.9; 61.2 us at 128 KiB, which prints 62.00; 47.1, 37.6, 59.2 and 744 us for the NCCL 2.18 files, which print
 * 48.51, 38.68, 60.60 and 742.32; -72.5, -65.9, -48.8, -43.1 % and a median of 17.7 % for the
 * NCCL 2.22 run, which print -72.3, -65.0, -48.4, -41.7 and 17.9.)
 */
class ValidationDocFiguresTest {

    private static final String DATA = "../validation/src/test/resources/data/";
    private static final String DGX_2X2 = DATA + "A-allreduce-2x2xH100-dgx-ib.txt";
    private static final String ND_A100 = DATA + "A-allreduce-8xA100-azure-ndv4-nccl2.18-busbw-table.txt";
    private static final String P5_EFA = DATA + "A-allreduce-2x8xH100-aws-p5-eks-efa-nccl2.18-partial.txt";
    private static final String TALOS_2_22 = DATA + "A-allreduce-1x8-2x8xH100-dgx-talos-nccl2.22-table.txt";

    /** compare row columns: size, measured us, predicted us, err %, measured busbw, predicted busbw, algo/proto. */
    private static final int MEASURED = 1;
    private static final int PREDICTED = 2;
    private static final int ERROR = 3;

    @Test
    void hiccupRowOfValidationPage() throws IOException {
        Matcher m = find("validation.md",
                "16 KiB row, out-of-place ([0-9.]+) us against [0-9.]+ in place, (-?[0-9.]+) %");
        String[] row = row(compare(DGX_2X2), 16384);
        assertFigure(m.group(1), row[MEASURED], m.group());
        assertFigure(m.group(2), row[ERROR], m.group());
        assertEquals("hiccup", row[row.length - 1], "the row the page calls a hiccup ends with the word");
    }

    @Test
    void proxyTurnsRowOfPredictPage() throws IOException {
        Matcher m = find("predict.md",
                "wait 7 x 6 x 1 = 42 us: ([0-9.]+) us predicted, ([0-9.]+) measured \\(`compare`");
        String[] row = row(compare(DGX_2X2), 131072);
        assertFigure(m.group(1), row[PREDICTED], m.group());
        assertFigure(m.group(2), row[MEASURED], m.group());
        assertEquals("Ring/LL", row[6], "the page's Ring/LL at 128 KiB");
    }

    /** The NIC-bound paragraph of predict.md: busbw of the 2x2 DGX H100 file at 8 GiB, measured and predicted. */
    @Test
    void nicBoundRowOfPredictPage() throws IOException {
        Matcher m = find("predict.md", "\\(measured ([0-9.]+) at 8 GiB; the predicted (\\w+/\\w+) time there gives"
                + " ([0-9.]+): `\\./collsim compare");
        String[] row = row(compare(DGX_2X2), 8589934592L);
        assertFigure(m.group(1), row[4], m.group());
        assertEquals(m.group(2), row[6], m.group());
        assertFigure(m.group(3), row[5], m.group());
    }

    @Test
    void olderReleaseRowsOfNcclReleasesPage() throws IOException {
        Matcher a100 = find("nccl-releases.md", "so 1 MiB \\(still LL\\) predicts ([0-9.]+) us \\(measured ([0-9.]+),"
                + " ([0-9.]+) under 2\\.28\\.9's rule\\), and 2 MiB moves from LL to LL128 \\(([0-9.]+) us, measured"
                + " ([0-9.]+)\\)");
        String nd = compare(ND_A100);
        assertFigure(a100.group(1), row(nd, 1048576)[PREDICTED], a100.group());
        assertFigure(a100.group(2), row(nd, 1048576)[MEASURED], a100.group());
        assertFigure(a100.group(3), row(compare(ND_A100, "--nccl-version", "2.28"), 1048576)[PREDICTED],
                a100.group());
        assertFigure(a100.group(4), row(nd, 2097152)[PREDICTED], a100.group());
        assertFigure(a100.group(5), row(nd, 2097152)[MEASURED], a100.group());
        assertEquals("Ring/LL128", row(nd, 2097152)[6], a100.group());

        Matcher p5 = find("nccl-releases.md",
                "64 MiB is NVLSTree/Simple under both rules\\s+\\(([0-9.]+) us, measured ([0-9.]+)\\)");
        String[] now = row(compare(P5_EFA), 67108864);
        String[] older = row(compare(P5_EFA, "--nccl-version", "2.28"), 67108864);
        assertEquals("NVLSTree/Simple", older[6], p5.group());
        assertFigure(p5.group(1), older[PREDICTED], p5.group());
        assertFigure(p5.group(1), now[PREDICTED], p5.group());
        assertEquals("NVLSTree/Simple", now[6], p5.group());
        assertFigure(p5.group(2), now[MEASURED], p5.group());
    }

    /** The 2-node DGX H100 run of NCCL 2.22.3 at 1 and 2 MiB: error under 2.28.9's rules, then under 2.22's. */
    @Test
    void nccl222RowsOfNcclReleasesPage() throws IOException {
        Matcher m = find("nccl-releases.md", "their errors go from (-[0-9.]+) % to (-[0-9.]+) % and from"
                + " (-[0-9.]+) % to (-[0-9.]+) % \\(median ([0-9.]+) % either way\\)");
        String now = compare(TALOS_2_22);
        String older = compare(TALOS_2_22, "--nccl-version", "2.28");
        String inter = "(Inter-node all-reduce (16 GPUs))";
        assertFigure(m.group(1), row(after(older, inter), 1048576)[ERROR], m.group());
        assertFigure(m.group(2), row(after(now, inter), 1048576)[ERROR], m.group());
        assertFigure(m.group(3), row(after(older, inter), 2097152)[ERROR], m.group());
        assertFigure(m.group(4), row(after(now, inter), 2097152)[ERROR], m.group());
        assertEquals("NVLSTree/Simple", row(after(now, inter), 1048576)[6], m.group());
        for (String out : new String[] {now, older}) {
            assertTrue(after(out, inter).contains("at >= 1 MiB: n=14 median " + m.group(5) + " "), m.group());
        }
    }

    /** The output from the line naming a run on. */
    private static String after(String out, String run) {
        int at = out.indexOf(run);
        assertTrue(at >= 0, run + " in:\n" + out);
        return out.substring(at);
    }

    private static Matcher find(String page, String regex) throws IOException {
        String text = Files.readString(Path.of("..", "docs", page)).replaceAll("\\s*\\n\\s*", " ");
        Matcher m = Pattern.compile(regex).matcher(text);
        assertTrue(m.find(), regex + " in docs/" + page);
        return m;
    }

    private static String compare(String file, String... more) {
        String[] args = new String[4 + more.length];
        args[0] = "compare";
        args[1] = "--calibration=none";
        System.arraycopy(more, 0, args, 2, more.length);
        args[2 + more.length] = "-m";
        args[3 + more.length] = file;
        CliRun r = run(args);
        assertEquals(0, r.code(), r.err());
        return r.out();
    }

    private static String[] row(String out, long size) {
        return out.lines().map(String::trim).filter(l -> l.startsWith(size + " ")).findFirst()
                .orElseThrow(() -> new AssertionError("no " + size + " B row in:\n" + out)).split("\\s+");
    }
}
