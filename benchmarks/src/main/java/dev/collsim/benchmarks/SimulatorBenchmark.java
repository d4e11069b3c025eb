package dev.collsim.benchmarks;

import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.RedOp;
import dev.collsim.simulator.NcclPredictor;
import dev.collsim.simulator.PredictionRequest;
import dev.collsim.simulator.channel.ChannelPlan;
import dev.collsim.simulator.channel.ChannelSearch;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.tuning.NcclVersion;
import dev.collsim.topology.Gpu;
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.Catalog;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Speed of the analytical model (the README's "Speed" section; {@code benchmarks/run-speed.sh} runs it): a full sweep
 * of all nine collectives over 8 B .. 16 GiB in x2 steps (32 sizes, 288 points) on 8 GPUs (target < 1 ms) and on
 * 16,384 hosts x 8 GPUs = 131,072 ranks (target < 50 ms), each with a fresh predictor, so the channel search and
 * NCCL's cost table are included; NCCL's paths of a host are kept with the topology once computed
 * ({@code PathFinder.of}), as in any run that predicts more than once on a cluster. The same 8-GPU sweep on a cluster
 * built for it ({@link #sweepAllCollectives8GpusNewCluster}) includes building the topology and its paths, as a
 * one-off {@code collsim predict} does. And the channel search alone on 1,024 hosts (< 1 s).
 * Run: {@code benchmarks/run-speed.sh}, or {@code mvn -q -B -Pbench -DskipTests package -pl benchmarks -am;
 * java -jar benchmarks/target/benchmarks.jar SimulatorBenchmark -wi 2 -i 3 -f 1}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx6g"})
@State(Scope.Benchmark)
public class SimulatorBenchmark {

    private Topology eightGpus;
    private List<Gpu> eightRanks;
    private Topology largeCluster;
    private List<Gpu> largeRanks;
    private Topology searchCluster;
    private List<Gpu> searchRanks;

    /** Builds the clusters once: one DGX H100, 16,384 DGX H100, 1,024 DGX H100. */
    @Setup(Level.Trial)
    public void setUp() {
        eightGpus = Catalog.standalone(Catalog.dgxH100(), 1);
        eightRanks = List.copyOf(eightGpus.gpus());
        largeCluster = Catalog.standalone(Catalog.dgxH100(), 16_384);
        largeRanks = List.copyOf(largeCluster.gpus());
        searchCluster = Catalog.standalone(Catalog.dgxH100(), 1_024);
        searchRanks = List.copyOf(searchCluster.gpus());
    }

    private static void sweep(Topology t, List<Gpu> ranks, Blackhole bh) {
        NcclPredictor p = new NcclPredictor();
        for (Collective c : Collective.values()) {
            for (long s = 8; s <= (16L << 30); s *= 2) {
                bh.consume(p.predict(new PredictionRequest(t, ranks, c, s, DataType.FLOAT, RedOp.SUM, NcclSettings.DEFAULTS)));
            }
        }
    }

    /** @param bh sink; all collectives, 8 B .. 16 GiB x2, 8 GPUs, search included */
    @Benchmark
    public void sweepAllCollectives8Gpus(Blackhole bh) {
        sweep(eightGpus, eightRanks, bh);
    }

    /** @param bh sink; all collectives, 8 B .. 16 GiB x2, on a DGX H100 built for this call (topology and paths) */
    @Benchmark
    public void sweepAllCollectives8GpusNewCluster(Blackhole bh) {
        Topology t = Catalog.standalone(Catalog.dgxH100(), 1);
        sweep(t, List.copyOf(t.gpus()), bh);
    }

    /** @param bh sink; all collectives, 8 B .. 16 GiB x2, 16,384 hosts x 8 GPUs, search included */
    @Benchmark
    public void sweepAllCollectives16384Hosts(Blackhole bh) {
        sweep(largeCluster, largeRanks, bh);
    }

    /** @return the channel plan of 1,024 DGX H100 hosts (8,192 ranks) */
    @Benchmark
    public ChannelPlan channelSearch1024Hosts() {
        return ChannelSearch.search(searchCluster, searchRanks, NcclSettings.DEFAULTS, NcclVersion.DEFAULT);
    }
}
