package dev.collsim.benchmarks.flow;

import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The two 16,384-GPU fabrics (2,048 DGX H100 hosts, {@link BenchFabrics}) the 16k flow benchmarks time, built and
 * indexed once per trial, outside the timed part: a JMH state that {@link FlowScaleBenchmark} and
 * {@link FlowAllToAll16kBenchmark} take as a benchmark argument.
 */
@State(Scope.Benchmark)
public class Fabrics16k {

    /** DGX H100 hosts of 8 GPUs: 16,384 GPUs. */
    static final int HOSTS = 2048;

    /** Rail-optimized fabric (rail leaves, per-rail spines). */
    FlowBench rail;
    /** 2:1 fat-tree (512 leaves, 16 spines), ECMP. */
    FlowBench fat;

    /** Builds the fabrics once. */
    @Setup(Level.Trial)
    public void setup() {
        rail = FlowBench.of(FlowBench.Fabric.RAIL_OPTIMIZED, HOSTS);
        fat = FlowBench.of(FlowBench.Fabric.FAT_TREE_2TO1, HOSTS);
    }
}
