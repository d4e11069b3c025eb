package dev.collsim.units;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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

    /**
     * GPU memory capacities read every prefix as a power of 1024 (JEDEC Standard 100B.01), so a datasheet's "80 GB"
     * is 80 x 2^30 = 85,899,345,920 B, the 81,920 MiB nvidia-smi shows for an "80GB" A100; by hand: 141 GiB = 141 x
     * 1,073,741,824 = 151,397,597,184; 96G = 103,079,215,104; 512 MB = 536,870,912. Other sizes keep GB = 1e9.
     */
    @Test
    void memoryCapacitiesUseJedecGigabytes() {
        assertEquals(85_899_345_920L, DataSize.parseMemoryCapacity("80 GB"));
        assertEquals(81_920L * 1024 * 1024, DataSize.parseMemoryCapacity("80GB"));
        assertEquals(151_397_597_184L, DataSize.parseMemoryCapacity("141 GiB"));
        assertEquals(103_079_215_104L, DataSize.parseMemoryCapacity("96G"));
        assertEquals(536_870_912L, DataSize.parseMemoryCapacity("512 MB"));
        assertEquals(80_000_000_000L, DataSize.parseBytes("80 GB"), "elsewhere GB stays 1e9");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DataSize.parseMemoryCapacity("80 XB"));
        assertEquals("'80 XB' is not a memory size; use " + DataSize.MEMORY_ALLOWED, e.getMessage());
    }
}
