package dev.collsim.topology.edit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.topology.NvSwitch;
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.OwnNvlinkDomain;
import dev.collsim.topology.fabric.ClusterSpec;
import dev.collsim.topology.io.ClusterLoader;
import org.junit.jupiter.api.Test;

/**
 * A what-if's {@code trays-per-domain} and a tray count edit on NVL72 trays (GB300 NVL72: 18 trays of 4 GPUs per
 * rack, NVIDIA's NVL72 reference architecture), checked as {@code --trays-per-domain} checks it.
 */
class TraysPerDomainEditTest {

    private static final ClusterSpec TWO_RACKS = ClusterLoader.shorthand("gb300-nvl72x2").orElseThrow();

    private static ClusterEdits trays(Integer hosts, Integer perDomain) {
        return new ClusterEdits(hosts, null, null, null, null, null, null, null, null, perDomain);
    }

    /**
     * 36 trays, 6 per domain: 36 / 6 = 6 NVLink domains, each one shared NVLink switch node (host -1); the name says
     * trays, not hosts.
     */
    @Test
    void traysPerDomainSplitsTheRacks() {
        ClusterSpec s = ClusterEditor.spec(TWO_RACKS, trays(null, 6));
        assertEquals(6, ((OwnNvlinkDomain) s.hostType()).trays());
        assertEquals("36 trays in 6 NVLink domains (up to 6 trays per domain), 144 GPUs", s.sizeText());
        assertEquals("gb300-nvl72x2 (6 trays per NVLink domain)", s.name());
        Topology t = ClusterEditor.build(TWO_RACKS, trays(null, 6));
        assertEquals(6, t.devices(NvSwitch.class).stream().filter(n -> n.host() == -1).count());
        assertEquals("gb300-nvl72x2 (18 trays)", ClusterEditor.spec(TWO_RACKS, trays(18, null)).name());
    }

    /** The divisors of 36 are 1, 2, 3, 4, 6, 9, 12, 18 and 36 (by hand); 5 is none, 19 is past the rack's 18. */
    @Test
    void aValueTheCliRefusesIsRefusedWithTheSameWords() {
        ClusterEditException five = assertThrows(ClusterEditException.class,
                () -> ClusterEditor.spec(TWO_RACKS, trays(null, 5)));
        assertEquals(ClusterEdits.Field.TRAYS_PER_DOMAIN, five.field());
        assertEquals("found 5 for 36 trays; allowed: a divisor of the tray count (1, 2, 3, 4, 6, 9, 12, 18, 36), so"
                + " every NVLink domain holds as many trays", five.detail());
        ClusterEditException big = assertThrows(ClusterEditException.class,
                () -> ClusterEditor.spec(TWO_RACKS, trays(null, 19)));
        assertEquals("found 19; allowed: 1 to 18 (the trays of one gb300-nvl72 rack)", big.detail());
        ClusterSpec dgx = ClusterLoader.shorthand("dgx-h100x2").orElseThrow();
        ClusterEditException inside = assertThrows(ClusterEditException.class,
                () -> ClusterEditor.spec(dgx, trays(null, 1)));
        assertTrue(inside.detail().startsWith("found 1 for hosts dgx-h100, whose NVLink stays inside the host"),
                inside.detail());
    }

    /** Domains of 2 trays hold 4 trays evenly (2 domains), not 5: a count edit that breaks them is refused. */
    @Test
    void aTrayCountThatBreaksTheBasesDomainsIsRefused() {
        ClusterSpec pairs = TWO_RACKS.withTraysPerDomain(2);
        assertEquals("36 trays in 18 NVLink domains (up to 2 trays per domain), 144 GPUs", pairs.sizeText());
        assertEquals(4, ClusterEditor.spec(pairs, trays(4, null)).count());
        ClusterEditException five = assertThrows(ClusterEditException.class,
                () -> ClusterEditor.spec(pairs, trays(5, null)));
        assertEquals(ClusterEdits.Field.HOSTS, five.field());
        assertTrue(five.detail().contains("a multiple of 2"), five.detail());
    }

    /** The source names the cluster's NVLink domain, not the rack's 72-GPU one, once the trays are split. */
    @Test
    void theSourceNamesTheSmallerDomain() {
        ClusterSpec one = ClusterLoader.catalogSpec("gb300-nvl72").orElseThrow().withTraysPerDomain(1);
        assertTrue(one.source().contains("NVL72 tray, in an NVLink domain of 1 tray (4 GPUs; the rack's is 72)"),
                one.source());
        assertTrue(!one.source().contains("72-GPU NVLink domain"), one.source());
    }
}
