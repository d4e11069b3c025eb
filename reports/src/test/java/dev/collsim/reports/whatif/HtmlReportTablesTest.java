package dev.collsim.reports.whatif;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The HTML report's tables and texts on inputs built by hand. */
class HtmlReportTablesTest {

    private static ReportData measured(List<ReportData.MeasuredRow> m) {
        return new ReportData("t", "s.yaml", List.of(), List.of(), m, List.of(), List.of(), List.of(), List.of(),
                List.of(), List.of());
    }

    @Test
    void theMedianIsOfAbsoluteErrorsAsCompareComputesIt() {
        // signed errors -2, 4, -10, 30, -50 %: absolute 2, 4, 10, 30, 50; median (3rd of 5) 10; p90: Commons
        // Math's default estimate at position 0.9 x (5 + 1) = 5.4 >= 5 is the largest, 50; max 50. (The signed
        // median would be -2.)
        List<ReportData.MeasuredRow> rows = List.of(-2.0, 4.0, -10.0, 30.0, -50.0).stream().map(e ->
                new ReportData.MeasuredRow("base", "AllReduce", "/abs/f.txt", 1024, 100, 100 * (1 + e / 100), 1, e))
                .toList();
        String html = HtmlReport.render(measured(rows), List.of(), Map.of(), List.of(), "now");
        assertTrue(html.contains("5 points; absolute error of time median 10.0%, p90 50.0%, max 50.0%"), html);
    }

    @Test
    void numbersAreRightAlignedAndTextLeftAligned() {
        for (String n : List.of("372.2 GB/s", "77.5%", "23,349", "22454.8 ms", "0.0-1.1 %", "8..128K", "-", "256")) {
            assertEquals("", HtmlReport.align(n), n);
        }
        for (String t : List.of("Ring/Simple", "analytical", "flow (ecmp, seed 0)", "does not fit",
                "4 per layer x 40 layers", "keep NCCL's choice", "")) {
            assertEquals(" class=l", HtmlReport.align(t), t);
        }
        List<List<String>> table = List.of(List.of("algorithm", "GPUs"), List.of("Ring/Simple", "32"),
                List.of("NVLS/Simple", "8"));
        assertEquals(" class=l", HtmlReport.headerAlign(table, 0));
        assertEquals("", HtmlReport.headerAlign(table, 1));
    }

    @Test
    void aTunerSectionWithNothingToChangeSaysKeepNcclsChoice() {
        List<List<String>> rows = List.of(List.of("AllReduce", "8..8G", "Ring/Simple", "Ring/Simple", "0.0 %",
                "13.1 %", "keep NCCL's choice", "-"));
        StringBuilder keep = new StringBuilder();
        new TuningSection("n", rows, List.of("# header", "# columns")).html(keep);
        assertTrue(keep.toString().contains("Nothing to change: keep NCCL's choice"), keep.toString());
        assertFalse(keep.toString().contains("<pre>"), "no empty tuner file box");
        StringBuilder change = new StringBuilder();
        new TuningSection("n", rows, List.of("# header", "broadcast,2097152,2097152,ring,ll,-1,1,8,-1,-1")).html(change);
        assertTrue(change.toString().contains("<pre>") && !change.toString().contains("Nothing to change"));
    }
}
