package dev.collsim.validation.ingest;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.io.InputException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * A 10-minute fuzz run found this: a per-collective summary table (reproducer c17's | Collective | Nodes | Max BusBw
 * GB/s | Avg BusBw GB/s |) whose second header cell no reader recognises ('Node&lt;/system&gt;s' in the mutant)
 * threw a NullPointerException (exit 1) before the file's own problem was reported. The unrecognised column is now
 * left out of the summary, and the file is refused for what c17 is about: line 4's nodes_x_gpus 2147483648.
 */
class SummaryTableColumnsTest {

    @Test
    void unrecognisedColumnOfASummaryTableIsNoCrash() throws Exception {
        String text = Files.readString(Path.of("src/test/resources/fuzz/c17-header-nodes-x-gpus-overflow.txt"));
        String mutant = text.replace("| Collective    | Nodes |", "| Collective    | Node</system>s |");
        InputException e = assertThrows(InputException.class, () -> MeasurementReader.read("mutant.txt", mutant));
        assertTrue(e.getMessage().contains("mutant.txt:4:20: nodes_x_gpus: found 2147483648"), e.getMessage());
    }
}
