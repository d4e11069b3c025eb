package dev.collsim.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.collsim.simulator.perf.PerfEstimate;
import org.junit.jupiter.api.Test;

/**
 * One benchmark iteration with G GPUs per thread: max(kernel, G x per-GPU host time), for G = 1 as well, plus for G
 * above 1 the first call's launch skew over the timed calls, min(kernel, G x host) / n (nccl-tests BenchTime).
 */
class HostLaunchTest {

    private static PerfEstimate kernel(double us) {
        return new PerfEstimate(us, 2, us, 100, "latency: " + us + " us");
    }

    @Test
    void oneGpuPerThreadIsAFloorOfOneLaunch() {
        // -g 1: the host's 4.4 us per iteration overlaps every kernel longer than it (2 H200s, one process each:
        // 9.34-10.43 us at 8-512 B, data/device/h200x2-2proc-2026-11-29/run4/2proc-all_reduce.rank0.txt, is the GPUs')
        for (double us : new double[] {4.4, 6.5, 44.8, 1e6}) {
            PerfEstimate k = kernel(us);
            assertSame(k, HostLaunch.ONE_GPU_PER_PROCESS.apply(k));
            assertSame(k, new HostLaunch(1, 4, false).apply(k), "-t 4 -g 1: threads launch side by side");
        }
        assertEquals(4.4, HostLaunch.ONE_GPU_PER_PROCESS.hostUs(), 1e-12);
        // a kernel shorter than one launch (one rank's local copy) takes the host's time: one H200 alone measured
        // 6.12-6.89 us from 8 B to 8 MiB (../shared/device/nccl-tests-all_reduce-1gpu.txt), above 4.4
        PerfEstimate copy = HostLaunch.ONE_GPU_PER_PROCESS.apply(kernel(0.1));
        assertEquals(4.4, copy.timeUs(), 1e-12);
        assertTrue(copy.bottleneck().startsWith("host launch: 1 GPU per thread x 4.40 us (nccl-tests -g 1)"),
                copy.bottleneck());
    }

    @Test
    void eightGpusOnOneThreadAreHostBoundAtSmallSizes() {
        HostLaunch g8 = HostLaunch.gpusPerThread(8);
        // by hand: 8 launches x 4.4 us = 35.2 us per iteration; a 21.7 us kernel hides under it, and the last of the
        // 20 timed calls runs after the last launch: (20 x 35.2 + 21.7) / 20 = 36.285 us
        PerfEstimate host = g8.apply(kernel(21.7));
        assertEquals(36.285, host.timeUs(), 1e-9);
        assertTrue(host.bottleneck().startsWith("host launch: 8 GPUs per thread x 4.40 us (nccl-tests -g 8)"),
                host.bottleneck());
        assertTrue(host.bottleneck().endsWith("+ 1.09 us first-call launch skew over 20 calls"), host.bottleneck());
        // a 100 us kernel is longer than the 35.2 us of launches: the launches overlap it, and only the first call
        // waits for the eighth launch: (35.2 + 20 x 100) / 20 = 101.76 us, the kernel's bottleneck kept
        PerfEstimate k = g8.apply(kernel(100));
        assertEquals(101.76, k.timeUs(), 1e-9);
        assertEquals(101.76, k.latencyUs(), 1e-9);
        assertEquals("latency: 100.0 us", k.bottleneck());
        // -t 2 -g 4: each thread launches its 4 GPUs, the threads in parallel: 4 x 4.4 = 17.6 us, + 10 / 20
        assertEquals(18.1, new HostLaunch(4, 2, false).apply(kernel(10)).timeUs(), 1e-9);
    }

