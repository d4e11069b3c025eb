package dev.collsim.benchmarks.flow;

import dev.collsim.simulator.network.FlowNetwork;
import dev.collsim.simulator.network.Timing;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Direct AllToAll (1 GiB per rank, 8 channels, NCCL's p2p rounds 8 in flight) on 16,384 GPUs (2,048 DGX H100
 * hosts, {@link BenchFabrics}), ECMP, PXN: 2,048 steps of 131,072 transfers, 268 M flows. Timed by the flow backend
 * with step sampling ({@code FlowNetwork(false, 3, window, stepSamples)}): {@code stepSamples} steps are simulated,
 * each alone on the fabric, and the time is estimated from them with a stated error bound
 * ({@link Timing#makespanBoundUs()}: the sampling's, {@link Timing#samplingBoundUs()}, plus the window's,
 * {@link Timing#windowBoundUs()}). Each step is simulated with the completion window {@code window} (0.05 by
 * default): exactly (window 0), one step of 131,072 ECMP flows has so many distinct finish times that it alone ran
 * over 6 minutes on the shared machine (load average about 20). Target: under 60 s on the 2-core development
 * machine. The time includes routing (each sampled step's 131,072 transfers) but not building the fabric. {@code -p stepSamples=N -p window=W} change them.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 3)
@Fork(value = 1, jvmArgs = {"-Xmx6g"})
public class FlowAllToAll16kBenchmark {

    /** Steps simulated out of 2,048. */
    @Param({"32"})
    public int stepSamples;

    /** Completion window of each simulated step (0 = exact). */
    @Param({"0.05"})
    public double window;

    private Timing allToAll(FlowBench f) {
        return new FlowNetwork(false, 3, window, stepSamples).time(FlowBench.alone(f.directAllToAll()), f.model());
    }

    /** @return timing of the AllToAll on the rail-optimized fabric (rail leaves, per-rail spines) */
    @Benchmark
    public Timing allToAll16kRailOptimized(Fabrics16k f) {
        return allToAll(f.rail);
    }

    /** @return timing of the AllToAll on the 2:1 fat-tree (512 leaves, 16 spines) */
    @Benchmark
    public Timing allToAll16kFatTree(Fabrics16k f) {
        return allToAll(f.fat);
    }
}
