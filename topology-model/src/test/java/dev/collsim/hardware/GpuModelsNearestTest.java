package dev.collsim.hardware;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The names offered for a GPU name the database does not know ({@link GpuModels#nearest}), worked out by hand from the
 * database's names (GpuModelTable) and text rules.
 */
class GpuModelsNearestTest {

    /** The textbook Levenshtein examples: kitten/sitting 3 (k->s, e->i, +g), flaw/lawn 2, and 0 to itself. */
    @Test
    void editDistanceIsLevenshteins() {
        assertEquals(3, GpuModels.editDistance("kitten", "sitting"));
        assertEquals(2, GpuModels.editDistance("flaw", "lawn"));
        assertEquals(0, GpuModels.editDistance("a100", "a100"));
        assertEquals(4, GpuModels.editDistance("", "a100"));
    }

    /**
     * "A100-SXM9": A100 SXM's text rule ("a100") finds it, so that model and its two variants come first; A100 PCIe
     * shares the word "a100"; then the nearest name by edit distance: "h100 sxm" is 3 edits from "a100-sxm9" (a->h,
     * '-'->' ', drop '9'), the first at 3 in database order (V100 SXM2 and P100 SXM2, also 3, come later).
     */
    @Test
    void anUnknownA100IsOfferedTheA100sFirst() {
        assertEquals(List.of("A100 SXM", "A100-SXM4-80GB", "A100-SXM4-40GB", "A100 PCIe (NVLink bridge pairs)",
                "H100 SXM"), GpuModels.nearest("A100-SXM9", 5));
    }

    /** "RTX 4090" names no model exactly; GeForce RTX 4090's text rule ("4090") finds it. */
    @Test
    void aShortNameIsOfferedTheModelItsRuleFinds() {
        assertEquals("GeForce RTX 4090", GpuModels.nearest("RTX 4090", 1).get(0));
    }
}
