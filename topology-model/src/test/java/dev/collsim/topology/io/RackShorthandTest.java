package dev.collsim.topology.io;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.topology.fabric.ClusterSpec;
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

    @Test
    void ordinaryHostsStillCountHosts() {
        assertEquals(2, ClusterLoader.shorthand("dgx-h100x2").orElseThrow().count());
    }
}
