package dev.collsim.validation.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.validation.ingest.Corpus;
import dev.collsim.validation.ingest.Dataset;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * NCCL_TREE_THRESHOLD as NCCL read it: NCCL v2.4.8-1 {@code src/enqueue.cc getPatternInfo} runs an AllReduce as a tree
 * only where {@code nBytes <= comm->treeThreshold}, so 0 means rings at every size; from v2.5.6-1 no source file of
 * NCCL reads the variable ({@code git grep TREE_THRESHOLD v2.5.6-1 -- src} finds nothing).
 */
class OlderTreeThresholdTest {

    private static final String P3DN = "A-allreduce-2x8xV100-32GB-aws-p3dn-dlami-efa-nccl2.4.txt";

    /** The AWS DLAMI p3dn run: NCCL 2.4.8 (its line 33), NCCL_TREE_THRESHOLD=0 (its env line 7 and INFO line 56). */
    @Test
    void zeroUnderNccl24IsRingsForAllReduce() throws Exception {
        Dataset d = Corpus.read(P3DN).get(0);
        Map<String, String> settings = new HashMap<>(d.env());
        assertEquals("0", settings.get("NCCL_TREE_THRESHOLD"));
        Optional<String> line = OlderTreeThreshold.apply(d, settings);
        assertEquals(Optional.of("NCCL_TREE_THRESHOLD=0 under NCCL 2.4.8: AllReduce on rings at every size (NCCL 2.4"
                + " runs a tree only up to the threshold), modelled as NCCL_ALGO=allreduce:ring"), line);
        assertEquals("allreduce:ring", settings.get("NCCL_ALGO"));
        assertTrue(!settings.containsKey("NCCL_TREE_THRESHOLD"));
    }

    /** Under NCCL 2.5 and later the variable does nothing; a positive threshold or the default -2 is not modelled. */
    @Test
    void laterReleasesAndOtherThresholds() throws Exception {
        Dataset d24 = Corpus.read(P3DN).get(0);
        Map<String, String> positive = new HashMap<>(Map.of("NCCL_TREE_THRESHOLD", "4194304"));
        assertTrue(OlderTreeThreshold.apply(d24, positive).isEmpty());
        assertEquals(Map.of("NCCL_TREE_THRESHOLD", "4194304"), positive, "left to the 'not part of the model' line");
        assertTrue(OlderTreeThreshold.apply(d24, new HashMap<>(Map.of("NCCL_TREE_THRESHOLD", "-2"))).isEmpty());
        Map<String, String> own = new HashMap<>(Map.of("NCCL_TREE_THRESHOLD", "0", "NCCL_ALGO", "Tree"));
        assertTrue(OlderTreeThreshold.apply(d24, own).isEmpty(), "the run's own NCCL_ALGO stands");
        // the AWS p4d DLAMI run states NCCL 2.23.4 (its INFO line 32)
        Dataset d223 = Corpus.read("A-allreduce-2x8xA100-40GB-aws-p4d-dlami-efa-nccl2.23.txt").get(0);
        Map<String, String> later = new HashMap<>(Map.of("NCCL_TREE_THRESHOLD", "0"));
        assertEquals(Optional.of("NCCL_TREE_THRESHOLD=0 ignored: NCCL 2.5 and later no longer read it (the run's NCCL"
                + " 2.23.4)"), OlderTreeThreshold.apply(d223, later));
        assertEquals(Map.of(), later);
    }
}
