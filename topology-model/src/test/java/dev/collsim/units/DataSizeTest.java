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
}
