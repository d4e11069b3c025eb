package dev.collsim.validation.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.validation.ingest.Corpus;
import dev.collsim.validation.ingest.Dataset;
import dev.collsim.validation.ingest.NcclRelease;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * CollNet before NCCL 2.14 is one algorithm: {@code src/include/devcomm.h} defines one {@code NCCL_ALGO_COLLNET 2}
 * at v2.8.4-1 to v2.13.4-1, a tree (chain) in v2.8.4-1 ({@code struct ncclTree collTree}, line 180) and the direct
 * one from v2.9.6-1 ({@code struct ncclDirect collTree}, line 195); {@code NCCL_ALGO_COLLNET_DIRECT 2},
 * {@code NCCL_ALGO_COLLNET_CHAIN 3} first at v2.14.3-1.
 */
class OlderCollNetTest {

    private static final String SHARP = "A-allreduce-2x8xA100-40GB-abci-anode-hdr-sharp-collnet-nccl2.8.txt";

    /** The ABCI SHARP run: NCCL 2.8 (its nccl_version line), NCCL_COLLNET_ENABLE=1 (its env line). */
    @Test
    void nccl28WithCollNetHasNoCollNetDirect() throws Exception {
        CollNetRewrite.read(SHARP).assertRewrite(OlderCollNet::apply, "NCCL 2.8 has one CollNet algorithm, the one"
                + " 2.14 calls CollNetChain (to 2.8): modelled as NCCL_ALGO=^CollNetDirect", "NCCL_ALGO",
                "^CollNetDirect");
    }

    /** The boundaries by hand from the tags above: 2.8 the chain, 2.9 and 2.13 the direct one, 2.14 both. */
    @Test
    void releaseBoundaries() {
        assertEquals(Optional.of("CollNetDirect"), OlderCollNet.missing(NcclRelease.parse("2.8.4")));
        assertEquals(Optional.of("CollNetChain"), OlderCollNet.missing(NcclRelease.parse("2.9.6")));
        assertEquals(Optional.of("CollNetChain"), OlderCollNet.missing(NcclRelease.parse("2.13.4")));
        assertEquals(Optional.empty(), OlderCollNet.missing(NcclRelease.parse("2.14.3")));
        assertEquals(Optional.empty(), OlderCollNet.missing(NcclRelease.UNKNOWN));
    }

    /** No CollNet, the run's own NCCL_ALGO, or a release from 2.14 on: nothing is added. */
    @Test
    void otherRunsAreLeftAlone() throws Exception {
        Dataset d28 = Corpus.read(SHARP).get(0);
        Map<String, String> off = new HashMap<>(Map.of("NCCL_COLLNET_ENABLE", "0"));
        assertTrue(OlderCollNet.apply(d28, off).isEmpty());
        Map<String, String> own = new HashMap<>(Map.of("NCCL_COLLNET_ENABLE", "1", "NCCL_ALGO", "Tree"));
        assertTrue(OlderCollNet.apply(d28, own).isEmpty());
        assertEquals("Tree", own.get("NCCL_ALGO"));
        // the AWS p4d DLAMI run states NCCL 2.23.4 (its INFO line 32): CollNetDirect exists there
        Dataset d223 = Corpus.read("A-allreduce-2x8xA100-40GB-aws-p4d-dlami-efa-nccl2.23.txt").get(0);
        Map<String, String> later = new HashMap<>(Map.of("NCCL_COLLNET_ENABLE", "1"));
        assertTrue(OlderCollNet.apply(d223, later).isEmpty());
        assertEquals(Map.of("NCCL_COLLNET_ENABLE", "1"), later);
    }
}
