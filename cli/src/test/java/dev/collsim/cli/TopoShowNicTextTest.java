package dev.collsim.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * {@code topo show}'s NIC bandwidth per GPU keeps its fraction. By hand: 2 NICs at NCCL's 10 Gb/s fallback for 8 GPUs
 * are 20 / 8 = 2.5 Gb/s per GPU (whole numbers printed 3, next to "= 0.3 GB/s"); 8 x 400 Gb/s for 8 GPUs are 400;
 * 1000 Gb/s for 3 GPUs are 333.33.
 */
class TopoShowNicTextTest {

    @Test
    void perGpuNicBandwidthKeepsItsFraction() {
        assertEquals("2.5", TopoShowCommand.gbitsText(2 * 10.0 / 8));
        assertEquals("400", TopoShowCommand.gbitsText(8 * 400.0 / 8));
        assertEquals("333.33", TopoShowCommand.gbitsText(1000.0 / 3));
    }
}
