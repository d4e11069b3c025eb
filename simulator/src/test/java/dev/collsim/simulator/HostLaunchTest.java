package dev.collsim.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.simulator.perf.PerfEstimate;
import org.junit.jupiter.api.Test;

/** One benchmark iteration with G GPUs per thread: max(kernel, G x per-GPU host time); G = 1 changes nothing. */
class HostLaunchTest {

    private static PerfEstimate kernel(double us) {
        return new PerfEstimate(us, 2, us, 100, "latency: " + us + " us");
    }

    @Test
    void oneGpuPerThreadLeavesEveryEstimateAsItIs() {
        // with -g 1 the host's launch is inside launchOverheadUs: even a kernel faster than one launch stays
        for (double us : new double[] {0.1, 3.0, 6.5, 44.8, 1e6}) {
            PerfEstimate k = kernel(us);
            assertSame(k, HostLaunch.ONE_GPU_PER_PROCESS.apply(k));
            assertSame(k, new HostLaunch(1, 4, false).apply(k), "-t 4 -g 1: threads launch side by side");
        }
        assertEquals(0, HostLaunch.ONE_GPU_PER_PROCESS.hostUs());
    }

    @Test
    void eightGpusOnOneThreadAreHostBoundAtSmallSizes() {
        HostLaunch g8 = HostLaunch.gpusPerThread(8);
        // by hand: 8 launches x 4.7 us = 37.6 us per iteration; a 21.7 us kernel hides under it
        PerfEstimate host = g8.apply(kernel(21.7));
        assertEquals(37.6, host.timeUs(), 1e-9);
        assertTrue(host.bottleneck().startsWith("host launch: 8 GPUs per thread x 4.70 us (nccl-tests -g 8)"),
                host.bottleneck());
        // a 100 us kernel is longer than the 37.6 us of launches: the launches overlap it
        PerfEstimate k = kernel(100);
        assertSame(k, g8.apply(k));
        // -t 2 -g 4: each thread launches its 4 GPUs, the threads in parallel: 4 x 4.7 = 18.8 us
        assertEquals(18.8, new HostLaunch(4, 2, false).apply(kernel(10)).timeUs(), 1e-9);
    }

    @Test
    void cudaGraphReplayHasNoPerIterationLaunch() {
        PerfEstimate k = kernel(5);
        assertSame(k, new HostLaunch(8, 1, true).apply(k));
        assertTrue(new HostLaunch(8, 1, true).describe().contains("CUDA graph"));
    }

    @Test
    void countsBelowOneAreRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new HostLaunch(0, 1, false));
        assertTrue(e.getMessage().contains("-g 0"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new HostLaunch(1, 0, false));
    }
}
