package dev.collsim.hardware;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * Compute capability to architecture as NVIDIA's CUDA C++ Programming Guide tables it: 8.9 is Ada Lovelace (L40S,
 * RTX 4090), apart from Ampere's 8.0/8.6; 7.5 is Turing, apart from Volta's 7.0; 12.0 is Blackwell.
 */
class GpuArchitectureTest {

    @Test
    void theDatabaseModelsHaveTheirGeneration() {
        assertEquals(GpuArchitecture.ADA, GpuModels.find("NVIDIA L40S").orElseThrow().architecture());
        assertEquals(GpuArchitecture.ADA, GpuModels.find("GeForce RTX 4090").orElseThrow().architecture());
        assertEquals(GpuArchitecture.AMPERE, GpuModels.find("A100 SXM").orElseThrow().architecture());
        assertEquals(GpuArchitecture.AMPERE, GpuModels.find("RTX A6000").orElseThrow().architecture());
        assertEquals(GpuArchitecture.TURING, GpuModels.find("T4").orElseThrow().architecture());
        assertEquals(GpuArchitecture.VOLTA, GpuModels.find("V100 SXM2").orElseThrow().architecture());
        assertEquals(GpuArchitecture.PASCAL, GpuModels.find("P100 SXM2").orElseThrow().architecture());
        assertEquals(GpuArchitecture.HOPPER, GpuModels.find("H100 SXM").orElseThrow().architecture());
        assertEquals(GpuArchitecture.BLACKWELL, GpuModels.find("RTX PRO 6000 Blackwell").orElseThrow().architecture());
        assertEquals("Ada", GpuArchitecture.ADA.label());
        assertEquals("ada", GpuArchitecture.ADA.key());
    }
}
