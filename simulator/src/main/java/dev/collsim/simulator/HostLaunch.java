package dev.collsim.simulator;

import static dev.collsim.units.DecimalText.fixed;

import dev.collsim.simulator.perf.PerfEstimate;

/**
 * How one benchmark process drives its ranks (nccl-tests {@code -t} threads of {@code -g} GPUs each), and the host
 * time that puts under each iteration. Immutable.
 *
 * <p>What the host does, per iteration: nccl-tests 2.19.6 {@code src/common.cu startColl} opens a group when
 * {@code -g} is above 1, calls the collective once per GPU of the thread, and closes the group; the timed loop
 * ({@code BenchTime}) starts the next iteration without waiting for the GPUs (no stream synchronisation unless
 * {@code -z}), then synchronises once and divides by the iterations. NCCL 2.30.7 {@code src/group.cc doLaunches}
 * then works through the group's communicators one after the other on that thread: for each, {@code cudaSetDevice},
 * {@code ncclLaunchPrepare} (events and stream waits ordering the user stream with NCCL's streams,
 * {@code src/enqueue.cc}), {@code ncclLaunchKernel} ({@code cuLaunchKernelEx}) and {@code ncclLaunchFinish}; the
 * group's {@code ncclPrepareTasks} runs per communicator on the same thread before that ({@code
 * ncclPrepareTasksAndCollPreconnect}, unless NCCL_SINGLE_PROC_MEM_REG_ENABLE). Per call rather than per GPU the
 * thread does only the group's bookkeeping (NCCL 2.18.5 {@code groupLaunch} adds a {@code cudaGetDevice} and the
 * closing {@code cudaSetDevice(savedDev)}); no thread starts after the first call and no barrier runs between the
 * communicators unless NCCL_LAUNCH_MODE=GROUP. So one iteration costs the thread {@code G x hostPerGpuUs}, with no
 * per-call term (one host, FarmShare L40S: -g 2 and -g 4 floors 8.85 and 16.91 us leave at most 0.81 us per call,
 * docs/single-host-guesses.md section 7); threads ({@code -t}) and processes run their launches side by side, so T
 * does not add.
 *
 * <p>The launches are asynchronous, so host and GPUs overlap: iteration k+1's launches run while iteration k's
 * kernels do. In steady state an iteration takes the longer of the two, {@code max(kernelUs, G x hostPerGpuUs)}. This
 * holds for one GPU per thread too (G = 1): its host time, 4.4 us, overlaps the kernel, so it sets the time only where
 * the GPUs finish sooner (one rank, whose call is a local copy: measured 6.1-6.9 us on one H200 alone,
 * ../shared/device/nccl-tests-all_reduce-1gpu.txt, that host's own rate); the GPU-side cost NCCL's latency leaves
 * out is {@code PerformanceParameters.launchOverheadUs}. With CUDA graphs ({@code -G}) nccl-tests replays the
 * captured iterations with one {@code cudaGraphLaunch} per GPU for all of them, so the per-iteration host time
 * vanishes.
 *
 * <p>Launch skew, once per timed run ({@link #fillUs}): a collective runs when its LAST rank's kernel has started,
 * and one thread starts its G kernels one after the other. nccl-tests' {@code BenchTime} starts its host timer with
 * the GPUs idle (after the warm-up call's {@code completeColl} and a {@code Barrier}), launches {@code iters x
 * agg_iters} calls without waiting, then waits for the streams and divides by {@code iters x agg_iters}. Nothing in
 * the loop waits for the GPUs (no stream synchronisation unless {@code -z}; NCCL 2.19.3 and 2.30.7 {@code
 * doLaunches} take no barrier in the default NCCL_LAUNCH_MODE=PARALLEL, and NCCL 2.19.3 {@code uploadWork} waits
 * for the work FIFO only past {@code NCCL_WORK_FIFO_DEPTH}, 64 Ki entries), so the host runs ahead and the skew of
 * later iterations is hidden under the kernels queued before them. The first call is not: with the GPUs behind
 * (kernelUs above G x hostPerGpuUs) the run costs {@code G x hostPerGpuUs + n x kernelUs}, with the host behind
 * {@code n x G x hostPerGpuUs + kernelUs} (the last call runs after the last launch), so one iteration reads
 * {@code max + min / n}: G x 4.4 / 20 = 1.76 us for -g 8 at nccl-tests' default 20 iterations, 17.6 us with
 * {@code -n 2}. For one GPU per thread the first call waits for the other processes' launches and the launcher's
 * barrier exit spread, which collsim does not know; its own launch over n, 0.22 us at 20 iterations, is left out.
 *
 * <p>Blocking calls ({@code -z 1}, {@code 2} or {@code 3}; nccl-tests 2.19.6 {@code src/common.cu startColl} polls
 * every stream of the thread with {@code cudaStreamQuery} after each call's launches, {@code testStreamSynchronize},
 * and issues the next call only then): nothing overlaps, so every call pays its launches, the launch-to-start and
 * completion-to-detection latency ({@link #BLOCKING_ROUND_TRIP_US}) and its kernel, {@code G x hostPerGpuUs +
 * round trip + kernelUs}, and no first-call skew is left to spread. {@code -z 1} adds a barrier between the threads
 * and processes after each call, which is not priced (nothing for one thread of one process; {@code -z 3} times
 * without it). With {@code -m} above 1 the wait inside the open group finds the previous group's kernels, so each
 * group still waits for the last (how NCCL merges a group's calls into one launch is not modelled: each call is
 * charged as one). With CUDA graphs ({@code -G}) nccl-tests 2.19.6 turns {@code -z 3} off and cannot poll a stream
 * under capture, so a graph replay is charged as one, blocking or not.
 */
