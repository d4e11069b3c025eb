package dev.collsim.nccl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Expected values worked out by hand from nccl-tests 2.19.6 {@code src/common.cu} (commit a0b82b2, tag v2.19.6):
 * {@code parsesize} ({@code sscanf("%lf %1s")}, K/M/G = 2^10/2^20/2^30, the double cast to size_t), the defaults
 * {@code minBytes = maxBytes = 32*1024*1024}, {@code stepBytes = 1*1024*1024}, {@code stepFactor = 1}, and
 * {@code TimeTest}'s loops ({@code size = stepfactor > 1 ? size*stepfactor : size+stepbytes}; warm-up
 * {@code size*2}).
 */
class SizeSweepTest {

    private static List<Long> pow2(int from, int to) {
        List<Long> out = new ArrayList<>();
        for (int k = from; k <= to; k++) {
            out.add(1L << k);
        }
        return out;
    }

    @Test
    void defaultsAreNcclTests() {
        assertEquals(new SizeSweep(33_554_432, 33_554_432, 1_048_576, 1), SizeSweep.DEFAULT);
        assertEquals(List.of(33_554_432L), SizeSweep.DEFAULT.sizes());
        assertEquals(SizeSweep.DEFAULT, SizeSweep.parse("32M", "32M", "1M", 1));
    }

    @Test
    void factorSweepMultipliesUntilPastMax() {
        // -b 8 -e 128M -f 2: 2^3 .. 2^27, 25 sizes
        assertEquals(pow2(3, 27), SizeSweep.parse("8", "128M", "1M", 2).sizes());
        // -b 8 -e 1000 -f 4: 8, 32, 128, 512 (2048 > 1000)
        assertEquals(List.of(8L, 32L, 128L, 512L), SizeSweep.parse("8", "1000", "1M", 4).sizes());
        // -b 8 -e 8G -f 2: 2^3 .. 2^33
        assertEquals(pow2(3, 33), SizeSweep.parse("8", "8G", "1M", 2).sizes());
    }

    @Test
    void stepSweepAddsWhenFactorIsNotAboveOne() {
        // -b 1K -e 4K -i 1K: 1024, 2048, 3072, 4096
        assertEquals(List.of(1024L, 2048L, 3072L, 4096L), SizeSweep.parse("1K", "4K", "1K", 1).sizes());
        // -f 0 is additive too (stepfactor > 1 is the test)
        assertEquals(List.of(1024L, 2048L, 3072L, 4096L), SizeSweep.parse("1K", "4K", "1K", 0).sizes());
        // -b 1M -e 2.5M: 1M, 2M (3M > 2.5M = 2621440)
        assertEquals(List.of(1L << 20, 2L << 20), SizeSweep.parse("1M", "2.5M", "1M", 1).sizes());
        // -b 0 -e 3M with the default -i 1M: 0, 1M, 2M, 3M
        assertEquals(List.of(0L, 1L << 20, 2L << 20, 3L << 20), SizeSweep.parse("0", "3M", "1M", 1).sizes());
    }

