package dev.collsim.validation.diagnose;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Header texts of the public data files: NIC speeds are in bits ("400Gb/s", "200GbE", "100 Gbps"); a figure in bytes
 * is something else, e.g. the NVLink line of the Azure ND H100 v5 file ("900 GB/s per GPU"), which diagnose once read
 * as "network 1 x 900 Gb/s per host".
 */
class HeaderNicsTest {

    @Test
    void nicSpeedsInBits() {
        HeaderNics a = HeaderNics.parse("8x NDR 400Gb/s IB", 1).orElseThrow();
        assertEquals(8, a.count());
        assertEquals(400, a.gbits());
        HeaderNics b = HeaderNics.parse("16x100 Gb/s", 1).orElseThrow();
        assertEquals(16, b.count());
        assertEquals(100, b.gbits());
        assertEquals(200, HeaderNics.parse("ConnectX-7 200GbE", 1).orElseThrow().gbits());
        assertEquals(100, HeaderNics.parse("100 Gbps TCP", 1).orElseThrow().gbits());
    }

    @Test
    void bytesPerSecondAreNotANic() {
        assertTrue(HeaderNics.parse("NVLink4 + NVSwitch gen3 (900 GB/s per GPU)", 1).isEmpty());
    }
}