public record HostLaunch(int gpusPerThread, int threadsPerProcess, boolean cudaGraph, int iterations,
        boolean blocking) {

    /**
     * Host time one thread spends per GPU of its group in one iteration, microseconds: NCCL's per-communicator
     * enqueue, prepare, kernel launch and finish (see the class comment). No NCCL or CUDA source gives it (it is CPU
     * and driver time). Fitted on the 13 healthy validation datasets ({@code validation/src/test/resources/data})
     * whose file gives {@code -g} above 1 and has sizes below 1 MiB, the regime the floor governs: the value that
     * minimises the sum of each dataset's median error of time below 1 MiB, on a 0.05 us grid from 0 to 12 us.
     * Two files move it: Azure 8x A100 {@code -g 8} (A-allreduce-8xA100-azure-ndv4-nccl2.18-busbw-table.txt, flat
     * 41.9-47.7 us from 1 KiB to 512 KiB = 5.2-6.0 us per GPU, AMD EPYC 7V12 host) pulls it up; Azure 8x H100
     * {@code -g 8} (A-allreduce-8xH100-azure-ndv5-nvls-nccl2.18-busbw-table.txt, Xeon 8480C host: 25.6 us at 1-2 KiB
     * = at most 3.2 us per GPU, although 42.0-44.8 us from 64 KiB to 2 MiB) holds it down; the other 11 have kernel
     * times above G x 4.7 us and do not constrain it. Leave-one-file-out on that objective: without the A100 file the
     * others give 0 (A100 held out: 42.5 % median error below 1 MiB, unchanged), without the H100 file 5.45 us (H100
     * held out: 16.4 -> 37.2 %); with every size in the objective 5.35 us, and held out A100 42.5 -> 3.6 %, H100 16.4
     * -> 36.0 % below 1 MiB. The hosts differ: the 4x RTX PRO 6000 {@code -g 4} run on dual EPYC Turin
     * (A-allreduce-1x4xRTXPRO6000-dual-turin-shm-vs-p2p-nccl2.29-pr2080.txt, 14.3 us at 32 KiB) bounds it to 3.6 us
     * there. One value for every host is a collsim assumption. Re-checked with {@code launchOverheadUs} 1.0 and the
     * 4x GB200 Azure run read as {@code -g 4} (its guide's {@code Benchmarks/NVIDIA/NCCLBandwidth.py}; Grace host,
     * 15.4-17.9 us from 1 KiB to 512 KiB = at most 4.05 us per GPU): the same objective over the same 13 datasets is
     * lowest at 4.40 us, and leaving one file out gives 4.40-4.85 (4.85 without the GB200 file or the 8x H100
     * file). 4.7 lies in that range and is kept: the three files that constrain it disagree by host CPU (Xeon
     * 8480C at most 3.2, Grace at most 4.05, EPYC 7V12 5.2-6.0 us per GPU), a spread ten times the refit's move.
     * No public source gives the launch cost per CPU (searched: NVIDIA's CUDA and NCCL documents, the NCCL issues;
     * none gives a per-processor figure), and each CPU is seen in one file only, so a per-CPU value would be a
     * constant fitted to one file: not made. Nor is it a per-release figure: NCCL 2.18.5, 2.22.3 and 2.29.2 make the
     * same CUDA calls per communicator and iteration (three {@code cudaSetDevice}, two event records, two stream waits,
     * one kernel launch; docs/single-host-guesses.md section 7), and the two Azure hosts ran the same 2.18.5 with the
     * same script 1.6x apart. Re-checked over the 12 files with {@code -g} above 1 and sizes below
     * 1 MiB (the FarmShare L40S runs included), median of |error| below 1 MiB: best at 4.4 summed over datasets, 4.7
     * over files, 4.4 over healthy files; leaving one file out gives 4.4-4.7 (docs/single-host-guesses.md section 7
     * has the per-host bounds: Xeon 8480C at most 3.2, EPYC 7V12 5.2-5.6 us per GPU with the same NCCL 2.18.5).
     * Refitted (4.7 -> 4.4) when the first call's skew ({@link #fillUs}) was added, which lifts every host-bound
     * floor by kernel / n (about 5 % at 20 iterations): over the 32 datasets of the 15 files with {@code -g} above 1
     * and sizes below 1 MiB (all of validation/src/test/resources/data), median of |error| below 1 MiB, on the grid
     * 4.3, 4.4, 4.5 (and 4.7), summed over datasets 362.0, 370.7, 381.8 (408.7), over files (mean of runs) 232.4,
     * 231.1, 230.4 (235.6), over the 10 healthy files 103.6, 103.6, 104.3 (112.3); without the skew, at 4.7: 374.8,
     * 229.1, 103.7. Leaving one healthy file out gives 4.3-4.5 (4.3 without the dkh, thanos, ND A100 v4 or RTX 4090
     * file, 4.5 without the 4x L40S, OCI BM.GPU4.8 or 4x GB200 file); 4.4, the healthy files' best, is the middle.
     * One figure per GPU and call, whatever the call's channel count: a cost per channel (NCCL 2.19.3
     * {@code src/enqueue.cc addCollToPlan} and {@code uploadWork} handle one work element per channel) fits the four
     * {@code -g 8} A100 runs' LL sizes at rates 5.3x apart and breaks the NVLS {@code -g 8} runs, so it is not
     * charged (docs/launch-overhead.md, "A host cost per channel under -g G?"; {@code HostChannelCostDerivationTest}).
     */
    public static final double HOST_PER_GPU_US = 4.4;

    /**
     * Timed calls per run when the file does not say: nccl-tests 2.19.6 {@code src/common.cu}, {@code iters = 20},
     * {@code agg_iters = 1} ({@code -n}, {@code -m}).
     */
    public static final int DEFAULT_ITERATIONS = 20;

    /**
     * What a blocking call (nccl-tests {@code -z}) pays beyond its host launches and its GPU time, microseconds: the
     * time from the launch call's return to the kernel's start and from the kernel's end to the host's poll seeing
     * it, which back-to-back calls hide. Measured by this repository's probe {@code executor/probes/blocking} on two
     * lent H100 machines (VM guests of Intel Xeons, driver 580.159.04; {@code data/device/h100-blocking.txt} and
     * {@code h100-blocking-2.txt}): the median of the ten round trips of NCCL's one-rank {@code ncclAllReduce} of
     * 8 B, 3.26 us (2.41-3.49; per machine 2.78 and 3.30; an empty kernel's 3.50-3.95 us), to 0.1 us. One kind of
     * host: the latency is the platform's (CPU, PCIe, driver).
     */
    public static final double BLOCKING_ROUND_TRIP_US = 3.3;

    /** One GPU per process, one thread: mpirun -np N all_reduce_perf -g 1, collsim's default. */
    public static final HostLaunch ONE_GPU_PER_PROCESS = new HostLaunch(1, 1, false, DEFAULT_ITERATIONS);

    /**
     * @param gpusPerThread     nccl-tests {@code -g}, >= 1
     * @param threadsPerProcess nccl-tests {@code -t}, >= 1
     * @param cudaGraph         whether nccl-tests {@code -G} replays CUDA graphs
     * @param iterations        timed calls per run, {@code iters x agg_iters} (nccl-tests {@code -n}, {@code -m}), >= 1
     * @param blocking          whether each call waits for the GPUs before the next (nccl-tests {@code -z} above 0)
     * @throws IllegalArgumentException when a count is below 1
     */
    public HostLaunch {
        if (gpusPerThread < 1 || threadsPerProcess < 1 || iterations < 1) {
            throw new IllegalArgumentException("GPUs per thread, threads per process and iterations must be >= 1,"
                    + " got -g " + gpusPerThread + " -t " + threadsPerProcess + " iterations " + iterations);
        }
    }

    /**
     * Calls that do not wait for the GPUs (nccl-tests' default, {@code -z 0}).
     *
     * @param gpusPerThread     nccl-tests {@code -g}, >= 1
     * @param threadsPerProcess nccl-tests {@code -t}, >= 1
     * @param cudaGraph         whether nccl-tests {@code -G} replays CUDA graphs
     * @param iterations        timed calls per run, {@code iters x agg_iters}, >= 1
     * @throws IllegalArgumentException when a count is below 1
     */
    public HostLaunch(int gpusPerThread, int threadsPerProcess, boolean cudaGraph, int iterations) {
        this(gpusPerThread, threadsPerProcess, cudaGraph, iterations, false);
    }

    /**
     * @param gpusPerThread     nccl-tests {@code -g}, >= 1
     * @param threadsPerProcess nccl-tests {@code -t}, >= 1
     * @param cudaGraph         whether nccl-tests {@code -G} replays CUDA graphs
     * @throws IllegalArgumentException when a count is below 1
     */
    public HostLaunch(int gpusPerThread, int threadsPerProcess, boolean cudaGraph) {
        this(gpusPerThread, threadsPerProcess, cudaGraph, DEFAULT_ITERATIONS);
    }

    /**
     * @param gpusPerThread nccl-tests {@code -g}, >= 1
     * @return that many GPUs on one thread of one process, no CUDA graph
     */
    public static HostLaunch gpusPerThread(int gpusPerThread) {
        return new HostLaunch(gpusPerThread, 1, false, DEFAULT_ITERATIONS);
    }

    /**
     * @param n timed calls per run ({@code iters x agg_iters}), >= 1
     * @return this launch with that many timed calls
     * @throws IllegalArgumentException when n is below 1
     */
    public HostLaunch withIterations(int n) {
        return new HostLaunch(gpusPerThread, threadsPerProcess, cudaGraph, n, blocking);
    }

    /**
     * @param wait whether each call waits for the GPUs before the next (nccl-tests {@code -z} above 0)
     * @return this launch with that
     */
    public HostLaunch withBlocking(boolean wait) {
        return new HostLaunch(gpusPerThread, threadsPerProcess, cudaGraph, iterations, wait);
    }

    /** @return whether each call's launches, round trip and kernel follow one another (blocking, no graph) */
    private boolean serial() {
        return blocking && !cudaGraph;
    }

    /** @return host time per iteration one thread needs for its launches, microseconds; 0 with a CUDA graph */
    public double hostUs() {
        return cudaGraph ? 0 : gpusPerThread * HOST_PER_GPU_US;
    }

    /**
     * The first call's launch skew spread over the run (class comment): {@code min(kernelUs, G x hostPerGpuUs) / n}
     * for G above 1; 0 for one GPU per thread, with a CUDA graph and for blocking calls (each call pays its whole
     * launch, {@link #apply}).
     *
     * @param kernelUs collsim's estimate of the call on the GPUs, microseconds
     * @return the once-per-run fill per timed call, microseconds
     */
    public double fillUs(double kernelUs) {
        if (cudaGraph || gpusPerThread == 1 || blocking) {
            return 0;
        }
        return Math.min(kernelUs, hostUs()) / iterations;
    }

    /**
     * @param kernel collsim's estimate of the call on the GPUs
     * @return the estimate of one nccl-tests iteration: the longer of the GPUs' time and the host's launches, plus
     *         the first call's launch skew over the run ({@link #fillUs}); the host's launches are named as the
     *         bottleneck where they are the longer. Blocking calls without a graph: the launches, the round trip
     *         ({@link #BLOCKING_ROUND_TRIP_US}) and the GPUs' time added (class comment)
     */
    public PerfEstimate apply(PerfEstimate kernel) {
        double host = hostUs();
        if (serial()) {
            double before = host + BLOCKING_ROUND_TRIP_US;
            String why = before <= kernel.timeUs() ? kernel.bottleneck() : "blocking calls (nccl-tests -z): " + gpus()
                    + " per thread x " + fixed(HOST_PER_GPU_US, 2) + " us of launches + "
                    + fixed(BLOCKING_ROUND_TRIP_US, 1) + " us launch and completion round trip, then "
                    + fixed(kernel.timeUs(), 1) + " us on the GPUs";
            return new PerfEstimate(before + kernel.timeUs(), kernel.channels(), before + kernel.latencyUs(),
                    kernel.algBw(), why);
        }
        double fill = fillUs(kernel.timeUs());
        if (host <= kernel.timeUs()) {
            if (fill == 0) {
                return kernel;
            }
            return new PerfEstimate(kernel.timeUs() + fill, kernel.channels(), kernel.latencyUs() + fill,
                    kernel.algBw(), kernel.bottleneck());
        }
        return new PerfEstimate(host + fill, kernel.channels(), host + fill, kernel.algBw(), "host launch: " + gpus()
                + " per thread x " + fixed(HOST_PER_GPU_US, 2) + " us (nccl-tests -g " + gpusPerThread
                + ") of " + fixed(kernel.timeUs(), 1) + " us on the GPUs" + fillNote(fill));
    }

    private String fillNote(double fill) {
        return fill == 0 ? "" : ", + " + fixed(fill, 2) + " us first-call launch skew over " + iterations + " calls";
    }

    /** @return how the prediction treats the host, for a report's notes */
    public String describe() {
        if (cudaGraph) {
            return "host launch: CUDA graph replay (nccl-tests -G), no per-iteration launch cost";
        }
        if (blocking) {
            return "host launch: blocking calls (nccl-tests -z), " + gpus() + " per thread (nccl-tests -g "
                    + gpusPerThread + "): each call pays " + fixed(hostUs(), 1) + " us of launches and a "
                    + fixed(BLOCKING_ROUND_TRIP_US, 1) + " us round trip before its kernel, nothing overlapping"
                    + " (a barrier after each call, -z 1 between threads or processes, is not priced)";
        }
        return "host launch: " + gpus() + " per thread (nccl-tests -g " + gpusPerThread + "), "
                + fixed(hostUs(), 1) + " us per iteration on the host, overlapping the GPUs"
                + (gpusPerThread == 1 ? "" : "; the first call's launch skew spread over " + iterations
                        + " timed calls");
    }

    private String gpus() {
        return gpusPerThread == 1 ? "1 GPU" : gpusPerThread + " GPUs";
    }
}
