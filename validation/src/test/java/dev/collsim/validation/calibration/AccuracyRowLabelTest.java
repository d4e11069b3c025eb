package dev.collsim.validation.calibration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.validation.ingest.Corpus;
import dev.collsim.validation.ingest.Dataset;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The accuracy table's row labels: the three series of one author's table (RTX PRO 5000 AllToAll, its line 67: AR OFF,
 * AR ON DDP OFF, AR ON DDP ON) were cut to the same 40 characters of the table's title and read as one row three
 * times; each row now carries its series name.
 */
class AccuracyRowLabelTest {

    private static final String FILE = "A-alltoall-2x8xRTXPRO5000-cx8-spectrumx-spcx-adaptive-routing-sweep-nccl2.30-problem"
            + ".txt";

    @Test
    void theSeriesOfOneTableHaveDistinctLabels() throws Exception {
        List<String> labels = Corpus.read(FILE).stream().filter(d -> d.line() == 67).map(Dataset::label)
                .map(AccuracyText::shorten).toList();
        assertEquals(3, labels.size(), labels.toString());
        assertEquals(3, labels.stream().distinct().count(), labels.toString());
        // the column headers of the file's table, line 68 (the reader drops the word "algbw" from the series name)
        assertTrue(labels.get(0).contains(" / AR OFF "), labels.get(0));
        assertTrue(labels.get(1).contains(" / AR ON DDP OFF"), labels.get(1));
        assertTrue(labels.get(2).contains(" / AR ON DDP ON"), labels.get(2));
        assertTrue(labels.get(0).startsWith("(author's table: out-of-place algbw (GB/s..."), labels.get(0));
    }

    @Test
    void shortLabelsAndLabelsWithoutASeriesAreAsBefore() {
        assertEquals("(run 1)", AccuracyText.shorten("run 1"));
        assertEquals("(" + "x".repeat(40) + "...)", AccuracyText.shorten("x".repeat(50)));
    }
}
