package dev.collsim.reports.whatif;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The step-time chart's JSON on a plan built by hand; expected numbers worked out in the comments. */
class PlanChartJsonTest {

    private static ReportData.PlanRow plan(String variant, boolean fits, double compute, double exposed) {
        return fits ? new ReportData.PlanRow(variant, "p", "job", 32, true, compute, 0, exposed, exposed,
                compute + exposed, 1, 0.5, "6 x N x tokens")
                : ReportData.PlanRow.notFitting(variant, "p", "job", 32,
                        "does not fit: needs 32 GPUs, the cluster has 8");
    }

    private static ReportData.PlanCommRow comm(String variant, double exposed) {
        return new ReportData.PlanCommRow(variant, "p", "DP gradient AllReduce", "AllReduce", "DP", 4, 4, 1 << 30, 1,
                exposed * 1000, exposed, exposed, 100, "Ring/Simple", "links", "once per step");
    }

    /**
     * base: compute 1000 + exposed 200 = 1200 ms; slow: 1000 + 206 = 1206 ms (+0.50 %); small: does not fit. No
     * pipeline bubble anywhere (pp = 1).
     */
    private static ReportData data() {
        List<ReportData.PlanRow> plans = List.of(plan("base", true, 1000, 200), plan("slow", true, 1000, 206),
                plan("small", false, 0, 0));
        return new ReportData("t", "s.yaml", List.of(), List.of(), List.of(), plans,
                List.of(comm("base", 200), comm("slow", 206)), List.of(), List.of(), List.of(), List.of());
    }

    @Test
    void theAxisStartsAtTheSharedComputeSoAHalfPercentShows() {
        // smallest compute 1000, longest step 1206: span 206, / 6 = 34.3 -> interval 50 (1, 2, 5 x 10^k at or
        // above); min = floor(1000 / 50) x 50 = 1000, max = ceil(1206 / 50) x 50 = 25 x 50 = 1250. The 6 ms
        // difference is 6 / 250 = 2.4 % of the axis instead of 6 / 1206 = 0.5 % from zero.
        assertArrayEquals(new double[] {1000, 1250, 50}, PlanChartJson.stepAxis(data().plans()), 1e-9);
        ObjectNode o = PlanChartJson.stepBars("t", data(), "p");
        assertEquals(1000, o.at("/xAxis/min").asDouble(), 0);
        assertEquals(1250, o.at("/xAxis/max").asDouble(), 0, "a multiple of the interval, not 1.02 x the longest");
        assertEquals(50, o.at("/xAxis/interval").asDouble(), 0);
        assertEquals("step time (ms); the axis starts at 1,000 ms, so the compute bar is cut",
                o.at("/xAxis/name").asText());
    }

    @Test
    void niceIntervals() {
        // 866 -> 1000 (100, 200, 500 are below it); 34.3 -> 50; 0.2 -> 0.2; 1 -> 1
        assertEquals(1000, PlanChartJson.niceInterval(866), 1e-9);
        assertEquals(50, PlanChartJson.niceInterval(34.3), 1e-9);
        assertEquals(0.2, PlanChartJson.niceInterval(0.2), 1e-12);
        assertEquals(1, PlanChartJson.niceInterval(1), 1e-12);
    }

    @Test
    void everyVariantIsACategoryAndAZeroPartIsNoSeries() {
        ObjectNode o = PlanChartJson.stepBars("t", data(), "p");
        List<String> cats = new ArrayList<>();
        o.at("/yAxis/data").forEach(c -> cats.add(c.asText()));
        // (1206 - 1200) / 1200 = +0.50 %
        assertEquals(List.of("base: 1200.0 ms (base)", "slow: 1206.0 ms (+0.50 %)",
                "small: does not fit"), cats);
        List<String> names = new ArrayList<>();
        o.get("series").forEach(s -> names.add(s.get("name").asText()));
        assertEquals(List.of("compute", "DP gradient AllReduce (exposed)"), names, "no zero pipeline bubble");
        List<String> legend = new ArrayList<>();
        o.at("/legend/data").forEach(e -> legend.add(e.get("name").asText()));
        assertEquals(names, legend);
        JsonNode exposed = o.at("/series/1/data");
        assertEquals(200, exposed.get(0).asDouble(), 0);
        assertEquals(206, exposed.get(1).asDouble(), 0);
        assertEquals(0, exposed.get(2).asDouble(), 0, "the variant that does not fit has no bar");
        assertEquals("small: does not fit: needs 32 GPUs, the cluster has 8", o.get("notes").asText());
    }
}
