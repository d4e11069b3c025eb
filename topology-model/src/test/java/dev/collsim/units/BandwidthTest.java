package dev.collsim.units;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class BandwidthTest {

    /** 400 Gb/s NDR port = 50 GB/s (NCCL 2.30 topo.cc: speed_Mbps / 8000 gives 50 for 400000 Mbps). */
    @Test
    void nicSpeedInBitsIsDividedByEight() {
        assertEquals(50.0, Bandwidth.parse("400 Gb/s").gbps(), 1e-12);
        assertEquals(20.6, Bandwidth.parse("20.6 GB/s").gbps(), 1e-12);
        assertEquals(0.5, Bandwidth.parse("500MB/s").gbps(), 1e-12);
        assertEquals(12.5, Bandwidth.ofGbits(100).gbps(), 1e-12);
    }

    @Test
    void bareNumbersAndUnknownUnitsAreRejectedWithTheAllowedUnits() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Bandwidth.parse("25"));
        assertEquals(true, e.getMessage().contains("GB/s"));
        // a bare number names both readings a user may have meant
        assertEquals(true, e.getMessage().endsWith("; a bare number has no unit: write '25 Gb/s' (bits, as NIC ports"
                + " are sold) or '25 GB/s' (bytes)"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Bandwidth.parse("25 GBps"));
        assertThrows(IllegalArgumentException.class, () -> Bandwidth.ofGBps(-1));
    }

    /**
     * Units written another way are still refused (one spelling per unit) but the message says which spelling was
     * meant: a lower-case b or "bit" is bits, an upper-case B or "byte" is bytes, and a unit without "/s" is a rate.
     */
    @Test
    void unitTyposGetTheAllowedSpelling() {
        String[][] cases = {{"400 Gbps", "400 Gb/s"}, {"400 Gbit/s", "400 Gb/s"}, {"400 gbps", "400 Gb/s"},
            {"400 Gb", "400 Gb/s"}, {"400Gbits/sec", "400 Gb/s"}, {"25 GB", "25 GB/s"}, {"25 GBps", "25 GB/s"},
            {"25 GByte/s", "25 GB/s"}, {"1.6 tb/s", "1.6 Tb/s"}, {"100 mbps", "100 Mb/s"}};
        for (String[] c : cases) {
            assertEquals(c[1], Bandwidth.suggestion(c[0]), c[0]);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Bandwidth.parse(c[0]));
            assertTrue(e.getMessage().endsWith("; did you mean '" + c[1] + "'?"), e.getMessage());
        }
        for (String none : new String[] {"400", "400 G", "400 GHz", "fast", "-400 Gbps"}) {
            assertNull(Bandwidth.suggestion(none), none);
        }
        assertFalse(assertThrows(IllegalArgumentException.class, () -> Bandwidth.parse("400"))
                .getMessage().contains("did you mean"));
    }

    /**
     * An InfiniBand generation's name is answered with its 4x port's data rate (IBTA: 4 lanes of 25, 50, 100 Gb/s for
     * EDR, HDR, NDR; ConnectX-7 datasheet: NDR 400 Gb/s), a split port's name with its number, never taken as a value.
     */
    @Test
    void infiniBandNamesGetTheirRate() {
        String[][] cases = {{"NDR", "400 Gb/s"}, {"hdr", "200 Gb/s"}, {"EDR", "100 Gb/s"}, {"NDR200", "200 Gb/s"}};
        for (String[] c : cases) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Bandwidth.parse(c[0]));
            assertTrue(e.getMessage().endsWith("; did you mean '" + c[1] + "'?"), e.getMessage());
        }
        assertFalse(assertThrows(IllegalArgumentException.class, () -> Bandwidth.parse("NDRx"))
                .getMessage().contains("did you mean"));
    }

    @Test
    void sizesUsePowersOf1024LikeNcclTests() {
        assertEquals(8L, DataSize.parseBytes("8"));
        assertEquals(32L * 1024 * 1024, DataSize.parseBytes("32M"));
        assertEquals(8L << 30, DataSize.parseBytes("8G"));
        assertEquals(80_000_000_000L, DataSize.parseBytes("80 GB"));
        assertEquals(141L << 30, DataSize.parseBytes("141 GiB"));
        assertEquals("32M", DataSize.format(32L << 20));
        assertEquals("1000", DataSize.format(1000));
        assertThrows(IllegalArgumentException.class, () -> DataSize.parseBytes("8Q"));
    }

    @Test
    void latenciesCarryTheirUnit() {
        assertEquals(0.6, Latency.parse("0.6 us").micros(), 1e-12);
        assertEquals(0.6, Latency.parse("600 ns").micros(), 1e-12);
        assertThrows(IllegalArgumentException.class, () -> Latency.parse("0.6"));
    }
}
