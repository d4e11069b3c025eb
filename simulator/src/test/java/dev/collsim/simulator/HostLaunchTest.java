package dev.collsim.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.simulator.perf.PerfEstimate;
import org.junit.jupiter.api.Test;

/** One benchmark iteration with G GPUs per thread: max(kernel, G x per-GPU host time), for G = 1 as well. */
class HostLaunchTest {

    private static PerfEstimate kernel(double us) {
        return new PerfEstimate(us, 2, us, 100, "latency: " + us + " us");
    }

    @Test
    void oneGpuPerThreadIsAFloorOfOneLaunch() {
        // -g 1: the host's 4.7 us per iteration overlaps every kernel longer than it (2 H200s, one process each:
        // 9.34-10.43 us at 8-512 B, data/device/h200x2-2proc-2026-11-29/run4/2proc-all_reduce.rank0.txt, is the GPUs')
        for (double us : new double[] {4.7, 6.5, 44.8, 1e6}) {
            PerfEstimate k = kernel(us);
            assertSame(k, HostLaunch.ONE_GPU_PER_PROCESS.apply(k));
            assertSame(k, new HostLaunch(1, 4, false).apply(k), "-t 4 -g 1: threads launch side by side");
        }
        assertEquals(4.7, HostLaunch.ONE_GPU_PER_PROCESS.hostUs(), 1e-12);
        // a kernel shorter than one launch (one rank's local copy) takes the host's time: one H200 alone measured
        // 6.12-6.89 us from 8 B to 8 MiB (../shared/device/nccl-tests-all_reduce-1gpu.txt), above 4.7
        PerfEstimate copy = HostLaunch.ONE_GPU_PER_PROCESS.apply(kernel(0.1));
        assertEquals(4.7, copy.timeUs(), 1e-12);
        assertTrue(copy.bottleneck().startsWith("host launch: 1 GPU per thread x 4.70 us (nccl-tests -g 1)"),
                copy.bottleneck());
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