    @Test
    void fewTimedCallsCarryMoreOfTheFirstCallsSkew() {
        // nccl-tests -g 8 -n 2 (the '# nThread 1 nGpus 8 ... iters: 2' line of the 1x8 H100 run in
        // A-allreduce-1x8-and-2x8xH100-ndr-issue-nccltests290.txt): (35.2 + 2 x 577.12) / 2 = 594.72 us
        HostLaunch n2 = HostLaunch.gpusPerThread(8).withIterations(2);
        assertEquals(17.6, n2.fillUs(577.12), 1e-9);
        assertEquals(594.72, n2.apply(kernel(577.12)).timeUs(), 1e-9);
        // -m 4 with -n 20 is 80 timed calls: 35.2 / 80 = 0.44 us
        assertEquals(0.44, new HostLaunch(8, 1, false, 80).fillUs(1000), 1e-12);
        // one GPU per thread: no skew of its own to carry (the launcher's barrier spread is not modelled)
        assertEquals(0, HostLaunch.ONE_GPU_PER_PROCESS.withIterations(2).fillUs(100), 0);
    }

    @Test
    void cudaGraphReplayHasNoPerIterationLaunch() {
        PerfEstimate k = kernel(5);
        assertSame(k, new HostLaunch(8, 1, true).apply(k));
        assertTrue(new HostLaunch(8, 1, true).describe().contains("CUDA graph"));
    }

    @Test
    void blockingCallsOverlapNothing() {
        // nccl-tests -z: each call's launches, then the launch and completion round trip, then the kernel; by hand
        // with 4.4 us a launch and the probe's 3.3 us (the median of NCCL's ten one-rank round trips on two lent
        // H100s, data/device/h100-blocking.txt 2.475, 2.414, 2.784, 3.244, 3.488 and h100-blocking-2.txt 3.243,
        // 3.277, 3.381, 3.304, 3.349: (3.244 + 3.277) / 2 = 3.26, to 0.1 us):
        // -g 8, a 16 us kernel: 8 x 4.4 + 3.3 + 16 = 54.5 us (non-blocking: 35.2 + 16 / 20 = 36.0)
        HostLaunch g8 = HostLaunch.gpusPerThread(8);
        assertEquals(36.0, g8.apply(kernel(16)).timeUs(), 1e-9);
        PerfEstimate z = g8.withBlocking(true).apply(kernel(16));
        assertEquals(54.5, z.timeUs(), 1e-9);
        assertEquals(54.5, z.latencyUs(), 1e-9);
        assertTrue(z.bottleneck().startsWith("blocking calls (nccl-tests -z): 8 GPUs per thread x 4.40 us"),
                z.bottleneck());
        // no first-call skew to spread: every call pays its launches whole
        assertEquals(0, g8.withBlocking(true).fillUs(16), 0);
        // -g 1 (one process a GPU), a 16 us kernel: 4.4 + 3.3 + 16 = 23.7 us where the non-blocking run hides the
        // launch under the kernel (16 us); a 100 us kernel keeps its bottleneck: 107.7 us
        assertEquals(23.7, HostLaunch.ONE_GPU_PER_PROCESS.withBlocking(true).apply(kernel(16)).timeUs(), 1e-9);
        PerfEstimate longK = HostLaunch.ONE_GPU_PER_PROCESS.withBlocking(true).apply(kernel(100));
        assertEquals(107.7, longK.timeUs(), 1e-9);
        assertEquals("latency: 100.0 us", longK.bottleneck());
        // -n and -m do not change a blocking call; a CUDA graph replay has no per-call launch, blocking or not
        assertEquals(54.5, g8.withIterations(2).withBlocking(true).apply(kernel(16)).timeUs(), 1e-9);
        PerfEstimate k = kernel(5);
        assertSame(k, new HostLaunch(8, 1, true, 20, true).apply(k));
        assertTrue(g8.withBlocking(true).describe().contains("blocking calls (nccl-tests -z)"),
                g8.withBlocking(true).describe());
    }

    @Test
    void countsBelowOneAreRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new HostLaunch(0, 1, false));
        assertTrue(e.getMessage().contains("-g 0"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new HostLaunch(1, 0, false));
        IllegalArgumentException n = assertThrows(IllegalArgumentException.class, () -> new HostLaunch(8, 1, false, 0));
        assertTrue(n.getMessage().contains("iterations 0"), n.getMessage());
    }
}
