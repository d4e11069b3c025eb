package dev.collsim.reports.whatif;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.reports.io.CsvTable;
import java.util.List;
import org.junit.jupiter.api.Test;

/** targets.csv: a target not reached has empty gpus and tokensPerS cells, never 0 GPUs at 0 tokens/s. */
class TargetRowCsvTest {

    @Test
    void notReachedLeavesCountAndThroughputEmpty() {
        List<ReportData.TargetRow> rows = List.of(
                new ReportData.TargetRow("base", "13B", 150000, 64, 151234.5, "dp=8"),
                ReportData.TargetRow.notReached("1 host", "13B", 150000, "not reached on the variant's own 8 GPUs"));
        assertEquals("variant,plan,target,gpus,tokensPerS,note\r\n"
                + "base,13B,150000,64,151234.5,dp=8\r\n"
                + "1 host,13B,150000,,,not reached on the variant's own 8 GPUs\r\n",
                CsvTable.of(ReportData.TargetRow.class, rows));
    }
}
