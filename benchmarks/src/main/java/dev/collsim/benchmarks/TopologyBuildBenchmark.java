package dev.collsim.benchmarks;

import dev.collsim.io.InputException;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterLoader;
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
 * Building a large cluster in full the way every command's {@code -c NAMExN} does when it needs every device (topo,
 * flow backend): {@link ClusterLoader#load(String)} of {@code dgx-h100x2048} (2,048 DGX H100 hosts, 16,384 GPUs,
 * rail-optimized fabric), then its graph ({@link Topology#graph()}: hosts of one type are described once and built on
 * first use), devices, links and fabric. {@code LargeClusterBenchmark} times the described cluster's prediction.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 3)
@Fork(1)
public class TopologyBuildBenchmark {

    /** What is passed to {@code -c}. */
    @Param({"dgx-h100x2048"})
    public String cluster;

    /**
     * @return the loaded topology (JMH consumes it)
     * @throws InputException never for the catalog shorthand (it names a catalog host type)
     */
    @Benchmark
    public Topology load() throws InputException {
        Topology t = ClusterLoader.load(cluster);
        t.graph();
        return t;
    }
}
