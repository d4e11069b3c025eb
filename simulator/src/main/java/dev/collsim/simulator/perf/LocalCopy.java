package dev.collsim.simulator.perf;

import dev.collsim.hardware.GpuModel;
import dev.collsim.hardware.GpuModels;
import dev.collsim.nccl.BusBandwidth;
import dev.collsim.topology.Gpu;

/**
 * A collective on one rank, which NCCL runs as a local copy: launch overhead plus the bytes at the copy rate
 * {@link PerformanceParameters#localCopyGBps}, measured on an H200 and scaled by the GPU's memory bandwidth
 * ({@link #scale}). Stateless.
 */
public final class LocalCopy {

    /**
     * Memory bandwidth of the GPU {@code localCopyGBps} was measured on, GB/s: the H200 SXM's 4,800 (the GPU database,
     * NVIDIA H200 datasheet: 4.8 TB/s).
     */
    private static final double COPY_REFERENCE_MEMORY_GBPS = GpuModels.sku("H200-SXM-141GB").orElseThrow().variant()
            .memoryGBps();

    private LocalCopy() {
    }

    /**
     * The one-rank copy rate relative to the H200 that {@code localCopyGBps} was measured on: a copy reads and writes
     * device memory, so it scales with the GPU's memory bandwidth (datasheet figure in {@link GpuModels}).
     *
     * @param g the rank's GPU
     * @return its memory bandwidth over the H200's 4,800 GB/s; 1 for a GPU the database does not know
     */
    public static double scale(Gpu g) {
        return GpuModels.sku(g.model()).map(k -> k.variant().memoryGBps())
                .or(() -> GpuModels.find(g.model()).map(GpuModel::memoryGBps))
                .filter(bw -> bw > 0).map(bw -> bw / COPY_REFERENCE_MEMORY_GBPS).orElse(1.0);
    }

    /**
     * @param pp    the performance parameters
     * @param scale the GPU's copy rate over the H200's ({@link #scale})
     * @param bytes bytes copied
     * @return launch overhead + bytes / (localCopyGBps x scale), microseconds; one channel
     */
    public static PerfEstimate estimate(PerformanceParameters pp, double scale, long bytes) {
        double copyGBps = pp.localCopyGBps() * scale;
        double t = pp.launchOverheadUs() + BusBandwidth.timeUs(bytes, copyGBps);
        return new PerfEstimate(t, 1, pp.launchOverheadUs(), copyGBps, "one rank: local copy");
    }
}
