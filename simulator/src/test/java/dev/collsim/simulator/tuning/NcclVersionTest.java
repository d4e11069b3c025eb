package dev.collsim.simulator.tuning;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The entry that models a run of another NCCL release. */
class NcclVersionTest {

    /**
     * collsim carries 2.28.9 and 2.30.7 whole and the tuning rules of 2.18-2.27 in ranges (NCCL {@code
     * src/graph/tuning.cc} read at each tag from v2.18.5-1 to v2.27.3-1). A run's minor release takes the newest entry
     * not above it: 2.30 for 2.30 and later, 2.28 for 2.28 and 2.29 (no ncclNvlsTuning before 2.30.3), 2.19.4 for
     * 2.20 (its rules first differ again at 2.21.5: Ring/LL .5, line 180), 2.25.1 for 2.26. 2.8-2.11 have their own
     * entries: 2.8.4 for 2.8-2.9 (v2.9.6-1 tuning.cc differs from v2.8.4-1 in CollNet only), 2.10.3 for 2.10-2.11
     * (v2.10.3-1 and v2.11.4-1 are the same file); a run of 2.12-2.17, between the ranges, takes 2.18.5 (v2.12.7-1
     * already has 2.18's {@code 2*nNodes} ring steps, line 114), one older than 2.8 (2.4) the oldest, 2.8.4.
     */
    @Test
    void nearestEntryThatIsNotNewer() {
        assertEquals(NcclVersion.V2_8_4, NcclVersion.modelling(4));
        assertEquals(NcclVersion.V2_8_4, NcclVersion.modelling(8));
        assertEquals(NcclVersion.V2_8_4, NcclVersion.modelling(9));
        assertEquals(NcclVersion.V2_10_3, NcclVersion.modelling(10));
        assertEquals(NcclVersion.V2_10_3, NcclVersion.modelling(11));
        assertEquals(NcclVersion.V2_18_5, NcclVersion.modelling(12));
        assertEquals(NcclVersion.V2_18_5, NcclVersion.modelling(17));
        assertEquals(NcclVersion.V2_18_5, NcclVersion.modelling(18));
        assertEquals(NcclVersion.V2_19_4, NcclVersion.modelling(20));
        assertEquals(NcclVersion.V2_21_5, NcclVersion.modelling(22));
        assertEquals(NcclVersion.V2_23_4, NcclVersion.modelling(24));
        assertEquals(NcclVersion.V2_25_1, NcclVersion.modelling(26));
        assertEquals(NcclVersion.V2_27_3, NcclVersion.modelling(27));
        assertEquals(NcclVersion.V2_28_9, NcclVersion.modelling(28));
        assertEquals(NcclVersion.V2_28_9, NcclVersion.modelling(29));
        assertEquals(NcclVersion.V2_30_7, NcclVersion.modelling(30));
        assertEquals(NcclVersion.V2_30_7, NcclVersion.modelling(31));
    }

    /** The older entries use 2.28.9's tables and name the range of releases whose rules they carry. */
    @Test
    void olderEntriesUse2289TablesAndNameTheirRange() {
        assertEquals(NcclVersion.V2_28_9, NcclVersion.V2_19_4.tables());
        assertEquals(NcclVersion.V2_30_7, NcclVersion.V2_30_7.tables());
        assertEquals("2.19-2.20", NcclVersion.V2_19_4.range());
        assertEquals("2.27", NcclVersion.V2_27_3.range());
        assertEquals("2.8-2.9", NcclVersion.V2_8_4.range());
        assertEquals("2.10-2.11", NcclVersion.V2_10_3.range());
        assertEquals("2.18", NcclVersion.V2_18_5.range());
        assertEquals(", the oldest release collsim models in full, with NCCL 2.8-2.9's own tuning tables, bandwidth"
                + " factors, latencies and allowed algorithms and protocols where they differ (docs/nccl-releases.md)",
                NcclVersion.V2_8_4.rulesNote());
        // what an older entry keeps of its own release: ncclTopoTuneModel's rules (docs/nccl-releases.md's table:
        // Ring LL/LL128 factors, llMaxBw, NVLS forms = bandwidth factors; hwLat/baseLat = latencies; the algorithms
        // per function and the LL128 default = allowed algorithms and protocols); 2.28.9 is the oldest of
        // V2_28_9 and V2_30_7, the two modelled in full
        assertEquals(", the oldest release collsim models in full, with NCCL 2.21-2.22's own bandwidth factors,"
                + " latencies and allowed algorithms and protocols where they differ (docs/nccl-releases.md)",
                NcclVersion.V2_21_5.rulesNote());
        assertEquals("", NcclVersion.V2_28_9.rulesNote());
    }

    @Test
    void minorRelease() {
        assertEquals(28, NcclVersion.V2_28_9.minor());
        assertEquals(30, NcclVersion.V2_30_7.minor());
        assertEquals(21, NcclVersion.V2_21_5.minor());
    }

    /**
     * A user's --nccl-version may name any release in the carried span, not only an entry: 2.20.5 is modelled with
     * 2.19.4's rules (NCCL's Ring/LL factor changes next at v2.21.5-1, tuning.cc line 180), 2.22 with 2.21.5's, 2.29
     * with 2.28.9, 2.9.9 with 2.8.4 and 2.11 with 2.10.3; 2.17 (between the entries' ranges), 2.7 and 2.31 are
     * outside them and refused with the allowed ranges named.
     */
    @Test
    void anyReleaseOfTheSpanParses() {
        assertEquals(NcclVersion.V2_8_4, NcclVersion.parse("2.9.9"));
        assertEquals(NcclVersion.V2_8_4, NcclVersion.parse("2.8"));
        assertEquals(NcclVersion.V2_10_3, NcclVersion.parse("2.11"));
        assertThrows(IllegalArgumentException.class, () -> NcclVersion.parse("2.7.8"));
        assertThrows(IllegalArgumentException.class, () -> NcclVersion.parse("2.12"));
        assertEquals(NcclVersion.V2_19_4, NcclVersion.parse("2.20.5"));
        assertEquals(NcclVersion.V2_21_5, NcclVersion.parse("2.22"));
        assertEquals(NcclVersion.V2_28_9, NcclVersion.parse("2.29"));
        assertEquals(NcclVersion.V2_30_7, NcclVersion.parse("2.30.7"));
        IllegalArgumentException old = assertThrows(IllegalArgumentException.class, () -> NcclVersion.parse("2.17"));
        assertTrue(old.getMessage().contains("2.8 to 2.11 or 2.18 to 2.30"), old.getMessage());
        // one term with compare's "the oldest release collsim models in full" (rulesNote): 2.28.9 and 2.30.7 in full,
        // the 8 older entries (2.8.4 ... 2.27.3, this enum) by their tuning rules only
        assertTrue(old.getMessage().contains("; releases collsim models in full: 2.28 (2.28.9), 2.30 (2.30.7); by their"
                + " own tuning rules over the 2.28.9 model: 2.8 (2.8.4), 2.10 (2.10.3), 2.18 (2.18.5), "),
                old.getMessage());
        assertFalse(old.getMessage().contains("carried"), old.getMessage());
        assertThrows(IllegalArgumentException.class, () -> NcclVersion.parse("2.31.0"));
        assertThrows(IllegalArgumentException.class, () -> NcclVersion.parse("3.0"));
    }
}