    @Test
    void zeroMinimumWithAFactorNeverGrowsAndIsRefused() {
        // nccl-tests: size = 0 * 2 = 0 <= 16 for ever
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SizeSweep.parse("0", "16", "1M", 2));
        assertTrue(e.getMessage().contains("-b > 0"), e.getMessage());
        // the only size in [0, 0] is one point
        assertEquals(List.of(0L), SizeSweep.parse("0", "0", "1M", 2).sizes());
        assertEquals(List.of(0L), new SizeSweep(0, 0, 1, 1).sizes());
    }

    @Test
    void warmupDoublesFromMinimum() {
        assertEquals(List.of(8L, 16L, 32L, 64L), SizeSweep.parse("8", "100", "0", 4).warmupSizes());
        assertEquals(List.of(0L), new SizeSweep(0, 0, 1, 1).warmupSizes());
        assertEquals(List.of(33_554_432L), SizeSweep.DEFAULT.warmupSizes());
    }

    @Test
    void sizesAreReadAsParsesize() {
        assertEquals(8L << 30, SizeSweep.parseBytes("-e", "8G"));
        assertEquals(8L << 30, SizeSweep.parseBytes("-e", "8g"));
        // %1s reads only the first letter: 8GB is 8 GiB in nccl-tests (not 8e9)
        assertEquals(8L << 30, SizeSweep.parseBytes("-e", "8GB"));
        assertEquals(8L << 30, SizeSweep.parseBytes("-e", "8GiB"));
        // "%lf %1s": white space between number and letter
        assertEquals(8192L, SizeSweep.parseBytes("-b", "8 K"));
        // 1.5 * 1048576
        assertEquals(1_572_864L, SizeSweep.parseBytes("-b", "1.5M"));
        // (size_t)1.7 = 1
        assertEquals(1L, SizeSweep.parseBytes("-b", "1.7"));
        assertEquals(1000L, SizeSweep.parseBytes("-b", "1e3"));
        assertEquals(0L, SizeSweep.parseBytes("-b", "0"));
    }

    @Test
    void badSizesNameTheOption() {
        for (String bad : new String[] {"8X", "8T", "-1", "", "K", "8Gfoo", "0x10"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> SizeSweep.parseBytes("-b", bad), bad);
            assertTrue(e.getMessage().startsWith("-b '" + bad + "'"), e.getMessage());
        }
    }

    @Test
    void emptyOrEndlessSweepsAreRefused() {
        // nccl-tests: "invalid sizes for 'minbytes' and 'maxbytes': 64 > 8"
        assertThrows(IllegalArgumentException.class, () -> new SizeSweep(64, 8, 1, 1));
        // -i 0 without -f: size + 0 for ever
        assertThrows(IllegalArgumentException.class, () -> new SizeSweep(8, 64, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> new SizeSweep(8, 64, 1, -2));
        // -i 1 over 1 GiB: more than MAX_POINTS sizes
        assertThrows(IllegalArgumentException.class, () -> SizeSweep.parse("1", "1G", "1", 1));
        // one size, no step needed
        assertEquals(List.of(64L), new SizeSweep(64, 64, 0, 1).sizes());
    }

    @Test
    void productNearLongMaxEndsTheSweep() {
        long max = Long.MAX_VALUE;
        List<Long> s = new SizeSweep(1L << 61, max, 0, 2).sizes();
        assertEquals(List.of(1L << 61, 1L << 62), s);
    }

    /**
     * H200 as the device reports it: 143771 MiB. nccl-tests 2.19.6 reserves min(ceil(mem / 16 GiB) GiB, 4 GiB)
     * = 4 GiB, plus 1 GiB, and divides by 3 buffers with the data check:
     * (143771 MiB - 5120 MiB) / 3 = 138651 MiB / 3, in bytes 48,462,036,992.
     */
    @Test
    void memoryLimitAsNcclTests() {
        long mem = 143771L << 20;
        assertEquals((138651L << 20) / 3, SizeSweep.memoryLimit(mem, true));
        assertEquals(48_462_036_992L, SizeSweep.memoryLimit(mem, true));
        assertEquals((138651L << 20) / 2, SizeSweep.memoryLimit(mem, false));
        // a 16 GiB GPU reserves 1 GiB: (16 - 1 - 1) GiB / 2
        assertEquals(7L << 30, SizeSweep.memoryLimit(16L << 30, false));
        SizeSweep s = new SizeSweep(1L << 30, 1L << 40, 0, 1024).shrinkTo(SizeSweep.memoryLimit(mem, false));
        assertEquals((138651L << 20) / 2, s.maxBytes());
        assertEquals(List.of(1L << 30), s.sizes());
        // nccl-tests: if (minBytes > maxBytes) minBytes = maxBytes
        SizeSweep t = new SizeSweep(8L << 30, 1L << 40, 0, 2).shrinkTo(4L << 30);
        assertEquals(new SizeSweep(4L << 30, 4L << 30, 0, 2), t);
    }
}
