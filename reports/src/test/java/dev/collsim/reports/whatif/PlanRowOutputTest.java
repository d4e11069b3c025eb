package dev.collsim.reports.whatif;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.collsim.reports.io.CsvTable;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * plans.csv and report.json for a plan that does not fit: the reason in its own last column ({@code notFitReason}),
 * not in {@code computeSource}, so a reader of the earlier columns keeps them; a number that is not one (MFU, memory,
 * headroom of a plan not planned) is an empty CSV cell and JSON null, never the string "NaN".
 */
class PlanRowOutputTest {

    private static final String REASON = "does not fit: needs 32 GPUs, the cluster has 8";

    @Test
    void theReasonHasItsOwnLastColumn() {
        String csv = CsvTable.of(ReportData.PlanRow.class, List.of(
                ReportData.PlanRow.notFitting("1 host", "70B", "job", 32, REASON)));
        List<String> lines = csv.lines().toList();
        assertEquals("variant,plan,job,gpus,fits,computeMs,bubbleMs,commMs,exposedMs,stepMs,tokensPerS,efficiency,"
                + "computeSource,mfu,memoryGib,capacityGib,headroomMs,idleGpus,notFitReason", lines.get(0));
        // 7 times of 0, then computeSource, mfu, memoryGib, capacityGib, headroomMs, idleGpus all empty
        assertEquals("1 host,70B,job,32,false,0,0,0,0,0,0,0,,,,,,,\"" + REASON + "\"", lines.get(1)); // quoted: a comma
    }

    @Test
    void notANumberIsJsonNull() throws Exception {
        ReportData.PlanRow r = ReportData.PlanRow.notFitting("1 host", "70B", "job", 32, REASON);
        String text = ReportWriter.reportJson().writeValueAsString(r);
        assertFalse(text.contains("NaN"), text);
        JsonNode n = ReportWriter.reportJson().readTree(text);
        assertTrue(n.get("mfu").isNull(), text);
        assertTrue(n.get("headroomMs").isNull(), text);
        assertEquals(0.0, n.get("stepMs").asDouble(-1), 0, text);
        assertEquals(REASON, n.get("notFitReason").asText());
        assertEquals("", n.get("computeSource").asText());
    }
}
