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
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Issue 6 scale targets (each under 10 s on 2 cores): the flow backend timing a ring AllReduce (one step pattern,
 * 32,766 identical steps skipped over by symmetry) on 16,384 GPUs of 2,048 DGX H100 hosts, on a rail-optimized
 * fabric and on a 2:1 fat-tree with ECMP. The time includes routing (route caches are built per run) but not
 * building the fabric. AllToAll: {@link FlowAllToAllBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 3)
@Fork(value = 1, jvmArgs = {"-Xmx6g"})
public class FlowScaleBenchmark {

    /** @return timing of a 1 GiB ring AllReduce, 8 channels, on 16,384 GPUs, rail-optimized */
    @Benchmark
    public Timing ringAllReduce16kRailOptimized(Fabrics16k f) {
        return new FlowNetwork().time(FlowBench.alone(f.rail.ringAllReduce()), f.rail.model());
    }

    /** @return timing of a 1 GiB ring AllReduce, 8 channels, on 16,384 GPUs, 2:1 fat-tree */
    @Benchmark
    public Timing ringAllReduce16kFatTree(Fabrics16k f) {
        return new FlowNetwork().time(FlowBench.alone(f.fat.ringAllReduce()), f.fat.model());
    }
}
