package dev.collsim.simulator.tuning;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The carried release that models a run of another NCCL release. */
class NcclVersionTest {

    /**
     * collsim carries 2.28.9 and 2.30.7. A run's minor release takes the newest carried one not above it: 2.30 for
     * 2.30 and later, 2.28 for 2.28 and 2.29 (no ncclNvlsTuning before 2.30.3); older runs (2.18, 2.27) take the
     * oldest carried, 2.28.9.
     */
    @Test
    void nearestCarriedReleaseThatIsNotNewer() {
        assertEquals(NcclVersion.V2_28_9, NcclVersion.modelling(18));
        assertEquals(NcclVersion.V2_28_9, NcclVersion.modelling(27));
        assertEquals(NcclVersion.V2_28_9, NcclVersion.modelling(28));
        assertEquals(NcclVersion.V2_28_9, NcclVersion.modelling(29));
        assertEquals(NcclVersion.V2_30_7, NcclVersion.modelling(30));
        assertEquals(NcclVersion.V2_30_7, NcclVersion.modelling(31));
    }

    @Test
    void minorRelease() {
        assertEquals(28, NcclVersion.V2_28_9.minor());
        assertEquals(30, NcclVersion.V2_30_7.minor());
    }
}
