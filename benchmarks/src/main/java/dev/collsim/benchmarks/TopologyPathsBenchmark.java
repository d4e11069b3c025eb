package dev.collsim.benchmarks;

import dev.collsim.topology.Gpu;
import dev.collsim.topology.Nic;
import dev.collsim.topology.Topology;
import dev.collsim.topology.catalog.Catalog;
import dev.collsim.topology.fabric.ClusterSpec;
import dev.collsim.topology.fabric.FabricKind;
import dev.collsim.topology.fabric.FabricSpec;
import dev.collsim.topology.paths.HostPaths;
import dev.collsim.topology.paths.PathFinder;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Issue 2 target: NCCL paths for a 1,024-host x 8-GPU cluster (DGX H100, rail-optimized 400 Gb/s) when only
 * intra-host paths and GPU-to-NIC paths are needed: building the topology, then every host's path table (GPU-GPU,
 * GPU-NIC, NIC-GPU), then one cross-fabric GPU-GPU path.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2)
@Measurement(iterations = 3)
@Fork(1)
public class TopologyPathsBenchmark {

    /** Hosts in the cluster. */
    @Param({"1024"})
    public int hosts;

    private Topology topology;

    /** Builds the cluster once per trial. */
    @Setup
    public void setUp() {
        topology = build(hosts);
    }

    static Topology build(int hosts) {
        return new ClusterSpec("bench", "", Catalog.dgxH100(), hosts, FabricSpec.of(FabricKind.RAIL_OPTIMIZED))
                .build();
    }

    /** @param bh sink; builds the whole 1,024-host topology (devices, links, fabric). */
    @Benchmark
    public void buildCluster(Blackhole bh) {
        bh.consume(build(hosts));
    }

    /** @param bh sink; every host's GPU-GPU and GPU-NIC paths on a fresh PathFinder. */
    @Benchmark
    public void allHostPaths(Blackhole bh) {
        PathFinder pf = PathFinder.of(topology);
        for (int h = 0; h < hosts; h++) {
            HostPaths hp = pf.host(h);
            for (Gpu g : hp.gpus()) {
                for (Nic n : hp.nics()) {
                    bh.consume(hp.path(g, n));
                }
            }
        }
    }

    /** @param bh sink; one GPU-GPU path across the fabric (first and last host), including both host tables. */
    @Benchmark
    public void oneCrossFabricPath(Blackhole bh) {
        bh.consume(PathFinder.of(topology).path("h0/gpu0", "h" + (hosts - 1) + "/gpu7"));
    }
}
