package dev.collsim.benchmarks;

import dev.collsim.io.InputException;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.FlowChoice;
import dev.collsim.simulator.FlowRequest;
import dev.collsim.simulator.FlowSweep;
import dev.collsim.simulator.NcclPredictor;
import dev.collsim.simulator.Prediction;
import dev.collsim.simulator.PredictionRequest;
import dev.collsim.simulator.network.RankPlacement;
import dev.collsim.simulator.network.RoutingOptions;
import dev.collsim.topology.Topology;
import dev.collsim.topology.io.ClusterLoader;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.List;
import java.util.Locale;
import java.util.Set;
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
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Build and predict a cluster of 1,000 / 10,000 / 100,000 DGX H100 hosts (8,000 / 80,000 / 800,000 ranks, the
 * rail-optimized fabric of {@code -c dgx-h100xN}): {@link ClusterLoader#load(String)}, then an AllReduce of 1 GiB over
 * every GPU through {@link NcclPredictor#predict} (channel search, NCCL's tuning model, collsim's time, physical
 * bound), as {@code collsim predict -c dgx-h100xN allreduce -b 1G -e 1G} does. Hosts of one type are described once
 * (one template host), so neither time nor memory should grow with hosts beyond the rank list.
 *
 * <p>Memory: the fork runs with a 256 MiB heap ({@code -Xmx256m}), so a run that needed the hosts' graph (about
 * 130 KB per host, 13 GB at 100,000 hosts) fails with an OutOfMemoryError instead of reporting a time; after each
 * iteration the heap in use after a full GC, with the last cluster and prediction still reachable, is printed
 * ({@code heap after GC}). Add {@code -prof gc} for bytes allocated per operation.
 *
 * <p>Run: {@code mvn -q -Pbench -DskipTests package -pl benchmarks -am; java -jar benchmarks/target/benchmarks.jar
 * LargeClusterBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2)
@Measurement(iterations = 5)
@Fork(value = 1, jvmArgsAppend = "-Xmx256m")
public class LargeClusterBenchmark {

    /** DGX H100 hosts. */
    @Param({"1000", "10000", "100000"})
    public int hosts;

    private Object keep;

    /**
     * @return the prediction (JMH consumes it)
     * @throws InputException never for the catalog shorthand
     */
    @Benchmark
    public Prediction buildAndPredict() throws InputException {
        Topology t = ClusterLoader.load("dgx-h100x" + hosts);
        Prediction p = new NcclPredictor().predict(new PredictionRequest(t, t.gpus(), Collective.ALL_REDUCE,
                1L << 30, DataType.FLOAT, RedOp.SUM, NcclSettings.DEFAULTS));
        keep = new Object[] {t, p};
        return p;
    }

    /**
     * The flow backend on the same cluster, as {@code collsim predict -c dgx-h100xN --backend flow --nprocs 64
     * allreduce -b 1G -e 1G}: 64 ranks on hosts 0..7; only those hosts, their rail leaves and the spines are built
     * ({@link Topology#withHostsOnly}), so this too must fit the 256 MiB heap at 100,000 hosts.
     *
     * @return the sweep's result (JMH consumes it)
     * @throws InputException never for the catalog shorthand
     */
    @Benchmark
    public FlowSweep.Result buildAndFlow64Ranks() throws InputException {
        Topology t = ClusterLoader.load("dgx-h100x" + hosts);
        FlowRequest r = new FlowRequest(t, t.gpus().subList(0, 64), Collective.ALL_REDUCE, DataType.FLOAT, RedOp.SUM,
                List.of(1L << 30), NcclSettings.DEFAULTS, RankPlacement.CONTIGUOUS, FlowChoice.Override.NONE, false, 0,
                RoutingOptions.DEFAULT, Set.of(), List.of(), true, false, 0, 0, 0, 1);
        FlowSweep.Result res = new FlowSweep(new NcclPredictor()).run(r);
        keep = new Object[] {t, res};
        return res;
    }

    /** Prints the heap in use after a full GC, with the last cluster and its prediction still reachable. */
    @TearDown(Level.Iteration)
    public void heapAfterGc() {
        MemoryMXBean m = ManagementFactory.getMemoryMXBean();
        System.gc();
        System.out.printf(Locale.ROOT, "  heap after GC: %.1f MiB (%d hosts held)%n",
                m.getHeapMemoryUsage().getUsed() / 1048576.0, keep == null ? 0 : hosts);
    }
}
