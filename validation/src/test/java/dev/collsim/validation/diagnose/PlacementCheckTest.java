package dev.collsim.validation.diagnose;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** GPUs per machine read from a header's hardware text through the GPU database (the hardware lines of the corpus). */
class PlacementCheckTest {

    @Test
    void countBeforeTheFirstRecognisedGpuName() {
        // "8x" is the first count followed by a GPU name (A100-SXM4-80GB); "2 servers x" has no digit before x.
        assertEquals(8, PlacementCheck.gpusPerMachine("2 servers x 8x A100-SXM4-80GB"));
        // the first count names CPUs (AMD EPYC), the second the GPUs (H100 NVL)
        assertEquals(2, PlacementCheck.gpusPerMachine("2 nodes, each 2x AMD EPYC 9534 (Zen 4, 8 NUMA nodes) + 2x "
                + "NVIDIA H100 NVL (GPUs on different NUMA domains from NIC)"));
        assertEquals(8, PlacementCheck.gpusPerMachine("8x GeForce RTX 4090, 2x AMD EPYC 7542 (8 NUMA nodes)"));
        assertEquals(4, PlacementCheck.gpusPerMachine("4 servers x 4x Tesla V100-SXM2-32GB"));
        // "0x20b5" is a PCI id, not a count of GPUs: the GPU count is the 4 before A100
        assertEquals(4, PlacementCheck.gpusPerMachine("Azure NC A100 v4: 4x A100 80GB PCIe (device 0x20b5)"));
    }

    @Test
    void noRecognisedGpuGivesZero() {
        assertEquals(0, PlacementCheck.gpusPerMachine("2x AMD EPYC 7763, 8x ConnectX-7"));
        assertEquals(0, PlacementCheck.gpusPerMachine(null));
        assertEquals(0, PlacementCheck.gpusPerMachine("99999999999x H100"));
    }
}
