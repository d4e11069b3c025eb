package dev.collsim.benchmarks.flow;

import dev.collsim.simulator.network.FlowNetwork;
import dev.collsim.simulator.network.Timing;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Direct AllToAll (1 GiB per rank, 8 channels, NCCL's p2p rounds 8 in flight) timed exactly by the flow backend on
 * a 2:1 fat-tree of DGX H100 hosts with ECMP. The default is issue 6's case: 2,048 GPUs (256 hosts; 256 steps of
 * 16,384 transfers, 4.2 M flows, 65,394 rate recomputations), target under 10 s on the 2-core development machine.
 * {@code -p window=0.05} times the opt-in approximation instead; {@code -p hosts=64} a smaller fabric.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 3)
@Fork(value = 1, jvmArgs = {"-Xmx6g"})
public class FlowAllToAllBenchmark {

    /** Hosts of 8 GPUs. */
    @Param({"256"})
    public int hosts;

    /** Completion window of the flow backend (0 = exact). */
    @Param({"0"})
    public double window;

    private FlowBench fabric;

    /** Builds the fabric once. */
    @Setup(Level.Trial)
    public void setup() {
        fabric = FlowBench.of(FlowBench.Fabric.FAT_TREE_2TO1, hosts);
    }

    /** @return the timing of the AllToAll */
    @Benchmark
    public Timing allToAll() {
        return new FlowNetwork(false, 3, window).time(FlowBench.alone(fabric.directAllToAll()), fabric.model());
    }
}
