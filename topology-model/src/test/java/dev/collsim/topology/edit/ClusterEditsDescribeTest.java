package dev.collsim.topology.edit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.topology.fabric.FabricKind;
import org.junit.jupiter.api.Test;

/**
 * A variant's changes in words (the report's changes column, variants.csv) write the oversubscription as the spec
 * and {@code --oversubscription} take it, {@code 2:1}, not the double's {@code 2.0:1}; 1:1 is not oversubscribed.
 */
class ClusterEditsDescribeTest {

    private static String words(double over) {
        return new ClusterEdits(null, null, null, null, FabricKind.FAT_TREE, over, null, 32).describe();
    }

    @Test
    void ratioAsTheSpecWritesIt() {
        assertEquals("fat-tree, 2:1 oversubscribed, 32 ports per leaf", words(2));
        assertEquals("fat-tree, 1:1 (non-blocking), 32 ports per leaf", words(1));
        assertEquals("fat-tree, 1.5:1 oversubscribed, 32 ports per leaf", words(1.5));
    }
}
