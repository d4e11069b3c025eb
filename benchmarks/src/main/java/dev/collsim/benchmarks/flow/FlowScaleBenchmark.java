package dev.collsim.benchmarks.flow;

import dev.collsim.nccl.Collective;
import dev.collsim.simulator.network.FlowNetwork;
import dev.collsim.simulator.network.Job;
import dev.collsim.simulator.network.NetworkModel;
import dev.collsim.simulator.network.Timing;
import dev.collsim.simulator.schedule.RingSchedule;
import dev.collsim.simulator.schedule.Schedule;
import dev.collsim.simulator.schedule.ScheduleRequest;
import dev.collsim.topology.Topology;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
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

    private NetworkModel rail16k;
    private NetworkModel fat16k;
    private Topology railTopo;
    private Topology fatTopo;

    /** Builds the fabrics once. */
    @Setup(Level.Trial)
    public void setup() {
        railTopo = BenchFabrics.railOptimized(2048);
        fatTopo = BenchFabrics.fatTree2to1(2048);
        rail16k = NetworkModel.of(railTopo);
        fat16k = NetworkModel.of(fatTopo);
    }

    private static Timing ring(NetworkModel m, Topology t) {
        Schedule s = new RingSchedule().schedule(new ScheduleRequest(Collective.ALL_REDUCE, 1L << 30, 16384, 8, 8));
        return new FlowNetwork().time(List.of(new Job("ar", s, t.gpus(), 0)), m);
    }

    /** @return timing of a 1 GiB ring AllReduce, 8 channels, on 16,384 GPUs, rail-optimized */
    @Benchmark
    public Timing ringAllReduce16kRailOptimized() {
        return ring(rail16k, railTopo);
    }

    /** @return timing of a 1 GiB ring AllReduce, 8 channels, on 16,384 GPUs, 2:1 fat-tree */
    @Benchmark
    public Timing ringAllReduce16kFatTree() {
        return ring(fat16k, fatTopo);
    }

}
