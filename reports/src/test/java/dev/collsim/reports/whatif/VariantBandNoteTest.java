package dev.collsim.reports.whatif;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The variants table names each row's calibration by a short label and spells its band once, under the table: the
 * built-in report repeated the 110-character band of hopper-infiniband.yaml on five of its six rows. The labels are
 * SimulatorResolver's three shapes ({@code auto: KEY.yaml; band ...}, {@code - (bare model; band ...)},
 * {@code none; band ...}); the band texts here are made up, since only their placement is under test.
 */
class VariantBandNoteTest {

    private static ReportData.VariantRow row(String name, String calibration) {
        return new ReportData.VariantRow(name, "c", 4, 32, "-", "", calibration, "analytical");
    }

    @Test
    void labelsAndBandsSplitAtTheBandSeparator() {
        ReportData.VariantRow auto = row("a", "auto: k.yaml; band factor 2 (x) at >= 1 MiB (wide)");
        assertEquals("auto: k.yaml", auto.calibrationLabel());
        assertEquals("factor 2 (x) at >= 1 MiB (wide)", auto.calibrationBand());
        ReportData.VariantRow bare = row("b", "- (bare model; band factor 1.4 (y) below 1 MiB (wide))");
        assertEquals("- (bare model)", bare.calibrationLabel());
        assertEquals("factor 1.4 (y) below 1 MiB (wide)", bare.calibrationBand());
        ReportData.VariantRow none = row("n", "none; band factor 3");
        assertEquals("none", none.calibrationLabel());
        assertEquals("factor 3", none.calibrationBand());
        ReportData.VariantRow file = row("f", "my-profile.yaml");
        assertEquals("my-profile.yaml", file.calibrationLabel());
        assertEquals("", file.calibrationBand());
        assertEquals("-", row("e", "").calibrationLabel());
    }

    @Test
    void eachBandIsSpelledOnceUnderTheTable() {
        String shared = "factor 2.11 (-52.7 % .. +111.3 %) below 1 MiB";
        List<ReportData.VariantRow> rows = List.of(row("base", "auto: k.yaml; band " + shared),
                row("nic", "auto: k.yaml; band " + shared), row("one host", "- (bare model; band factor 1.41)"),
                row("mine", "mine.yaml"));
        ReportData d = new ReportData("t", "s.yaml", rows, List.of(), List.of(), List.of(), List.of(), List.of(),
                List.of(), List.of(), List.of());
        String html = HtmlReport.render(d, List.of(), Map.of(), List.of(), "now");
        assertEquals(1, html.split(Pattern.quote(shared), -1).length - 1, html);
        assertTrue(html.contains("<td class=l>auto: k.yaml, band A</td>"), html);
        assertEquals(3, html.split("band A</td>|band B</td>", -1).length - 1, html);
        assertTrue(html.contains("<td class=l>- (bare model), band B</td>"), html);
        assertTrue(html.contains("<td class=l>mine.yaml</td>"), html);
        assertTrue(html.contains("<p class=note>Bands: A: " + shared + "; B: factor 1.41.</p>"), html);
    }
}
