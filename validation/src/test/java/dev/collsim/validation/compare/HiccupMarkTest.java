package dev.collsim.validation.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.validation.ingest.Corpus;
import dev.collsim.validation.ingest.Dataset;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * compare marks the points diagnose calls one-off hiccups. A-allreduce-2x2xH100-dgx-ib.txt line 32, 16 KiB:
 * out-of-place 291.4 us, in-place 24.76 us, 291.4 / 24.76 = 11.8x (over the 2x of two halves that run the same
 * algorithm); its neighbours (line 31, 8 KiB, 20.21 us; line 33, 32 KiB, 29.22 us) are not marked.
 */
class HiccupMarkTest {

    private static final Comparer COMPARER = new Comparer(Optional.empty(), PerformanceParameters.DEFAULTS, null);

    @Test
    void theDgxIbSixteenKibRowIsMarked() throws Exception {
        Dataset d = Corpus.read("A-allreduce-2x2xH100-dgx-ib.txt").get(0);
        String text = ComparisonText.render(List.of(COMPARER.compare(d, Optional.empty())), true);
        assertTrue(text.contains("\n  hiccup (diagnose, line 32): out-of-place 291.4 us at 16384 bytes is 11.8x the "
                + "in-place 24.8 us of the same size"), text);
        List<String> marked = text.lines().filter(l -> l.endsWith("  hiccup")).toList();
        assertEquals(1, marked.size(), text);
        assertTrue(marked.get(0).strip().startsWith("16384 "), marked.get(0));
        assertTrue(marked.get(0).contains(" 291.40 "), marked.get(0));
        // the band count leaves the hiccup out as the statistics do: 1 of the file's points is left out, so the
        // count is over the others, and the 16 KiB row (291.4 us, far above any band) is not among them
        DatasetComparison c = COMPARER.compare(d, Optional.empty());
        assertEquals(c.points().size() - 1, c.keptPoints());
        assertTrue(text.contains("inside the band: " + c.insideBand() + " of " + (c.points().size() - 1)
                + " points (hiccups left out, as above)"), text);
        // --summary has no rows, but still names the hiccup
        String summary = ComparisonText.render(List.of(COMPARER.compare(d, Optional.empty())), false);
        assertTrue(summary.contains("  hiccup (diagnose, line 32): "), summary);
    }

    /**
     * The Talos DGX H100 one-node table (lines 15-28): its time (size / algbw) grows with size at every row, so no
     * point is over 1.6x both neighbours, and it prints no in-place half: nothing is marked.
     */
    @Test
    void aSmoothSweepHasNoMark() throws Exception {
        Dataset d = Corpus.read("A-allreduce-1x8-2x8xH100-dgx-talos-nccl2.22-table.txt").get(0);
        String text = ComparisonText.render(List.of(COMPARER.compare(d, Optional.empty())), true);
        assertFalse(text.contains("hiccup"), text);
    }
}
