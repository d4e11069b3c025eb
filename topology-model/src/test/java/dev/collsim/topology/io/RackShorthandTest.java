package dev.collsim.topology.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.io.InputException;
import dev.collsim.topology.NvSwitch;
import dev.collsim.topology.fabric.ClusterSpec;
import dev.collsim.topology.io.yaml.YamlClusterReader;
import org.junit.jupiter.api.Test;

/**
 * {@code -c NAMExN} of a rack-scale host type counts racks: {@code -c gb200-nvl72} is one GB200 NVL72 rack of 72 GPUs
 * (18 trays x 4, NVIDIA GB200 NVL72 datasheet), so {@code gb200-nvl72x2} is two racks, 144 GPUs, not two 4-GPU trays.
 */
class RackShorthandTest {

    @Test
    void rackTimesNMeansNRacks() {
        ClusterSpec two = ClusterLoader.shorthand("gb200-nvl72x2").orElseThrow();
        assertEquals(36, two.count());
        assertEquals("gb200-nvl72x2", two.name());
        assertEquals(144, two.build().gpus().size());
        assertEquals(18, ClusterLoader.shorthand("gb200-nvl72:1").orElseThrow().count());
    }

    /** The bare name of a rack-scale type is one rack, as NAMEx1: GB300 NVL72 is 72 GPUs in 18 trays (NVIDIA RA). */
    @Test
    void theBareNameIsOneRack() {
        for (String name : new String[] {"gb300-nvl72", "a4x-maxgpu-4g-metal", "dgx-gb200"}) {
            ClusterSpec bare = ClusterLoader.catalogSpec(name).orElseThrow();
            assertEquals(ClusterLoader.shorthand(name + "x1").orElseThrow().count(), bare.count(), name);
            assertEquals(18, bare.count(), name);
            assertEquals("18 trays in 1 NVLink domain (up to 18 trays per domain), 72 GPUs", bare.sizeText());
        }
        assertEquals("36 trays in 2 NVLink domains (up to 18 trays per domain), 144 GPUs",
                ClusterLoader.shorthand("gb300-nvl72x2").orElseThrow().sizeText());
        assertEquals(1, ClusterLoader.catalogSpec("dgx-h100").orElseThrow().count());
        assertEquals("1 host, 8 GPUs", ClusterLoader.catalogSpec("dgx-h100").orElseThrow().sizeText());
    }

    /** A YAML cluster's traysPerDomain splits the trays into NVLink domains of that many trays. */
    @Test
    void yamlTraysPerDomain() throws Exception {
        String yaml = "schema: collsim/v1\nname: t\nhosts: gb300-nvl72\ncount: 6\ntraysPerDomain: 2\n"
                + "fabric: {kind: rail-optimized}\n";
        YamlClusterReader.Cluster c = new YamlClusterReader().readCluster("t.yaml", yaml);
        assertEquals("6 trays in 3 NVLink domains (up to 2 trays per domain), 24 GPUs", c.catalogSpec().sizeText());
        // one shared NVLink switch node per domain of 2 trays (host -1)
        assertEquals(3, c.topology().devices(NvSwitch.class).stream().filter(n -> n.host() == -1).count());
    }

    @Test
    void traysPerDomainOnHostsWithNvlinkInsideIsAProblem() {
        String yaml = "schema: collsim/v1\nname: t\nhosts: dgx-h100\ncount: 2\ntraysPerDomain: 1\n";
        InputException e = assertThrows(InputException.class, () -> new YamlClusterReader().readCluster("t.yaml", yaml));
        assertTrue(e.getMessage().contains("t.yaml:5:17: traysPerDomain: found 1 for hosts dgx-h100"), e.getMessage());
    }

    @Test
    void ordinaryHostsStillCountHosts() {
        assertEquals(2, ClusterLoader.shorthand("dgx-h100x2").orElseThrow().count());
    }
}
