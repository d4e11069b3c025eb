package dev.collsim.validation.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Size labels of reduced tables ("8 MB", "1G", "512K"), read as the power of two a table means. */
class SizeLabelTest {

    @Test
    void labelsReadAsPowersOfTwo() {
        assertEquals(8L << 20, SizeLabel.parse("8 MB"), "8 MB is 8 MiB in nccl-tests' tables");
        assertEquals(1L << 30, SizeLabel.parse("1G"));
        assertEquals(512L << 10, SizeLabel.parse("512K"));
    }

    /**
     * Found by the fuzz run: 9999999999G is about 1.07e19 bytes, beyond a long; the label read as a negative size and
     * a dataset constructor threw (exit 1). Now the label is refused, naming the largest size (2^62 B = 4 EiB).
     */
    @Test
    void sizeBeyondTheLargestIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SizeLabel.parse("9999999999G"));
        assertTrue(e.getMessage().contains("up to 4 EiB"), e.getMessage());
        assertEquals(1L << 62, SizeLabel.parse("4194304T"), "4,194,304 TiB = 2^62 bytes is the largest allowed");
    }
}
