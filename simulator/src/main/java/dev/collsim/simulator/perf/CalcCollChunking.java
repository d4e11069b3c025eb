package dev.collsim.simulator.perf;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.NcclDevice;
import dev.collsim.nccl.Protocol;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.channel.NvlsTuning;

/**
 * NCCL's chunk of a collective by algorithm and protocol, before any size-dependent cut (fact sheet §3.3; NCCL
 * 2.30.7 {@code src/enqueue.cc calcCollChunking}, lines 2222-2227): {@code stepSize = buffSizes[protocol] /
 * NCCL_STEPS}; Ring/Simple takes {@code chunkSteps} steps ({@code ALLREDUCE_CHUNKSTEPS}, {@code ALLGATHER_CHUNKSTEPS},
 * {@code REDUCESCATTER_CHUNKSTEPS} = NCCL_STEPS / 2 = 4, {@code BROADCAST_CHUNKSTEPS} and the rest 1,
 * {@code src/include/collectives.h}), every other algorithm/protocol one; LL keeps half a step (its 8-byte flag per
 * 8 bytes of data), LL128 15 of each 16 words ({@code NCCL_LL128_DATAELEMS / NCCL_LL128_LINEELEMS}). NVLS and
 * NVLSTree take the NVLS chunk, {@code NCCL_NVLS_CHUNKSIZE}'s default 128 KiB ({@code src/transport/nvls.cc}); the
 * size steps NCCL applies to it are {@link NvlsLoop#chunk}'s. With the default buffers (NCCL_BUFFSIZE 4 MiB,
 * NCCL_LL_BUFFSIZE 512 KiB, NCCL_LL128_BUFFSIZE 4,915,200 bytes, {@code src/init.cc}): Ring/Simple AllReduce 2 MiB,
 * other Simple 512 KiB, LL 32 KiB, LL128 576,000 bytes.
 *
 * <p>Stateless.
 */
public final class CalcCollChunking {

    private CalcCollChunking() {
    }

    /**
     * The protocol chunk in bytes (NCCL 2.30.7 {@code src/enqueue.cc calcCollChunking}, {@code src/init.cc}).
     *
     * @param a    NCCL's algorithm
     * @param p    NCCL's protocol
     * @param func the collective (Ring/Simple: its chunk steps)
     * @param s    NCCL settings (the protocol's buffer)
     * @return bytes
     */
    public static long chunk(Algorithm a, Protocol p, Collective func, NcclSettings s) {
        if (a == Algorithm.NVLS || a == Algorithm.NVLS_TREE) {
            return NvlsTuning.DEFAULT_CHUNK;
        }
        return switch (p) {
            case LL, LL128 -> NcclDevice.stepDataBytes(p, s.stepBytes(p));
            case SIMPLE -> {
                long step = s.stepBytes(p);
                boolean ringFour = a == Algorithm.RING && (func == Collective.ALL_REDUCE
                        || func == Collective.ALL_GATHER || func == Collective.REDUCE_SCATTER);
                yield ringFour ? step * 4 : step;
            }
        };
    }
}
