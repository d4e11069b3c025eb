package dev.collsim.executor.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.executor.ExecutorException;
import org.junit.jupiter.api.Test;

/** NCCL_TESTS_DEVICE is user input: a value that is not a device index is a usage error, not a NumberFormatException. */
class FirstDeviceTest {

    @Test
    void deviceVariable() {
        assertEquals(8, GpuRunner.firstDevice(null, 8), "unset: local rank x GPUs per process");
        assertEquals(3, GpuRunner.firstDevice(" 3 ", 8));
        ExecutorException e = assertThrows(ExecutorException.class, () -> GpuRunner.firstDevice("99999999999", 0));
        assertEquals(ExecutorException.USAGE, e.exitCode());
        assertTrue(e.getMessage().contains("NCCL_TESTS_DEVICE='99999999999' is not a device index"), e.getMessage());
    }
}
