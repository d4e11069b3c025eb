package dev.collsim.units;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * The one way collsim prints a size as nccl-tests users read it (the predict, report and tune tables): a power-of-1024
 * suffix only where the size is an exact multiple, else the plain byte count.
 */
class DataSizeTest {

    @Test
    void exactMultiplesTakeTheSuffix() {
        assertEquals("8", DataSize.format(8));
        assertEquals("64K", DataSize.format(64 * 1024));
        assertEquals("32M", DataSize.format(32L * 1024 * 1024));
        assertEquals("8G", DataSize.format(8L * 1024 * 1024 * 1024));
        assertEquals("3T", DataSize.format(3L << 40));
        assertEquals("1024T", DataSize.format(1L << 50), "T is the largest suffix");
    }

    @Test
    void otherSizesStayInBytes() {
        assertEquals("1536", DataSize.format(1536), "1.5 KiB is not a whole number of KiB");
        assertEquals("1000", DataSize.format(1000));
        assertEquals("0", DataSize.format(0));
    }

    /**
     * The rounded label (chart axes, the plan's table), by hand: 1536 / 1024 = 1.5 -> 1.5K; 1100 / 1024 = 1.0742 ->
     * 1.1K; 1000 stays below 1024 -> 1000; 3 x 2^30 -> 3G; 2^50 / 2^40 = 1024 -> 1024T (T is the largest suffix).
     */
    @Test
    void roundedLabelsKeepOneDecimal() {
        assertEquals("8", DataSize.formatRounded(8));
        assertEquals("1.5K", DataSize.formatRounded(1536));
        assertEquals("1.1K", DataSize.formatRounded(1100));
        assertEquals("1000", DataSize.formatRounded(1000));
        assertEquals("3G", DataSize.formatRounded(3.0 * (1L << 30)));
        assertEquals("1024T", DataSize.formatRounded(Math.pow(2, 50)));
    }
}
