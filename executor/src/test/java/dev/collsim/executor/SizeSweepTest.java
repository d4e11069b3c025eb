package dev.collsim.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class SizeSweepTest {

    @Test
    void factorAndStepSweepsAsNcclTests() {
        assertEquals(List.of(8L, 32L, 128L, 512L), new SizeSweep(8, 1000, 0, 4).sizes());
        assertEquals(List.of(1L << 20, 2L << 20, 3L << 20), new SizeSweep(1 << 20, 3 << 20, 1 << 20, 1).sizes());
        assertEquals(List.of(8L, 16L, 32L, 64L), new SizeSweep(8, 100, 0, 4).warmupSizes());
        assertEquals(List.of(0L), new SizeSweep(0, 0, 1, 1).sizes());
    }

    /**
     * H200 as the device reports it: 143771 MiB. nccl-tests 2.19.6 reserves min(ceil(mem / 16 GiB) GiB, 4 GiB)
     * = 4 GiB, plus 1 GiB, and divides by 3 buffers with the data check:
     * (143771 MiB - 5120 MiB) / 3 = 138651 MiB / 3 = 46217 MiB = 48462037 KiB... in bytes 48,462,036,992.
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
    }

    @Test
    void badSweepsAreUsageErrors() {
        ExecutorException e = assertThrows(ExecutorException.class, () -> new SizeSweep(64, 8, 1, 1));
        assertEquals(ExecutorException.USAGE, e.exitCode());
        assertThrows(ExecutorException.class, () -> new SizeSweep(8, 64, 0, 1));
        assertThrows(ExecutorException.class, () -> new SizeSweep(0, 64, 0, 2));
    }
}
