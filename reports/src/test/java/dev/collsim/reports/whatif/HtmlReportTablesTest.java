package dev.collsim.reports.whatif;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.reports.io.CsvTable;
import dev.collsim.reports.plan.ComputeRate;
import dev.collsim.reports.plan.MemoryPlan;
import dev.collsim.reports.plan.ModelShape;
import dev.collsim.reports.plan.Recompute;
import dev.collsim.reports.plan.StepPlan;
import dev.collsim.reports.plan.TrainingJob;
import java.util.ArrayList;
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

    /**
     * The summary's footnote names what the sweep columns leave out and what the step columns leave out, each once:
     * "other jobs' traffic" is in both lists and was printed twice in one sentence.
     */
    @Test
    void theSummaryFootnoteSaysWhichColumnsLeaveOutWhat() {
        String html = HtmlReport.render(measured(List.of()), List.of(), Map.of(), List.of(), "now");
        assertTrue(html.contains("<p class=note>Model leaves out, in the busbw and algorithm columns: "
                + ReportRunner.SWEEP_LEAVES_OUT + ". In the step columns: " + ReportRunner.PLAN_LEAVES_OUT + ".</p>"),
                html);
    }

    /**
     * The variants table counts trays of a rack-scale type as trays, as the CLI's Ranks line does: gb300-nvl72x2 is
     * 2 racks of 18 trays = 36 trays, 144 GPUs (4 per tray); 4 DGX H100 hosts are 4 hosts, 32 GPUs.
     */
    @Test
    void theVariantTableSaysTraysForRackScaleTrays() {
        ReportData.VariantRow nvl = new ReportData.VariantRow("base", "gb300-nvl72x2", 36, 144, "-", "", "",
                "analytical", "", true);
        ReportData.VariantRow dgx = new ReportData.VariantRow("dgx", "dgx-h100x4", 4, 32, "host type dgx-h100", "",
                "", "analytical", "", false);
        String trays = HtmlReport.render(variants(List.of(nvl)), List.of(), Map.of(), List.of(), "now");
        assertTrue(trays.contains("<th class=l>cluster</th><th>trays</th><th>GPUs</th>"), trays);
        assertTrue(trays.contains("<td class=l>gb300-nvl72x2</td><td>36</td><td>144</td>"), trays);
        String hosts = HtmlReport.render(variants(List.of(dgx)), List.of(), Map.of(), List.of(), "now");
        assertTrue(hosts.contains("<th class=l>cluster</th><th>hosts</th><th>GPUs</th>"), hosts);
        String mixed = HtmlReport.render(variants(List.of(nvl, dgx)), List.of(), Map.of(), List.of(), "now");
        assertTrue(mixed.contains("<th>hosts / trays</th>"), mixed);
        assertTrue(mixed.contains("<td>36 trays</td><td>144</td>") && mixed.contains("<td>4 hosts</td><td>32</td>"),
                mixed);
    }

    private static ReportData.SweepRow sweepRow(long bytes) {
        return new ReportData.SweepRow("base", "AllToAll", "bfloat16", 32, bytes, 10, 1, 1, 2, "P2P", "Simple", 16, -1,
                "b", "analytical");
    }

    /**
     * The built-in report's AllToAll sweep runs min 1K, max 4G, factor 4 (examples/whatif-default.yaml): 12 sizes
     * 2^10 .. 2^32. Its table showed only 4G, since no 1K x 4^j is 8 B x 64^k (2^(10+2j) against 2^(3+6k): an even
     * exponent against an odd one). From the sweep's own smallest size, by hand: 1K x 64^k = 1K, 64K, 4M, 256M, and
     * the largest, 4G: five rows; 4K, 16K, 256K, 1M, 16M, 64M and 1G are left to the CSV.
     */
    @Test
    void theSweepTableStartsAtTheSweepsSmallestSize() {
        List<ReportData.SweepRow> rows = new ArrayList<>();
        for (long b = 1024; b <= 4L << 30; b *= 4) {
            rows.add(sweepRow(b));
        }
        StringBuilder h = new StringBuilder();
        HtmlReport.sweepTable(h, rows);
        String html = h.toString();
        assertTrue(html.contains("AllToAll bfloat16, sizes shown: 1K, 64K, 4M, 256M, 4G (1K times powers of 64, and"
                + " each variant's largest)"), html);
        assertFalse(html.contains("<td>16K</td>"), html);
        assertTrue(HtmlReport.smallestTimes64(8L << 30, 8) && HtmlReport.smallestTimes64(512, 8));
        assertFalse(HtmlReport.smallestTimes64(4096, 8) || HtmlReport.smallestTimes64(3 * 64, 3 * 2));
    }

    private static ReportData variants(List<ReportData.VariantRow> v) {
        return new ReportData("t", "s.yaml", v, List.of(), List.of(), List.of(), List.of(), List.of(), List.of(),
                List.of(), List.of());
    }

    /** The variants table is followed by the legend of its calibration column, which says what "-" means. */
    @Test
    void theCalibrationColumnHasALegendUnderTheTable() {
        String html = HtmlReport.render(measured(List.of()), List.of(), Map.of(), List.of(), "now");
        int table = html.indexOf("<th class=l>calibration</th>");
        int legend = html.indexOf("<p class=note>calibration: ");
        assertTrue(table >= 0 && legend > table && html.indexOf("</table>", table) < legend, html);
        String note = html.substring(legend, html.indexOf("</p>", legend));
        assertTrue(note.contains("&quot;-&quot;: no calibration profile ships for the variant's cluster class"), note);
        assertTrue(note.contains("bare model") && note.contains("band"), note);
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

    private static final double GIB = 1L << 30;

    /**
     * A plan of 1B parameters (h=2048, L=16, no vocabulary: all weights are layer weights) on one GPU, s=1024, G=8:
     * model FLOPs per token 6 x 1e9 + 12 x 16 x 2048 x 1024 = 6,402,653,184; per step x 8192 tokens =
     * 5.2450535e13; compute 100 ms, no bubble or communication, peak 1e15: MFU = 5.2450535e13 / (1e15 x 0.1) =
     * 0.525. Memory 10 + 10 + 20 + 30 = 70 GiB of 80 GiB: "70.0 of 80.0 GiB"; 90 GiB of 80: "does not fit by 10.0 GiB".
     */
    private static StepPlan step(double memoryGib) {
        TrainingJob j = new TrainingJob(new ModelShape(1_000_000_000L, 2048, 16), 4, 2, 2, 1, 1, 1, 1, 1, 0, 0, 1, 1.0,
                0, false, 1024, 1, 8, ComputeRate.stepComputeMs(100), Recompute.NONE, 0);
        MemoryPlan m = new MemoryPlan(10 * GIB, 10 * GIB, 20 * GIB, (memoryGib - 40) * GIB, 1, 1, 80 * GIB, List.of());
        return new StepPlan(j, "one", List.of(), 100e3, 0, 0, 0, 0, "given", 1e15, "", m, "");
    }

    @Test
    void thePlanTableShowsMfuAndMemory() {
        ReportData.PlanRow fits = ReportData.PlanRow.of("base", "1B", step(70));
        assertEquals(0.52450535, fits.mfu(), 1e-8);
        assertEquals(70, fits.memoryGib(), 1e-12);
        assertEquals("70.0 of 80.0 GiB", fits.memoryText());
        ReportData.PlanRow big = ReportData.PlanRow.of("big", "1B", step(90));
        assertFalse(big.fits());
        assertEquals("does not fit by 10.0 GiB (90.0 of 80.0)", big.memoryText());
        ReportData d = new ReportData("t", "s.yaml", List.of(), List.of(), List.of(), List.of(fits, big), List.of(),
                List.of(), List.of(), List.of(), List.of());
        String html = HtmlReport.render(d, List.of(), Map.of(), List.of(), "now");
        assertTrue(html.contains("<th>MFU</th><th class=l>memory per GPU</th>"), html);
        assertTrue(html.contains("<td>0.525</td><td class=l>70.0 of 80.0 GiB</td>"), html);
        assertTrue(html.contains("<td class=l>does not fit by 10.0 GiB (90.0 of 80.0)</td>"), html);
        String csv = CsvTable.of(ReportData.PlanRow.class, List.of(fits));
        assertTrue(csv.lines().findFirst().orElseThrow().endsWith("mfu,memoryGib,capacityGib,headroomMs,idleGpus,notFitReason"), csv);
        // plan's overlap headroom: this job's overlap is 0, so nothing hides and no window is open (0 ms)
        assertEquals(0.0, fits.headroomMs(), 0);
        assertTrue(html.contains("headroom ms</th><th>step ms</th>") && html.contains("<td>0.0</td><td>100.0</td>"
                + "<td>base</td>"), html);
        assertTrue(Double.isNaN(big.headroomMs()));
        // the column is explained under the table, not only by the header's tooltip (a printed page has no tooltip)
        assertTrue(html.contains("<p class=note>Compute: given. Headroom: the overlappable communication (gradient"
                + " reduction, parameter gather) the compute windows could still take before the step grows;"), html);
    }
    /** A variant whose plan leaves GPUs idle gets the plan's line under the table, named by variant; others none. */
    @Test
    void thePlanTableNamesAVariantsIdleGpus() {
        StepPlan s = step(70);
        StepPlan idle = new StepPlan(s.job(), "one", List.of(), 100e3, 0, 0, 0, 0, "given", 1e15, "", s.memory(),
                "8 of 32 GPUs idle (GPUs 24-31, host 3)");
        ReportData.PlanRow base = ReportData.PlanRow.of("base", "1B", s);
        ReportData.PlanRow big = ReportData.PlanRow.of("big", "1B", idle);
        assertEquals("", base.idleGpus());
        ReportData d = new ReportData("t", "s.yaml", List.of(), List.of(), List.of(), List.of(base, big), List.of(),
                List.of(), List.of(), List.of(), List.of());
        String html = HtmlReport.render(d, List.of(), Map.of(), List.of(), "now");
        assertTrue(html.contains("<p class=note>big: 8 of 32 GPUs idle (GPUs 24-31, host 3).</p>"), html);
        assertFalse(html.contains("<p class=note>base: "), html);
    }
}
