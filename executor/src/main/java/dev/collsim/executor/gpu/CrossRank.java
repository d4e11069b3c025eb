package dev.collsim.executor.gpu;

import static dev.collsim.executor.gpu.Native.cuda;
import static dev.collsim.executor.gpu.Native.nccl;

import java.util.Arrays;
import org.bytedeco.cuda.global.cudart;
import org.bytedeco.cuda.global.nccl;
import org.bytedeco.javacpp.DoublePointer;

/**
 * Barriers and reductions of host values across the ranks of several processes, done with NCCL itself on an
 * 8-byte scratch buffer (nccl-tests uses MPI for this; collsim needs no MPI). With all ranks in one process
 * they are no-ops.
 */
final class CrossRank {

    private final GpuContext ctx;
    private final boolean needed;
    private final DoublePointer host = new DoublePointer(1);

    CrossRank(GpuContext ctx) {
        this.ctx = ctx;
        this.needed = ctx.nRanks > ctx.localRanks();
    }

    /** Waits until every rank got here (an 8-byte AllReduce and a stream sync). */
    void barrier() {
        if (needed) {
            allReduce(new double[ctx.localRanks()], nccl.ncclSum);
        }
    }

    /**
     * nccl-tests' {@code Allreduce(args, &deltaSec, average)}: 0 rank 0's value, 1 the mean, 2 the minimum,
     * 3 the maximum over ranks.
     *
     * @param seconds this process's time
     * @param mode    -a value
     * @return the combined time
     */
    double reduceTime(double seconds, int mode) {
        if (!needed) {
            return seconds;
        }
        double[] v = new double[ctx.localRanks()];
        Arrays.fill(v, seconds);
        return switch (mode) {
            case 0 -> {
                if (ctx.firstRank != 0) {
                    Arrays.fill(v, 0);
                } else {
                    for (int i = 1; i < v.length; i++) {
                        v[i] = 0;
                    }
                }
                yield allReduce(v, nccl.ncclSum);
            }
            case 2 -> allReduce(v, nccl.ncclMin);
            case 3 -> allReduce(v, nccl.ncclMax);
            default -> allReduce(v, nccl.ncclSum) / ctx.nRanks;
        };
    }

    /**
     * @param local this process's count (already summed over its local ranks)
     * @return the sum over all processes
     */
    long sumLong(long local) {
        if (!needed) {
            return local;
        }
        double[] v = new double[ctx.localRanks()];
        v[0] = local;
        return Math.round(allReduce(v, nccl.ncclSum));
    }

    private double allReduce(double[] perLocalRank, int op) {
        int n = ctx.localRanks();
        for (int i = 0; i < n; i++) {
            cuda(cudart.cudaSetDevice(ctx.devices[i]), "cudaSetDevice");
            host.put(0, perLocalRank[i]);
            // on the rank's own stream: a plain cudaMemcpy from pageable memory may return before the DMA lands
            // (CUDA runtime API, "API synchronization behavior"), and the non-blocking stream the reduction runs on
            // does not wait for it; a stream-ordered copy is done before the reduction reads it
            cuda(cudart.cudaMemcpyAsync(ctx.scratch[i], host, 8, cudart.cudaMemcpyHostToDevice, ctx.streams[i]),
                    "cudaMemcpyAsync");
            cuda(cudart.cudaStreamSynchronize(ctx.streams[i]), "cudaStreamSynchronize");
        }
        nccl(nccl.ncclGroupStart(), "ncclGroupStart");
        for (int i = 0; i < n; i++) {
            nccl(nccl.ncclAllReduce(ctx.scratch[i], ctx.scratch[i], 1, nccl.ncclFloat64, op, ctx.comms[i],
                    ctx.streams[i]), "ncclAllReduce (cross-rank reduction)");
        }
        nccl(nccl.ncclGroupEnd(), "ncclGroupEnd");
        for (int i = 0; i < n; i++) {
            cuda(cudart.cudaStreamSynchronize(ctx.streams[i]), "cudaStreamSynchronize");
        }
        cuda(cudart.cudaSetDevice(ctx.devices[0]), "cudaSetDevice");
        cuda(cudart.cudaMemcpy(host, ctx.scratch[0], 8, cudart.cudaMemcpyDeviceToHost), "cudaMemcpy");
        return host.get(0);
    }
}
